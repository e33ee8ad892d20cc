/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the two reader fuzz targets (fuzz_csv.c, fuzz_binary.c) share: the
 * input as a memfd file, and reading it to the end through reader.h the
 * way wultfw calc does, optionally keeping every cell as its shown value
 * so that two ways of reading one file can be compared.
 */
#ifndef FUZZ_READ_H
#define FUZZ_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

/* A cell as calc sees it, whatever type the column was given. */
struct fuzz_cell {
	uint8_t kind;		/* 0 empty, 1 number, 2 text */
	double v;		/* number: the shown value */
	uint64_t h;		/* text: a hash of the name */
};

/* The outcome of reading a file (or the parts of one) to the end. */
struct fuzz_run {
	int ret;		/* 0: read to the end; else the first error */
	uint64_t rows;		/* rows read */
	bool keep;		/* keep the cells below */
	struct fuzz_cell *cells;
	size_t ncells, cap;
	size_t ncols;
};

/* A memfd holding head[0..hlen) + data[0..size); its /proc path in path. */
int fuzz_memfd(const void *head, size_t hlen, const void *data, size_t size,
	       char *path, size_t pathlen);

/*
 * Open path with opts, read every row in batches of `batch` rows and add
 * them to run. salvage: skip damaged binary blocks. Returns the open's
 * result; a read error goes to run->ret. Aborts when a reader breaks its
 * promises (rows counted differ from rows read, a batch overfilled).
 */
int fuzz_read(const char *path, const struct wfw_reader_opts *opts,
	      size_t batch, bool salvage, struct fuzz_run *run);

/*
 * fuzz_read() through wfw_reader_read_cols(), the columns whose bit
 * (c % 64) is set in want only (the others kept as empty cells), INT
 * columns as doubles when `numbers` (as calc reads them).
 */
int fuzz_read_cols(const char *path, const struct wfw_reader_opts *opts,
		   size_t batch, uint64_t want, bool numbers, struct fuzz_run *run);

/* Make the cells of the columns not in want empty, for fuzz_same(). */
void fuzz_mask(struct fuzz_run *run, uint64_t want);

/* Abort with a message when a and b (both read to the end) differ. */
void fuzz_same(const struct fuzz_run *a, const struct fuzz_run *b,
	       const char *what);

/* Abort unless a and b ended alike and read the same cells, bit for bit. */
void fuzz_same_bits(const struct fuzz_run *a, const struct fuzz_run *b,
		    const char *what);

void fuzz_run_free(struct fuzz_run *run);

#endif
