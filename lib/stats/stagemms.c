/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include "stats/stagemms.h"

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
