/* SPDX-License-Identifier: MIT */
/*
 * Reading a result file (API and rules in reader.h) once it is open
 * (readopen.c): the format's reader (csvread.c, binread.c) behind struct
 * wfw_reader_ops, and the helpers callers share.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafmt/reader_impl.h"
#include "stats/moments.h"

int wfw_reader_fail(struct wfw_reader *r, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return ret;
}

/* ---- helpers shared with callers ---- */

int wfw_schema_find(const struct wultfw_schema *s, const char *name)
{
	for (size_t c = 0; c < s->ncols; c++)
		if (s->cols[c].name && !strcmp(s->cols[c].name, name))
			return (int)c;
	return -1;
}

double wfw_cell_value(const struct wultfw_column *col, union wultfw_cell c)
{
	switch (col->type) {
	case WULTFW_COL_INT:
		if (c.i == WULTFW_CELL_EMPTY)
			return NAN;
		return (double)c.i / (col->divisor ? col->divisor : 1);
	case WULTFW_COL_FLOAT:
		return c.f;	/* the empty NaN is a NaN */
	default:
		return (double)c.i;
	}
}

int wfw_batch_alloc(struct wultfw_batch *b, size_t ncols, size_t capacity)
{
	memset(b, 0, sizeof(*b));
	if (ncols && capacity > SIZE_MAX / sizeof(union wultfw_cell) / ncols)
		return -ENOMEM;
	b->cells = malloc(ncols * capacity * sizeof(union wultfw_cell) + 1);
	if (!b->cells)
		return -ENOMEM;
	b->ncols = ncols;
	b->capacity = capacity;
	return 0;
}

void wfw_batch_free(struct wultfw_batch *b)
{
	free(b->cells);
	memset(b, 0, sizeof(*b));
}

int wfw_col_batch_alloc(struct wfw_col_batch *b, size_t ncols, size_t capacity,
			const bool *want)
{
	size_t n = 0;

	memset(b, 0, sizeof(*b));
	for (size_t c = 0; c < ncols; c++)
		n += !want || want[c];
	if (n && capacity > SIZE_MAX / sizeof(union wultfw_cell) / n)
		return -ENOMEM;
	b->col = calloc(ncols ? ncols : 1, sizeof(*b->col));
	b->may_nan = calloc(ncols ? ncols : 1, sizeof(*b->may_nan));
	b->store = malloc(n * capacity * sizeof(union wultfw_cell) + 1);
	if (!b->col || !b->may_nan || !b->store) {
		wfw_col_batch_free(b);
		return -ENOMEM;
	}
	for (size_t c = 0, k = 0; c < ncols; c++)
		if (!want || want[c])
			b->col[c] = b->store + capacity * k++;
	b->ncols = ncols;
	b->capacity = capacity;
	return 0;
}

void wfw_col_batch_free(struct wfw_col_batch *b)
{
	free(b->col);
	free(b->may_nan);
	free(b->store);
	memset(b, 0, sizeof(*b));
}

/* ---- public ---- */

const struct wultfw_schema *wfw_reader_schema(const struct wfw_reader *r)
{
	return &r->schema;
}

enum wfw_file_format wfw_reader_format(const struct wfw_reader *r)
{
	return r->ops->fmt;
}

long wfw_reader_read(struct wfw_reader *r, struct wultfw_batch *b)
{
	if (b->ncols != r->schema.ncols)
		return wfw_reader_fail(r, -EINVAL, "%s: batch has %zu columns, the file %zu",
				       r->path, b->ncols, r->schema.ncols);
	if (b->rows > b->capacity)
		return wfw_reader_fail(r, -EINVAL, "%s: batch overfilled", r->path);
	if (wfw_reader_stop_now(r))
		return 0;
	return r->ops->read(r, b);
}

bool wfw_reader_native_cols(const struct wfw_reader *r)
{
	return r->ops->read_cols && r->ops->native_cols && r->ops->native_cols(r);
}

bool wfw_reader_direct_cols(const struct wfw_reader *r)
{
	return wfw_reader_native_cols(r) ||
	       (r->ops->read_cols && r->ops->direct_cols && r->ops->direct_cols(r));
}

static void cells_to_numbers(union wultfw_cell *d, size_t n)
{
	for (size_t k = 0; k < n; k++)
		d[k].f = d[k].i == WULTFW_CELL_EMPTY
			 ? (union wultfw_cell){ .i = WULTFW_FLOAT_EMPTY_BITS }.f
			 : (double)d[k].i;
}

/* A format without read_cols: a batch of rows, then column by column. */
static long read_transposed(struct wfw_reader *r, struct wfw_col_batch *b)
{
	size_t want = b->capacity - b->rows;
	struct wultfw_batch rb;
	long n;

	if (r->rowbuf.capacity < want) {
		wfw_batch_free(&r->rowbuf);
		if (wfw_batch_alloc(&r->rowbuf, r->schema.ncols, want))
			return wfw_reader_fail(r, -ENOMEM, "%s: out of memory", r->path);
	}
	rb = r->rowbuf;
	rb.capacity = want;
	rb.rows = 0;
	n = r->ops->read(r, &rb);
	for (size_t c = 0; n > 0 && c < b->ncols; c++) {
		union wultfw_cell *d = b->col[c];

		b->may_nan[c] = true;	/* not looked at */
		for (size_t k = 0; d && k < (size_t)n; k++)
			d[b->rows + k] = wultfw_crow(&rb, k)[c];
		if (d && b->numbers && !(b->raw && b->raw[c]) &&
		    r->schema.cols[c].type == WULTFW_COL_INT)
			cells_to_numbers(d + b->rows, (size_t)n);
	}
	if (n > 0)
		b->rows += (size_t)n;
	return n;
}

long wfw_reader_read_cols(struct wfw_reader *r, struct wfw_col_batch *b)
{
	if (b->ncols != r->schema.ncols)
		return wfw_reader_fail(r, -EINVAL, "%s: batch has %zu columns, the file %zu",
				       r->path, b->ncols, r->schema.ncols);
	if (b->rows > b->capacity)
		return wfw_reader_fail(r, -EINVAL, "%s: batch overfilled", r->path);
	if (b->rows == b->capacity || wfw_reader_stop_now(r))
		return 0;
	if (!b->rows)
		memset(b->may_nan, 0, b->ncols * sizeof(*b->may_nan));
	for (size_t c = 0; b->sums && c < b->ncols; c++)
		b->sums[c].ok = false;	/* until a reader says otherwise */
	return wfw_reader_direct_cols(r) ? r->ops->read_cols(r, b)
					 : read_transposed(r, b);
}

uint64_t wfw_reader_schema_gen(const struct wfw_reader *r)
{
	return r->schema_gen;
}

const struct wfw_row_text *wfw_reader_row_texts(struct wfw_reader *r,
					       size_t capacity)
{
	if (!r->ops->row_texts || getenv("WULTFW_NO_VERBATIM"))
		return NULL;
	return r->ops->row_texts(r, capacity);
}

int wfw_reader_use_texts(struct wfw_reader *r, int (*use)(void *arg), void *arg)
{
	return r->ops->use_texts ? r->ops->use_texts(r, use, arg) : use(arg);
}

bool wfw_reader_bare_ints(const struct wfw_reader *r, size_t c)
{
	return r->ops->bare_ints && c < r->schema.ncols && r->ops->bare_ints(r, c);
}

const char *wfw_reader_error(const struct wfw_reader *r)
{
	return r->err;
}

bool wfw_reader_stopped(const struct wfw_reader *r)
{
	return r->stopped;
}

uint64_t wfw_reader_rows(const struct wfw_reader *r)
{
	return r->rows;
}

int wfw_reader_first_row(struct wfw_reader *r, uint64_t *first)
{
	*first = r->first_row;
	if (r->opts.nparts < 2 || !r->opts.part || !r->ops->first_row)
		return 0;
	return r->ops->first_row(r, first);
}

int wfw_reader_part_firsts(struct wfw_reader *r, unsigned n, uint64_t *first)
{
	if (r->opts.nparts > 1 || !r->ops->part_firsts)
		return -EOPNOTSUPP;
	return r->ops->part_firsts(r, n, first);
}

uint64_t wfw_reader_ignored_bytes(const struct wfw_reader *r)
{
	return r->ignored;
}

const char *wfw_reader_meta(const struct wfw_reader *r, const char *key)
{
	return r->ops->meta ? r->ops->meta(r, key) : NULL;
}

void wfw_reader_set_salvage(struct wfw_reader *r, bool on)
{
	r->salvage = on;
}

uint64_t wfw_reader_damaged(const struct wfw_reader *r)
{
	return r->damaged;
}

void wfw_reader_damage_summary(const struct wfw_reader *r, char *buf, size_t len)
{
	if (!r->damaged) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, "%llu damaged block%s skipped (%s%s), %s%llu rows lost",
		 (unsigned long long)r->damaged, r->damaged > 1 ? "s" : "",
		 r->damaged > 1 ? "the first: " : "", r->first_damage,
		 r->damaged_rows_unknown ? "at least " : "",
		 (unsigned long long)r->damaged_rows);
}

void wfw_reader_close(struct wfw_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	free(r->path);
	wfw_batch_free(&r->rowbuf);
	r->ops->free(r);
}
