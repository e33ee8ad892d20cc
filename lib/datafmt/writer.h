/* SPDX-License-Identifier: MIT */
/*
 * Writers for the two result formats, used by the csv and binary sinks and
 * by `wultfw convert` (so both produce the same bytes). Both buffer and
 * keep files whole-record on write errors (see out.h). On failure the
 * functions return a negative errno and w->out.msg says why, naming the
 * file.
 */
#ifndef WFW_WRITER_H
#define WFW_WRITER_H

#include <stdbool.h>
#include <wultfw/plugin.h>

#include "datafmt/csvfmt.h"
#include "datafmt/out.h"

struct wfw_row_text;

struct wfw_csv_writer {
	struct wfw_out out;
	struct wfw_csvfmt fmt;
	uint64_t rows;
};

/* flags: WFW_OUT_EXCL to refuse an existing file. Writes the header. */
int wfw_csvw_open(struct wfw_csv_writer *w, const char *path,
		  const struct wultfw_schema *s, int flags);
/* The same into a sink's file (out.h: struct wfw_out_fwd); name in messages. */
int wfw_csvw_open_fwd(struct wfw_csv_writer *w, const char *name,
		      const struct wultfw_schema *s,
		      const struct wfw_out_fwd *fwd, void *arg);
/*
 * The longest prefix of p[0..n) made of whole CSV lines (the last newline
 * outside quotes), and in *rows how many.
 */
size_t wfw_csv_whole(const char *p, size_t n, uint64_t *rows);
int wfw_csvw_write(struct wfw_csv_writer *w, const struct wultfw_batch *b);
/*
 * The same, row i printed as text[i] where text[i].n is set (reader.h:
 * wfw_reader_row_texts()), formatted elsewhere; text NULL: every row.
 */
int wfw_csvw_write_text(struct wfw_csv_writer *w, const struct wultfw_batch *b,
			const struct wfw_row_text *text);
/* wfw_csvfmt_rows() with the rows' texts as above (buf as there). */
size_t wfw_csv_rows_text(const struct wfw_csvfmt *f, char *buf,
			 const union wultfw_cell *cells, size_t rows,
			 const struct wfw_row_text *text);
int wfw_csvw_flush(struct wfw_csv_writer *w);
int wfw_csvw_close(struct wfw_csv_writer *w);

/*
 * The binary writer (binwrite.c) stages rows until a block is full (or a
 * flush), then packs and checksums it (binblock.h): the file only ever
 * grows by whole blocks. The schema must outlive the writer.
 */
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

/*
 * One writer interface over both formats, for the file sinks and
 * `wultfw convert`: the format is a small ops table, the buffering,
 * full-disk handling and the count of rows really in the file are the
 * same code for both.
 */
struct wfw_format {
	const char *name;		/* "csv", "binary" */
	const char *rows_word;		/* "rows", "records" (messages) */
	const char *kept_key;		/* info.yml key after a failed write */
	int (*open)(void *impl, const char *path, const struct wultfw_schema *s,
		    const char *const *meta, int flags);
	/* Into a sink's file, which then counts whole rows with `whole`. */
	int (*open_fwd)(void *impl, const char *name,
			const struct wultfw_schema *s, const char *const *meta,
			const struct wfw_out_fwd *fwd, void *arg);
	size_t (*whole)(const char *p, size_t n, uint64_t *rows);
	int (*write)(void *impl, const struct wultfw_batch *b);
	/* Everything written so far handed to the kernel. */
	int (*flush)(void *impl);
	int (*close)(void *impl);
	struct wfw_out *(*out)(void *impl);
	/* Whole rows in the file after a failed write, or -1. */
	long long (*kept)(const void *impl);
};

extern const struct wfw_format wfw_format_csv, wfw_format_binary;

struct wfw_writer {
	const struct wfw_format *fmt;
	union {
		struct wfw_csv_writer csv;
		struct wfw_bin_writer bin;
	} impl;
	uint64_t rows;			/* rows handed to write() */
};

/* meta is for formats that keep it (binary); may be NULL. */
int wfw_writer_open(struct wfw_writer *w, const struct wfw_format *fmt,
		    const char *path, const struct wultfw_schema *s,
		    const char *const *meta, int flags);
/* The same into a sink's file the core opened (out.h: struct wfw_out_fwd). */
int wfw_writer_open_fwd(struct wfw_writer *w, const struct wfw_format *fmt,
			const char *name, const struct wultfw_schema *s,
			const char *const *meta, const struct wfw_out_fwd *fwd,
			void *arg);
/*
 * Before the first row: column c prints integral FLOAT values as integers
 * ("5", not "5.0"), as the CSV read wrote them (wfw_reader_bare_ints());
 * a binary file records it for its own conversions to CSV. 0, or -errno
 * with the message as for the other calls.
 */
int wfw_writer_set_bare(struct wfw_writer *w, size_t c, bool bare);
int wfw_writer_write(struct wfw_writer *w, const struct wultfw_batch *b);
int wfw_writer_flush(struct wfw_writer *w);
int wfw_writer_close(struct wfw_writer *w);
/* Why the last call failed, naming the file. */
const char *wfw_writer_msg(struct wfw_writer *w);
/* After a write error: whole rows the file holds; -1 while healthy. */
long long wfw_writer_kept(const struct wfw_writer *w);

/* For the format writers: the output buffer's usual size, and the error of
 * a batch whose width is not the schema's (-EINVAL, o->msg set). */
#define WFW_WRITER_BUF (1u << 20)
int wfw_writer_bad_batch(struct wfw_out *o, size_t got, size_t want);

#endif /* WFW_WRITER_H */
