/* SPDX-License-Identifier: MIT */
/*
 * wultfw report's reading: the options it needs, the columns kept, rows
 * kept in bounded memory (report_keep.c) and one file read by several
 * threads (report_par.c). cmd_report.c parses the command line and
 * writes the report.
 */
#ifndef WFW_CORE_TOOLS_REPORT_LOAD_H
#define WFW_CORE_TOOLS_REPORT_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "datafmt/reader.h"
#include "report/report.h"
#include "suggest/suggest.h"

/* Results in one report, names in one list option. */
#define REP_MAX WFW_NAMES_MAX

struct rep_cli {
	const char *out, *title, *descr, *include, *exclude, *group_by;
	struct wfw_names ids, metrics, xaxes, yaxes, hist, chist;
	bool list, force, jobs_given;
	bool fleet;		/* --fleet: the results as SUTs (tools/fleet.h) */
	unsigned jobs;
	unsigned explain_top;	/* datapoints an explanation lists */
};

/*
 * What the report shows: tabs, scatter x axes, metrics with scatters,
 * with a histogram, with a CCDF (the last two: all unless *_given).
 */
struct rep_names {
	const char *metrics[REP_MAX], *xaxes[REP_MAX], *yaxes[REP_MAX];
	const char *hist[REP_MAX], *chist[REP_MAX];
	size_t nmetrics, nxaxes, nyaxes, nhist, nchist;
	bool hist_given, chist_given;
};

/* The main result's time column (for its collectors' timeline). */
extern const char *const rep_timeline_col;

/* How rows are kept while reading: where each kept column is, scratch. */
struct rep_keep {
	struct wfw_reservoir res;
	size_t cap;		/* rows r->vals and r->state have room for */
	int *kcol;		/* schema column of each kept column, or -1 */
	float *row;		/* one row of kept columns */
	/* Reading columns (report_cols.c): each kept column's array, divisor. */
	const double **src;
	double *div;
	/*
	 * A file whose rows are counted when opened, over the cap: its sample
	 * chosen as rows pass (rep_keep_plan()); this reader's rows are
	 * [first, end) of the file's. exact_dropped: the statistics crossed.
	 */
	struct wfw_seqsample plan;
	bool planned, exact_dropped;
	uint64_t first, end;
};

/*
 * The column giving the groups: --group-by's (-EINVAL if it is not a
 * name column), else the first default one there is, else -1.
 */
int rep_group_col(const struct rep_cli *c, const struct wultfw_schema *s);
/* Columns to keep in memory: the metrics and the scatter x axes. */
int rep_keep_columns(struct wfw_rep_result *r, const struct wultfw_schema *s,
		     const struct rep_names *nm, bool timeline);

/*
 * The sample of a file of `total` rows (over the cap), known when it is
 * opened, chosen as its rows pass (the same rows whatever the parts);
 * this reader reads rows [first, first + rows). r is sampled from now on.
 */
void rep_keep_plan(struct wfw_rep_result *r, struct rep_keep *k, uint64_t total,
		   uint64_t first, uint64_t rows);

/* Set up keeping r's rows: its tails, a sample seeded with `seed`. */
int rep_keep_init(struct wfw_rep_result *r, struct rep_keep *k, uint64_t seed);
void rep_keep_free(struct rep_keep *k);
/* The schema's column of each kept column (-1: none, or names). */
void rep_keep_map(struct wfw_rep_result *r, const struct wultfw_schema *s,
		  struct rep_keep *k);
/* Room for `need` kept rows (at most the sample's size). */
int rep_keep_grow(struct wfw_rep_result *r, struct rep_keep *k, size_t need);
/* Keep the batch's rows: into the sample, and into the tails. */
int rep_keep_rows(struct wfw_rep_result *r, const struct wultfw_schema *s,
		  int scol, const struct wultfw_batch *b, struct rep_keep *k);
/*
 * Over the cap: the statistics' percentiles from histograms from now on,
 * and the sample down to WFW_REPORT_SAMPLE_ROWS (uniformly).
 */
int rep_cross_cap(struct wfw_rep_result *r, struct rep_keep *k);
/* The same once more than `share` rows are selected (not sampled yet). */
int rep_cross_past(struct wfw_rep_result *r, struct rep_keep *k, uint64_t share);
/* Row `from` of src (or dst itself) into row `to` of dst; map: states. */
void rep_move_row(struct wfw_rep_result *dst, const struct wfw_rep_result *src,
		  size_t from, size_t to, const int32_t *map);
/* The kept rows, tails and statistics of r (not its file's info). */
void rep_free_kept(struct wfw_rep_result *r);

static inline int32_t rep_mapped(const int32_t *map, int32_t st)
{
	return st < 0 ? st : map[st];
}

/*
 * A binary file without a selection, read column by column (only the
 * columns the statistics and plots need are decoded) into r's statistics
 * and kept rows; the sample crosses the cap past `share` rows. 0, -ENOMEM,
 * or the reader's error (wfw_reader_error() says it).
 */
int rep_read_cols(struct wfw_rep_result *r, struct wfw_reader *rd, int scol,
		  struct rep_keep *k, uint64_t share);

/*
 * Latency attribution (report_attrib.c): is it kept for r (its file has
 * the columns and explains a metric shown; warn: say why not, where the
 * columns are there)? Its accumulator (r->attrib), freed with the thread
 * names; finished after the last row (sorted, thread names read).
 */
bool rep_attrib_wanted(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       const struct rep_names *nm, bool warn);
int rep_attrib_init(struct wfw_rep_result *r, const char *latency);
void rep_attrib_free(struct wfw_rep_result *r);
void rep_attrib_finish(struct wfw_rep_result *r);

/* Threads to read r's file with: -j; one for small files, to select rows, or a timeline. */
unsigned rep_jobs_for(const struct rep_cli *c, const struct wfw_rep_result *r);
/*
 * Read r's file in n parts at once, merged into r (with its attribution:
 * rep_attrib_wanted()). 0, or anything else:
 * read it with one reader instead (that one says what is wrong).
 */
int rep_load_parts(const struct rep_cli *c, struct wfw_rep_result *r,
		   const struct rep_names *nm, unsigned n, bool attrib);

#endif
