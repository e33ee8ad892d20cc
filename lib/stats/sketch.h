/* SPDX-License-Identifier: MIT */
/*
 * A compact quantile sketch for one group: the histogram's buckets (hist.h:
 * sign, exponent and the top 9 mantissa bits, each at most 2^-9 of its
 * lower edge wide) but only those holding values, as a sorted array of
 * 8-byte (bucket, count) entries. Same bound as the histogram: an order
 * statistic, and a percentile interpolated between two of one sign, within
 * WFW_HIST_REL_ERROR (2^-10) of the exact one. A group of a few values
 * costs a few entries, not the histogram's 70 KiB.
 */
#ifndef WFW_STATS_SKETCH_H
#define WFW_STATS_SKETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wfw_sketch {
	uint64_t *e;		/* order key << 40 | count, ascending */
	uint32_t n, cap;
	uint64_t count;
	double min, max;	/* exact: estimates are clamped to them */
};

#define WFW_SKETCH_MAX_COUNT ((1ULL << 40) - 1)	/* per bucket */

void wfw_sketch_init(struct wfw_sketch *k);
void wfw_sketch_free(struct wfw_sketch *k);
/* Count v (not NaN); -ENOMEM, or -EOVERFLOW past a bucket's count. */
int wfw_sketch_add(struct wfw_sketch *k, double v);
int wfw_sketch_merge(struct wfw_sketch *dst, const struct wfw_sketch *src);
/* Value of rank r (0-based, r < count); integers: an INT column's. */
double wfw_sketch_rank(const struct wfw_sketch *k, uint64_t r, bool integers);
/* Percentile p (0-100), linear like numpy: NaN when empty. */
double wfw_sketch_pct(const struct wfw_sketch *k, double p, bool integers);
size_t wfw_sketch_bytes(const struct wfw_sketch *k);

struct wfw_hist;
/*
 * Add every count of histogram h (the same buckets: nothing is lost); min
 * and max are the caller's to set, h knows only buckets. -ENOMEM.
 */
int wfw_sketch_add_hist(struct wfw_sketch *k, const struct wfw_hist *h);
/* Multiply every value counted by f > 0 (bound: twice the stated). */
int wfw_sketch_scale(struct wfw_sketch *k, double f);

#endif
