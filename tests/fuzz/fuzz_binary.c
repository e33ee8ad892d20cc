// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the binary reader (lib/datafmt, format in
 * doc/binary-format.md). Every input gets the magic (prepended when it
 * does not start with it). Then, so that mutations reach the header
 * parser and the block decoder instead of dying at a checksum, the
 * harness recomputes the header's CRC-32 and every block's two CRC-32Cs,
 * walking the blocks by their (mutated) payload lengths; the reader
 * itself is the production code. Two bits of the header's flags field,
 * which readers ignore, steer the harness:
 *   0x8000  keep the checksums as they are (the damage paths);
 *   0x4000  salvage: skip damaged blocks, as convert --salvage does.
 * The file is read whole; without salvage, read to the end, it must give
 * exactly the rows the reader counted at open.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binblock.h"
#include "binfmt.h"
#include "datafmt/crc32c.h"
#include "datafmt/le.h"
#include "fuzz_read.h"

#define FUZZ_KEEP_CRCS	0x8000
#define FUZZ_SALVAGE	0x4000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Block checksums from offset off on (version 2 framing). */
static void fix_blocks(unsigned char *p, size_t n, size_t off)
{
	while (n - off >= WFW_BLK_HDR_LEN) {
		unsigned char *h = p + off;
		size_t len = wfw_get32(h + 4), avail = n - off - WFW_BLK_HDR_LEN;

		wfw_put32(h + 8, wfw_crc32c(0, h + WFW_BLK_HDR_LEN, len < avail ? len : avail));
		wfw_put32(h + 12, wfw_crc32c(0, h, 12));
		if (len > avail)
			return;		/* a cut last block */
		off += WFW_BLK_HDR_LEN + len;
	}
}

/* Checksums of p[0..n) as a writer would have computed them. */
static void fix_crcs(unsigned char *p, size_t n)
{
	size_t hlen;

	if (n < WFW_BIN_FIXED_LEN)
		return;
	hlen = wfw_get32(p + 16);
	if (hlen < WFW_BIN_FIXED_LEN || hlen > n)
		return;
	wfw_put32(p + 32, 0);
	wfw_put32(p + 32, wfw_crc32(0, p, hlen));
	if (wfw_get16(p + 12) == WFW_BIN_VERSION)
		fix_blocks(p, n, hlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t plen = 0, n;
	uint16_t flags = 0;
	unsigned char *buf;
	struct fuzz_run run = { 0 };
	char path[64];
	int fd;

	if (size < WFW_BIN_MAGIC_LEN || memcmp(data, WFW_BIN_MAGIC, WFW_BIN_MAGIC_LEN))
		plen = WFW_BIN_MAGIC_LEN;
	n = plen + size;
	buf = malloc(n ? n : 1);
	if (!buf)
		return 0;
	memcpy(buf, WFW_BIN_MAGIC, plen);
	memcpy(buf + plen, data, size);
	if (n >= WFW_BIN_FIXED_LEN)
		flags = wfw_get16(buf + 14);
	if (!(flags & FUZZ_KEEP_CRCS))
		fix_crcs(buf, n);
	fd = fuzz_memfd(buf, n, "", 0, path, sizeof(path));
	free(buf);
	if (fd < 0)
		return 0;
	fuzz_read(path, &(struct wfw_reader_opts){ 0 }, 64, flags & FUZZ_SALVAGE, &run);
	close(fd);
	return 0;
}
