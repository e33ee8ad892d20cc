/* SPDX-License-Identifier: MIT */
/*
 * The CSV and binary writers (csvwrite.c, binwrite.c) behind one
 * interface: a small ops table per format.
 */
#include "config.h"

#include <string.h>

#include "datafmt/writer.h"

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
