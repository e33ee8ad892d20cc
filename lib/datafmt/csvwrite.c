/* SPDX-License-Identifier: MIT */
/* The CSV writer on top of the whole-record output file (out.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "datafmt/csvwrite.h"
#include "datafmt/reader.h"

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

/*
 * The output (ret: how opening it went) gets the header. A file of our
 * own whose header found no room goes again: a CSV that exists always
 * has its header.
 */
static int csvw_start(struct wfw_csv_writer *w, int ret)
{
	bool created = !ret && w->out.fd >= 0;

	/* The header goes out at once: from now on the file is a valid CSV. */
	if (!ret)
		ret = wfw_out_write(&w->out, w->fmt.header, w->fmt.header_len);
	if (!ret)
		ret = wfw_out_flush(&w->out);
	w->out.whole = csv_whole;
	if (ret) {
		if (created) {
			snprintf(w->out.msg, sizeof(w->out.msg), "%s: cannot write its header: %s (no file left)",
				 w->out.path, strerror(-ret));
			unlink(w->out.path);
		}
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
	return csvw_start(w, wfw_out_open(&w->out, path, WFW_OUT_BUF > 4 * w->fmt.row_max
					  ? WFW_OUT_BUF : 4 * w->fmt.row_max, flags));
}

int wfw_csvw_open_fwd(struct wfw_csv_writer *w, const char *name,
		      const struct wultfw_schema *s,
		      const struct wfw_out_fwd *fwd, void *arg)
{
	int ret = csvw_begin(w, name, s);

	if (ret)
		return ret;
	return csvw_start(w, wfw_out_open_fwd(&w->out, name, WFW_OUT_BUF > 4 * w->fmt.row_max
					      ? WFW_OUT_BUF : 4 * w->fmt.row_max, fwd, arg));
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
		return wfw_out_bad_batch(&w->out, b->ncols, ncols);
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

/* ---- texts read under their reader's guard ---- */

struct texts_out {
	struct wfw_csv_writer *w;
	const struct wfw_csvfmt *f;
	char *buf;
	const struct wultfw_batch *b;
	const union wultfw_cell *cells;
	size_t rows, len;
	const struct wfw_row_text *text;
};

static int write_texts(void *arg)
{
	struct texts_out *t = arg;

	return wfw_csvw_write_text(t->w, t->b, t->text);
}

int wfw_csvw_write_from(struct wfw_csv_writer *w, struct wfw_reader *rd,
			const struct wultfw_batch *b, const struct wfw_row_text *text)
{
	struct texts_out t = { .w = w, .b = b, .text = text };

	return text ? wfw_reader_use_texts(rd, write_texts, &t)
		    : wfw_csvw_write_text(w, b, NULL);
}

static int rows_texts(void *arg)
{
	struct texts_out *t = arg;

	t->len = wfw_csv_rows_text(t->f, t->buf, t->cells, t->rows, t->text);
	return 0;
}

long wfw_csv_rows_text_from(struct wfw_reader *rd, const struct wfw_csvfmt *f,
			    char *buf, const union wultfw_cell *cells, size_t rows,
			    const struct wfw_row_text *text)
{
	struct texts_out t = { .f = f, .buf = buf, .cells = cells, .rows = rows,
			       .text = text };
	int ret;

	if (!text)
		return (long)wfw_csvfmt_rows(f, buf, cells, rows);
	ret = wfw_reader_use_texts(rd, rows_texts, &t);
	return ret ? ret : (long)t.len;
}

int wfw_csvw_flush(struct wfw_csv_writer *w)
{
	return wfw_out_flush(&w->out);
}

uint64_t wfw_csvw_in_file(const struct wfw_csv_writer *w)
{
	long long lines;

	if (!w->out.err)
		return w->rows;
	lines = wfw_out_count_kept(&w->out, '\n');
	return lines > 0 ? (uint64_t)lines - 1 : 0;	/* less the header */
}

int wfw_csvw_close(struct wfw_csv_writer *w)
{
	int ret = wfw_out_close(&w->out);

	wfw_csvfmt_free(&w->fmt);
	return ret;
}
