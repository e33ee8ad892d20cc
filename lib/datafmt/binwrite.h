/* SPDX-License-Identifier: MIT */
/*
 * The binary writer (binwrite.c): rows staged until a block is full (or a
 * flush), then packed and checksummed (binblock.h), so the file only ever
 * grows by whole blocks. On failure the functions return a negative errno
 * and w->out.msg says why, naming the file.
 */
#ifndef WFW_BINWRITE_H
#define WFW_BINWRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <wultfw/plugin.h>

#include "datafmt/out.h"

/* The schema must outlive the writer. */
struct wfw_bin_writer {
	struct wfw_out out;
	const struct wultfw_schema *schema;
	size_t ncols;
	uint32_t block_rows;	/* rows per full block */
	union wultfw_cell *stage;	/* the block being filled, column-major */
	size_t staged;
	uint64_t rows;
	uint64_t data_off;	/* where the blocks start (after the header) */
	size_t header_len;
	bool grows;		/* WFW_BINW_GROWS: rewrite the header at close */
	/* The columns as at open: blocks are encoded by these types, so a
	 * reader thread may change the schema while a block is encoded. */
	struct wultfw_column *types;
	struct wultfw_schema enc;
	uint8_t *colflags;	/* the header's column flags (binfmt.h) */
	char **meta;		/* a copy, for writing the header again */
};

/*
 * Flag of wfw_binw_open() (and wfw_writer_open()): the schema's enum names
 * may grow while writing (a one-pass CSV reader learns them as it goes).
 * The header keeps WFW_BINW_RESERVE spare bytes and is written again at
 * close; if the names outgrow it, close fails with -EOVERFLOW. Column
 * types must not change (the blocks already written follow them). Only
 * without metadata (meta NULL); ignored otherwise.
 */
#define WFW_BINW_GROWS		0x100
#define WFW_BINW_RESERVE	16384

/* meta: key, value, ..., NULL (may be NULL). Writes the header. */
int wfw_binw_open(struct wfw_bin_writer *w, const char *path,
		  const struct wultfw_schema *s, const char *const *meta,
		  int flags);
/* The same into a sink's file (out.h: struct wfw_out_fwd); no GROWS. */
int wfw_binw_open_fwd(struct wfw_bin_writer *w, const char *name,
		      const struct wultfw_schema *s, const char *const *meta,
		      const struct wfw_out_fwd *fwd, void *arg);
/*
 * The longest prefix of p[0..n) made of whole blocks (p starts on one),
 * and in *rows the rows they hold.
 */
size_t wfw_bin_whole(const char *p, size_t n, uint64_t *rows);
int wfw_binw_write(struct wfw_bin_writer *w, const struct wultfw_batch *b);
/*
 * Before the first row: FLOAT column c's integral values are shown as
 * integers (the header's BARE flag, written again in place).
 */
int wfw_binw_set_bare(struct wfw_bin_writer *w, size_t c, bool bare);
/* Seals the rows staged so far into a (short) block and writes it out. */
int wfw_binw_flush(struct wfw_bin_writer *w);
int wfw_binw_close(struct wfw_bin_writer *w);
/* After a failed write: the rows in the whole blocks the file kept, or -1. */
long long wfw_binw_kept(const struct wfw_bin_writer *w);

#endif
