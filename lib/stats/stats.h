/* SPDX-License-Identifier: MIT */
/*
 * Streaming statistics of one metric: count, min, max, mean, standard
 * deviation and percentiles, in bounded memory.
 *
 * Values are kept exactly (so percentiles are exact) until `exact_limit`
 * values have been seen; then they move into a log-linear histogram
 * (hist.h) and percentiles carry at most WFW_HIST_REL_ERROR relative error.
 * Mean and variance never lose exactness to the histogram: the variance
 * is accumulated per block (up to WFW_ACC_STAGE values) with a two-pass
 * sum and combined with the parallel form of Welford's update (Chan,
 * Golub, LeVeque), which stays accurate for billions of values; the mean
 * is a compensated sum over the count.
 *
 * Percentiles follow the "linear" definition (also pandas' and numpy's
 * default): rank h = (n - 1) * p / 100, interpolated between the values of
 * ranks floor(h) and floor(h) + 1.
 */
#ifndef WFW_STATS_STATS_H
#define WFW_STATS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/acc.h"
#include "stats/hist.h"
#include "stats/moments.h"
#include "stats/room.h"

/*
 * The values statistics take: finite, of magnitude at most FLT_MAX
 * (3.4e38; INT64 extremes, 9.2e18, are inside), so that no sum, mean or
 * variance of up to 2^64 of them overflows a double, and a report's
 * floats hold every value its numbers count. The statistics of a column
 * (statset.h) leave out the others -- NaN, the infinities, 1e300 -- and
 * count them; the accumulators below take only values in range.
 */
#define WFW_VALUE_MAX 3.4028234663852886e38	/* FLT_MAX */
#define WFW_VALUE_MAX_TEXT "3.4e38"	/* as messages say it */

static inline bool wfw_value_ok(double v)
{
	return v >= -WFW_VALUE_MAX && v <= WFW_VALUE_MAX;	/* NaN: false */
}

/*
 * Values gathered but not yet added (see wfw_acc_stage()): added a block
 * at a time, so that per-group pieces of a batch cost little each.
 */
#define WFW_ACC_STAGE 1024
#define WFW_ACC_STAGE_ROOM 256	/* free room wfw_acc_stage() returns */

void wfw_acc_init(struct wfw_acc *a, size_t exact_limit, bool integers);
void wfw_acc_free(struct wfw_acc *a);

/* Add values, each wfw_value_ok(). Return 0 or -ENOMEM. */
int wfw_acc_add(struct wfw_acc *a, double v);
int wfw_acc_add_many(struct wfw_acc *a, const double *v, size_t n);
/* The same with s: wfw_min_max_sum() of v from INFINITY, -INFINITY, found already. */
int wfw_acc_add_sums(struct wfw_acc *a, const double *v, size_t n,
		     const struct wfw_run_sums *s);
/*
 * Add values in place: wfw_acc_stage() returns where up to
 * WFW_ACC_STAGE_ROOM values may be written (NULL: out of memory), and
 * wfw_acc_staged() says how many were. They count in n, the moments and
 * percentiles once wfw_acc_flush() ran (on a full stage, before a
 * percentile, a merge or a scale): flush before reading n, min, max, mean.
 */
double *wfw_acc_stage(struct wfw_acc *a);
/* The same with room for n <= WFW_ACC_STAGE_ROOM (the stage grows to it). */
double *wfw_acc_stage_n(struct wfw_acc *a, size_t n);
/* Give the stage's memory back (nothing staged): many groups hold none. */
void wfw_acc_unstage(struct wfw_acc *a);
int wfw_acc_staged(struct wfw_acc *a, size_t n);
int wfw_acc_flush(struct wfw_acc *a);
/* The same with the stage's wfw_min_max_sum() known (stagemms.h). */
int wfw_acc_flush_known(struct wfw_acc *a, double lo, double hi, double sum);
/* Add everything `src` has seen to `dst` (src is not changed). */
int wfw_acc_merge(struct wfw_acc *dst, const struct wfw_acc *src);

static inline bool wfw_acc_exact(const struct wfw_acc *a)
{
	return !a->hist;
}

/*
 * Multiply everything seen by num / den > 0 (a column read as raw integers
 * that turned out to be FLOAT: 1 / divisor); `integers` is the new kind.
 */
int wfw_acc_scale(struct wfw_acc *a, double num, double den, bool integers);

/* Sample standard deviation (n - 1 in the denominator); 0 if n < 2. */
double wfw_acc_stddev(const struct wfw_acc *a);
/*
 * Percentile p in [0, 100]; NaN when empty. May sort the kept values,
 * hence not const.
 */
double wfw_acc_percentile(struct wfw_acc *a, double p);
/*
 * The same for np <= WFW_ACC_MAX_PCT percentiles at once (one walk of the
 * histogram for them all): out[i] for p[i]. -EINVAL, -ENOMEM.
 */
#define WFW_ACC_MAX_PCT 32
int wfw_acc_percentiles(struct wfw_acc *a, const double *p, size_t np,
			double *out);
/* Bytes held for values or buckets. */
size_t wfw_acc_bytes(const struct wfw_acc *a);

#endif
