/* SPDX-License-Identifier: MIT */
/* data.js of a report: statistics, reduced scatter, histogram, CCDF. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/metricdoc.h"
#include "par/par.h"
#include "report/jsnum.h"
#include "report/reduce.h"
#include "report/report.h"
#include "stats/report.h"

/* One summary row: {"group":..,"share":..,"exact":..,"v":[count, ...]} */
static void summary_row(const struct wfw_rep_result *r,
			const struct wfw_summary *s, const char *name, FILE *f)
{
	struct wfw_summary shown = *s;	/* s's percentiles stay for the bins */

	wfw_summary_shown(&shown, wfw_rep_pcts);	/* too few values to say: null, "-" */
	s = &shown;
	fputs("{\"group\": ", f);
	wfw_json_string(f, name);
	fprintf(f, ", \"share\": ");
	wfw_rep_num(f, r->nsel ? (double)s->count / (double)r->nsel : 0);
	fprintf(f, ", \"exact\": %s, \"v\": [%llu, ", s->exact ? "true" : "false",
		(unsigned long long)s->count);
	wfw_rep_num(f, s->min); fputs(", ", f);
	wfw_rep_num(f, s->mean); fputs(", ", f);
	wfw_rep_num(f, s->stddev);
	for (size_t p = 0; p < WFW_REP_NPCTS; p++) {
		fputs(", ", f);
		wfw_rep_num(f, s->pct[p]);
	}
	fputs(", ", f);
	wfw_rep_num(f, s->max);
	fputs("]}", f);
}

/*
 * All rows first, then each requested C-state that has rows. The all
 * rows' summary goes to *all too (count 0: no such metric), for the
 * histogram's bins: a percentile of a million exact values is a
 * selection among them, not to be made twice.
 */
static int summary(struct wfw_rep_result *r, const char *metric,
		   struct wfw_summary *all, FILE *f)
{
	size_t m = wfw_rep_metric(&r->set, metric);
	struct wfw_summary s;
	int ret;

	all->count = 0;
	fputs("[", f);
	if (m == SIZE_MAX) {
		fputs("]", f);
		return 0;
	}
	ret = wfw_statset_summary(&r->set, m, SIZE_MAX, wfw_rep_pcts, WFW_REP_NPCTS, all);
	if (!ret)
		summary_row(r, all, "all", f);
	for (size_t i = 0; r->set.gcol >= 0 && i < r->set.ngroups && !ret; i++) {
		size_t g = wfw_statset_group_at(&r->set, i);	/* by depth, as calc */

		ret = wfw_statset_summary(&r->set, m, g, wfw_rep_pcts, WFW_REP_NPCTS, &s);
		if (ret || !s.count)
			continue;
		fputs(", ", f);
		summary_row(r, &s, wfw_statset_group_name(&r->set, g), f);
	}
	fputs("]", f);
	return ret;
}

#define ALL_STATES LONG_MIN

/* The rows of state g (-1: none; ALL_STATES: every row) of column c. */
static float *state_rows(const struct wfw_rep_result *r, int c, long g,
			 size_t *n)
{
	float *v = malloc((r->nrows ? r->nrows : 1) * sizeof(*v));
	const float *src = r->vals[c];
	size_t k = 0;

	*n = 0;
	if (!v)
		return NULL;
	if (g == ALL_STATES) {
		memcpy(v, src, r->nrows * sizeof(*v));
		*n = r->nrows;
		return v;
	}
	/* Without a branch: states come in random order. */
	for (size_t i = 0; i < r->nrows; i++) {
		v[k] = src[i];
		k += r->state[i] == g;
	}
	*n = k;
	return v;
}

/* A trace of a sampled result: the tail as itself, density from the sample. */
static int sampled_group(struct wfw_rep_result *r, int xc, int yc, long g,
			 const char *name, FILE *f)
{
	uint64_t rows = wfw_rep_rows(r, yc, g);
	struct wfw_wpoint *p;
	size_t n;
	int ret = wfw_rep_sampled_points(r, xc, yc, g, rows, 0, 1, &p, &n);

	if (ret)
		return ret;
	fputs("{\"name\": ", f);
	wfw_json_string(f, name);
	fprintf(f, ", \"rows\": %llu, \"reduced\": true, \"tail_pct\": %.6g, \"above\": ",
		(unsigned long long)rows, wfw_rep_tail_pct(r->nsel));
	wfw_rep_num(f, wfw_topk_min(&r->tails[yc]));
	fputs(", ", f);
	wfw_rep_wpoints(f, p, n);
	fputs("}", f);
	free(p);
	return 0;
}

/* One trace of a scatter: x/y/w of the reduced points of one state. */
static int scatter_group(struct wfw_rep_result *r, int xc, int yc,
			 long g, const char *name, double ytail, FILE *f)
{
	size_t nx, ny, n, budget;
	float *x, *y;
	struct wfw_wpoint *p = NULL;
	int ret = -ENOMEM;

	if (r->sampled)
		return sampled_group(r, xc, yc, g, name, f);
	x = state_rows(r, xc, g, &nx);
	y = state_rows(r, yc, g, &ny);
	if (!x || !y)
		goto out;
	budget = r->nrows ? (size_t)((double)WFW_REPORT_MAX_POINTS * (double)nx /
				     (double)r->nrows) : 0;
	ret = wfw_reduce_scatter(x, y, nx, budget < 2000 ? 2000 : budget, ytail,
				 WFW_REPORT_GRID, &p, &n);
	if (ret)
		goto out;
	fputs("{\"name\": ", f);
	wfw_json_string(f, name);
	fprintf(f, ", \"rows\": %zu, \"reduced\": %s, \"tail_pct\": %.6g, ", nx,
		n < nx ? "true" : "false", wfw_rep_tail_pct(r->nrows));
	wfw_rep_wpoints(f, p, n);
	fputs("}", f);
out:
	free(x);
	free(y);
	free(p);
	return ret;
}

static int scatter(struct wfw_rep_result *r, const char *metric,
		   const char *xaxis, FILE *f)
{
	int xc = wfw_rep_col(r, xaxis), yc = wfw_rep_col(r, metric);
	size_t m = wfw_rep_metric(&r->set, metric);
	double ytail;
	int ret = 0;

	fputs("[", f);
	if (xc < 0 || yc < 0 || m == SIZE_MAX) {
		fputs("]", f);
		return 0;
	}
	ytail = wfw_rep_ytail(r, metric);
	if (!r->nstates)
		ret = scatter_group(r, xc, yc, ALL_STATES, "all", ytail, f);
	for (size_t g = 0; g < r->nstates && !ret; g++) {
		if (g)
			fputs(", ", f);
		ret = scatter_group(r, xc, yc, (long)g, r->state_names[g],
				    ytail, f);
	}
	/* Rows whose ReqCState is empty (an older result without states) */
	for (size_t i = 0; r->nstates && i < r->nrows && !ret; i++) {
		if (r->state[i] == -1) {
			fputs(", ", f);
			ret = scatter_group(r, xc, yc, -1, "-", ytail, f);
			break;
		}
	}
	fputs("]", f);
	return ret;
}

/* Compact v[0..n) to its values that are numbers; their count. */
static size_t drop_nans(float *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	return k;
}

/*
 * , "groups": [{"name":.., "counts": [..], "over": n}, ...]: the
 * histogram of each group (ReqCState, Precise, ...) in the whole's bins,
 * when there are two groups or more.
 */
static int group_histograms(const struct wfw_rep_result *r, int c,
			    const struct wfw_bins *b, FILE *f)
{
	uint64_t counts[WFW_REPORT_BINS + 1];
	size_t n, shown = 0;

	if (r->nstates < 2)
		return 0;
	fputs(", \"groups\": [", f);
	for (size_t g = 0; g < r->nstates; g++) {
		float *v = state_rows(r, c, (long)g, &n);

		if (!v)
			return -ENOMEM;
		if (n) {
			wfw_reduce_histogram_at(v, n, b, counts);
			fputs(shown++ ? ", " : "", f);
			wfw_rep_group_hist_json(f, r->state_names[g], b->nbins,
						counts, counts[b->nbins]);
		}
		free(v);
	}
	fputs("]", f);
	return 0;
}

/* The histogram of every kept row (all of them: the result is whole). */
static int kept_histogram(struct wfw_rep_result *r, int c,
			  const struct wfw_summary *all, const float *v,
			  size_t n, FILE *f)
{
	uint64_t counts[WFW_REPORT_BINS + 1];
	struct wfw_rep_bins rb;
	int ret;

	wfw_rep_bins(all, &rb);
	wfw_reduce_histogram_at(v, n, &rb.b, counts);
	wfw_rep_hist_json(f, &rb, counts, counts[rb.b.nbins], true);
	ret = group_histograms(r, c, &rb.b, f);
	fputs("}", f);
	return ret;
}

/*
 * , "ccdf_groups": [{"name":.., "ccdf": {"x", "p"}}, ...]: each group's
 * CCDF, when the histogram has groups; x and p are scratch of max_out.
 */
static int group_ccdfs(const struct wfw_rep_result *r, int c, float *x,
		       double *p, size_t max_out, FILE *f)
{
	size_t n, shown = 0;

	if (r->nstates < 2)
		return 0;
	fputs(", \"ccdf_groups\": [", f);
	for (size_t g = 0; g < r->nstates; g++) {
		float *v = state_rows(r, c, (long)g, &n);

		if (!v)
			return -ENOMEM;
		n = drop_nans(v, n);
		if (n && wfw_sort_floats(v, n)) {
			free(v);
			return -ENOMEM;
		}
		if (n) {
			fputs(shown++ ? ", " : "", f);
			wfw_rep_group_ccdf_open(f, r->state_names[g]);
			wfw_rep_ccdf_json(f, x, p, wfw_reduce_ccdf(v, n, WFW_REPORT_CCDF_TAIL,
								   x, p, max_out));
			fputs("}", f);
		}
		free(v);
	}
	fputs("]", f);
	return 0;
}

static int distribution(struct wfw_rep_result *r, const char *metric,
			const struct wfw_summary *all, bool groups_ccdf, FILE *f)
{
	int c = wfw_rep_col(r, metric);
	size_t n, k, max_out = 4000 + WFW_REPORT_CCDF_TAIL;
	float *v, *x = NULL;
	double *p = NULL;
	int ret;

	if (c < 0) {
		fputs("null", f);
		return 0;
	}
	if (r->sampled)
		return wfw_rep_sampled_dist(r, c, all, groups_ccdf, f);
	v = state_rows(r, c, ALL_STATES, &n);
	x = malloc(max_out * sizeof(*x));
	p = malloc(max_out * sizeof(*p));
	if (!v || !x || !p) {
		free(v); free(x); free(p);
		return -ENOMEM;
	}
	fputs("{", f);
	ret = kept_histogram(r, c, all, v, n, f);
	fputs(", \"ccdf\": ", f);
	n = drop_nans(v, n);
	if (wfw_sort_floats(v, n)) {
		free(v); free(x); free(p);
		return -ENOMEM;
	}
	k = ret ? 0 : wfw_reduce_ccdf(v, n, WFW_REPORT_CCDF_TAIL, x, p, max_out);
	wfw_rep_ccdf_json(f, x, p, k);
	if (!ret && groups_ccdf)
		ret = group_ccdfs(r, c, x, p, max_out, f);
	fputs("}", f);
	free(v); free(x); free(p);
	return ret;
}

static void result_info(const struct wfw_rep_result *r, FILE *f)
{
	fputs("{\"id\": ", f);
	wfw_json_string(f, r->id);
	fputs(", \"file\": ", f);
	wfw_json_string(f, r->path);
	fputs(", \"group_by\": ", f);
	wfw_json_string(f, r->group_by ? r->group_by : "");
	fprintf(f, ", \"rows_read\": %llu, \"rows\": %llu, ",
		(unsigned long long)r->rows_read, (unsigned long long)r->nsel);
	if (r->sampled)
		fprintf(f, "\"sample\": %zu, ", r->nrows);
	fputs("\"info\": {", f);
	for (size_t i = 0; i < r->info.n; i++) {
		char *v = wfw_infoyml_value(&r->info, i);

		fputs(i ? ", " : "", f);
		wfw_json_string(f, r->info.keys[i]);
		fputs(": ", f);
		wfw_json_string(f, v ? v : "");
		free(v);
	}
	fputs("}}", f);
}

/* Does metric `name` get scatter plots (--yaxes; all when none given)? */
static bool scattered(const struct wfw_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nyaxes; i++)
		if (!strcmp(rep->yaxes[i], name))
			return true;
	return !rep->nyaxes;
}

/* Is `name` in list[0..n) (all when the option was not given)? */
static bool listed(const char *const *list, size_t n, bool given,
		   const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return !given;
}

/* The unit of column `name` in the first result that has one. */
static const char *unit_of(const struct wfw_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nres; i++) {
		int c = wfw_rep_col(&rep->res[i], name);

		if (c >= 0 && *rep->res[i].units[c])
			return rep->res[i].units[c];
	}
	return "";
}

/*
 * What the metric is in each result: its source's text (metricdoc.h, as
 * --list-metrics prints it), "" where the result lacks the metric.
 */
static void descrs(const struct wfw_report *rep, const char *name, FILE *f)
{
	fputs(", \"descr\": [", f);
	for (size_t i = 0; i < rep->nres; i++) {
		const struct wfw_rep_result *r = &rep->res[i];

		fputs(i ? ", " : "", f);
		wfw_json_string(f, wfw_rep_col(r, name) >= 0 ?
				wfw_metric_descr(name, r->source) : "");
	}
	fputs("]", f);
}

static int metric(const struct wfw_report *rep, const char *name, FILE *f)
{
	struct wfw_summary *all = calloc(rep->nres ? rep->nres : 1, sizeof(*all));
	int ret = all ? 0 : -ENOMEM;
	const char *unit = unit_of(rep, name);
	bool hist = listed(rep->hist, rep->nhist, rep->hist_given, name);
	bool ccdf = listed(rep->chist, rep->nchist, rep->chist_given, name);

	fputs("{\"name\": ", f);
	wfw_json_string(f, name);
	fputs(", \"unit\": ", f);
	wfw_json_string(f, unit);
	descrs(rep, name, f);
	fputs(", \"summary\": [", f);
	for (size_t i = 0; i < rep->nres && !ret; i++) {
		fputs(i ? ", " : "", f);
		ret = summary(&rep->res[i], name, &all[i], f);
	}
	fputs("], \"scatter\": {", f);
	for (size_t a = 0; a < rep->nxaxes && !ret && scattered(rep, name); a++) {
		fprintf(f, "%s", a ? ", " : "");
		wfw_json_string(f, rep->xaxes[a]);
		fputs(": [", f);
		for (size_t i = 0; i < rep->nres && !ret; i++) {
			fputs(i ? ", " : "", f);
			ret = scatter(&rep->res[i], name, rep->xaxes[a], f);
		}
		fputs("]", f);
	}
	fprintf(f, "}, \"hist\": %s, \"ccdf\": %s, \"dist\": [",
		hist ? "true" : "false", ccdf ? "true" : "false");
	for (size_t i = 0; i < rep->nres && !ret; i++) {
		fputs(i ? ", " : "", f);
		ret = distribution(&rep->res[i], name, &all[i], ccdf, f);
	}
	fputs("], \"explain\": [", f);
	for (size_t i = 0; i < rep->nres && !ret; i++) {
		fputs(i ? ", " : "", f);
		ret = wfw_attrib_emit(rep, &rep->res[i], name, unit, &all[i], f);
	}
	fputs("]}", f);
	free(all);
	return ret;
}

/* The metrics' data, each written by a thread into memory (lib/par). */
struct metrics_par {
	const struct wfw_report *rep;
	FILE *f;
	struct metric_out {
		char *buf;
		size_t len;
	} *o;			/* per slot */
};

/*
 * Metric m into slot `slot`'s memory (each reads its own statistics,
 * tails and the kept rows, which no one changes).
 */
static int metric_work(void *ctx, unsigned slot, uint64_t m)
{
	struct metrics_par *mp = ctx;
	struct metric_out *o = &mp->o[slot];
	FILE *f = open_memstream(&o->buf, &o->len);
	int ret = f ? metric(mp->rep, mp->rep->metrics[m], f) : -ENOMEM;

	if (f && fclose(f) && !ret)
		ret = -ENOMEM;
	return ret;
}

/* Metric m's data out, in order. */
static int metric_put(void *ctx, unsigned slot, uint64_t m)
{
	struct metrics_par *mp = ctx;
	struct metric_out *o = &mp->o[slot];

	fputs(m ? ", " : "", mp->f);
	fwrite(o->buf, 1, o->len, mp->f);
	free(o->buf);
	o->buf = NULL;
	return 0;
}

static const struct wfw_par_ops metric_ops = { .work = metric_work, .emit = metric_put };

/* The metrics, on rep->jobs threads (at most WFW_REPORT_MAX_PARTS). */
static int metrics(const struct wfw_report *rep, FILE *f)
{
	unsigned n = rep->jobs < WFW_REPORT_MAX_PARTS ? rep->jobs : WFW_REPORT_MAX_PARTS;
	struct metric_out o[WFW_REPORT_MAX_PARTS] = { 0 };
	struct metrics_par mp = { .rep = rep, .f = f, .o = o };
	struct wfw_par par = { .ops = &metric_ops, .ctx = &mp,
			       .nparts = rep->nmetrics, .threads = n };
	int ret = 0;

	if (n < 2) {	/* one thread: straight into f, not through memory */
		for (size_t m = 0; m < rep->nmetrics && !ret; m++) {
			fputs(m ? ", " : "", f);
			ret = metric(rep, rep->metrics[m], f);
		}
		return ret;
	}
	ret = wfw_par_run(&par);
	for (unsigned i = 0; i < WFW_REPORT_MAX_PARTS; i++)
		free(o[i].buf);
	return ret;
}

int wfw_report_write_data(const struct wfw_report *rep, FILE *f)
{
	int ret = 0;

	fputs("window.WFW_REPORT = {\"title\": ", f);
	wfw_json_string(f, rep->title ? rep->title : "");
	fputs(", \"descr\": ", f);
	wfw_json_string(f, rep->descr ? rep->descr : "");
	fprintf(f, ", \"max_points\": %d, \"tail_points\": %d, \"grid\": %d, \"ccdf_tail\": %d,"
		" \"funcs\": [\"count\", \"min\", \"mean\", \"std\", \"median\","
		" \"p90\", \"p99\", \"p99.9\", \"p99.99\", \"p99.999\", \"max\"],"
		" \"results\": [", WFW_REPORT_MAX_POINTS, WFW_REPORT_SCATTER_TAIL, WFW_REPORT_GRID,
		WFW_REPORT_CCDF_TAIL);
	for (size_t i = 0; i < rep->nres; i++) {
		fputs(i ? ", " : "", f);
		result_info(&rep->res[i], f);
	}
	fputs("], \"timelines\": [", f);
	for (size_t i = 0; i < rep->nres && !ret; i++) {
		fputs(i ? ", " : "", f);
		const struct wfw_rep_result *r = &rep->res[i];

		/* the latency explained, if any: its datapoints are marked */
		ret = wfw_timeline_emit(&rep->res[i], r->attrib ? r->attrib->latency :
					rep->metrics[0],
					rep->explain_top < WFW_REPORT_EXPLAIN_MARKS ?
					rep->explain_top : WFW_REPORT_EXPLAIN_MARKS, f);
	}
	fputs("], \"skid\": [", f);
	for (size_t i = 0; i < rep->nres && !ret; i++) {
		fputs(i ? ", " : "", f);
		ret = wfw_skid_emit(&rep->res[i], f);
	}
	fputs("], \"axis_units\": {", f);
	for (size_t a = 0; a < rep->nxaxes; a++) {
		fputs(a ? ", " : "", f);
		wfw_json_string(f, rep->xaxes[a]);
		fputs(": ", f);
		wfw_json_string(f, unit_of(rep, rep->xaxes[a]));
	}
	fputs("}, ", f);
	if (!ret)
		ret = wfw_rep_states_json(rep, f);
	fputs(", \"metrics\": [", f);
	if (!ret)
		ret = metrics(rep, f);
	fputs("]};\n", f);
	return ret;
}
