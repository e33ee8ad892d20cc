/* SPDX-License-Identifier: MIT */
/* calc --explain: an exact percentile over passes (explain_rank.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "explain_rank.h"

size_t xr_log_bucket(int64_t v)
{
	int e;

	if (v < 0)
		return 0;
	if (v < 64)
		return 1 + (size_t)v;
	e = 63 - __builtin_clzll((uint64_t)v);	/* 6 .. 62 */
	return 65 + (size_t)(e - 6) * 64 + (size_t)((v >> (e - 6)) - 64);
}

void xr_log_bounds(size_t b, int64_t *lo, int64_t *hi)
{
	size_t j = b - 65;
	int e;

	if (!b) {
		*lo = INT64_MIN;
		*hi = -1;
		return;
	}
	if (b < 65) {
		*lo = *hi = (int64_t)b - 1;
		return;
	}
	e = 6 + (int)(j / 64);
	*lo = (int64_t)((64 + j % 64) << (e - 6));
	*hi = (int64_t)((uint64_t)*lo + ((uint64_t)1 << (e - 6)) - 1);
}

size_t xr_buckets(const struct xr *r)
{
	if (!r->linear)
		return XR_LOG_BUCKETS;
	return (size_t)(((uint64_t)r->hi - (uint64_t)r->lo) / r->width + 1);
}

size_t xr_bucket(const struct xr *r, int64_t v)
{
	if (!r->linear)
		return xr_log_bucket(v);
	if (v < r->lo || v > r->hi)
		return SIZE_MAX;
	return (size_t)(((uint64_t)v - (uint64_t)r->lo) / r->width);
}

static void bounds(const struct xr *r, size_t b, int64_t *lo, int64_t *hi)
{
	uint64_t off = b * r->width, span = (uint64_t)r->hi - (uint64_t)r->lo;

	if (!r->linear) {
		xr_log_bounds(b, lo, hi);
		return;
	}
	*lo = (int64_t)((uint64_t)r->lo + off);
	/* the last bucket ends at hi */
	*hi = span - off < r->width - 1 ? r->hi : (int64_t)((uint64_t)*lo + r->width - 1);
}

/* The bucket holding rank `rank` from b on, its start's count in *at. */
static size_t find_rank(const uint64_t *counts, size_t nb, size_t b,
			uint64_t *at, uint64_t rank)
{
	for (; b < nb; b++) {
		if (*at + counts[b] > rank)
			return b;
		*at += counts[b];
	}
	return SIZE_MAX;
}

void xr_narrow(struct xr *r, const uint64_t *counts)
{
	uint64_t at = r->below;
	size_t b = find_rank(counts, xr_buckets(r), 0, &at, r->k);
	int64_t lo, hi;

	if (b == SIZE_MAX) {	/* the counts miss values: a bug upstream */
		r->state = XR_EMPTY;
		return;
	}
	bounds(r, b, &lo, &hi);
	r->below = at;
	r->inside = counts[b];
	r->lo = lo;
	r->hi = hi;
	if (lo == hi) {
		r->state = XR_KNOWN;
		r->vk = lo;
		r->le = at + counts[b];
	} else if (r->inside <= XR_KEEP_MAX) {
		r->state = XR_KEEP;
	} else {
		r->state = XR_HIST;
		r->linear = true;
		r->width = ((uint64_t)hi - (uint64_t)lo) / XR_LIN_BUCKETS + 1;
	}
}

void xr_start(struct xr *r, uint64_t n, double p, const uint64_t *counts)
{
	double h;

	*r = (struct xr){ .state = n ? XR_HIST : XR_EMPTY, .n = n,
			  .lo = INT64_MIN, .hi = INT64_MAX };
	if (!n)
		return;
	h = (double)(n - 1) * ((p > 0 ? p : 0) / 100.0);
	r->k = p >= 100 || h >= (double)(n - 1) ? n - 1 : (uint64_t)h;
	r->frac = r->k == n - 1 ? 0 : h - (double)r->k;
	xr_narrow(r, counts);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int xr_pick(struct xr *r, int64_t *vals, size_t n)
{
	size_t i;

	if (r->state != XR_KEEP || n != r->inside)
		return -EINVAL;
	if (n > 1)	/* qsort() takes no NULL, even for nothing */
		qsort(vals, n, sizeof(*vals), cmp_i64);
	i = (size_t)(r->k - r->below);
	r->vk = vals[i];
	while (i < n && vals[i] == r->vk)
		i++;
	r->le = r->below + i;
	r->state = XR_KNOWN;
	return 0;
}

/*
 * Rank k + 1 holds vk too when more than k + 1 values are at most vk;
 * else it holds the least value above vk, and with frac > 0 the
 * percentile is above vk.
 */
static bool above_vk(const struct xr *r)
{
	return r->frac > 0 && r->le == r->k + 1;
}

int64_t xr_tail_from(const struct xr *r)
{
	return above_vk(r) ? r->vk + 1 : r->vk;
}

double xr_value(const struct xr *r, int64_t tail_min)
{
	if (!above_vk(r))
		return (double)r->vk;
	return (double)r->vk + r->frac * ((double)tail_min - (double)r->vk);
}
