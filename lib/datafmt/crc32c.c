/* SPDX-License-Identifier: MIT */
/* CRC-32C: SSE 4.2 instruction when present, slicing-by-8 table otherwise. */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "datafmt/crc32c.h"

#define CRC32C_POLY 0x82F63B78u

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* table[k][b]: the CRC of byte b followed by k zero bytes. */
static void table_init(void)
{
	for (uint32_t b = 0; b < 256; b++) {
		uint32_t c = b;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? CRC32C_POLY ^ (c >> 1) : c >> 1;
		table[0][b] = c;
	}
	for (uint32_t b = 0; b < 256; b++)
		for (int k = 1; k < 8; k++)
			table[k][b] = (table[k - 1][b] >> 8) ^
				      table[0][table[k - 1][b] & 0xff];
}

static uint64_t load_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

uint32_t wfw_crc32c_table(uint32_t crc, const void *p, size_t n)
{
	const unsigned char *b = p;

	pthread_once(&table_once, table_init);
	crc = ~crc;
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t v = load_le64(b) ^ crc;

		crc = table[7][v & 0xff] ^ table[6][(v >> 8) & 0xff] ^
		      table[5][(v >> 16) & 0xff] ^ table[4][(v >> 24) & 0xff] ^
		      table[3][(v >> 32) & 0xff] ^ table[2][(v >> 40) & 0xff] ^
		      table[1][(v >> 48) & 0xff] ^ table[0][v >> 56];
	}
	while (n--)
		crc = table[0][(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <nmmintrin.h>

__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t c = ~crc;

	for (; n >= 8; n -= 8, b += 8) {
		uint64_t v;

		memcpy(&v, b, 8);	/* the instruction takes it little-endian */
		c = _mm_crc32_u64(c, v);
	}
	while (n--)
		c = _mm_crc32_u8((uint32_t)c, *b++);
	return ~(uint32_t)c;
}

static uint32_t (*crc32c_impl)(uint32_t, const void *, size_t);
static pthread_once_t impl_once = PTHREAD_ONCE_INIT;

static void impl_pick(void)
{
	crc32c_impl = __builtin_cpu_supports("sse4.2") ? crc32c_sse42
						       : wfw_crc32c_table;
}

uint32_t wfw_crc32c(uint32_t crc, const void *p, size_t n)
{
	pthread_once(&impl_once, impl_pick);
	return crc32c_impl(crc, p, n);
}
#else
uint32_t wfw_crc32c(uint32_t crc, const void *p, size_t n)
{
	return wfw_crc32c_table(crc, p, n);
}
#endif
