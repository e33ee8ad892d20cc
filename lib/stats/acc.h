/* SPDX-License-Identifier: MIT */
/*
 * An accumulator's state (stats.h has what it does): the moments, the
 * values kept exactly or the histogram, and the room for kept values it
 * may share with others (room.h).
 */
#ifndef WFW_STATS_ACC_H
#define WFW_STATS_ACC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wfw_hist;
struct wfw_sketch;
struct wfw_acc_pool;

struct wfw_acc {
	uint64_t n;
	double min, max;
	double mean, m2;	/* m2: sum of squared deviations from mean */
	double sum, sumc;	/* the values' sum, compensated: mean = sum / n */
	/* exact mode: every value (unsorted until asked) */
	double *vals;
	size_t nvals, cap;
	/*
	 * Histogram mode, once more than exact_limit values were seen; or,
	 * with `sketch`, a sketch of the same buckets (sketch.h), for groups
	 * too many for a histogram each (struct wfw_acc_pool's sketch).
	 * hist non-NULL: not exact, either way.
	 */
	union {
		struct wfw_hist *hist;
		struct wfw_sketch *sk;
	};
	double *stage;		/* values not yet added, room for stcap */
	size_t nstage, stcap;	/* stcap <= WFW_ACC_STAGE */
	size_t exact_limit;
	struct wfw_acc_pool *pool;	/* shares its room for kept values; NULL */
	/* the flags together: 8 bytes less a group and metric than apart */
	bool sorted;		/* vals sorted */
	bool integers;		/* values are whole numbers (INT columns) */
	bool sketch;		/* sk, not hist */
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
	/*
	 * Room is made (a pass over the members) only when held would pass
	 * this, at least nacc values past the last time: linear time for a
	 * million groups, the room held then within budget + nacc values.
	 */
	size_t next_room;
	/*
	 * Members leaving exact mode take a sketch, not a histogram: a
	 * histogram each (some 70 KiB) would not fit the memory limit.
	 */
	bool sketch;
};

/*
 * A member with fewer values than this stays exact whatever the room: a
 * histogram (struct wfw_hist, some 70 KiB) would cost it more memory than
 * its values do, and many small groups would each take one.
 */
#define WFW_POOL_HIST_MIN 1024

#endif
