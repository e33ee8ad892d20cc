/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "report/reduce.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Per grid cell: sums for the mean position, and the count. */
struct cell {
	double sx, sy;
	uint32_t n;
};

/* A point a plot can place: no NaN, no infinity. */
static inline bool plottable(float x, float y)
{
	return isfinite(x) && isfinite(y);
}

/* The extremes of v over the plottable points at or below ytail. */
static void range(const float *v, const float *x, const float *y, size_t n,
		  double ytail, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (!plottable(x[i], y[i]) || y[i] > ytail)
			continue;
		if (v[i] < *lo)
			*lo = v[i];
		if (v[i] > *hi)
			*hi = v[i];
	}
}

/* v's cell of grid over [lo, hi]: t clamped before it becomes an index. */
static size_t cell_of(double v, double lo, double hi, size_t grid)
{
	double t = hi > lo ? (v - lo) / (hi - lo) * (double)grid : 0;

	if (!(t > 0))
		return 0;
	return t < (double)grid ? (size_t)t : grid - 1;
}

/*
 * The plottable points at or below ytail into the grid x grid cells;
 * returns how many plotted points there will be: the tail points and the
 * non-empty cells.
 */
static size_t fill_cells(const float *x, const float *y, size_t n, double ytail,
			 size_t grid, struct cell *cells)
{
	double xlo, xhi, ylo, yhi;
	size_t k = 0;

	range(x, x, y, n, ytail, &xlo, &xhi);
	range(y, x, y, n, ytail, &ylo, &yhi);
	for (size_t i = 0; i < n; i++) {
		struct cell *c;

		if (!plottable(x[i], y[i]))
			continue;
		if (y[i] > ytail) {
			k++;
			continue;
		}
		c = &cells[cell_of(y[i], ylo, yhi, grid) * grid +
			   cell_of(x[i], xlo, xhi, grid)];
		c->sx += x[i];
		c->sy += y[i];
		c->n++;
	}
	for (size_t c = 0; c < grid * grid; c++)
		k += cells[c].n > 0;
	return k;
}

/* First the tail points, then one per non-empty cell, into out[]. */
static size_t put_points(const float *x, const float *y, size_t n, double ytail,
			 const struct cell *cells, size_t ncells,
			 struct wfw_wpoint *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (plottable(x[i], y[i]) && y[i] > ytail)
			out[k++] = (struct wfw_wpoint){ x[i], y[i], 1 };
	for (size_t c = 0; c < ncells; c++)
		if (cells[c].n)
			out[k++] = (struct wfw_wpoint){
				(float)(cells[c].sx / cells[c].n),
				(float)(cells[c].sy / cells[c].n), cells[c].n };
	return k;
}

int wfw_reduce_scatter(const float *x, const float *y, size_t n,
		       size_t max_points, double ytail, size_t grid,
		       struct wfw_wpoint **out, size_t *nout)
{
	bool dense = n > max_points && grid;
	struct cell *cells = dense ? calloc(grid * grid, sizeof(*cells)) : NULL;
	size_t k = 0;

	*out = NULL;
	*nout = 0;
	if (dense && !cells)
		return -ENOMEM;
	if (dense) {
		k = fill_cells(x, y, n, ytail, grid, cells);
	} else {
		ytail = -INFINITY;	/* every point is a "tail" point */
		for (size_t i = 0; i < n; i++)
			k += plottable(x[i], y[i]);
	}
	*out = malloc((k ? k : 1) * sizeof(**out));
	if (*out)
		*nout = put_points(x, y, n, ytail, cells, dense ? grid * grid : 0, *out);
	free(cells);
	return *out ? 0 : -ENOMEM;
}

void wfw_reduce_bins(double min, double p, double max, double span,
		     size_t nbins, struct wfw_bins *b)
{
	double e = min + span * (p - min);
	/* As a float, for the floats binned; none beyond a float's range. */
	double hi = e >= -FLT_MAX && e <= FLT_MAX ? (float)e : max;

	if (!(p > min) || !(hi < max))
		hi = max;
	b->lo = min;
	b->hi = hi > min ? hi : min;
	b->nbins = nbins;
	b->width = hi > min ? (hi - min) / (double)nbins : 1;
}

void wfw_reduce_histogram_at(const float *v, size_t n,
			     const struct wfw_bins *b, uint64_t *counts)
{
	double last = (double)(b->nbins - 1), lo = b->lo, hi = b->hi;
	double scale = hi > lo ? (double)b->nbins / (hi - lo) : 0;

	memset(counts, 0, (b->nbins + 1) * sizeof(*counts));
	/*
	 * One multiplication and no branch but NaN's per value; t clamped
	 * before it becomes an index (NaN, infinities: bin 0 or the last).
	 */
	for (size_t i = 0; i < n; i++) {
		double x = v[i], t = (x - lo) * scale;
		size_t k = t > 0 ? (size_t)(t < last ? t : last) : 0;

		if (isnan(x))
			continue;
		counts[x > hi ? b->nbins : k]++;
	}
}

/* Rank r (ascending) of the whole that low[] samples and top[] ends. */
static float rank_value(const float *low, size_t m, uint64_t nlow,
			const float *top, uint64_t r)
{
	if (r >= nlow)
		return top[r - nlow];
	if (m == nlow)
		return low[r];
	return low[(size_t)((double)r * (double)m / (double)nlow)];
}

size_t wfw_reduce_ccdf_parts(const float *low, size_t m, uint64_t nlow,
			     const float *top, size_t ntop, size_t tail,
			     float *x, double *ccdf, size_t max_out)
{
	uint64_t n = nlow + ntop, first_tail = n > tail ? n - tail : 0;
	uint64_t last = UINT64_MAX;
	size_t k = 0;

	if (!n || (!m && nlow))
		return 0;
	/* Log-spaced shares above: rank r has n-1-r values above it. */
	for (double share = 1; k < max_out; share *= 0.98) {
		uint64_t above = (uint64_t)(share * (double)n);
		uint64_t r = above >= n ? 0 : n - 1 - above;

		if (r >= first_tail)
			break;
		if (r != last) {
			x[k] = rank_value(low, m, nlow, top, r);
			ccdf[k++] = (double)(n - r) / (double)n;
			last = r;
		}
	}
	for (uint64_t r = first_tail; r < n && k < max_out; r++) {
		x[k] = rank_value(low, m, nlow, top, r);
		ccdf[k++] = (double)(n - r) / (double)n;
	}
	return k;
}

size_t wfw_reduce_ccdf(const float *sorted, size_t n, size_t tail,
		       float *x, double *ccdf, size_t max_out)
{
	return wfw_reduce_ccdf_parts(sorted, n, n, NULL, 0, tail, x, ccdf,
				     max_out);
}

/* Bit pattern of a float, ordered as the floats are. */
static uint32_t float_key(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b & 0x80000000u ? ~b : b | 0x80000000u;
}

static float key_float(uint32_t k)
{
	uint32_t b = k & 0x80000000u ? k & 0x7fffffffu : ~k;
	float f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

/* One stable counting pass on byte `shift / 8` from src to dst. */
static void radix_pass(const uint32_t *src, uint32_t *dst, size_t n,
		       unsigned shift)
{
	size_t count[257] = { 0 };

	for (size_t i = 0; i < n; i++)
		count[((src[i] >> shift) & 0xff) + 1]++;
	for (size_t b = 1; b < 257; b++)
		count[b] += count[b - 1];
	for (size_t i = 0; i < n; i++)
		dst[count[(src[i] >> shift) & 0xff]++] = src[i];
}

int wfw_sort_floats(float *v, size_t n)
{
	uint32_t *a, *b;

	if (n < 2)
		return 0;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = float_key(v[i]);
	/* Four passes, so the result ends up back in a. */
	radix_pass(a, b, n, 0);
	radix_pass(b, a, n, 8);
	radix_pass(a, b, n, 16);
	radix_pass(b, a, n, 24);
	for (size_t i = 0; i < n; i++)
		v[i] = key_float(a[i]);
	free(a);
	free(b);
	return 0;
}
