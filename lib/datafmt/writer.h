/* SPDX-License-Identifier: MIT */
/*
 * Writers for the two result formats (csvwrite.h, binwrite.h), used by the
 * csv and binary sinks and by `wultfw convert` (so both produce the same
 * bytes). Both buffer and keep files whole-record on write errors (see
 * out.h). On failure the functions return a negative errno and the
 * message names the file.
 */
#ifndef WFW_WRITER_H
#define WFW_WRITER_H

#include <stdbool.h>
#include <wultfw/plugin.h>

#include "datafmt/binwrite.h"
#include "datafmt/csvwrite.h"

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

#endif /* WFW_WRITER_H */
