/* SPDX-License-Identifier: MIT */
/*
 * A sampler for testing the core: it takes no launch distance (ABI v2
 * .ldist left zero), so the core refuses `ldist` for it and writes no
 * LDist anywhere. Row i has Seq = i and Value = i * step.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include <wultfw/plugin.h>

struct testsampler_cfg {
	int64_t step;
};

static const struct wultfw_option options[] = {
	{ "step", WULTFW_OPT_INT, "2", "Value grows by this much per sample",
	  .min = "1", .max = "1000",
	  .off = offsetof(struct testsampler_cfg, step) },
	{ NULL }
};

static const struct wultfw_column columns[] = {
	{ "Seq", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "Value", "", WULTFW_COL_INT, 1, NULL, 0 },
};

static const struct wultfw_schema schema = { 2, columns };

static int testsampler_open(struct wultfw_ctx *ctx,
			    struct wultfw_source_info *info)
{
	ctx->priv = calloc(1, sizeof(int64_t));
	if (!ctx->priv)
		return -ENOMEM;
	info->devid = "testsampler";
	info->devdescr = "deterministic test sampler";
	info->resolution_ns = 1;
	info->schema = &schema;
	return 0;
}

static int testsampler_start(struct wultfw_ctx *ctx,
			     const struct wultfw_source_params *p)
{
	/* A sampler gets no launch distance: the core must not invent one. */
	if (p->ldist_from_ns || p->ldist_to_ns)
		return wultfw_fail(ctx, -EINVAL, "the core handed a sampler a launch distance");
	return 0;
}

static int testsampler_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
			    uint64_t timeout_ns)
{
	const struct testsampler_cfg *cfg = ctx->cfg;
	int64_t *next = ctx->priv;

	(void)timeout_ns;
	while (b->rows < b->capacity && b->rows < 10) {
		union wultfw_cell *row = wultfw_row(b, b->rows++);

		row[0].i = *next;
		row[1].i = *next * cfg->step;
		++*next;
	}
	return 0;
}

static int testsampler_stop(struct wultfw_ctx *ctx)
{
	return 0;
}

static void testsampler_close(struct wultfw_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops ops = {
	.open = testsampler_open,
	.start = testsampler_start,
	.read = testsampler_read,
	.stop = testsampler_stop,
	.close = testsampler_close,
};

WULTFW_PLUGIN(testsampler) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "testsampler",
	.summary = "deterministic samples, no launch distance",
	.options = options,
	.source = &ops,
	.cfg_size = sizeof(struct testsampler_cfg),
};
