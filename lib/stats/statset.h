/* SPDX-License-Identifier: MIT */
/*
 * Statistics of every numeric column of a schema, per group (the values of
 * an ENUM column such as ReqCState) and overall. Shared by the stats sink
 * and `wultfw calc`.
 *
 * Why per group only: the overall statistics are the merge of the groups
 * (moments merge exactly, histograms share buckets, kept values
 * concatenate), so each value is accumulated once, not twice.
 */
#ifndef WFW_STATS_STATSET_H
#define WFW_STATS_STATSET_H

#include <stddef.h>
#include <stdint.h>

#include <wultfw/plugin.h>

#include "stats/moments.h"
#include "stats/stagemms.h"
#include "stats/stats.h"

#define WFW_STATS_DEF_EXACT_LIMIT 100000
#define WFW_STATS_DEF_EXACT_MEMORY (32u << 20)

struct wfw_statset_cfg {
	size_t exact_limit;	/* values kept exactly per metric and group */
	size_t exact_memory;	/* bytes for kept values, all metrics and
				 * groups (each metric an equal share); 0: none */
	const char *group_by;	/* ENUM column to group by; NULL: none */
	const char *const *metrics;	/* name patterns (fnmatch); NULL: all */
	size_t nmetrics;
	/*
	 * Also take text columns with no names yet (a one-pass reader's
	 * columns that were empty in the rows it learned from): they count
	 * once a number turns them numeric (see wfw_statset_sync()).
	 */
	bool pending_text;
	/*
	 * Bytes calc may use (0: no bound). Where a histogram for each group
	 * and metric would take more than a quarter of it, groups past the
	 * switch point take sketches instead (wfw_statset_sketched()).
	 */
	uint64_t mem_limit;
	/*
	 * With metrics NULL, "all" leaves out the raw absolute timestamps
	 * (LTime, TBI, TAI, TIntr): points in time, not quantities, so their
	 * percentiles mean nothing. Asked for by name, they are computed.
	 */
};

struct wfw_statset {
	const struct wultfw_schema *schema;
	size_t nmetrics;
	size_t *mcol;		/* schema column of each metric */
	int gcol;		/* grouping column or -1 */
	size_t ngroups;		/* n_enum + 1 ("-": no state) or 1 */
	/*
	 * acc[metric * gcap + slot]: group g < ngroups - 1 in slot g, "-" in
	 * slot gcap - 1, the slots between empty. Room for groups grows by
	 * doubling, so a file naming groups as rows come costs linear time.
	 * Use wfw_statset_acc().
	 */
	size_t gcap;
	struct wfw_acc *acc;
	uint64_t *nans;		/* per metric: NaN cells skipped */
	uint64_t *empties;	/* per metric: empty cells skipped */
	uint64_t *outs;		/* per metric: cells out of range skipped
				 * (infinite, beyond WFW_VALUE_MAX) */
	int *mtype;		/* per metric: the column type accumulated */
	uint32_t *mdiv;		/* per metric: the divisor accumulated */
	uint64_t rows;
	size_t exact_limit;	/* per metric: min(exact_limit, budget) */
	size_t budget;		/* values kept per metric, all groups */
	struct wfw_acc_pool *pool;	/* per metric: its groups' room */
	uint64_t *settled;	/* per metric: rows + 1 when last settled */
	/* scratch for one chunk of rows */
	uint32_t *order;	/* the chunk's rows, group by group */
	uint32_t *slot;		/* each row's group slot */
	uint32_t *touched;	/* the slots the chunk has rows of */
	uint32_t *tstart, *tcount;	/* where their rows are in order */
	size_t ntouched;
	/* the slots with values staged in this batch (flushed at its end) */
	uint32_t *staged;
	uint8_t *is_staged;	/* per slot */
	size_t nstaged;
	const union wultfw_cell **colp;	/* a row-major batch's columns */
	size_t ncolp;
	uint32_t *gcount;	/* per slot: 0 outside group_rows() */
	bool nums;		/* adding numbers (wfw_statset_add_nums()) */
	const bool *may_nan;	/* its may_nan (false: every value in range) */
	/* [metric * KEEP_STAGES_SLOTS + slot]: its stage's min, max, sum */
	struct wfw_stage_mms *smms;
	char **gmerged;		/* names of groups only a merged part had */
	size_t *gorder;		/* the groups in listing order (wfw_cstate_cmp()) */
	bool gsorted;		/* gorder is up to date (sorted when asked) */
	uint64_t mem_limit;	/* cfg's */
	bool sketch;		/* the pools hand out sketches, not histograms */
};

/* The accumulator of metric m, group g (g < ngroups). */
static inline struct wfw_acc *wfw_statset_acc(const struct wfw_statset *s,
					      size_t m, size_t g)
{
	size_t slot = g + 1 < s->ngroups ? g : s->gcap - 1;

	return &s->acc[m * s->gcap + slot];
}

/* A summary in display units (raw value / column divisor). */
struct wfw_summary {
	uint64_t count;
	double min, max, mean, stddev;
	bool exact;		/* percentiles exact, else within the bound */
	size_t npct;
	double pct[32];		/* for the percentiles asked for */
};
#define WFW_SUMMARY_MAX_PCT 32

/*
 * Build for `schema` (kept by reference). On error writes why into err and
 * returns a negative errno (-ENOENT: no metric matches, no such group_by).
 */
int wfw_statset_init(struct wfw_statset *s, const struct wultfw_schema *schema,
		     const struct wfw_statset_cfg *cfg, char *err, size_t errlen);
void wfw_statset_free(struct wfw_statset *s);

/*
 * Add a batch. The schema may have changed since the last batch (a
 * one-pass reader: a column turned from INT to FLOAT or from empty text to
 * numeric, new names in the group column); what was accumulated is
 * converted first.
 */
int wfw_statset_add(struct wfw_statset *s, const struct wultfw_batch *b);

/*
 * The same for rows in any layout: cell r of schema column c is
 * col[c][r * stride] (a row-major batch: col[c] = cells + c, stride =
 * ncols; one array per column: stride 1). Only the columns that
 * wfw_statset_reads() names are read; the others' pointers may be NULL.
 * -EINVAL for a stride above UINT32_MAX / 256.
 */
int wfw_statset_add_cols(struct wfw_statset *s, const union wultfw_cell *const *col,
			 size_t stride, size_t rows);

/*
 * The same for one array per column (stride 1) whose INT cells are
 * numbers already, as a wfw_col_batch with `numbers` holds them: cell.f =
 * (double)cell.i, an empty cell the empty NaN. Saves converting them here.
 * may_nan[c] false: column c has no NaN and no value out of range
 * (wfw_value_ok()), so none is looked for (NULL: look in every column).
 */
int wfw_statset_add_nums(struct wfw_statset *s, const union wultfw_cell *const *col,
			 const bool *may_nan, size_t rows);
/*
 * The same, and where sums[c].ok (sums may be NULL) column c's
 * wfw_min_max_sum() is known (from a decoder: wfw_col_batch.sums), so it
 * is not taken again.
 */
int wfw_statset_add_nums_sums(struct wfw_statset *s, const union wultfw_cell *const *col,
			      const bool *may_nan, const struct wfw_run_sums *sums,
			      size_t rows);

/* Whether add_cols reads schema column c (a metric or the group column). */
bool wfw_statset_reads(const struct wfw_statset *s, size_t c);

/* Catch up with schema changes (wfw_statset_add() does it itself). */
int wfw_statset_sync(struct wfw_statset *s);

/*
 * Add what `src` accumulated over another part of the same file (the same
 * header) to dst: metrics by column, groups by name, types brought to one
 * (INT parts that disagree become FLOAT). src may be converted; free it
 * after. -EAGAIN: the parts disagree on what a column is (text in one,
 * numbers in another): read the file whole to get the error.
 */
int wfw_statset_merge(struct wfw_statset *dst, struct wfw_statset *src);

/* Metric m is a text column still waiting for its first number. */
bool wfw_statset_pending(const struct wfw_statset *s, size_t m);

/*
 * The i-th group to list: groups are listed by wfw_cstate_cmp() of their
 * names (POLL, C1, C1E, C2 ... C10, other names, "-"), whatever order
 * the file named them in.
 */
size_t wfw_statset_group_at(const struct wfw_statset *s, size_t i);

/* The group called `name`, or SIZE_MAX (a binary search in that order). */
size_t wfw_statset_group_find(const struct wfw_statset *s, const char *name);

/* Name of group g: the enum name, or "-" for rows without a state. */
const char *wfw_statset_group_name(const struct wfw_statset *s, size_t g);
const struct wultfw_column *wfw_statset_metric(const struct wfw_statset *s,
					       size_t m);
uint64_t wfw_statset_group_count(const struct wfw_statset *s, size_t g);

/*
 * Summary of metric m for group g, or for all rows with g == SIZE_MAX.
 * p: percentiles (0-100), np <= WFW_SUMMARY_MAX_PCT.
 */
int wfw_statset_summary(struct wfw_statset *s, size_t m, size_t g,
			const double *p, size_t np, struct wfw_summary *out);

/*
 * Whether n values say anything about the p-th percentile: at least one
 * value beyond it on the nearer end's side, n >= 100 / (100 - p) (or
 * 100 / p below the median); with fewer it is the largest (smallest)
 * value under another name (p99.999 of 100 values). p0 and p100 (min,
 * max): one value.
 */
bool wfw_pct_supported(double p, uint64_t n);

/*
 * A summary as a table shows it: percentiles its count does not support
 * (wfw_pct_supported()) and the std of fewer than 2 values made NaN,
 * which wfw_fmt_value() prints as "-". JSON keeps every value (with
 * count beside it). p: the percentiles of sum.
 */
void wfw_summary_shown(struct wfw_summary *sum, const double *p);

/*
 * Where percentiles switch to the histogram: a group (of any metric) with
 * at most this many values is exact. Without groups exact_limit; with
 * groups each metric's fair share of its room for kept values (struct
 * wfw_acc_pool), which depends on the groups' counts, not on how many
 * names the group column has; never below WFW_POOL_HIST_MIN - 1.
 */
size_t wfw_statset_switch_point(const struct wfw_statset *s);

/*
 * Sketches instead of histograms from now on if the groups are too many
 * for histograms within cfg's mem_limit; the histograms held become
 * sketches (the same buckets: the same estimates). 0 or -ENOMEM.
 */
int wfw_statset_choose_sketch(struct wfw_statset *s);
/* How many groups have a metric whose percentiles come from a sketch. */
size_t wfw_statset_sketched(const struct wfw_statset *s);

/* Bytes held by all accumulators. */
size_t wfw_statset_bytes(const struct wfw_statset *s);

#endif
