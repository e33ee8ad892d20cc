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

#include "stats/hist.h"
#include "stats/moments.h"

/*
 * Values gathered but not yet added (see wfw_acc_stage()): added a block
 * at a time, so that per-group pieces of a batch cost little each.
 */
#define WFW_ACC_STAGE 1024
#define WFW_ACC_STAGE_ROOM 256	/* free room wfw_acc_stage() returns */

struct wfw_acc_pool;

struct wfw_acc {
	uint64_t n;
	double min, max;
	double mean, m2;	/* m2: sum of squared deviations from mean */
	double sum, sumc;	/* the values' sum, compensated: mean = sum / n */
	/* exact mode: every value (unsorted until asked) */
	double *vals;
	size_t nvals, cap;
	bool sorted;
	/* histogram mode, once more than exact_limit values were seen */
	struct wfw_hist *hist;
	double *stage;		/* values not yet added (WFW_ACC_STAGE) */
	size_t nstage;
	size_t exact_limit;
	bool integers;		/* values are whole numbers (INT columns) */
	struct wfw_acc_pool *pool;	/* shares its room for kept values; NULL */
};

/*
 * Room for kept values shared by accumulators (one metric's groups): they
 * hold at most `budget` values' room together. A member short of room
 * makes some: the members over the fair share leave exact mode (their
 * percentiles come from the histogram), the others give back spare room.
 *
 * The fair share is the largest t <= min(limit, budget) with
 * sum(min(count, t)) <= budget over the members. It only shrinks as
 * counts grow, so a member that left exact mode would have left it at the
 * end too: after wfw_acc_pool_settle() a member is exact exactly when its
 * count is at most the share of the final counts, whatever order the
 * values came in (a CSV file and its binary twin agree), and a small
 * group stays exact however many names the group column has.
 */
struct wfw_acc_pool {
	size_t budget;		/* values */
	size_t held;		/* the members' room (their cap) */
	size_t limit;		/* a member's own exact_limit */
	struct wfw_acc *acc;	/* the members, nacc of them */
	size_t nacc;
};

/* Make acc[0..nacc) members (again, after the array moved). */
void wfw_acc_pool_init(struct wfw_acc_pool *p, size_t budget, size_t limit,
		       struct wfw_acc *acc, size_t nacc);
/* The fair share of the members' counts (staged values included). */
size_t wfw_acc_pool_share(const struct wfw_acc_pool *p);
/* Members over the share leave exact mode: the end of the values. */
int wfw_acc_pool_settle(struct wfw_acc_pool *p);
/*
 * Members over the fair share leave exact mode, member a counting `count`
 * values (so that a member past it does not wait for the room to run out).
 */
int wfw_acc_pool_check(struct wfw_acc_pool *p, struct wfw_acc *a, uint64_t count);
/* Room for `need` kept values of member a (count values by then). */
int wfw_acc_pool_room(struct wfw_acc_pool *p, struct wfw_acc *a, size_t need,
		      uint64_t count);
/* Leave exact mode now (the kept values into the histogram). */
int wfw_acc_leave_exact(struct wfw_acc *a);
/* Room for cap >= nvals kept values (realloc), told to the pool. */
int wfw_acc_set_cap(struct wfw_acc *a, size_t cap);

void wfw_acc_init(struct wfw_acc *a, size_t exact_limit, bool integers);
void wfw_acc_free(struct wfw_acc *a);

/* Add values; none may be NaN. Return 0 or -ENOMEM. */
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
int wfw_acc_staged(struct wfw_acc *a, size_t n);
int wfw_acc_flush(struct wfw_acc *a);
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
