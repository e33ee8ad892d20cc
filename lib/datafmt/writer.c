/* SPDX-License-Identifier: MIT */
/* CSV and binary writers on top of the whole-record output file. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/binfmt.h"
#include "datafmt/writer.h"

#define WRITER_BUF (1u << 20)

/* Whole CSV rows in p[0..n): up to the last newline outside quotes. */
static size_t csv_whole(void *arg, const char *p, size_t n)
{
	size_t keep = 0;
	int quoted = 0;

	(void)arg;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"')
			quoted = !quoted;	/* "" inside quotes toggles twice */
		else if (p[i] == '\n' && !quoted)
			keep = i + 1;
	}
	return keep;
}

/* Whole binary records: buffers always start on a record boundary. */
static size_t bin_whole(void *arg, const char *p, size_t n)
{
	const struct wfw_bin_writer *w = arg;

	(void)p;
	return n - n % (8 * w->ncols);
}

static int bad_batch(struct wfw_out *o, size_t got, size_t want)
{
	snprintf(o->msg, sizeof(o->msg),
		 "%s: batch has %zu columns, the schema %zu", o->path, got, want);
	return -EINVAL;
}

int wfw_csvw_open(struct wfw_csv_writer *w, const char *path,
		  const struct wultfw_schema *s, int flags)
{
	char err[256];
	int ret;

	memset(w, 0, sizeof(*w));
	ret = wfw_csvfmt_init(&w->fmt, s, err, sizeof(err));
	if (ret) {
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: %s", path, err);
		w->out.fd = -1;
		return ret;
	}
	ret = wfw_out_open(&w->out, path, WRITER_BUF > 4 * w->fmt.row_max
				? WRITER_BUF : 4 * w->fmt.row_max, flags);
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

int wfw_csvw_write(struct wfw_csv_writer *w, const struct wultfw_batch *b)
{
	size_t ncols = w->fmt.schema->ncols, row_max = w->fmt.row_max;

	if (b->ncols != ncols)
		return bad_batch(&w->out, b->ncols, ncols);
	for (size_t r = 0; r < b->rows; r++) {
		char *p = wfw_out_reserve(&w->out, row_max);

		if (!p)
			return w->out.err;
		wfw_out_commit(&w->out,
			       wfw_csvfmt_row(&w->fmt, p, wultfw_crow(b, r)));
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

int wfw_binw_open(struct wfw_bin_writer *w, const char *path,
		  const struct wultfw_schema *s, const char *const *meta,
		  int flags)
{
	char err[256];
	size_t hlen;
	void *hdr;
	int ret;

	memset(w, 0, sizeof(*w));
	w->out.fd = -1;
	w->ncols = s->ncols;
	hdr = wfw_bin_header_build(s, meta, &hlen, err, sizeof(err));
	if (!hdr) {
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: %s", path, err);
		return -EINVAL;
	}
	ret = wfw_out_open(&w->out, path, WRITER_BUF, flags);
	if (!ret)
		ret = wfw_out_write(&w->out, hdr, hlen);
	if (!ret)
		ret = wfw_out_flush(&w->out);
	w->data_off = w->out.good_off;
	w->out.whole = bin_whole;
	w->out.whole_arg = w;
	free(hdr);
	if (ret)
		wfw_out_close(&w->out);	/* keeps out.msg */
	return ret;
}

int wfw_binw_write(struct wfw_bin_writer *w, const struct wultfw_batch *b)
{
	size_t n = b->rows * b->ncols;

	if (b->ncols != w->ncols)
		return bad_batch(&w->out, b->ncols, w->ncols);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* The cells already are the records: no conversion, no copy for big batches. */
	if (wfw_out_write(&w->out, b->cells, n * 8))
		return w->out.err;
#else
	for (size_t r = 0; r < b->rows; r++) {
		uint64_t *p = (uint64_t *)wfw_out_reserve(&w->out, 8 * w->ncols);

		if (!p)
			return w->out.err;
		for (size_t c = 0; c < w->ncols; c++)
			p[c] = __builtin_bswap64((uint64_t)wultfw_crow(b, r)[c].i);
		wfw_out_commit(&w->out, 8 * w->ncols);
	}
	(void)n;
#endif
	w->rows += b->rows;
	return 0;
}

int wfw_binw_flush(struct wfw_bin_writer *w)
{
	return wfw_out_flush(&w->out);
}

int wfw_binw_close(struct wfw_bin_writer *w)
{
	return wfw_out_close(&w->out);
}
