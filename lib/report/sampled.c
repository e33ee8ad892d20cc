/* SPDX-License-Identifier: MIT */
/*
 * The plots of a sampled result (more rows than WFW_REPORT_KEEP_ROWS):
 * density from the uniform sample, each sampled row standing for the
 * rows it was drawn from, and the tail (each metric's largest rows, kept
 * exactly while reading) as itself. Counts are those of every row.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/reduce.h"
#include "report/report.h"
#include "stats/report.h"

#define ALL_GROUPS LONG_MIN

/* Scale counts standing for `from` rows to stand for `to`, sum kept. */
static void scale_counts(uint64_t *c, size_t n, uint64_t from, uint64_t to)
{
	double f = from ? (double)to / (double)from : 0, acc = 0;
	uint64_t done = 0;

	for (size_t i = 0; i < n; i++) {
		acc += (double)c[i] * f;
		c[i] = (uint64_t)llround(acc) - done;
		done += c[i];
	}
}

static bool in_group(const struct wfw_rep_result *r, size_t i, long g)
{
	return g == ALL_GROUPS || r->state[i] == g;
}

static bool tail_row(const struct wfw_topk *t, size_t i, long g)
{
	return g == ALL_GROUPS || t->group[t->slot[i]] == g;
}

static float tail_x(const struct wfw_topk *t, size_t i, int xc, double xoff,
		    double xdiv)
{
	float x = t->rows[(size_t)t->slot[i] * t->width + (size_t)xc];

	return (float)((x + xoff) / xdiv);
}

/* Tail rows of group g at or above `from`, as points; returns how many. */
static size_t tail_points(const struct wfw_topk *t, int xc, long g, float from,
			  double xoff, double xdiv, struct wfw_wpoint *out)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++) {
		float x = tail_x(t, i, xc, xoff, xdiv);

		if (tail_row(t, i, g) && t->key[i] >= from && !isnan(x))
			out[k++] = (struct wfw_wpoint){ x, t->key[i], 1 };
	}
	return k;
}

static int by_key_down(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x < y) - (x > y);
}

/*
 * The least key of t's k largest, over all groups: the scatter shows the
 * tail above it as itself (-INFINITY: all of it) and the rest as density,
 * so a plot stays a few thousand markers (software WebGL and SVG are slow
 * per marker).
 */
static int kth_largest(const struct wfw_topk *t, size_t k, float *from)
{
	float *keys;

	*from = -INFINITY;
	if (t->n <= k || !k)
		return 0;
	keys = malloc(t->n * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	memcpy(keys, t->key, t->n * sizeof(*keys));
	qsort(keys, t->n, sizeof(*keys), by_key_down);
	*from = keys[k - 1];
	free(keys);
	return 0;
}

/* Tail rows of group g at or above `from`. */
static size_t tail_count(const struct wfw_topk *t, long g, float from)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++)
		k += tail_row(t, i, g) && t->key[i] >= from;
	return k;
}

/* The sample's rows of group g at or below `above`: x, y; how many. */
static size_t below_tail(const struct wfw_rep_result *r, int xc, int yc,
			 long g, float above, double xoff, double xdiv,
			 float *x, float *y)
{
	const float *xv = r->vals[xc], *yv = r->vals[yc];
	bool plain = xoff == 0 && xdiv == 1;
	size_t m = 0;

	/*
	 * Without a branch per row (groups come in random order): each row is
	 * written, and kept by counting it. NaNs fail v <= above; x + 0 is
	 * (x + xoff) / xdiv with xoff 0, xdiv 1, -0 included.
	 */
	for (size_t i = 0; i < r->nrows; i++) {
		float v = yv[i];

		x[m] = plain ? xv[i] + 0.0f : (float)((xv[i] + xoff) / xdiv);
		y[m] = v;
		m += in_group(r, i, g) & (v <= above);
	}
	return m;
}

/* Weights of density points to stand for `to` rows instead of `from`. */
static void scale_points(struct wfw_wpoint *p, size_t *n, uint64_t from,
			 uint64_t to)
{
	double f = from ? (double)to / (double)from : 0, acc = 0;
	uint64_t done = 0;
	size_t k = 0;

	for (size_t i = 0; i < *n; i++) {
		uint64_t w;

		acc += (double)p[i].weight * f;
		w = (uint64_t)llround(acc) - done;
		done += w;
		p[i].weight = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
		if (w)
			p[k++] = p[i];
	}
	*n = k;
}

/*
 * The scatter of a sampled result: the tail's rows at or above `from` as
 * themselves, the sample's rows below it as density standing for all the
 * other rows.
 */
int wfw_rep_sampled_points(const struct wfw_rep_result *r, int xc, int yc,
			   long g, uint64_t rows, double xoff, double xdiv,
			   struct wfw_wpoint **out, size_t *n)
{
	const struct wfw_topk *t;
	size_t ntail, m, nd = 0;
	float *x, *y, from;
	struct wfw_wpoint *d = NULL, *p = NULL;
	int ret = -ENOMEM;

	*out = NULL;
	*n = 0;
	if (yc < 0 || (size_t)yc >= r->ntails || xc < 0)
		return 0;
	t = &r->tails[yc];
	x = malloc((r->nrows + 1) * sizeof(*x));
	y = malloc((r->nrows + 1) * sizeof(*y));
	if (!x || !y || kth_largest(t, WFW_REPORT_SCATTER_TAIL, &from))
		goto out;
	ntail = tail_count(t, g, from);
	m = below_tail(r, xc, yc, g, fmaxf(from, wfw_topk_min(t)), xoff, xdiv, x, y);
	if (m && wfw_reduce_scatter(x, y, m, 0, INFINITY, WFW_REPORT_GRID, &d, &nd))
		goto out;
	scale_points(d, &nd, m, rows > ntail ? rows - ntail : 0);
	p = malloc((ntail + nd + 1) * sizeof(*p));
	if (!p)
		goto out;
	*n = tail_points(t, xc, g, from, xoff, xdiv, p);
	if (nd)
		memcpy(p + *n, d, nd * sizeof(*d));
	*n += nd;
	*out = p;
	ret = 0;
out:
	free(x);
	free(y);
	free(d);
	return ret;
}

/* ---- histogram and CCDF ---- */

/* A histogram standing for every row: counts[nbins], then the over. */
struct whole_hist {
	uint64_t c[WFW_REPORT_BINS + 1];
	bool exact;		/* the over is exact: above the sample's rows */
};

/*
 * Counts of group g's values of column c in the bins, and above them:
 * the sample's rows below the tail scaled to stand for all `rows` but the
 * tail's, then the tail's rows (exact). The over is exact when hi is at
 * or above the tail's least value: then every value above hi is a tail
 * row (always up to WFW_REPORT_TAIL_POINTS / 0.1% = 10 M rows, as hi is
 * at or above p99.9); else the sample's share of it is an estimate.
 */
static int group_counts(const struct wfw_rep_result *r, int c, long g,
			uint64_t rows, const struct wfw_bins *b,
			struct whole_hist *h)
{
	const struct wfw_topk *t = &r->tails[c];
	size_t ntail = tail_count(t, g, -INFINITY), m;
	float *v = malloc((r->nrows + 1) * sizeof(*v));
	uint64_t tc[WFW_REPORT_BINS + 1];
	float *x = malloc((r->nrows + 1) * sizeof(*x));

	if (!v || !x) {
		free(v);
		free(x);
		return -ENOMEM;
	}
	m = below_tail(r, c, c, g, wfw_topk_min(t), 0, 1, x, v);
	wfw_reduce_histogram_at(v, m, b, h->c);
	h->exact = b->hi >= wfw_topk_min(t);
	scale_counts(h->c, b->nbins + 1, m, rows > ntail ? rows - ntail : 0);
	m = 0;
	for (size_t i = 0; i < t->n; i++)
		if (g == ALL_GROUPS || t->group[t->slot[i]] == g)
			v[m++] = t->key[i];
	wfw_reduce_histogram_at(v, m, b, tc);
	for (size_t i = 0; i <= b->nbins; i++)
		h->c[i] += tc[i];
	free(v);
	free(x);
	return 0;
}

/* , "groups": [...]: each group's histogram in the whole's bins. */
static int group_histograms(struct wfw_rep_result *r, int c,
			    const struct wfw_bins *b, FILE *f)
{
	struct whole_hist h;
	size_t shown = 0;
	int ret = 0;

	if (r->nstates < 2)
		return 0;
	fputs(", \"groups\": [", f);
	for (size_t g = 0; g < r->nstates && !ret; g++) {
		uint64_t rows = wfw_rep_rows(r, c, (long)g);

		if (!rows)
			continue;
		ret = group_counts(r, c, (long)g, rows, b, &h);
		fputs(shown++ ? ", " : "", f);
		wfw_rep_group_hist_json(f, r->state_names[g], b->nbins, h.c,
					h.c[b->nbins]);
	}
	fputs("]", f);
	return ret;
}

/* The CCDF of group g: its tail exact, the rest from the sample. */
static int ccdf(const struct wfw_rep_result *r, int c, long g, uint64_t rows, FILE *f)
{
	const struct wfw_topk *t = &r->tails[c];
	size_t max_out = 4000 + WFW_REPORT_CCDF_TAIL, m, k = 0, ntop = 0;
	float *low = malloc((r->nrows + 1) * sizeof(*low));
	float *scratch = malloc((r->nrows + 1) * sizeof(*scratch));
	float *top = malloc((t->n + 1) * sizeof(*top));
	float *x = malloc(max_out * sizeof(*x));
	double *p = malloc(max_out * sizeof(*p));
	int ret = -ENOMEM;

	if (!low || !scratch || !top || !x || !p)
		goto out;
	m = below_tail(r, c, c, g, wfw_topk_min(t), 0, 1, scratch, low);
	for (size_t i = 0; i < t->n; i++)
		if (g == ALL_GROUPS || t->group[t->slot[i]] == g)
			top[ntop++] = t->key[i];
	if (wfw_sort_floats(low, m) || wfw_sort_floats(top, ntop))
		goto out;
	k = wfw_reduce_ccdf_parts(low, m, rows > ntop ? rows - ntop : 0, top,
				  ntop, WFW_REPORT_CCDF_TAIL, x, p, max_out);
	wfw_rep_ccdf_json(f, x, p, k);
	ret = 0;
out:
	free(low);
	free(scratch);
	free(top);
	free(x);
	free(p);
	return ret;
}

/* , "ccdf_groups": [...]: each group's CCDF, as the histogram's groups. */
static int group_ccdfs(struct wfw_rep_result *r, int c, FILE *f)
{
	size_t shown = 0;
	int ret = 0;

	if (r->nstates < 2)
		return 0;
	fputs(", \"ccdf_groups\": [", f);
	for (size_t g = 0; g < r->nstates && !ret; g++) {
		uint64_t rows = wfw_rep_rows(r, c, (long)g);

		if (!rows)
			continue;
		fputs(shown++ ? ", " : "", f);
		wfw_rep_group_ccdf_open(f, r->state_names[g]);
		ret = ccdf(r, c, (long)g, rows, f);
		fputs("}", f);
	}
	fputs("]", f);
	return ret;
}

int wfw_rep_sampled_dist(struct wfw_rep_result *r, int c,
			 const struct wfw_summary *all, bool groups_ccdf, FILE *f)
{
	struct wfw_rep_bins rb;
	struct whole_hist h;
	int ret;

	wfw_rep_bins(all, &rb);
	ret = group_counts(r, c, ALL_GROUPS, rb.rows, &rb.b, &h);
	if (ret)
		return ret;
	fputs("{\"sampled\": {\"above\": ", f);
	wfw_rep_num(f, wfw_topk_min(&r->tails[c]));
	fprintf(f, ", \"tail\": %zu, \"rows\": %llu}, ",
		r->tails[c].n, (unsigned long long)rb.rows);
	wfw_rep_hist_json(f, &rb, h.c, h.c[rb.b.nbins], h.exact);
	ret = group_histograms(r, c, &rb.b, f);
	fputs("}, \"ccdf\": ", f);
	if (!ret)
		ret = ccdf(r, c, ALL_GROUPS, rb.rows, f);
	if (!ret && groups_ccdf)
		ret = group_ccdfs(r, c, f);
	fputs("}", f);
	return ret;
}
