/* SPDX-License-Identifier: MIT */
/*
 * The data of an HTML report (wultfw report): per result its info.yml,
 * its statistics and the columns to plot; written as data.js, which the
 * report's page (lib/report/assets/) turns into tables and plots.
 */
#ifndef WFW_REPORT_REPORT_H
#define WFW_REPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "datafmt/infoyml.h"
#include "stats/statset.h"

/* Points a result's scatter plot gets before it is reduced to density. */
#define WFW_REPORT_MAX_POINTS 40000
/*
 * Then: every datapoint above the 99th percentile of the metric as itself,
 * or above a higher one when that would be more than this many, so a
 * 10-million-datapoint result still opens in seconds.
 */
#define WFW_REPORT_TAIL_POINTS 10000
/* The density of the rest: grid cells per axis. */
#define WFW_REPORT_GRID 100
/* Histogram bins, and the largest values a CCDF shows one by one. */
#define WFW_REPORT_BINS 200
#define WFW_REPORT_CCDF_TAIL 2000

/* One counter a collector sampled: CLOCK_MONOTONIC ns and values. */
struct wfw_rep_series {
	char *file, *name;
	const char *unit;
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
};

struct wfw_rep_result {
	const char *id;			/* report id */
	char path[4096];		/* the data file */
	struct wfw_infoyml info;
	struct wfw_statset set;		/* the metrics, by ReqCState */
	bool have_set;
	uint64_t rows_read;
	size_t nrows;			/* rows selected and kept */
	/* Columns kept for plotting, by name; NULL where the file lacks one. */
	size_t ncols;
	const char **colnames;
	const char **units;
	float **vals;			/* [col][row] */
	int32_t *state;			/* group index per row, -1: none */
	const char *group_by;		/* the group column (ReqCState), or NULL */
	const char *const *state_names;
	size_t nstates;
	/* LTime is kept as ns after the first row's, time0_ns (float precision). */
	double time0_ns;
	char *collectors;		/* info.yml's collector files, or NULL */
	struct wfw_rep_timeline timeline;
};

struct wfw_report {
	const char *title, *descr;
	const char *const *metrics;	/* plotted metrics, by name */
	size_t nmetrics;
	const char *const *xaxes;	/* scatter x axes (LDist, SilentTime) */
	size_t nxaxes;
	const char *const *yaxes;	/* metrics with scatters; none: all */
	size_t nyaxes;
	struct wfw_rep_result *res;
	size_t nres;
};

/* The index of `name` among r's kept columns, or -1. */
int wfw_rep_col(const struct wfw_rep_result *r, const char *name);

/*
 * The value of `metric` above which a scatter shows each datapoint itself:
 * its 99th percentile, or a higher one leaving WFW_REPORT_TAIL_POINTS.
 */
double wfw_rep_ytail(struct wfw_rep_result *r, const char *metric);

/* "x": [..], "y": [..], "w": [..] of reduced points, for data.js. */
struct wfw_wpoint;
void wfw_rep_wpoints(FILE *f, const struct wfw_wpoint *p, size_t n);

/*
 * Read the collector files `collectors` (info.yml's comma-separated list)
 * of the result directory `dir`. Files that cannot be read are noted in
 * t->notes, not errors. 0 or -ENOMEM.
 */
int wfw_timeline_load(struct wfw_rep_timeline *t, const char *dir,
		      const char *collectors);
/* r's timeline for data.js, with `metric` on the same time axis. */
int wfw_timeline_emit(struct wfw_rep_result *r, const char *metric, FILE *f);
void wfw_timeline_free(struct wfw_rep_timeline *t);

/* Write data.js (window.WFW_REPORT = {...};). 0 or -ENOMEM. */
int wfw_report_write_data(const struct wfw_report *rep, FILE *f);

#endif
