/* SPDX-License-Identifier: MIT */
/*
 * loadavg: an out-of-tree sampler, the smallest real source. Every
 * `period` it reads /proc/loadavg and emits one datapoint: the 1-minute
 * load average and the number of runnable tasks. It takes no launch
 * distance (the descriptor's .ldist stays zero), so the core refuses
 * `ldist` for it and writes no LDist column. It declares its period and
 * the core calls read() on that schedule, so read() never sleeps.
 *
 * Build against an installed wultfw:   make
 * Run:  WULTFW_PLUGIN_PATH=$PWD wultfw -c loadavg.cfg
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <wultfw/plugin.h>

struct loadavg_cfg {
	uint64_t period;	/* ns between samples */
	const char *file;	/* where the kernel publishes the averages */
};

static const struct wultfw_option loadavg_options[] = {
	{ "period", WULTFW_OPT_DURATION, "100ms", "time between samples",
	  .min = "1ms", .max = "1h",
	  .off = offsetof(struct loadavg_cfg, period) },
	{ "file", WULTFW_OPT_STRING, "/proc/loadavg",
	  "the file to sample (tests point it elsewhere)",
	  .off = offsetof(struct loadavg_cfg, file) },
	{ NULL },
};

enum { COL_TIME, COL_LOAD1, COL_RUNNABLE, NCOLS };

static const struct wultfw_column loadavg_cols[NCOLS] = {
	[COL_TIME] = { "Time", "s", WULTFW_COL_INT, 1000000000, NULL, 0 },
	[COL_LOAD1] = { "Load1", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
	[COL_RUNNABLE] = { "Runnable", "", WULTFW_COL_INT, 1, NULL, 0 },
};

static const struct wultfw_schema loadavg_schema = { NCOLS, loadavg_cols };

struct loadavg_priv {
	uint64_t start;		/* CLOCK_MONOTONIC ns */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* "0.52 0.58 0.59 2/345 6789": the 1-minute average and runnable tasks. */
static int loadavg_sample(struct wultfw_ctx *ctx, double *load1, long *runnable)
{
	const struct loadavg_cfg *cfg = ctx->cfg;
	FILE *f = fopen(cfg->file, "re");
	int n;

	if (!f)
		return wultfw_fail(ctx, -errno, "cannot open %s: %s", cfg->file,
				   strerror(errno));
	n = fscanf(f, "%lf %*f %*f %ld/", load1, runnable);
	fclose(f);
	if (n != 2)
		return wultfw_fail(ctx, -EINVAL, "%s is not in /proc/loadavg's format",
				   cfg->file);
	return 0;
}

static int loadavg_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	const struct loadavg_cfg *cfg = ctx->cfg;
	double load1;
	long runnable;
	int ret = loadavg_sample(ctx, &load1, &runnable);

	if (ret)
		return ret;
	ctx->priv = calloc(1, sizeof(struct loadavg_priv));
	if (!ctx->priv)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	info->devid = "loadavg";
	info->devdescr = "the kernel's load average, sampled";
	info->resolution_ns = 1;
	info->schema = &loadavg_schema;
	info->period_ns = cfg->period;	/* the core calls read() this often */
	return 0;
}

static int loadavg_start(struct wultfw_ctx *ctx,
			 const struct wultfw_source_params *params)
{
	struct loadavg_priv *p = ctx->priv;

	(void)params;	/* a sampler: only cpu and seed are set */
	p->start = now_ns();
	return 0;
}

/* The period came (the core keeps time): one sample, now. */
static int loadavg_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
			uint64_t timeout_ns)
{
	struct loadavg_priv *p = ctx->priv;
	union wultfw_cell *row;
	double load1;
	long runnable;
	int ret;

	(void)timeout_ns;	/* 0: the core waited already */
	ret = loadavg_sample(ctx, &load1, &runnable);
	if (ret)
		return ret;
	row = wultfw_row(b, b->rows++);
	row[COL_TIME].i = (int64_t)(now_ns() - p->start);
	row[COL_LOAD1].f = load1;
	row[COL_RUNNABLE].i = runnable;
	return WULTFW_READ_OK;
}

static int loadavg_stop(struct wultfw_ctx *ctx)
{
	(void)ctx;	/* nothing runs between reads */
	return 0;
}

static void loadavg_close(struct wultfw_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops loadavg_ops = {
	.open = loadavg_open,
	.start = loadavg_start,
	.read = loadavg_read,
	.stop = loadavg_stop,
	.close = loadavg_close,
};

WULTFW_PLUGIN(loadavg) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "loadavg",
	.summary = "example sampler: the kernel's load average every period",
	.options = loadavg_options,
	.source = &loadavg_ops,
	.cfg_size = sizeof(struct loadavg_cfg),
};
