/* SPDX-License-Identifier: MIT */
/*
 * calc --explain: the exact percentile of a column of whole numbers in
 * bounded memory, over passes of the file. A histogram narrows the range
 * of values holding rank k (log-linear buckets over every int64 in the
 * first pass, linear ones over the range after that) until the range
 * holds few enough values to keep, or is a single value. The percentile
 * is calc's (lib/stats): rank h = (n - 1) p / 100, linear between ranks
 * k = floor(h) and k + 1. Rank k's value and how many values are at most
 * it say which rows are at or above the percentile; the value of rank
 * k + 1, when it is another, is the least of those rows.
 */
#ifndef WFW_EXPLAIN_RANK_H
#define WFW_EXPLAIN_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Log buckets: one for negatives, 64 of width 1, then 64 per power of 2. */
#define XR_LOG_BUCKETS (1 + 64 + 57 * 64)
#define XR_LIN_BUCKETS 4096
/* A range of at most this many values is kept (rows of 128 bytes: 8 MiB). */
#define XR_KEEP_MAX ((uint64_t)1 << 16)

enum xr_state {
	XR_EMPTY,	/* no values */
	XR_HIST,	/* next: a histogram of the values in [lo, hi] */
	XR_KEEP,	/* next: keep the values in [lo, hi], then xr_pick() */
	XR_KNOWN,	/* vk known */
};

struct xr {
	enum xr_state state;
	uint64_t n;		/* values in all */
	uint64_t k;		/* the rank wanted: floor(h) */
	double frac;		/* h - k */
	bool linear;		/* HIST: linear buckets of `width` from lo */
	uint64_t width;
	int64_t lo, hi;		/* rank k's value is in [lo, hi] */
	uint64_t below;		/* values below lo */
	uint64_t inside;	/* values in [lo, hi] */
	int64_t vk;		/* KNOWN: rank k's value */
	uint64_t le;		/* KNOWN: values at most vk */
};

/* The first pass's bucket of v (a log bucket), and a bucket's bounds. */
size_t xr_log_bucket(int64_t v);
void xr_log_bounds(size_t b, int64_t *lo, int64_t *hi);

/*
 * Start on n values whose log histogram is counts[XR_LOG_BUCKETS], for
 * percentile p (0 to 100): narrows at once.
 */
void xr_start(struct xr *r, uint64_t n, double p, const uint64_t *counts);

/* HIST: buckets of the next histogram, and v's (SIZE_MAX: outside). */
size_t xr_buckets(const struct xr *r);
size_t xr_bucket(const struct xr *r, int64_t v);
/* HIST: narrow to what counts[xr_buckets()] say. */
void xr_narrow(struct xr *r, const uint64_t *counts);

/*
 * KEEP: the values in [lo, hi] (r->inside of them, any order; sorted
 * here) give rank k's. -EINVAL when there are not r->inside.
 */
int xr_pick(struct xr *r, int64_t *vals, size_t n);

/* KNOWN: the values at or above the percentile are those from this on. */
int64_t xr_tail_from(const struct xr *r);
/* KNOWN: the percentile, given the least value at or above xr_tail_from(). */
double xr_value(const struct xr *r, int64_t tail_min);

#endif
