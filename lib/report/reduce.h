/* SPDX-License-Identifier: MIT */
/*
 * Making millions of datapoints plottable without losing what matters:
 * the bulk becomes density (grid cells or histogram bins with counts),
 * the tail stays point by point. Every function preserves counts: the
 * weights of what it returns add up to the number of values given that a
 * plot can place (NaNs and infinities it cannot: they are left out).
 */
#ifndef WFW_REPORT_REDUCE_H
#define WFW_REPORT_REDUCE_H

#include <stddef.h>
#include <stdint.h>

/* A plotted point standing for `weight` datapoints around (x, y). */
struct wfw_wpoint {
	float x, y;
	uint32_t weight;
};

/*
 * Scatter of (x[i], y[i]): when n <= max_points, every point with weight
 * 1. Otherwise every point with y > ytail individually, and the rest in a
 * grid x grid raster over their range, one point per non-empty cell at the
 * mean position of its datapoints, weighted by their number. Points with
 * a NaN or infinite coordinate are left out. *out is malloc'ed. Returns 0
 * or -ENOMEM.
 */
int wfw_reduce_scatter(const float *x, const float *y, size_t n,
		       size_t max_points, double ytail, size_t grid,
		       struct wfw_wpoint **out, size_t *nout);

/* nbins equal histogram bins over [lo, hi], each width wide. */
struct wfw_bins {
	double lo, hi, width;
	size_t nbins;
};

/*
 * Bins for values from min to max whose p is a robust upper edge of the
 * bulk (a high percentile): over [min, min + span * (p - min)], or over
 * [min, max] when max is nearer (or p is min: no spread to scale). The
 * values above hi are the far outliers that bins over [min, max] would
 * have squeezed the bulk into a few bins for; they are counted apart.
 * Pass the values as the binned ones are (floats): hi is a float too.
 */
void wfw_reduce_bins(double min, double p, double max, double span,
		     size_t nbins, struct wfw_bins *b);

/*
 * Histogram of v[0..n) in b's bins: counts[b->nbins + 1] (the caller's),
 * the last one counting the values above hi (the over bin). Values below
 * lo go to the first bin (a part binned as its whole was, such as one
 * C-state, has none), NaNs nowhere.
 */
void wfw_reduce_histogram_at(const float *v, size_t n,
			     const struct wfw_bins *b, uint64_t *counts);

/*
 * Points of the complementary CDF of sorted[0..n) (ascending): x[k] is
 * the value at some rank r and ccdf[k] = (n - r) / n, the share of
 * datapoints at that rank or above (never 0, for a log axis). Ranks are taken log-spaced in the tail share
 * (1, 0.98, 0.98^2, ...) so the tail is as detailed as the median, plus every
 * one of the `tail` largest values. Returns the number of points written
 * (at most max_out).
 */
size_t wfw_reduce_ccdf(const float *sorted, size_t n, size_t tail,
		       float *x, double *ccdf, size_t max_out);

/*
 * The same for a whole of nlow + ntop values known as a uniform sample
 * low[0..m) (sorted) of its nlow smallest and exactly by its ntop largest,
 * top[0..ntop) (sorted): ranks below nlow are read from the sample.
 */
size_t wfw_reduce_ccdf_parts(const float *low, size_t m, uint64_t nlow,
			     const float *top, size_t ntop, size_t tail,
			     float *x, double *ccdf, size_t max_out);

/*
 * Sort v[0..n) ascending, NaN-free, in linear time (a radix sort of the
 * bit patterns: 10 million values in a fraction of qsort's time).
 * Returns 0 or -ENOMEM.
 */
int wfw_sort_floats(float *v, size_t n);

#endif
