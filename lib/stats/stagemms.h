/* SPDX-License-Identifier: MIT */
/*
 * A stage's min, max and sum taken while it is filled from a column in
 * pieces (a group's rows of each chunk, gathered through the row order),
 * so that flushing it need not read it again. The result is that of
 * wfw_min_max_sum() over the whole stage from INFINITY, -INFINITY, bit
 * for bit: each value goes to the lane its place in the stage gives it,
 * and the last size % 4 are left for the end, as that function does.
 */
#ifndef WFW_STATS_STAGEMMS_H
#define WFW_STATS_STAGEMMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wultfw/plugin.h>

#include "stats/moments.h"

struct wfw_stage_mms {
#ifdef __SSE2__
	struct wfw_mms m;
#endif
	size_t done;	/* stage[0, done) is in the lanes (a multiple of 4) */
	size_t size;	/* values gathered into the stage */
	bool on;	/* every staged value came through here */
};

void wfw_stage_mms_start(struct wfw_stage_mms *g);

/*
 * Copy col[order[i]].f (order NULL: col[i].f), i < n, to stage + g->size
 * and take them into the lanes. stage: the stage's memory now (it may
 * have moved since the last call); the cells are numbers, none NaN.
 */
void wfw_stage_mms_gather(struct wfw_stage_mms *g, double *stage,
			  const union wultfw_cell *col, const uint32_t *order,
			  size_t n);

/* The sum of stage[0, g->size), its least and greatest in *lo, *hi. */
double wfw_stage_mms_end(const struct wfw_stage_mms *g, const double *stage,
			 double *lo, double *hi);

/*
 * Cells keep[i] (keep NULL: i), i < k, of an INT column moved to [0, k)
 * in place (keep[i] >= i), as the numbers statistics take (cell.f =
 * (double)cell.i, an empty cell the empty NaN). Returns true and their
 * wfw_min_max_sum() from INFINITY, -INFINITY in *s when none was empty.
 */
bool wfw_int_nums_sums(union wultfw_cell *col, const uint32_t *keep, size_t k,
		       struct wfw_run_sums *s);

/*
 * Whether statistics take every one of the n numbers col[i].f
 * (wfw_value_ok(): no NaN, empty cell, infinity or value beyond FLT_MAX):
 * a column said so is gathered by group with its extremes and sum on the
 * way (calc -c of a CSV file, whose reader does not look).
 */
bool wfw_nums_all_ok(const union wultfw_cell *col, size_t n);

#endif
