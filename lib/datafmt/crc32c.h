/* SPDX-License-Identifier: MIT */
/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, as iSCSI, ext4 and
 * SSE 4.2's crc32 instruction compute it): the checksum of the binary
 * format's blocks. Uses the instruction where the CPU has it, else a
 * slicing-by-8 table. wfw_crc32c(0, "123456789", 9) == 0xE3069283.
 */
#ifndef WFW_CRC32C_H
#define WFW_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continue `crc` (0 to start) over n bytes at p. */
uint32_t wfw_crc32c(uint32_t crc, const void *p, size_t n);

/* The table implementation alone (tests compare it with the fast one). */
uint32_t wfw_crc32c_table(uint32_t crc, const void *p, size_t n);

#endif /* WFW_CRC32C_H */
