/* SPDX-License-Identifier: MIT */
/*
 * binary sink: the compact, self-describing format of doc/binary-format.md.
 * Records are the raw 64-bit cells of each batch (no rounding), so on a
 * little-endian machine a batch goes to the file without conversion. A
 * failed write stops the run and leaves whole records only.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "datafmt/writer.h"

enum { OPT_FILE };

static const struct wultfw_option binary_options[] = {
	[OPT_FILE] = { "file", WULTFW_OPT_STRING, "datapoints.wfb",
		       "output file name, relative to the experiment's result directory" },
	{ NULL }
};

/* Option values alone, before anything runs (wultfw --check). */
static int binary_validate(struct wultfw_ctx *ctx)
{
	const char *file = ctx->opts[OPT_FILE].s;

	if (ctx->opts[OPT_FILE].set && (!file || !*file))
		return wultfw_fail_opt(ctx, OPT_FILE, -EINVAL,
				       "empty: give a file name such as \"datapoints.wfb\"");
	return 0;
}

static int binary_open(struct wultfw_ctx *ctx,
		       const struct wultfw_run_info *run)
{
	const char *file = ctx->opts[OPT_FILE].set ? ctx->opts[OPT_FILE].s
						    : "datapoints.wfb";
	const struct wultfw_source_info *src = run->source;
	char path[4096], cpu[16], res[24];
	const char *meta[16];
	size_t nm = 0;
	struct wfw_bin_writer *w;
	int ret;

	if (!file || !*file)
		return wultfw_fail_opt(ctx, OPT_FILE, -EINVAL, "empty: give a file name such as \"datapoints.wfb\"");
	if (file[0] == '/' || !run->outdir)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", run->outdir, file);

	/* A little provenance, so a lone .wfb file still says what it is. */
	snprintf(cpu, sizeof(cpu), "%d", run->cpu);
	meta[nm++] = "cpu";
	meta[nm++] = cpu;
	if (run->experiment) {
		meta[nm++] = "experiment";
		meta[nm++] = run->experiment;
	}
	if (src && src->devid) {
		meta[nm++] = "devid";
		meta[nm++] = src->devid;
	}
	if (src && src->devdescr) {
		meta[nm++] = "devdescr";
		meta[nm++] = src->devdescr;
	}
	if (src) {
		snprintf(res, sizeof(res), "%" PRIu64, src->resolution_ns);
		meta[nm++] = "resolution_ns";
		meta[nm++] = res;
	}
	meta[nm] = NULL;

	w = calloc(1, sizeof(*w));
	if (!w)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	ret = wfw_binw_open(w, path, run->schema, meta, WFW_OUT_EXCL);
	if (ret) {
		wultfw_fail(ctx, ret, "%s", w->out.msg);
		free(w);
		return ret;
	}
	ctx->priv = w;
	return 0;
}

static int binary_fail(struct wultfw_ctx *ctx, struct wfw_bin_writer *w,
		       int ret)
{
	return wultfw_fail(ctx, ret, "%s (%llu records received, the file keeps the whole records that reached the disk; free space and run again)",
			   w->out.msg, (unsigned long long)w->rows);
}

static int binary_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct wfw_bin_writer *w = ctx->priv;
	int ret = wfw_binw_write(w, b);

	return ret ? binary_fail(ctx, w, ret) : 0;
}

static int binary_flush(struct wultfw_ctx *ctx)
{
	struct wfw_bin_writer *w = ctx->priv;
	int ret = wfw_binw_flush(w);

	return ret ? binary_fail(ctx, w, ret) : 0;
}

static int binary_close(struct wultfw_ctx *ctx,
			const struct wultfw_run_summary *summary)
{
	struct wfw_bin_writer *w = ctx->priv;
	int ret;

	if (!w)
		return 0;
	if (w->out.err) {
		/* Say in info.yml what the file holds after the failure. */
		char v[32];

		snprintf(v, sizeof(v), "%llu", (unsigned long long)
			 ((w->out.good_off - w->data_off) / (8 * w->ncols)));
		wultfw_info(ctx, "binary_records_in_file", v);
	}
	ret = wfw_binw_close(w);
	if (ret)
		binary_fail(ctx, w, ret);
	free(w);
	ctx->priv = NULL;
	return ret;
}

static const struct wultfw_sink_ops binary_ops = {
	.open = binary_open,
	.write = binary_write,
	.flush = binary_flush,
	.close = binary_close,
};

WULTFW_PLUGIN(binary) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.kind = WULTFW_KIND_SINK,
	.name = "binary",
	.summary = "compact lossless self-describing datapoints file (doc/binary-format.md)",
	.options = binary_options,
	.sink = &binary_ops,
	.validate = binary_validate,
};
