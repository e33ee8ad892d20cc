/* SPDX-License-Identifier: MIT */
/*
 * The stats sink: streaming statistics of every numeric column, overall and
 * per ReqCState, in bounded memory (lib/stats). At close it prints a table
 * (verbosity > 0), writes stats.json into the result directory and,
 * optionally, a cyclictest-format histogram file. While the run goes on,
 * stats.json is rewritten (atomically: the core's WULTFW_FILE_REPLACE)
 * every flush_interval, so a killed run still leaves one ("final": false
 * in it).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wultfw/plugin.h>

#include "atomic/durable.h"

#include "stats/report.h"
#include "stats/statset.h"
#include "binhist.h"
#include "cychist.h"

enum {
	OPT_PERCENTILES,
	OPT_EXACT_LIMIT,
	OPT_EXACT_MEMORY,
	OPT_GROUP_BY,
	OPT_METRICS,
	OPT_JSON,
	OPT_TABLE,
	OPT_HISTOGRAM,
	OPT_HIST_METRICS,
	OPT_HIST_BUCKETS,
	OPT_TEXT_HIST,
	OPT_TEXT_HIST_METRIC,
	OPT_TEXT_HIST_BIN,
	OPT_FLUSH_INTERVAL,
};

/* Where the core puts the option values (ctx->cfg). */
struct stats_cfg {
	struct wultfw_floats percentiles;
	int64_t exact_limit, exact_memory;
	const char *group_by;
	struct wultfw_strs metrics;	/* none: every numeric column */
	bool json, table;
	const char *histogram;		/* NULL unless given */
	struct wultfw_strs histogram_metrics;
	int64_t histogram_buckets;
	const char *text_histogram;	/* NULL unless given */
	const char *text_histogram_metric;
	double text_histogram_bin;
	uint64_t flush_interval;	/* ns */
};

#define F(field) .off = offsetof(struct stats_cfg, field)

static const struct wultfw_option stats_options[] = {
	[OPT_PERCENTILES] = { "percentiles", WULTFW_OPT_FLOAT_LIST,
		"50,90,99,99.9,99.99,99.999", "percentiles to report",
		.min = "0", .max = "100", F(percentiles) },
	[OPT_EXACT_LIMIT] = { "exact_limit", WULTFW_OPT_INT, "100000",
		"values per metric and C-state kept for exact percentiles; "
		"beyond, a histogram within 0.098% relative error",
		.min = "0", .unit = "values", F(exact_limit) },
	[OPT_EXACT_MEMORY] = { "exact_memory", WULTFW_OPT_INT, "32",
		"memory for exactly kept values, all metrics together; lowers "
		"exact_limit when there are many metrics and C-states",
		.min = "0", .max = "1048576", .unit = "MiB", F(exact_memory) },
	[OPT_GROUP_BY] = { "group_by", WULTFW_OPT_STRING, "ReqCState",
		"ENUM column whose values get their own statistics; \"\" for "
		"none", .unit = "ENUM column", F(group_by) },
	[OPT_METRICS] = { "metrics", WULTFW_OPT_STRING_LIST, NULL,
		"columns to compute statistics for (names or glob patterns); "
		"default every numeric column", .unit = "column", F(metrics) },
	[OPT_JSON] = { "json", WULTFW_OPT_BOOL, "true",
		"write stats.json into the result directory", F(json) },
	[OPT_TABLE] = { "table", WULTFW_OPT_BOOL, "true",
		"print a summary table at the end of the run (verbosity > 0)",
		F(table) },
	[OPT_HISTOGRAM] = { "histogram", WULTFW_OPT_STRING, NULL,
		"also write a histogram in cyclictest -h format to this file "
		"(relative to the result directory), e.g. \"histogram.txt\"",
		.unit = "file", F(histogram) },
	[OPT_HIST_METRICS] = { "histogram_metrics", WULTFW_OPT_STRING_LIST,
		"WakeLatency",
		"histogram columns, one per metric (cyclictest: per thread)",
		.unit = "column", F(histogram_metrics) },
	[OPT_HIST_BUCKETS] = { "histogram_buckets", WULTFW_OPT_INT, "1000",
		"histogram buckets of one display unit (us) each, like "
		"cyclictest -h", .min = "1", .max = "10000000",
		F(histogram_buckets) },
	[OPT_TEXT_HIST] = { "text_histogram", WULTFW_OPT_STRING, NULL,
		"also write a histogram of one metric in fixed-width bins per "
		"group_by value to this file (relative to the result "
		"directory), with counts at 0 and above; with the skid source: "
		"hits and the skid offset histogram, e.g. \"skid-histogram.txt\"",
		.unit = "file", F(text_histogram) },
	[OPT_TEXT_HIST_METRIC] = { "text_histogram_metric", WULTFW_OPT_STRING,
		"Skid", "the text histogram's column", .unit = "column",
		F(text_histogram_metric) },
	[OPT_TEXT_HIST_BIN] = { "text_histogram_bin", WULTFW_OPT_FLOAT, "10",
		"the text histogram's bin width, in the column's display unit",
		.min = "1e-9", F(text_histogram_bin) },
	[OPT_FLUSH_INTERVAL] = { "flush_interval", WULTFW_OPT_DURATION, "1s",
		"how often stats.json is rewritten while the run goes on "
		"(a killed run keeps the last one)", .min = "10ms", .max = "1h",
		F(flush_interval) },
	{ .name = NULL },
};

struct stats_sink {
	struct wfw_statset set;
	double pct[WFW_SUMMARY_MAX_PCT - 1];
	size_t npct;
	char *outdir;
	char *experiment;
	bool hist_on, bins_on;
	struct stats_cychist hist;
	struct stats_binhist bins;
	struct wfw_durable interim;	/* when stats.json is rewritten */
};

/*
 * What the table cannot say (bounds are the core's, and so is the check
 * that the histogram files stay in the result directory).
 */
static int stats_validate(struct wultfw_ctx *ctx)
{
	const struct stats_cfg *cfg = ctx->cfg;

	if (cfg->percentiles.n > WFW_SUMMARY_MAX_PCT - 1)
		return wultfw_fail_opt(ctx, OPT_PERCENTILES, -EINVAL,
				       "at most %d values, got %zu",
				       WFW_SUMMARY_MAX_PCT - 1, cfg->percentiles.n);
	return 0;
}

/* group_by names a column the schema lacks: a typo, unless the default. */
static int check_group_by(struct wultfw_ctx *ctx, const char *gb,
			  const struct wultfw_schema *s)
{
	size_t c;

	if (!gb || !*gb || !strcmp(gb, stats_options[OPT_GROUP_BY].def))
		return 0;
	for (c = 0; c < s->ncols; c++)
		if (s->cols[c].type == WULTFW_COL_ENUM && !strcmp(s->cols[c].name, gb))
			return 0;
	return wultfw_fail_opt(ctx, OPT_GROUP_BY, -EINVAL,
			       "the source has no ENUM column '%s'", gb);
}

static int write_interim(struct wultfw_ctx *ctx);
static void stats_free(struct wultfw_ctx *ctx);

/* The optional histogram files' state. */
static int open_histograms(struct wultfw_ctx *ctx, struct stats_sink *st,
			   const struct wultfw_schema *s)
{
	const struct stats_cfg *o = ctx->cfg;
	int ret;

	if (o->histogram && *o->histogram) {
		ret = stats_cychist_init(&st->hist, s, o->histogram_metrics.v,
					 o->histogram_metrics.n,
					 (size_t)o->histogram_buckets,
					 ctx->err, sizeof(ctx->err));
		if (ret)
			return ret;
		st->hist_on = true;
	}
	if (o->text_histogram && *o->text_histogram) {
		ret = stats_binhist_init(&st->bins, s, o->text_histogram_metric,
					 o->group_by, o->text_histogram_bin,
					 ctx->err, sizeof(ctx->err));
		if (ret)
			return ret;
		st->bins_on = true;
	}
	return 0;
}

static int stats_open(struct wultfw_ctx *ctx, const struct wultfw_run_info *run)
{
	const struct stats_cfg *o = ctx->cfg;
	struct wfw_statset_cfg cfg = {
		.exact_limit = (size_t)o->exact_limit,
		.exact_memory = (size_t)o->exact_memory << 20,
		.group_by = o->group_by,
		.metrics = o->metrics.v,
		.nmetrics = o->metrics.n,
	};
	struct stats_sink *st;
	int ret = check_group_by(ctx, o->group_by, run->schema);

	if (ret)
		return ret;
	st = calloc(1, sizeof(*st));
	if (!st)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	st->npct = o->percentiles.n;
	if (st->npct)
		memcpy(st->pct, o->percentiles.v, st->npct * sizeof(double));
	st->outdir = strdup(run->outdir ? run->outdir : ".");
	st->experiment = strdup(run->experiment ? run->experiment : "");
	if (!st->outdir || !st->experiment) {
		ret = wultfw_fail(ctx, -ENOMEM, "out of memory");
		goto fail;
	}
	ret = wfw_statset_init(&st->set, run->schema, &cfg, ctx->err,
			       sizeof(ctx->err));
	if (ret)
		goto fail;
	/* From here on stats_free() undoes whatever got set up. */
	ctx->priv = st;
	ret = open_histograms(ctx, st, run->schema);
	if (!ret) {
		wfw_durable_init(&st->interim, o->flush_interval, 0);
		/* A stats.json from the start: even a run killed at once has one. */
		ret = o->json ? write_interim(ctx) : 0;
	}
	if (ret)
		stats_free(ctx);
	return ret;
fail:
	free(st->outdir);
	free(st->experiment);
	free(st);
	return ret;
}

static int stats_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct stats_sink *st = ctx->priv;

	if (wfw_statset_add(&st->set, b))
		return wultfw_fail(ctx, -ENOMEM, "out of memory for statistics "
				   "(lower exact_memory)");
	if (st->hist_on)
		stats_cychist_add(&st->hist, b);
	if (st->bins_on && stats_binhist_add(&st->bins, b))
		return wultfw_fail(ctx, -ENOMEM, "out of memory for the text histogram");
	if (((const struct stats_cfg *)ctx->cfg)->json &&
	    wfw_durable_due(&st->interim, b->rows) == WFW_DURABLE_SYNC)
		return write_interim(ctx);
	return 0;
}

/* The statistics so far to stats.json, unless nothing came since. */
static int stats_flush(struct wultfw_ctx *ctx)
{
	struct stats_sink *st = ctx->priv;

	if (!((const struct stats_cfg *)ctx->cfg)->json || !st->interim.unsynced)
		return 0;
	return write_interim(ctx);
}

/*
 * `text` as the whole file `name`, put in place at once; stats.json says
 * how many rows its statistics are of, so info.yml can count them.
 */
static int replace_file(struct wultfw_ctx *ctx, const char *name, int opt,
			const char *text, size_t len)
{
	const struct stats_sink *st = ctx->priv;
	bool json = opt < 0;	/* stats.json, named by no option */
	struct wultfw_file_spec spec = {
		.size = sizeof(spec), .flags = WULTFW_FILE_REPLACE,
		.name = name, .opt = opt,
		.kept_key = json ? "stats_rows_in_file" : NULL,
	};
	struct wultfw_file *f;
	int ret = wultfw_file_open(ctx, &spec, &f), cret;

	if (ret)
		return ret;
	ret = wultfw_file_write(ctx, f, text, len, json ? st->set.rows : 0);
	cret = wultfw_file_close(ctx, f, !ret);
	return ret ? ret : cret;
}

/*
 * What emit() prints, as a whole new file (a failed run never leaves half
 * a file). opt: the option that named it, or -1.
 */
static int write_file(struct wultfw_ctx *ctx, const char *name, int opt,
		      int (*emit)(struct stats_sink *st,
				  const struct wultfw_run_summary *sum, FILE *f),
		      const struct wultfw_run_summary *sum)
{
	struct stats_sink *st = ctx->priv;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int ret = m ? emit(st, sum, m) : -ENOMEM;

	if (m && fclose(m) && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = replace_file(ctx, name, opt, text, len);
	free(text);
	if (ret)
		return wultfw_fail(ctx, ret, "cannot write %s/%s: %s (free some "
				   "space or choose another result directory)",
				   st->outdir, name, strerror(-ret));
	return 0;
}

static int emit_json(struct stats_sink *st,
		     const struct wultfw_run_summary *sum, FILE *f)
{
	fputs("{\n  \"format_version\": 1,\n  \"experiment\": ", f);
	wfw_json_string(f, st->experiment);
	fprintf(f, ",\n  \"run\": {\"datapoints\": %llu, \"discarded\": %llu, "
		"\"duration_s\": %.3f, \"interrupted\": %s, \"failed\": %s, "
		"\"final\": %s},\n",
		(unsigned long long)st->set.rows,	/* what the statistics are of */
		(unsigned long long)(sum ? sum->discarded : 0),
		sum ? sum->duration_s : 0.0,
		sum && sum->interrupted ? "true" : "false",
		sum && sum->failed ? "true" : "false", sum ? "true" : "false");
	fputs("  \"percentiles\": [", f);
	for (size_t i = 0; i < st->npct; i++)
		fprintf(f, "%s%.10g", i ? ", " : "", st->pct[i]);
	fprintf(f, "],\n  \"percentile_method\": \"linear\",\n"
		"  \"stddev\": \"sample\",\n"
		"  \"histogram_relative_error\": %.6g,\n  \"stats\": ",
		WFW_HIST_REL_ERROR);
	if (wfw_report_json(&st->set, st->pct, st->npct, 2, f))
		return -ENOMEM;
	fputs("\n}\n", f);
	return 0;
}

/* While the run goes on: no summary yet, "final": false. */
static int write_interim(struct wultfw_ctx *ctx)
{
	struct stats_sink *st = ctx->priv;
	int ret = write_file(ctx, "stats.json", -1, emit_json, NULL);

	wfw_durable_synced(&st->interim);
	return ret;
}

static int emit_hist(struct stats_sink *st,
		     const struct wultfw_run_summary *sum, FILE *f)
{
	return stats_cychist_write(&st->hist, f);
}

static int emit_bins(struct stats_sink *st,
		     const struct wultfw_run_summary *sum, FILE *f)
{
	return stats_binhist_write(&st->bins, f);
}

static int stats_close(struct wultfw_ctx *ctx,
		       const struct wultfw_run_summary *sum)
{
	struct stats_sink *st = ctx->priv;
	int ret = 0, r;

	if (!st)
		return 0;
	if (ctx->verbosity > 0 && ((const struct stats_cfg *)ctx->cfg)->table) {
		printf("Statistics of %llu datapoints (%s; percentiles 'exact', or "
		       "'hist': from the histogram, within %.3f%%; '-': too few "
		       "datapoints for that percentile):\n",
		       (unsigned long long)st->set.rows,
		       st->experiment[0] ? st->experiment : "run",
		       WFW_HIST_REL_ERROR * 100);
		if (wfw_report_table(&st->set, st->pct, st->npct, stdout))
			ret = wultfw_fail(ctx, -ENOMEM, "out of memory");
		fflush(stdout);
	}
	if (((const struct stats_cfg *)ctx->cfg)->json) {
		r = write_file(ctx, "stats.json", -1, emit_json, sum);
		ret = ret ? ret : r;
	}
	if (st->hist_on) {
		r = write_file(ctx, ((const struct stats_cfg *)ctx->cfg)->histogram,
			       OPT_HISTOGRAM, emit_hist, sum);
		ret = ret ? ret : r;
	}
	if (st->bins_on) {
		r = write_file(ctx, ((const struct stats_cfg *)ctx->cfg)->text_histogram,
			       OPT_TEXT_HIST, emit_bins, sum);
		ret = ret ? ret : r;
	}
	stats_free(ctx);
	return ret;
}

static void stats_free(struct wultfw_ctx *ctx)
{
	struct stats_sink *st = ctx->priv;

	if (st->hist_on)
		stats_cychist_free(&st->hist);
	if (st->bins_on)
		stats_binhist_free(&st->bins);
	wfw_statset_free(&st->set);
	free(st->outdir);
	free(st->experiment);
	free(st);
	ctx->priv = NULL;
}

static const struct wultfw_sink_ops stats_ops = {
	.open = stats_open,
	.write = stats_write,
	.flush = stats_flush,
	.close = stats_close,
};

WULTFW_PLUGIN(stats) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SINK,
	.name = "stats",
	.summary = "statistics per metric and C-state: percentiles in bounded "
		   "memory, stats.json, cyclictest-format histogram",
	.options = stats_options,
	.sink = &stats_ops,
	.validate = stats_validate,
	.cfg_size = sizeof(struct stats_cfg),
};
