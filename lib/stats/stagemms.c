/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include "stats/stagemms.h"
#include "stats/stats.h"

void wfw_stage_mms_start(struct wfw_stage_mms *g)
{
#ifdef __SSE2__
	wfw_mms_init(&g->m, INFINITY, -INFINITY);
#endif
	g->done = 0;
	g->size = 0;
	g->on = true;
}

#ifdef __SSE2__
static inline double cell_at(const union wultfw_cell *col, const uint32_t *order,
			     size_t i)
{
	return col[order ? order[i] : i].f;
}

/* Values i, i + 1 of the piece as one vector. */
static inline __m128d pair_at(const union wultfw_cell *col, const uint32_t *order,
			      size_t i)
{
	return _mm_loadh_pd(_mm_load_sd(&col[order[i]].f), &col[order[i + 1]].f);
}

static inline void quad(struct wfw_mms *m, double *t, __m128d a, __m128d b)
{
	_mm_storeu_pd(t, a);
	_mm_storeu_pd(t + 2, b);
	wfw_mms_add4(m, a, b);
}

void wfw_stage_mms_gather(struct wfw_stage_mms *g, double *stage,
			  const union wultfw_cell *col, const uint32_t *order,
			  size_t n)
{
	double *t = stage + g->size;
	struct wfw_mms m;
	size_t i = 0;

	/* Up to the next multiple of 4: a quad the last piece began. */
	for (; i < n && (g->size + i) % 4; i++)
		t[i] = cell_at(col, order, i);
	if ((g->size + i) % 4 == 0 && g->size + i > g->done) {
		wfw_mms_add4(&g->m, _mm_loadu_pd(stage + g->done),
			     _mm_loadu_pd(stage + g->done + 2));
		g->done += 4;
	}
	m = g->m;	/* in registers: the stores to t could alias g */
	if (order) {
		for (; i + 4 <= n; i += 4)
			quad(&m, t + i, pair_at(col, order, i), pair_at(col, order, i + 2));
	} else {
		for (; i + 4 <= n; i += 4)
			quad(&m, t + i, _mm_loadu_pd(&col[i].f), _mm_loadu_pd(&col[i + 2].f));
	}
	g->m = m;
	g->done = (g->size + i) & ~(size_t)3;
	for (; i < n; i++)
		t[i] = cell_at(col, order, i);
	g->size += n;
}

double wfw_stage_mms_end(const struct wfw_stage_mms *g, const double *stage,
			 double *lo, double *hi)
{
	return wfw_mms_end(&g->m, stage + g->done, g->size - g->done, lo, hi);
}

#else	/* no lanes to keep: the copy now, the pass at the end */

void wfw_stage_mms_gather(struct wfw_stage_mms *g, double *stage,
			  const union wultfw_cell *col, const uint32_t *order,
			  size_t n)
{
	for (size_t i = 0; i < n; i++)
		stage[g->size + i] = col[order ? order[i] : i].f;
	g->size += n;
}

double wfw_stage_mms_end(const struct wfw_stage_mms *g, const double *stage,
			 double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	return wfw_min_max_sum(stage, g->size, lo, hi);
}
#endif

/* An INT cell as a number: the empty NaN for an empty one. */
static inline double int_num(int64_t v)
{
	const union wultfw_cell empty = { .i = WULTFW_FLOAT_EMPTY_BITS };

	return v == WULTFW_CELL_EMPTY ? empty.f : (double)v;
}

#ifdef __SSE2__
/* Cells i..i+3 read before any is written: keep[j] >= j, so in place. */
#define INT_QUAD(at)							\
	do {								\
		int64_t v0 = col[at(i)].i, v1 = col[at(i + 1)].i;	\
		int64_t v2 = col[at(i + 2)].i, v3 = col[at(i + 3)].i;	\
		__m128d a = _mm_set_pd((double)v1, (double)v0);	\
		__m128d b = _mm_set_pd((double)v3, (double)v2);	\
									\
		_mm_storeu_pd(&col[i].f, a);				\
		_mm_storeu_pd(&col[i + 2].f, b);			\
		wfw_mms_add4(&m, a, b);					\
		if (__builtin_expect((v0 == WULTFW_CELL_EMPTY) |	\
				     (v1 == WULTFW_CELL_EMPTY) |	\
				     (v2 == WULTFW_CELL_EMPTY) |	\
				     (v3 == WULTFW_CELL_EMPTY), 0)) {	\
			empty = true;					\
			col[i].f = int_num(v0);				\
			col[i + 1].f = int_num(v1);			\
			col[i + 2].f = int_num(v2);			\
			col[i + 3].f = int_num(v3);			\
		}							\
	} while (0)
#define AT_KEEP(j) keep[j]
#define AT_ROW(j) (j)

bool wfw_int_nums_sums(union wultfw_cell *col, const uint32_t *keep, size_t k,
		       struct wfw_run_sums *s)
{
	struct wfw_mms m;
	bool empty = false;
	size_t i = 0;

	wfw_mms_init(&m, INFINITY, -INFINITY);
	if (keep) {
		for (; i + 4 <= k; i += 4)
			INT_QUAD(AT_KEEP);
	} else {
		for (; i + 4 <= k; i += 4)
			INT_QUAD(AT_ROW);
	}
	for (size_t j = i; j < k; j++) {
		int64_t v = col[keep ? keep[j] : j].i;

		empty |= v == WULTFW_CELL_EMPTY;
		col[j].f = int_num(v);
	}
	if (empty)
		return false;
	s->lo = INFINITY;
	s->hi = -INFINITY;
	s->sum = wfw_mms_end(&m, &col[i].f, k - i, &s->lo, &s->hi);
	s->ok = true;
	return true;
}
#else
bool wfw_int_nums_sums(union wultfw_cell *col, const uint32_t *keep, size_t k,
		       struct wfw_run_sums *s)
{
	bool empty = false;

	for (size_t i = 0; i < k; i++) {
		int64_t v = col[keep ? keep[i] : i].i;

		empty |= v == WULTFW_CELL_EMPTY;
		col[i].f = int_num(v);
	}
	if (empty)
		return false;
	s->lo = INFINITY;
	s->hi = -INFINITY;
	s->sum = wfw_min_max_sum(&col[0].f, k, &s->lo, &s->hi);
	s->ok = true;
	return true;
}
#endif

#ifdef __SSE2__
/* Lanes of v beyond lim in magnitude, or NaN. */
static inline __m128d out_of_range(__m128d v, __m128d mag, __m128d lim)
{
	return _mm_cmpnle_pd(_mm_and_pd(v, mag), lim);
}
#endif

bool wfw_nums_all_ok(const union wultfw_cell *col, size_t n)
{
	size_t i = 0;
	bool bad = false;
#ifdef __SSE2__
	const __m128d mag = _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX));
	const __m128d lim = _mm_set1_pd(WFW_VALUE_MAX);
	__m128d a = _mm_setzero_pd(), b = _mm_setzero_pd();

	for (; i + 4 <= n; i += 4) {	/* two chains: fewer waits */
		a = _mm_or_pd(a, out_of_range(_mm_loadu_pd(&col[i].f), mag, lim));
		b = _mm_or_pd(b, out_of_range(_mm_loadu_pd(&col[i + 2].f), mag, lim));
	}
	bad = _mm_movemask_pd(_mm_or_pd(a, b)) != 0;
#endif
	for (; i < n; i++)
		bad |= !wfw_value_ok(col[i].f);
	return !bad;
}
