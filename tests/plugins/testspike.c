/* SPDX-License-Identifier: MIT */
/*
 * A source for testing stop_above and the live table: a run per CPU
 * (it takes CPU lists), each datapoint's WakeLatency a known small value
 * but for one injected spike at a chosen datapoint on a chosen CPU.
 * Paced by `delay` per read, so a run without a limit keeps going.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

#include <wultfw/plugin.h>

struct spike_cfg {
	int64_t rows;
	uint64_t delay, base, spike;
	int64_t spike_at, spike_cpu;
};

#define F(field) .off = offsetof(struct spike_cfg, field)

static const struct wultfw_option options[] = {
	{ "rows_per_read", WULTFW_OPT_INT, "10", "datapoints each read() makes", .min = "1", .max = "1000", F(rows) },
	{ "delay", WULTFW_OPT_DURATION, "10ms", "sleep this long in every read()", .max = "1s", F(delay) },
	{ "latency", WULTFW_OPT_DURATION, "2us", "every datapoint's WakeLatency, give or take 400ns", F(base) },
	{ "spike", WULTFW_OPT_DURATION, "0", "the injected WakeLatency (0: none)", F(spike) },
	{ "spike_at", WULTFW_OPT_INT, "1", "which datapoint gets it (1: the first)", .min = "1", F(spike_at) },
	{ "spike_cpu", WULTFW_OPT_INT, "-1", "on which CPU (-1: every one)", .min = "-1", F(spike_cpu) },
	{ NULL }
};

static const struct wultfw_column columns[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "Seq", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ NULL },
};

static const struct wultfw_schema schema = { 2, columns };

struct spike {
	int64_t next;
	bool started;
};

static int spike_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	struct spike *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	ctx->priv = s;
	info->devid = "testspike";
	info->devdescr = "test source with an injected latency spike";
	info->resolution_ns = 1;
	info->ldist_min_ns = 1000;
	info->ldist_max_ns = 1000000000;
	info->ldist_gran_ns = 1;
	info->schema = &schema;
	return 0;
}

static int spike_start(struct wultfw_ctx *ctx, const struct wultfw_source_params *p)
{
	struct spike *s = ctx->priv;

	(void)p;
	s->started = true;
	return 0;
}

/* Datapoint n's WakeLatency in ns (n from 1). */
static int64_t latency(const struct wultfw_ctx *ctx, int64_t n)
{
	const struct spike_cfg *cfg = ctx->cfg;

	if (cfg->spike && n == cfg->spike_at &&
	    (cfg->spike_cpu < 0 || cfg->spike_cpu == ctx->cpu))
		return (int64_t)cfg->spike;
	return (int64_t)cfg->base + n % 5 * 100;
}

static int spike_read(struct wultfw_ctx *ctx, struct wultfw_batch *b, uint64_t timeout_ns)
{
	const struct spike_cfg *cfg = ctx->cfg;
	struct spike *s = ctx->priv;
	uint64_t d = cfg->delay < timeout_ns ? cfg->delay : timeout_ns;
	struct timespec ts = { (time_t)(d / 1000000000ULL), (long)(d % 1000000000ULL) };

	if (!s->started)
		return 0;
	if (d && nanosleep(&ts, NULL))
		return -errno;
	for (int64_t i = 0; i < cfg->rows && b->rows < b->capacity; i++) {
		union wultfw_cell *row = wultfw_row(b, b->rows++);

		s->next++;
		row[0].i = latency(ctx, s->next);
		row[1].i = s->next;
	}
	return 0;
}

static int spike_stop(struct wultfw_ctx *ctx)
{
	((struct spike *)ctx->priv)->started = false;
	return 0;
}

static void spike_close(struct wultfw_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops ops = {
	.open = spike_open,
	.start = spike_start,
	.read = spike_read,
	.stop = spike_stop,
	.close = spike_close,
};

WULTFW_PLUGIN(testspike) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "testspike",
	.summary = "WakeLatency with one injected spike, for stop_above",
	.options = options,
	.source = &ops,
	.cfg_size = sizeof(struct spike_cfg),
	.ldist = { WULTFW_LDIST_LAUNCH, 1, 3600000000000ULL },
	.columns = columns,
	.caps = WULTFW_CAP_CPU_LIST,
};
