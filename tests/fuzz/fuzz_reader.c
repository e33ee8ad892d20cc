// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the result file readers (lib/datafmt): the input
 * becomes a memfd file that wfw_reader_open()/wfw_reader_read() go
 * through to the end. Built twice: FUZZ_BINARY gives every input the
 * binary magic (the binary reader), otherwise inputs that start like the
 * magic are skipped (the CSV reader).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "binfmt.h"
#include "reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A memfd holding prefix + data; its /proc path in path. -1 on failure. */
static int memfd_of(const uint8_t *data, size_t size, const char *prefix,
		    size_t plen, char *path, size_t pathlen)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, prefix, plen) != (ssize_t)plen ||
	    write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

/* Read every row, as wultfw calc does, a small batch at a time. */
static void read_all(const char *path)
{
	struct wfw_reader *r;
	struct wultfw_batch b;
	char err[512];

	if (wfw_reader_open(&r, path, err, sizeof(err)) < 0)
		return;
	if (!wfw_batch_alloc(&b, wfw_reader_schema(r)->ncols, 64)) {
		while (wfw_reader_read(r, &b) > 0)
			b.rows = 0;
		wfw_batch_free(&b);
	}
	wfw_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *prefix = "";
	size_t plen = 0;
	char path[64];
	int fd;

#ifdef FUZZ_BINARY
	if (size < WFW_BIN_MAGIC_LEN || memcmp(data, WFW_BIN_MAGIC, WFW_BIN_MAGIC_LEN)) {
		prefix = WFW_BIN_MAGIC;
		plen = WFW_BIN_MAGIC_LEN;
	}
#else
	if (size && data[0] == (uint8_t)WFW_BIN_MAGIC[0])
		return -1;	/* not a CSV input: keep it out of the corpus */
#endif
	fd = memfd_of(data, size, prefix, plen, path, sizeof(path));
	if (fd < 0)
		return 0;
	read_all(path);
	close(fd);
	return 0;
}
