/* SPDX-License-Identifier: MIT */
/*
 * csv sink: datapoints.csv as wult writes it (header of column names,
 * INT columns shown as raw / divisor). Formatting lives in lib/datafmt so
 * `wultfw convert` writes the same bytes. A failed write (full disk, I/O
 * error) stops the run and leaves the file holding whole rows only.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "datafmt/writer.h"

enum { OPT_FILE };

static const struct wultfw_option csv_options[] = {
	[OPT_FILE] = { "file", WULTFW_OPT_STRING, "datapoints.csv",
		       "output file name, relative to the experiment's result directory" },
	{ NULL }
};

/* Option values alone, before anything runs (wultfw --check). */
static int csv_validate(struct wultfw_ctx *ctx)
{
	const char *file = ctx->opts[OPT_FILE].s;

	if (ctx->opts[OPT_FILE].set && (!file || !*file))
		return wultfw_fail_opt(ctx, OPT_FILE, -EINVAL,
				       "empty: give a file name such as \"datapoints.csv\"");
	return 0;
}

static int csv_open(struct wultfw_ctx *ctx, const struct wultfw_run_info *run)
{
	const char *file = ctx->opts[OPT_FILE].set ? ctx->opts[OPT_FILE].s
						    : "datapoints.csv";
	struct wfw_csv_writer *w;
	char path[4096];
	int ret;

	if (!file || !*file)
		return wultfw_fail_opt(ctx, OPT_FILE, -EINVAL, "empty: give a file name such as \"datapoints.csv\"");
	if (file[0] == '/' || !run->outdir)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", run->outdir, file);
	w = calloc(1, sizeof(*w));
	if (!w)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	ret = wfw_csvw_open(w, path, run->schema, WFW_OUT_EXCL);
	if (ret) {
		wultfw_fail(ctx, ret, "%s", w->out.msg);
		free(w);
		return ret;
	}
	ctx->priv = w;
	return 0;
}

static int csv_fail(struct wultfw_ctx *ctx, struct wfw_csv_writer *w, int ret)
{
	return wultfw_fail(ctx, ret, "%s (%llu rows received, the file keeps the whole rows that reached the disk; free space and run again)",
			   w->out.msg, (unsigned long long)w->rows);
}

static int csv_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct wfw_csv_writer *w = ctx->priv;
	int ret = wfw_csvw_write(w, b);

	return ret ? csv_fail(ctx, w, ret) : 0;
}

static int csv_flush(struct wultfw_ctx *ctx)
{
	struct wfw_csv_writer *w = ctx->priv;
	int ret = wfw_csvw_flush(w);

	return ret ? csv_fail(ctx, w, ret) : 0;
}

static int csv_close(struct wultfw_ctx *ctx,
		     const struct wultfw_run_summary *summary)
{
	struct wfw_csv_writer *w = ctx->priv;
	int ret;

	if (!w)
		return 0;
	if (w->out.err) {
		/* Say in info.yml what the file holds after the failure. */
		long long lines = wfw_out_count_kept(&w->out, '\n');
		char v[32];

		snprintf(v, sizeof(v), "%lld", lines > 0 ? lines - 1 : 0);
		wultfw_info(ctx, "csv_rows_in_file", v);
	}
	ret = wfw_csvw_close(w);
	if (ret)
		csv_fail(ctx, w, ret);
	free(w);
	ctx->priv = NULL;
	return ret;
}

static const struct wultfw_sink_ops csv_ops = {
	.open = csv_open,
	.write = csv_write,
	.flush = csv_flush,
	.close = csv_close,
};

WULTFW_PLUGIN(csv) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.kind = WULTFW_KIND_SINK,
	.name = "csv",
	.summary = "datapoints.csv as wult writes it (latencies in microseconds)",
	.options = csv_options,
	.sink = &csv_ops,
	.validate = csv_validate,
};
