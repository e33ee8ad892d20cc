/* SPDX-License-Identifier: MIT */
/*
 * The inner loops of the moments: min, max and sum of a run of doubles,
 * then the sum of squared deviations from its mean (the two-pass form, so
 * the variance loses no digits to cancellation). A run is at most a chunk
 * of a batch, small enough to stay in the L1 cache between the passes.
 * With SSE2 (every x86-64) two values per instruction and two chains each.
 */
#ifndef WFW_STATS_MOMENTS_H
#define WFW_STATS_MOMENTS_H

#include <stddef.h>

/* *lo, *hi: updated with v's extremes; returns the sum. No NaN in v. */
double wfw_min_max_sum(const double *v, size_t n, double *lo, double *hi);
/* Sum of (v[i] - mean)^2. */
double wfw_sum_sq_dev(const double *v, size_t n, double mean);

#endif
