/* SPDX-License-Identifier: MIT */
/*
 * The pieces of data.js that every part of it (emit.c, sampled.c,
 * timeline.c) is made of: numbers, histograms, CCDFs, weighted points;
 * and what those parts read of a result (its columns, statistics, tail).
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/jsnum.h"
#include "report/reduce.h"
#include "report/report.h"
#include "stats/report.h"

const double wfw_rep_pcts[WFW_REP_NPCTS] = { 50, 90, 99, 99.9, 99.99, 99.999 };

int wfw_rep_col(const struct wfw_rep_result *r, const char *name)
{
	for (size_t c = 0; c < r->ncols; c++)
		if (r->vals[c] && !strcmp(r->colnames[c], name))
			return (int)c;
	return -1;
}

void wfw_rep_num(FILE *f, double v)
{
	char b[WFW_JS_NUM_MAX];

	fwrite(b, 1, wfw_js_g7(b, v), f);
}

size_t wfw_rep_metric(const struct wfw_statset *s, const char *name)
{
	for (size_t m = 0; m < s->nmetrics; m++)
		if (!strcmp(wfw_statset_metric(s, m)->name, name))
			return m;
	return SIZE_MAX;
}

/* The statistics' group of state g (-1: rows without one), or SIZE_MAX. */
static size_t stat_group(const struct wfw_rep_result *r, long g)
{
	const char *name = g < 0 ? "-" : r->state_names[g];

	for (size_t i = 0; r->set.gcol >= 0 && i < r->set.ngroups; i++)
		if (!strcmp(wfw_statset_group_name(&r->set, i), name))
			return i;
	return SIZE_MAX;
}

static bool column_summary(struct wfw_rep_result *r, int c, long g,
			   struct wfw_summary *s)
{
	size_t m = wfw_rep_metric(&r->set, r->colnames[c]);
	size_t sg = g == LONG_MIN ? SIZE_MAX : stat_group(r, g);

	if (m == SIZE_MAX || (g != LONG_MIN && sg == SIZE_MAX))
		return false;
	return !wfw_statset_summary(&r->set, m, sg, NULL, 0, s);
}

uint64_t wfw_rep_rows(struct wfw_rep_result *r, int c, long g)
{
	struct wfw_summary s;

	return column_summary(r, c, g, &s) ? s.count : 0;
}

void wfw_rep_bins(const struct wfw_summary *all, struct wfw_rep_bins *rb)
{
	double p = NAN;

	for (size_t i = 0; i < all->npct && i < WFW_REP_NPCTS; i++)
		if (wfw_rep_pcts[i] == WFW_REPORT_BINS_PCT)
			p = all->pct[i];
	rb->pct = WFW_REPORT_BINS_PCT;
	rb->rows = all->count;
	rb->max = all->count ? (float)all->max : 0;
	if (!all->count) {
		wfw_reduce_bins(0, 0, 0, WFW_REPORT_BINS_SPAN, WFW_REPORT_BINS, &rb->b);
		return;
	}
	/* As the kept floats are: the bins of a whole result are theirs. */
	wfw_reduce_bins((float)all->min, (float)p, rb->max,
			WFW_REPORT_BINS_SPAN, WFW_REPORT_BINS, &rb->b);
}

static void counts_json(FILE *f, const uint64_t *c, size_t n)
{
	fputs("[", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)c[i]);
	fputs("]", f);
}

void wfw_rep_hist_json(FILE *f, const struct wfw_rep_bins *rb,
		       const uint64_t *counts, uint64_t over, bool over_exact)
{
	fputs("\"hist\": {\"lo\": ", f);
	wfw_rep_num(f, rb->b.lo);
	fputs(", \"width\": ", f);
	wfw_rep_num(f, rb->b.width);
	fputs(", \"hi\": ", f);
	wfw_rep_num(f, rb->b.hi);
	fputs(", \"max\": ", f);
	wfw_rep_num(f, rb->max);
	fprintf(f, ", \"edge_pct\": %g, \"edge_span\": %g, \"over\": %llu, \"over_exact\": %s, \"counts\": ",
		rb->pct, WFW_REPORT_BINS_SPAN, (unsigned long long)over,
		over_exact ? "true" : "false");
	counts_json(f, counts, rb->b.nbins);
}

void wfw_rep_group_hist_json(FILE *f, const char *name, size_t nbins,
			     const uint64_t *counts, uint64_t over)
{
	fputs("{\"name\": ", f);
	wfw_json_string(f, name);
	fputs(", \"counts\": ", f);
	counts_json(f, counts, nbins);
	fprintf(f, ", \"over\": %llu}", (unsigned long long)over);
}

void wfw_rep_group_ccdf_open(FILE *f, const char *name)
{
	fputs("{\"name\": ", f);
	wfw_json_string(f, name);
	fputs(", \"ccdf\": ", f);
}

void wfw_rep_ccdf_json(FILE *f, const float *x, const double *p, size_t k)
{
	struct wfw_jsout o;

	fputs("{\"x\": [", f);
	wfw_jsout_init(&o, f);
	for (size_t i = 0; i < k; i++)
		wfw_jsout_g7(&o, i ? ',' : 0, x[i]);
	wfw_jsout_flush(&o);
	fputs("], \"p\": [", f);
	for (size_t i = 0; i < k; i++)
		fprintf(f, "%s%.6g", i ? "," : "", p[i]);
	fputs("]}", f);
}

static void float_array(FILE *f, const char *key, const struct wfw_wpoint *p,
			size_t n, int which)
{
	struct wfw_jsout o;

	fprintf(f, "\"%s\": [", key);
	wfw_jsout_init(&o, f);
	for (size_t i = 0; i < n; i++) {
		if (which == 2)
			wfw_jsout_u64(&o, i ? ',' : 0, p[i].weight);
		else
			wfw_jsout_g7(&o, i ? ',' : 0, which ? p[i].y : p[i].x);
	}
	wfw_jsout_flush(&o);
	fputs("]", f);
}

double wfw_rep_tail_pct(size_t nrows)
{
	double keep = (double)WFW_REPORT_SCATTER_TAIL / (double)(nrows ? nrows : 1);

	return keep < 0.01 ? 100.0 * (1.0 - keep) : 99.0;
}

void wfw_rep_wpoints(FILE *f, const struct wfw_wpoint *p, size_t n)
{
	float_array(f, "x", p, n, 0);
	fputs(", ", f);
	float_array(f, "y", p, n, 1);
	fputs(", ", f);
	float_array(f, "w", p, n, 2);
}

double wfw_rep_ytail(struct wfw_rep_result *r, const char *metric)
{
	size_t m = wfw_rep_metric(&r->set, metric);
	double pct = wfw_rep_tail_pct(r->nrows);
	struct wfw_summary s;

	if (m == SIZE_MAX || wfw_statset_summary(&r->set, m, SIZE_MAX, &pct, 1, &s))
		return INFINITY;
	return s.pct[0];
}
