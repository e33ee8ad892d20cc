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

#include <stdbool.h>
#include <stddef.h>

/* *lo, *hi: updated with v's extremes; returns the sum. No NaN in v. */
double wfw_min_max_sum(const double *v, size_t n, double *lo, double *hi);

/*
 * A run's extremes and sum as wfw_min_max_sum() from -INFINITY and
 * INFINITY gives them, found by whoever made the values (a decoder);
 * ok false: not found.
 */
struct wfw_run_sums {
	double lo, hi, sum;
	bool ok;
};

#ifdef __SSE2__
#include <emmintrin.h>

/*
 * wfw_min_max_sum() for a loop that makes the values itself: the same
 * chains, so the same sum bit for bit. Values 4 at a time from the first
 * on (wfw_mms_add4()), then the last n % 4 from memory (wfw_mms_end()).
 */
struct wfw_mms {
	__m128d l0, l1, h0, h1, s0, s1;
};

static inline void wfw_mms_init(struct wfw_mms *m, double lo, double hi)
{
	m->l0 = m->l1 = _mm_set1_pd(lo);
	m->h0 = m->h1 = _mm_set1_pd(hi);
	m->s0 = m->s1 = _mm_setzero_pd();
}

/* Values i, i + 1 in a, i + 2, i + 3 in b. */
static inline void wfw_mms_add4(struct wfw_mms *m, __m128d a, __m128d b)
{
	m->s0 = _mm_add_pd(m->s0, a);
	m->s1 = _mm_add_pd(m->s1, b);
	m->l0 = _mm_min_pd(a, m->l0);	/* a < l0 ? a : l0 */
	m->l1 = _mm_min_pd(b, m->l1);
	m->h0 = _mm_max_pd(a, m->h0);
	m->h1 = _mm_max_pd(b, m->h1);
}

static inline double wfw_mms_end(const struct wfw_mms *m, const double *v,
				 size_t n, double *lo, double *hi)
{
	double l[2], h[2], s[2], sum;

	_mm_storeu_pd(l, _mm_min_pd(m->l0, m->l1));
	_mm_storeu_pd(h, _mm_max_pd(m->h0, m->h1));
	_mm_storeu_pd(s, _mm_add_pd(m->s0, m->s1));
	sum = s[0] + s[1];
	*lo = l[0] < l[1] ? l[0] : l[1];
	*hi = h[0] > h[1] ? h[0] : h[1];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
	return sum;
}
#endif
/* Sum of (v[i] - mean)^2. */
double wfw_sum_sq_dev(const double *v, size_t n, double mean);

#endif
