/* SPDX-License-Identifier: MIT */
/*
 * What a format's reader implements behind reader.h. readopen.c opens the
 * file and picks the format by content, reader.c calls its ops; a format
 * embeds struct wfw_reader as the first member of its own state.
 */
#ifndef WFW_READER_IMPL_H
#define WFW_READER_IMPL_H

#include <stdbool.h>

#include "datafmt/reader.h"

struct wfw_reader_ops;

/* The part every format shares; reader.c's getters read only this. */
struct wfw_reader {
	const struct wfw_reader_ops *ops;
	char *path;
	char err[512];
	int fd;
	struct wultfw_schema schema;
	uint64_t rows, rows_done, ignored;
	bool salvage;		/* skip damaged parts instead of failing */
	uint64_t damaged;	/* damaged parts skipped */
	uint64_t damaged_rows;	/* their rows, where their headers held */
	bool damaged_rows_unknown;	/* a damaged header hid a count */
	char first_damage[160];	/* "block K at byte N: what" */
	struct wfw_reader_opts opts;
	uint64_t schema_gen;	/* bumped when a column's type changes */
	struct wultfw_batch rowbuf;	/* read_cols for a format without it */
	bool stopped;		/* opts.stop was seen set: no more reads */
	uint64_t first_row;	/* a part's: rows before it (binary, at open) */
};

/* Every read's first check: has opts.stop been set? */
static inline bool wfw_reader_stop_now(struct wfw_reader *r)
{
	if (r->opts.stop && *r->opts.stop)
		r->stopped = true;
	return r->stopped;
}

struct wfw_reader_ops {
	enum wfw_file_format fmt;
	/* Reads parts of a file (wfw_reader_opts.nparts > 1). */
	bool parts;
	/* A zeroed reader of this format (base included), or NULL. */
	struct wfw_reader *(*alloc)(void);
	/* Read the schema from r->fd (a regular file of `size` bytes). */
	int (*open)(struct wfw_reader *r, uint64_t size);
	/* Append rows as wfw_reader_read() promises; the batch is checked. */
	long (*read)(struct wfw_reader *r, struct wultfw_batch *b);
	/*
	 * Optional: the same into a column batch (checked), used when
	 * native_cols(r) says so; else reader.c reads rows and transposes.
	 */
	long (*read_cols)(struct wfw_reader *r, struct wfw_col_batch *b);
	bool (*native_cols)(const struct wfw_reader *r);
	/*
	 * Optional: read_cols is used though native_cols(r) is false (CSV:
	 * no faster than rows for the file, but no transposing after them).
	 */
	bool (*direct_cols)(const struct wfw_reader *r);
	/* Optional: metadata the file carries. */
	const char *(*meta)(const struct wfw_reader *r, const char *key);
	/* Optional: wfw_reader_bare_ints() for column c < ncols. */
	bool (*bare_ints)(const struct wfw_reader *r, size_t c);
	/* Optional: wfw_reader_row_texts() (CSV). */
	const struct wfw_row_text *(*row_texts)(struct wfw_reader *r,
						size_t capacity);
	/* Optional: wfw_reader_use_texts() where the texts need a guard. */
	int (*use_texts)(struct wfw_reader *r, int (*use)(void *arg), void *arg);
	/*
	 * Optional: wfw_reader_first_row() when r->first_row is not known at
	 * open (CSV: counted on request).
	 */
	int (*first_row)(struct wfw_reader *r, uint64_t *first);
	/* Optional: wfw_reader_part_firsts(). */
	int (*part_firsts)(struct wfw_reader *r, unsigned n, uint64_t *first);
	/* Free the format's state and r itself (fd and path are reader.c's). */
	void (*free)(struct wfw_reader *r);
};

/* The formats, for readopen.c to pick from. */
extern const struct wfw_reader_ops wfw_csv_reader_ops;
extern const struct wfw_reader_ops wfw_bin_reader_ops;

/*
 * A directory: an experiment of several CPUs read as one result
 * (readcpu.c, percpu.h); wfw_reader_open_opts()'s contract.
 */
int wfw_percpu_reader_open(struct wfw_reader **rp, const char *path,
			   const struct wfw_reader_opts *opts, char *err,
			   size_t errlen);

/* Set r->err from fmt and return ret. */
int wfw_reader_fail(struct wfw_reader *r, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
