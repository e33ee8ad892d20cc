/* SPDX-License-Identifier: MIT */
/*
 * An out-of-tree sink built against the installed wultfw-dev (pkg-config
 * wultfw) by test_debs.sh: counts the rows it receives and writes the count
 * to rowcount.txt in the result directory.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <wultfw/plugin.h>

struct rowcount {
	char path[PATH_MAX];
	uint64_t rows;
};

static int rowcount_open(struct wultfw_ctx *ctx, const struct wultfw_run_info *run)
{
	struct rowcount *rc = calloc(1, sizeof(*rc));

	if (!rc)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	snprintf(rc->path, sizeof(rc->path), "%s/rowcount.txt", run->outdir);
	ctx->priv = rc;
	return 0;
}

static int rowcount_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct rowcount *rc = ctx->priv;

	rc->rows += b->rows;
	return 0;
}

static int rowcount_flush(struct wultfw_ctx *ctx)
{
	return 0;
}

static int rowcount_close(struct wultfw_ctx *ctx, const struct wultfw_run_summary *s)
{
	struct rowcount *rc = ctx->priv;
	FILE *f = fopen(rc->path, "w");
	int ret = 0;

	if (!f || fprintf(f, "%" PRIu64 "\n", rc->rows) < 0)
		ret = wultfw_fail(ctx, -errno, "cannot write %s", rc->path);
	if (f && fclose(f))
		ret = wultfw_fail(ctx, -errno, "cannot write %s", rc->path);
	free(rc);
	return ret;
}

static const struct wultfw_option rowcount_options[] = { { NULL } };

static const struct wultfw_sink_ops rowcount_ops = {
	.open = rowcount_open,
	.write = rowcount_write,
	.flush = rowcount_flush,
	.close = rowcount_close,
};

WULTFW_PLUGIN(rowcount) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.kind = WULTFW_KIND_SINK,
	.name = "rowcount",
	.summary = "counts the rows it receives (out-of-tree plugin test)",
	.options = rowcount_options,
	.sink = &rowcount_ops,
};
