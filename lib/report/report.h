/* SPDX-License-Identifier: MIT */
/*
 * The data of an HTML report (wultfw report): per result its info.yml,
 * its statistics and the columns to plot; written as data.js, which the
 * report's page (lib/report/assets/) turns into tables and plots.
 */
#ifndef WFW_REPORT_REPORT_H
#define WFW_REPORT_REPORT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "datafmt/infoyml.h"
#include "explain/explain.h"
#include "report/attrib.h"
#include "report/reduce.h"
#include "report/sample.h"
#include "stats/statset.h"

/* Points a result's scatter plot gets before it is reduced to density. */
#define WFW_REPORT_MAX_POINTS 10000
/*
 * Then: every datapoint above the 99th percentile of the metric as itself,
 * or above a higher one when that would be more than this many, and the
 * rest as density, so a plot is a few thousand markers at any size: the
 * first tab of a 10-million-datapoint result draws in about 2 s even with
 * software WebGL (doc/report.md, "Drawing").
 */
#define WFW_REPORT_SCATTER_TAIL 1000
/*
 * Each metric's largest rows a result above WFW_REPORT_KEEP_ROWS keeps
 * exactly while reading: its histogram's top and its CCDF are exact there.
 */
#define WFW_REPORT_TAIL_POINTS 10000
/* The density of the rest: grid cells per axis. */
#define WFW_REPORT_GRID 30
/* Histogram bins, and the largest values a CCDF shows one by one. */
#define WFW_REPORT_BINS 200
/*
 * The bins span the least value to WFW_REPORT_BINS_SPAN times the
 * distance from there to the WFW_REPORT_BINS_PCT percentile (or to the
 * greatest value when that is nearer): the bulk, 99.9% of the values,
 * always fills at least half of the bins, whatever far outliers (an SMI
 * of 500 us among wakeups of 10 us) the result has. Values above the last
 * bin are counted in an "over" bin, labelled with its range.
 */
#define WFW_REPORT_BINS_PCT 99.9
#define WFW_REPORT_BINS_SPAN 2.0
#define WFW_REPORT_CCDF_TAIL 2000
/*
 * Rows a result keeps for its plots. Up to this many selected rows it
 * keeps them all and the report is exact; above, a uniform sample of
 * WFW_REPORT_SAMPLE_ROWS (seeded: the same file gives the same report)
 * draws the density, and each metric's WFW_REPORT_TAIL_POINTS largest rows are kept
 * exactly for the tail. One million: the statistics' percentiles are
 * exact up to there too (WFW_REPORT_EXACT_LIMIT), and a million rows of
 * the default five plotted columns are about 24 MB (the whole report
 * stays within 64 MiB of memory at any size).
 */
#define WFW_REPORT_KEEP_ROWS 1000000
/*
 * The sample's size once a result is over the cap: a density cell or
 * histogram bin holding 0.1% of the datapoints gets 250 of them (+-6%),
 * and sampling 10 M rows replaces rows about 0.6 M times instead of
 * 2.3 M (reservoir sampling replaces M ln(N / M) times).
 */
#define WFW_REPORT_SAMPLE_ROWS 250000
#define WFW_REPORT_SEED 0x7265706f72743134ull
/* Threads reading one file at most. */
#define WFW_REPORT_MAX_PARTS 8

struct wfw_reader;

/*
 * What a counter's values are (info.yml's collectN_telemetry_kinds,
 * doc/telemetry.md): unknown (no such key: shown as read), a running
 * total, the increase since the previous sample, a level (a gauge).
 */
enum wfw_rep_kind { WFW_KIND_UNKNOWN, WFW_KIND_TOTAL, WFW_KIND_INCREASE, WFW_KIND_LEVEL };

/* One counter a collector sampled: CLOCK_MONOTONIC ns and values. */
struct wfw_rep_series {
	char *file, *name;
	const char *unit;	/* timeline.c's own copy */
	enum wfw_rep_kind kind;
	int col;
	size_t n, cap;
	double *t, *v;
};

/* A result's collector files (timeline.c); loaded: info.yml lists some. */
struct wfw_rep_timeline {
	bool loaded;
	double t0_ns;			/* the earliest sample */
	struct wfw_rep_series *series;
	size_t nseries;
	char notes[1024];		/* files that could not be read, and why */
	const char *own;		/* a telemetry result's data file, or NULL */
	uint64_t left_out;		/* the file being read: values out of range */
};

/*
 * A value as a report keeps it for its plots, a float: NaN (no value,
 * never plotted) for what the statistics leave out (wfw_value_ok(): NaN,
 * the infinities, beyond FLT_MAX), so that the plots and the numbers
 * count the same values and no infinity reaches a plot.
 */
static inline float wfw_rep_float(double v)
{
	return wfw_value_ok(v) ? (float)v : NAN;
}

struct wfw_rep_result {
	const char *id;			/* report id */
	char path[4096];		/* the data file */
	struct wfw_infoyml info;
	struct wfw_statset set;		/* the metrics, by ReqCState */
	bool have_set;
	uint64_t rows_read;
	uint64_t nsel;			/* rows selected: what the plots show */
	size_t nrows;			/* rows kept: all nsel, or a sample */
	bool sampled;			/* nrows is a uniform sample of nsel */
	/* Columns kept for plotting, by name; NULL where the file lacks one. */
	size_t ncols;
	const char **colnames;
	const char **units;
	float **vals;			/* [col][row] */
	int32_t *state;			/* group index per row, -1: none */
	/*
	 * Per metric (the first ntails columns) the rows with its largest
	 * values, each row all ncols columns: the exact tail of a sample.
	 */
	struct wfw_topk *tails;
	size_t ntails;
	const char *group_by;		/* the group column (ReqCState), or NULL */
	const char *const *state_names;
	size_t nstates;
	/* Read in parts: their readers (they own the names), merged names. */
	struct wfw_reader *part_rd[WFW_REPORT_MAX_PARTS];
	unsigned nparts;
	const char **merged_names;
	/* LTime is kept as ns after the first row's, time0_ns (float precision). */
	double time0_ns;
	char *collectors;		/* info.yml's collector files, or NULL */
	char *source;			/* info.yml's source (timer, hrt...), or NULL */
	struct wfw_rep_timeline timeline;
	/*
	 * Latency attribution (doc/attribution.md): info.yml's
	 * attrib_latency, and when the file has the columns, what was kept
	 * of them and the names of attrib-threads.csv; else NULL.
	 */
	char *attrib_latency;
	char *attrib_smi, *attrib_lost;	/* why no SMICnt; events lost */
	struct wfw_attrib *attrib;
	struct wfw_xp_threads threads;
	char attrib_notes[1024];	/* what the section cannot show, and why */
};

struct wfw_report {
	const char *title, *descr;
	const char *const *metrics;	/* plotted metrics, by name */
	size_t nmetrics;
	const char *const *xaxes;	/* scatter x axes (LDist, SilentTime) */
	size_t nxaxes;
	const char *const *yaxes;	/* metrics with scatters; none: all */
	size_t nyaxes;
	/*
	 * Metrics with a histogram (--hist) and with a CCDF (--chist): all
	 * unless given; given and empty: none.
	 */
	const char *const *hist, *const *chist;
	size_t nhist, nchist;
	bool hist_given, chist_given;
	struct wfw_rep_result *res;
	size_t nres;
	unsigned jobs;			/* metrics written at once (threads) */
	size_t explain_top;		/* datapoints an explanation lists */
};

struct wfw_wpoint;

/* ---- sampled.c: the plots of a sampled result ---- */

/*
 * Reduced points of a sampled result (r->sampled) for y column yc (one of
 * the tails) against x column xc, x drawn as (x + xoff) / xdiv: every
 * tail row of group g (LONG_MIN: all) as itself, the sample's other rows
 * as grid density weighted to stand for all the group's other rows
 * (`rows` of them, NaNs left out). *out is malloc'ed; 0 or -ENOMEM.
 */
int wfw_rep_sampled_points(const struct wfw_rep_result *r, int xc, int yc,
			   long g, uint64_t rows, double xoff, double xdiv,
			   struct wfw_wpoint **out, size_t *n);

/*
 * Histogram and CCDF of a sampled result's metric column c, for data.js;
 * `all`: the statistics of all its rows (with the summary's percentiles);
 * groups_ccdf: each group's CCDF too ("ccdf_groups").
 */
int wfw_rep_sampled_dist(struct wfw_rep_result *r, int c,
			 const struct wfw_summary *all, bool groups_ccdf, FILE *f);

/* ---- pieces.c: what every part of data.js is made of ---- */

/* The percentiles of a summary row, and of a metric's histogram bins. */
#define WFW_REP_NPCTS 6
extern const double wfw_rep_pcts[WFW_REP_NPCTS];

/* The index of metric `name` in s, or SIZE_MAX. */
size_t wfw_rep_metric(const struct wfw_statset *s, const char *name);

/*
 * From the statistics of column c's metric: its values (NaNs and empty
 * cells left out) in state g (-1: rows without one, LONG_MIN: all rows),
 * and its least and greatest value (as floats, 0 when none).
 */
uint64_t wfw_rep_rows(struct wfw_rep_result *r, int c, long g);

/* A metric's histogram bins in one result (its groups binned alike). */
struct wfw_rep_bins {
	struct wfw_bins b;
	double max;		/* the greatest value: "over" is (b.hi, max] */
	double pct;		/* the percentile b.hi was scaled from */
	uint64_t rows;		/* values (NaNs and empty cells left out) */
};

/*
 * A result's bins of a metric from the summary of all its rows (least
 * and greatest value and the WFW_REPORT_BINS_PCT percentile, as the kept
 * floats are: no pass over the rows); 0..1 when it has no value.
 */
void wfw_rep_bins(const struct wfw_summary *all, struct wfw_rep_bins *rb);

/*
 * "hist": {...} of data.js: the bins, counts[nbins], the values above
 * them (`over`; over_exact false when it is an estimate from a sample),
 * then the caller adds "groups" and closes it. And a group's
 * {"name": .., "counts": [..], "over": n}.
 */
void wfw_rep_hist_json(FILE *f, const struct wfw_rep_bins *rb,
		       const uint64_t *counts, uint64_t over, bool over_exact);
void wfw_rep_group_hist_json(FILE *f, const char *name, size_t nbins,
			     const uint64_t *counts, uint64_t over);

/* A number for data.js (null when not finite); a CCDF's {"x", "p"}. */
void wfw_rep_num(FILE *f, double v);
void wfw_rep_ccdf_json(FILE *f, const float *x, const double *p, size_t k);
/* A group's CCDF: `{"name": .., "ccdf": ` (the caller adds it and "}"). */
void wfw_rep_group_ccdf_open(FILE *f, const char *name);

/*
 * "states": [..]: the groups (requested C-states) that have rows in any
 * result, each once, by depth as calc lists them (wfw_cstate_cmp()): the
 * page's order and colours of them, alike for every result.
 */
int wfw_rep_states_json(const struct wfw_report *rep, FILE *f);

/* The index of `name` among r's kept columns, or -1. */
int wfw_rep_col(const struct wfw_rep_result *r, const char *name);

/*
 * The percentile above which a scatter of nrows shows each datapoint
 * itself: 99, or a higher one leaving WFW_REPORT_SCATTER_TAIL.
 */
double wfw_rep_tail_pct(size_t nrows);
/* The value of `metric` at that percentile. */
double wfw_rep_ytail(struct wfw_rep_result *r, const char *metric);

/* "x": [..], "y": [..], "w": [..] of reduced points, for data.js. */
void wfw_rep_wpoints(FILE *f, const struct wfw_wpoint *p, size_t n);

/* ---- timeline.c: the collectors' counters over time ---- */

/*
 * Read the collector files `collectors` (info.yml's comma-separated list)
 * of the result directory `dir`. Files that cannot be read are noted in
 * t->notes, not errors. 0 or -ENOMEM.
 */
int wfw_timeline_load(struct wfw_rep_timeline *t, const char *dir,
		      const char *collectors);
/*
 * Each counter's kind from `info` (the result's info.yml): the words of
 * collectN_telemetry_kinds for the file collectN_file names, in the order
 * of its counter columns (NAME.Time columns are no counters). A word
 * count that does not match leaves the file's kinds unknown.
 */
void wfw_timeline_kinds(struct wfw_rep_timeline *t, const struct wfw_infoyml *info);
/* The same from the words of one file's kinds (telemetry_kinds). */
void wfw_timeline_file_kinds(struct wfw_rep_timeline *t, const char *file,
			     const char *words);
/*
 * r's timeline for data.js, with `metric` on the same time axis, and the
 * first `marks` of the datapoints its explanation lists marked.
 */
int wfw_timeline_emit(struct wfw_rep_result *r, const char *metric,
		      size_t marks, FILE *f);
/* Where the timeline's time axis starts: CLOCK_MONOTONIC ns. */
double wfw_timeline_t0(const struct wfw_rep_result *r);

/* ---- telemetry.c: counters as drawn; a telemetry result's counters ---- */

/*
 * A total's or an increase's rate per second over each interval of every
 * `step`-th sample (the last one shorter), at the interval's end: into
 * t[] (ns) and r[] (NaN: time did not advance, or a total went down),
 * one per interval, v->n - 1 with step 1. Their count.
 */
size_t wfw_rep_rates(const struct wfw_rep_series *v, size_t step,
		     double *t, double *r);
/*
 * A series for data.js: {"file", "name", "unit", "kind", "rate", "samples",
 * "step", "t": [s from t0], "v": [..]}, a total or increase as its rates
 * (rate: true), the rest as read; at most about max_points. 0 or -ENOMEM.
 */
int wfw_rep_series_json(FILE *f, const struct wfw_rep_series *v,
			size_t max_points, double t0);
/* Is r a telemetry source's result (info.yml source: telemetry)? */
bool wfw_rep_is_telemetry(const struct wfw_rep_result *r);
/*
 * A telemetry result's timeline: its data file `file` of `dir` (kinds
 * from info.yml's telemetry_kinds) and its collectors, if any. 0 or
 * -ENOMEM; t->own is `file`, which must outlive t.
 */
int wfw_telemetry_load(struct wfw_rep_timeline *t, const char *dir,
		       const char *file, const char *collectors,
		       const struct wfw_infoyml *info);

/* ---- skid.c: a skid result along its runway ---- */

/*
 * data.js's skid view of r (doc/skid.md): per precise level its samples
 * by class (Where) and histograms of Skid and SkidBytes, read again from
 * r's data file; null when r has no Skid column. 0, or -ENOMEM.
 */
int wfw_skid_emit(const struct wfw_rep_result *r, FILE *f);

/* ---- attrib_emit.c: the explanation of a latency metric ---- */

/* Collector counters shown beside each listed datapoint, at most. */
#define WFW_REPORT_EXPLAIN_COUNTERS 16
/* --explain-top's bound; the timeline marks at most this many. */
#define WFW_REPORT_EXPLAIN_TOP_MAX 1000
#define WFW_REPORT_EXPLAIN_MARKS 100

/*
 * r's explanation of `metric` (in `unit`; `all`: its summary of every
 * datapoint, with wfw_rep_pcts) for data.js ({...}), or null when r has
 * no attribution of it. 0 or -ENOMEM.
 */
int wfw_attrib_emit(const struct wfw_report *rep, struct wfw_rep_result *r,
		    const char *metric, const char *unit,
		    const struct wfw_summary *all, FILE *f);
void wfw_timeline_free(struct wfw_rep_timeline *t);

/* ---- attrib_bands.c: bands and words of a set of rows ---- */

/*
 * `, "values": .., "explained": .., "mismatched": .., "tail_whole": ..,
 * "kept": .., "bands": [..], "text": [..]` of the rows in `set`, whose
 * statistics `s` has (with wfw_rep_pcts): the tail at its p99.9. `words`
 * has the metric, unit, threads and group; the rest is filled here.
 * 0 or -ENOMEM.
 */
int wfw_attrib_set_json(FILE *f, const struct wfw_attrib_set *set,
			const struct wfw_summary *s, struct wfw_xp_in *words);

/* ---- emit.c ---- */

/* Write data.js (window.WFW_REPORT = {...};). 0 or -ENOMEM. */
int wfw_report_write_data(const struct wfw_report *rep, FILE *f);

#endif
