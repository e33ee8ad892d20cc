/* SPDX-License-Identifier: MIT */
/*
 * A deterministic annotator that exercises the core's join: it splits
 * each datapoint's latency in two halves that add up, numbers the
 * intervals it was given, names the parity of the millisecond each
 * started in, leaves every seventh row empty, and writes how many it saw
 * to a file of the result at stop(). Options make it fail where asked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

struct testannot_cfg {
	const char *fail_open;
	int64_t fail_after;
};

enum { O_FAIL_OPEN, O_FAIL_AFTER };

#define F(field) .off = offsetof(struct testannot_cfg, field)

static const struct wultfw_option options[] = {
	[O_FAIL_OPEN] = { "fail_open", WULTFW_OPT_STRING, NULL, "open() fails with this reason", F(fail_open) },
	[O_FAIL_AFTER] = { "fail_after", WULTFW_OPT_INT, "0", "annotate() fails after this many intervals (0: never)", F(fail_after) },
	{ NULL }
};

static const char *const parity_names[] = { "even", "odd" };

static const struct wultfw_column columns[] = {
	{ "HalfLat", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "RestLat", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "AnnotSeq", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "Parity", "", WULTFW_COL_ENUM, 1, parity_names, 2 },
	{ NULL },
};

static const struct wultfw_schema schema = { 4, columns };

struct testannot {
	int64_t seen;
	struct wultfw_file *f;
};

static int testannot_open(struct wultfw_ctx *ctx, const struct wultfw_run_info *run,
			  struct wultfw_annotator_info *info)
{
	const struct testannot_cfg *cfg = ctx->cfg;

	if (cfg->fail_open)
		return wultfw_fail_opt(ctx, O_FAIL_OPEN, -ENODEV, "%s", cfg->fail_open);
	if (run->cpu < 0)
		return wultfw_fail(ctx, -EINVAL, "no measured CPU");
	ctx->priv = calloc(1, sizeof(struct testannot));
	if (!ctx->priv)
		return -ENOMEM;
	info->schema = &schema;
	return 0;
}

static int testannot_start(struct wultfw_ctx *ctx)
{
	struct testannot *t = ctx->priv;
	struct wultfw_file_spec spec = { .size = sizeof(spec), .name = "testannot.txt" };

	return wultfw_file_open(ctx, &spec, &t->f);
}

static int testannot_annotate(struct wultfw_ctx *ctx, const struct wultfw_intervals *iv,
			      struct wultfw_batch *out)
{
	const struct testannot_cfg *cfg = ctx->cfg;
	struct testannot *t = ctx->priv;

	for (size_t i = 0; i < iv->n; i++) {
		union wultfw_cell *row = wultfw_row(out, i);
		int64_t seq = t->seen++;

		if (cfg->fail_after && seq >= cfg->fail_after)
			return wultfw_fail(ctx, -EIO, "simulated failure after %" PRId64 " intervals", seq);
		row[2].i = seq;
		if (seq % 7 == 6 || iv->latency[i] == WULTFW_CELL_EMPTY)
			continue;	/* left empty by the core */
		row[0].i = iv->latency[i] / 2;
		row[1].i = iv->latency[i] - row[0].i;
		row[3].i = iv->start[i] / 1000000 % 2;
	}
	return 0;
}

static int testannot_stop(struct wultfw_ctx *ctx)
{
	struct testannot *t = ctx->priv;
	char line[64], num[32];
	int n = snprintf(line, sizeof(line), "intervals %" PRId64 "\n", t->seen);
	int ret;

	snprintf(num, sizeof(num), "%" PRId64, t->seen);
	wultfw_info(ctx, "testannot_intervals", num);
	ret = wultfw_file_write(ctx, t->f, line, (size_t)n, 1);
	if (wultfw_file_close(ctx, t->f, ret >= 0) < 0 && ret >= 0)
		ret = -EIO;
	t->f = NULL;
	return ret;
}

static void testannot_close(struct wultfw_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

static const struct wultfw_annotator_ops testannot_ops = {
	.open = testannot_open,
	.start = testannot_start,
	.annotate = testannot_annotate,
	.stop = testannot_stop,
	.close = testannot_close,
};

extern const struct wultfw_plugin testannot_LTX_wultfw_plugin;
const struct wultfw_plugin testannot_LTX_wultfw_plugin = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_ANNOTATOR,
	.name = "testannot",
	.summary = "test annotator: halves of the latency, a count, a parity",
	.options = options,
	.cfg_size = sizeof(struct testannot_cfg),
	.columns = columns,
	.annotator = &testannot_ops,
};
