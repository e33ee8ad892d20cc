/* SPDX-License-Identifier: MIT */
/* CSV and binary writers on top of the whole-record output file. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/reader.h"
#include "datafmt/writer.h"

size_t wfw_csv_whole(const char *p, size_t n, uint64_t *rows)
{
	size_t keep = 0;
	uint64_t lines = 0;
	int quoted = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"') {
			quoted = !quoted;	/* "" inside quotes toggles twice */
		} else if (p[i] == '\n' && !quoted) {
			keep = i + 1;
			lines++;
		}
	}
	*rows = lines;
	return keep;
}

/* Whole CSV rows in p[0..n): up to the last newline outside quotes. */
static size_t csv_whole(void *arg, const char *p, size_t n)
{
	uint64_t rows;

	(void)arg;
	return wfw_csv_whole(p, n, &rows);
}

int wfw_writer_bad_batch(struct wfw_out *o, size_t got, size_t want)
{
	snprintf(o->msg, sizeof(o->msg),
		 "%s: batch has %zu columns, the schema %zu", o->path, got, want);
	return -EINVAL;
}

/* The formats of the schema's columns, before the output opens. */
static int csvw_begin(struct wfw_csv_writer *w, const char *path,
		      const struct wultfw_schema *s)
{
	char err[256];
	int ret;

	memset(w, 0, sizeof(*w));
	ret = wfw_csvfmt_init(&w->fmt, s, err, sizeof(err));
	if (ret) {
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: %s", path, err);
		w->out.fd = -1;
	}
	return ret;
}

/* The output (ret: how opening it went) gets the header. */
static int csvw_start(struct wfw_csv_writer *w, int ret)
{
	/* The header goes out at once: from now on the file is a valid CSV. */
	if (!ret)
		ret = wfw_out_write(&w->out, w->fmt.header, w->fmt.header_len);
	if (!ret)
		ret = wfw_out_flush(&w->out);
	w->out.whole = csv_whole;
	if (ret) {
		wfw_out_close(&w->out);	/* keeps out.msg */
		wfw_csvfmt_free(&w->fmt);
		return ret;
	}
	return 0;
}

int wfw_csvw_open(struct wfw_csv_writer *w, const char *path,
		  const struct wultfw_schema *s, int flags)
{
	int ret = csvw_begin(w, path, s);

	if (ret)
		return ret;
	return csvw_start(w, wfw_out_open(&w->out, path, WFW_WRITER_BUF > 4 * w->fmt.row_max
					  ? WFW_WRITER_BUF : 4 * w->fmt.row_max, flags));
}

int wfw_csvw_open_fwd(struct wfw_csv_writer *w, const char *name,
		      const struct wultfw_schema *s,
		      const struct wfw_out_fwd *fwd, void *arg)
{
	int ret = csvw_begin(w, name, s);

	if (ret)
		return ret;
	return csvw_start(w, wfw_out_open_fwd(&w->out, name, WFW_WRITER_BUF > 4 * w->fmt.row_max
					      ? WFW_WRITER_BUF : 4 * w->fmt.row_max, fwd, arg));
}

/* The schema changed under us (a one-pass reader): follow it. */
static int csvw_sync(struct wfw_csv_writer *w)
{
	char err[256];
	int ret = wfw_csvfmt_sync(&w->fmt, err, sizeof(err));

	if (!ret && w->fmt.row_max > w->out.cap)
		ret = -E2BIG;
	if (ret)
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: %s", w->out.path,
			 ret == -E2BIG ? "a row longer than the output buffer" : err);
	return ret;
}

size_t wfw_csv_rows_text(const struct wfw_csvfmt *f, char *buf,
			 const union wultfw_cell *cells, size_t rows,
			 const struct wfw_row_text *text)
{
	size_t ncols = f->schema->ncols, r = 0;
	char *p = buf;

	if (!text)
		return wfw_csvfmt_rows(f, buf, cells, rows);
	while (r < rows) {
		const char *s = text[r].s;
		size_t n = 0;

		/* A run of lines that follow each other: one copy. */
		for (; r < rows && text[r].n && text[r].s == s + n; r++)
			n += text[r].n;
		memcpy(p, s, n);
		p += n;
		for (; r < rows && !text[r].n; r++)
			p += wfw_csvfmt_row(f, p, cells + r * ncols);
	}
	return (size_t)(p - buf);
}

int wfw_csvw_write(struct wfw_csv_writer *w, const struct wultfw_batch *b)
{
	return wfw_csvw_write_text(w, b, NULL);
}

int wfw_csvw_write_text(struct wfw_csv_writer *w, const struct wultfw_batch *b,
			const struct wfw_row_text *text)
{
	size_t ncols = w->fmt.schema->ncols, row_max, chunk, r = 0;
	int ret;

	if (b->ncols != ncols)
		return wfw_writer_bad_batch(&w->out, b->ncols, ncols);
	ret = csvw_sync(w);
	if (ret)
		return ret;
	/* Rows in chunks of about half the buffer: one reserve per chunk. */
	row_max = w->fmt.row_max;
	chunk = w->out.cap / 2 / row_max;
	chunk = chunk ? chunk : 1;
	while (r < b->rows) {
		size_t n = b->rows - r < chunk ? b->rows - r : chunk;
		char *p = wfw_out_reserve(&w->out, n * row_max);

		if (!p)
			return w->out.err;
		ret = wfw_out_commit_rows(&w->out, wfw_csv_rows_text(&w->fmt, p, wultfw_crow(b, r), n,
								     text ? text + r : NULL), n);
		if (ret)
			return ret;
		r += n;
	}
	w->rows += b->rows;
	return 0;
}

int wfw_csvw_flush(struct wfw_csv_writer *w)
{
	return wfw_out_flush(&w->out);
}

int wfw_csvw_close(struct wfw_csv_writer *w)
{
	int ret = wfw_out_close(&w->out);

	wfw_csvfmt_free(&w->fmt);
	return ret;
}

/* ---- the formats behind one interface ---- */

static int csv_open_impl(void *impl, const char *path,
			 const struct wultfw_schema *s, const char *const *meta,
			 int flags)
{
	(void)meta;	/* a CSV file has no place for it */
	return wfw_csvw_open(impl, path, s, flags);
}

static int csv_open_fwd_impl(void *impl, const char *name,
			     const struct wultfw_schema *s,
			     const char *const *meta,
			     const struct wfw_out_fwd *fwd, void *arg)
{
	(void)meta;
	return wfw_csvw_open_fwd(impl, name, s, fwd, arg);
}

static int csv_write_impl(void *impl, const struct wultfw_batch *b)
{
	return wfw_csvw_write(impl, b);
}

static int csv_flush_impl(void *impl)
{
	return wfw_csvw_flush(impl);
}

static int csv_close_impl(void *impl)
{
	return wfw_csvw_close(impl);
}

static struct wfw_out *csv_out(void *impl)
{
	return &((struct wfw_csv_writer *)impl)->out;
}

/* Lines before the last good offset, less the header. */
static long long csv_kept(const void *impl)
{
	long long lines = wfw_out_count_kept(&((const struct wfw_csv_writer *)impl)->out, '\n');

	return lines > 0 ? lines - 1 : lines;
}

const struct wfw_format wfw_format_csv = {
	.name = "csv",
	.rows_word = "rows",
	.kept_key = "csv_rows_in_file",
	.open = csv_open_impl,
	.open_fwd = csv_open_fwd_impl,
	.whole = wfw_csv_whole,
	.write = csv_write_impl,
	.flush = csv_flush_impl,
	.close = csv_close_impl,
	.out = csv_out,
	.kept = csv_kept,
};

static int bin_open_impl(void *impl, const char *path,
			 const struct wultfw_schema *s, const char *const *meta,
			 int flags)
{
	return wfw_binw_open(impl, path, s, meta, flags);
}

static int bin_open_fwd_impl(void *impl, const char *name,
			     const struct wultfw_schema *s,
			     const char *const *meta,
			     const struct wfw_out_fwd *fwd, void *arg)
{
	return wfw_binw_open_fwd(impl, name, s, meta, fwd, arg);
}

static int bin_write_impl(void *impl, const struct wultfw_batch *b)
{
	return wfw_binw_write(impl, b);
}

static int bin_flush_impl(void *impl)
{
	return wfw_binw_flush(impl);
}

static int bin_close_impl(void *impl)
{
	return wfw_binw_close(impl);
}

static struct wfw_out *bin_out(void *impl)
{
	return &((struct wfw_bin_writer *)impl)->out;
}

static long long bin_kept(const void *impl)
{
	return wfw_binw_kept(impl);
}

const struct wfw_format wfw_format_binary = {
	.name = "binary",
	.rows_word = "records",
	.kept_key = "binary_records_in_file",
	.open = bin_open_impl,
	.open_fwd = bin_open_fwd_impl,
	.whole = wfw_bin_whole,
	.write = bin_write_impl,
	.flush = bin_flush_impl,
	.close = bin_close_impl,
	.out = bin_out,
	.kept = bin_kept,
};

int wfw_writer_open(struct wfw_writer *w, const struct wfw_format *fmt,
		    const char *path, const struct wultfw_schema *s,
		    const char *const *meta, int flags)
{
	memset(w, 0, sizeof(*w));
	w->fmt = fmt;
	return fmt->open(&w->impl, path, s, meta, flags);
}

int wfw_writer_open_fwd(struct wfw_writer *w, const struct wfw_format *fmt,
			const char *name, const struct wultfw_schema *s,
			const char *const *meta, const struct wfw_out_fwd *fwd,
			void *arg)
{
	memset(w, 0, sizeof(*w));
	w->fmt = fmt;
	return fmt->open_fwd(&w->impl, name, s, meta, fwd, arg);
}

int wfw_writer_set_bare(struct wfw_writer *w, size_t c, bool bare)
{
	if (w->fmt == &wfw_format_binary)
		return wfw_binw_set_bare(&w->impl.bin, c, bare);
	wfw_csvfmt_set_bare(&w->impl.csv.fmt, c, bare);
	return 0;
}

int wfw_writer_write(struct wfw_writer *w, const struct wultfw_batch *b)
{
	int ret = w->fmt->write(&w->impl, b);

	if (!ret)
		w->rows += b->rows;
	return ret;
}

int wfw_writer_flush(struct wfw_writer *w)
{
	return w->fmt->flush(&w->impl);
}

int wfw_writer_close(struct wfw_writer *w)
{
	return w->fmt->close(&w->impl);
}

const char *wfw_writer_msg(struct wfw_writer *w)
{
	return w->fmt->out(&w->impl)->msg;
}

long long wfw_writer_kept(const struct wfw_writer *w)
{
	struct wfw_out *o = w->fmt->out((void *)&w->impl);

	return o->err ? w->fmt->kept(&w->impl) : -1;
}
