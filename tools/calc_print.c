/* SPDX-License-Identifier: MIT */
/* wultfw calc: the statistics as an aligned table, markdown, CSV or JSON. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc.h"
#include "stats/cstate.h"
#include "stats/report.h"
#include "stats/table.h"

/* Index of metric `name` in a result's set, or SIZE_MAX. */
static size_t find_metric(const struct wfw_statset *s, const char *name)
{
	for (size_t m = 0; m < s->nmetrics; m++)
		if (!wfw_statset_pending(s, m) &&
		    !strcmp(wfw_statset_metric(s, m)->name, name))
			return m;
	return SIZE_MAX;
}

static size_t find_group(const struct wfw_statset *s, const char *name)
{
	return wfw_statset_group_find(s, name);
}

static double func_value(const struct calc_func *f, const struct wfw_summary *s)
{
	switch (f->fn) {
	case FN_COUNT: return (double)s->count;
	case FN_MIN: return s->min;
	case FN_MAX: return s->max;
	case FN_MEAN: return s->mean;
	case FN_STD: return s->stddev;
	default: return s->pct[f->pidx];
	}
}

/* A value; "~" marks a percentile estimated from the histogram. */
static void fmt_func(char *buf, size_t len, const struct calc_func *f,
		     const struct wfw_summary *s, int dec)
{
	bool est = f->fn == FN_PCT && !s->exact && !isnan(func_value(f, s));

	if (f->fn == FN_COUNT) {
		snprintf(buf, len, "%llu", (unsigned long long)s->count);
		return;
	}
	buf[0] = '~';
	wfw_fmt_value(buf + est, len - est, func_value(f, s), dec);
}

/* How a difference is printed: "+1.250 (+3.1%)", or (CSV) "+1.250" and "+3.1". */
enum diff_form { DIFF_BOTH, DIFF_ABS, DIFF_PCT };

/* The difference to the first result in form `form`. */
static void fmt_diff(char *buf, size_t len, const struct calc_func *f,
		     const struct wfw_summary *s, const struct wfw_summary *base,
		     int dec, enum diff_form form)
{
	double v = func_value(f, s), b = func_value(f, base), d = v - b;
	double pct = round(1000 * d / fabs(b)) / 10;	/* as %.1f shows it */
	bool rel = b != 0 && fabs(pct) < 1e15;	/* no NaN, no 300 digits */
	char num[40];

	if (isnan(d)) {	/* either has too few values to say */
		snprintf(buf, len, "-");
		return;
	}
	wfw_fmt_value(num, sizeof(num), fabs(d), f->fn == FN_COUNT ? 0 : dec);
	/* What rounds to zero is +0, not -0.000 (-0.0%). */
	if (strspn(num, "0.") == strlen(num))
		d = 0;
	if (form == DIFF_PCT)
		snprintf(buf, len, rel ? "%+.1f" : "-", pct == 0 ? 0.0 : pct);
	else if (form == DIFF_BOTH && rel)
		snprintf(buf, len, "%s%s (%+.1f%%)", d < 0 ? "-" : "+", num,
			 pct == 0 ? 0.0 : pct);
	else
		snprintf(buf, len, "%s%s", d < 0 ? "-" : "+", num);
}

/* Leading cells of a row: metric, unit, [C-state], [result]. */
static size_t lead_cells(struct calc *c, const char **cells,
			 const char *metric, const char *unit,
			 const char *group, const char *result)
{
	size_t n = 0;

	cells[n++] = metric;
	cells[n++] = unit;
	if (c->per_cstate)
		cells[n++] = group;
	if (c->nres > 1)
		cells[n++] = result;
	return n;
}

/* Summaries of one metric and group in every result; have[i]: it has one. */
static int summarize_results(struct calc *c, const char *metric,
			     const char *group, struct wfw_summary *sum,
			     bool *have, const struct wultfw_column **col)
{
	bool all = !strcmp(group, "all");
	int ret = 0;

	for (size_t i = 0; i < c->nres && !ret; i++) {
		struct wfw_statset *s = &c->res[i].set;
		size_t m = find_metric(s, metric);
		size_t g = all ? SIZE_MAX : find_group(s, group);

		have[i] = m != SIZE_MAX && (g != SIZE_MAX || all);
		if (have[i])
			ret = wfw_statset_summary(s, m, g, c->pct, c->npct, &sum[i]);
		if (have[i] && !ret)
			wfw_summary_shown(&sum[i], c->pct);
		if (have[i] && !ret && !sum[i].count && !all)
			have[i] = false;
		if (have[i] && !*col)
			*col = wfw_statset_metric(s, m);
		c->estimated |= have[i] && !ret && !sum[i].exact;
	}
	return ret;
}

/* One table row: the lead cells, then each function of sum (or its diff). */
static int add_row(struct calc *c, struct wfw_table *t, const char **lead,
		   const struct wfw_summary *sum, const struct wfw_summary *base,
		   const int *dec, enum diff_form form)
{
	const char *cells[6 + CALC_MAX_FUNCS];
	char buf[CALC_MAX_FUNCS][64];
	size_t n = lead_cells(c, cells, lead[0], lead[1], lead[2], lead[3]);

	for (size_t k = 0; k < c->nfuncs; k++) {
		if (base)
			fmt_diff(buf[k], sizeof(buf[k]), &c->funcs[k], sum, base, dec[k], form);
		else
			fmt_func(buf[k], sizeof(buf[k]), &c->funcs[k], sum, dec[k]);
		cells[n++] = buf[k];
	}
	return wfw_table_add(t, cells);
}

/* One metric's rows: per group name ("all" first) and result, a summary. */
struct mrows {
	const char *metric;
	const char **groups;
	size_t ngroups;
	struct wfw_summary *sum;	/* [g * nres + i] */
	bool *have;
	const struct wultfw_column *col;
	int dec[CALC_MAX_FUNCS];
};

/*
 * Decimals of each function: one rule for all of the metric's rows (every
 * group, result and difference), so that its numbers align and whole
 * numbers show no ".000" (wfw_fmt_decimals()).
 */
static int decimals(struct calc *c, struct mrows *r)
{
	size_t nrows = r->ngroups * c->nres, n;
	double *v = malloc((nrows ? nrows : 1) * sizeof(*v));
	int dec = wfw_report_decimals(r->col);

	if (!v)
		return -ENOMEM;
	for (size_t k = 0; k < c->nfuncs; k++) {
		n = 0;
		for (size_t i = 0; i < nrows; i++)
			if (r->have[i])
				v[n++] = func_value(&c->funcs[k], &r->sum[i]);
		r->dec[k] = c->funcs[k].fn == FN_COUNT ? 0 : wfw_fmt_decimals(dec, v, n);
	}
	free(v);
	return 0;
}

/*
 * The rows of group g: one per result, and under each later result its
 * difference to the first.
 */
static int group_table_rows(struct calc *c, struct wfw_table *t,
			    const struct mrows *r, size_t g)
{
	const struct wfw_summary *sum = r->sum + g * c->nres;
	const bool *have = r->have + g * c->nres;
	const char *unit = r->col->unit ? r->col->unit : "";
	char diffname[300], pctname[300];
	int ret = 0;

	bool csv = c->format == CALC_CSV;	/* numbers only: % in a row of its own */

	snprintf(diffname, sizeof(diffname), "diff vs %s", c->res[0].arg);
	snprintf(pctname, sizeof(pctname), "diff%% vs %s", c->res[0].arg);
	for (size_t i = 0; i < c->nres && !ret; i++) {
		const char *lead[4] = { r->metric, unit, r->groups[g], c->res[i].arg };
		const char *dlead[4] = { csv ? r->metric : "", csv ? unit : "",
					 csv ? r->groups[g] : "", diffname };
		const char *plead[4] = { r->metric, "%", r->groups[g], pctname };

		if (!have[i])
			continue;
		ret = add_row(c, t, lead, &sum[i], NULL, r->dec, DIFF_BOTH);
		if (!ret && i && have[0])
			ret = add_row(c, t, dlead, &sum[i], &sum[0], r->dec,
				      csv ? DIFF_ABS : DIFF_BOTH);
		if (!ret && i && have[0] && csv)
			ret = add_row(c, t, plead, &sum[i], &sum[0], r->dec, DIFF_PCT);
	}
	return ret;
}

/* Summaries of every row of r, then the rows. */
static int metric_table_rows(struct calc *c, struct wfw_table *t, struct mrows *r)
{
	int ret = 0;

	r->sum = calloc(r->ngroups * c->nres, sizeof(*r->sum));
	r->have = calloc(r->ngroups * c->nres, sizeof(*r->have));
	if (!r->sum || !r->have)
		ret = -ENOMEM;
	for (size_t g = 0; g < r->ngroups && !ret; g++)
		ret = summarize_results(c, r->metric, r->groups[g], r->sum + g * c->nres,
					r->have + g * c->nres, &r->col);
	if (!ret && r->col) {
		ret = decimals(c, r);
		for (size_t g = 0; g < r->ngroups && !ret; g++)
			ret = group_table_rows(c, t, r, g);
	}
	free(r->sum);
	free(r->have);
	return ret;
}

static bool seen_before(struct calc *c, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++)
		if (find_metric(&c->res[i].set, name) != SIZE_MAX)
			return true;
	return false;
}

/* The smallest switch point of all results: where histograms begin. */
static size_t exact_limit(const struct calc *c)
{
	size_t lim = SIZE_MAX;

	for (size_t i = 0; i < c->nres; i++) {
		size_t t = wfw_statset_switch_point(&c->res[i].set);

		lim = t < lim ? t : lim;
	}
	return lim;
}

/* Groups whose percentiles came from sketches, over all results. */
static size_t sketched(const struct calc *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nres; i++)
		n += wfw_statset_sketched(&c->res[i].set);
	return n;
}

static void print_rows(struct calc *c, const struct wfw_table *t)
{
	size_t nsk;

	if (c->format == CALC_MARKDOWN)
		wfw_table_print_markdown(t, stdout);
	else if (c->format == CALC_CSV)
		wfw_table_print_csv(t, stdout);
	else
		wfw_table_print(t, stdout);
	if (c->format == CALC_CSV)
		return;
	printf("\nPercentiles: exact up to %zu values per metric%s (the switch point; -e, -M), "
	       "then from a histogram within %.3f%%%s.\n",
	       exact_limit(c), c->per_cstate ? " and group" : "",
	       WFW_HIST_REL_ERROR * 100,
	       c->estimated ? " (marked ~)" : "; none was needed");
	nsk = sketched(c);
	if (nsk)
		printf("Approximate: the percentiles (marked ~) of %zu groups past the switch point "
		       "come from sketches of the histogram's buckets, within %.3f%%: a histogram "
		       "for each group would not fit the memory limit, %.0f MiB (%s).\n",
		       nsk, WFW_HIST_REL_ERROR * 100, (double)c->mem_limit / (1 << 20),
		       c->mem_given ? "--mem-limit" : "by default 3/4 of MemAvailable");
}

static int cmp_group_names(const void *a, const void *b)
{
	return wfw_cstate_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every result's group names, once each, by depth, into names (room: n). */
static size_t group_names(struct calc *c, const char **names)
{
	size_t n = 0, k = 0;

	for (size_t j = 0; j < c->nres; j++) {
		struct wfw_statset *sj = &c->res[j].set;

		if (sj->gcol < 0 || c->res[j].no_states)
			continue;
		for (size_t g = 0; g < sj->ngroups; g++)
			names[n++] = wfw_statset_group_name(sj, g);
	}
	qsort(names, n, sizeof(*names), cmp_group_names);
	for (size_t i = 0; i < n; i++)
		if (!k || strcmp(names[k - 1], names[i]))
			names[k++] = names[i];
	return k;
}

/* Rows of metric `name`: all, then per group (every result's, by depth). */
static int metric_rows(struct calc *c, struct wfw_table *t, const char *name)
{
	struct mrows r = { .metric = name };
	size_t cap = 1, n = 0;
	int ret;

	for (size_t j = 0; c->per_cstate && j < c->nres; j++)
		cap += c->res[j].set.ngroups;
	r.groups = malloc(cap * sizeof(*r.groups));
	if (!r.groups)
		return -ENOMEM;
	r.groups[0] = "all";
	if (c->per_cstate)
		n = group_names(c, r.groups + 1);
	r.ngroups = 1 + n;
	ret = metric_table_rows(c, t, &r);
	free(r.groups);
	return ret;
}

static int add_header(struct calc *c, struct wfw_table *t)
{
	const char *hdr[6 + CALC_MAX_FUNCS];
	size_t nlead = 2 + c->per_cstate + (c->nres > 1);
	size_t n = lead_cells(c, hdr, "Metric", "Unit", c->group_by, "Result");
	char align[64];

	memset(align, 'r', sizeof(align));
	memset(align, 'l', nlead);
	align[n + c->nfuncs] = '\0';
	wfw_table_init(t, n + c->nfuncs, align);
	for (size_t k = 0; k < c->nfuncs; k++)
		hdr[n++] = c->funcs[k].label;
	return wfw_table_add(t, hdr);
}

int calc_print_table(struct calc *c)
{
	struct wfw_table t;
	int ret = add_header(c, &t);

	/* Metrics in order of first appearance over results. */
	for (size_t i = 0; i < c->nres && !ret; i++) {
		struct wfw_statset *s = &c->res[i].set;

		for (size_t m = 0; m < s->nmetrics && !ret; m++) {
			const char *name = wfw_statset_metric(s, m)->name;

			if (wfw_statset_pending(s, m) || seen_before(c, i, name))
				continue;
			ret = metric_rows(c, &t, name);
		}
	}
	if (!ret)
		print_rows(c, &t);
	wfw_table_free(&t);
	return ret;
}

int calc_print_json(struct calc *c)
{
	int ret = 0;

	printf("{\n  \"percentile_method\": \"linear\",\n"
	       "  \"stddev\": \"sample\",\n"
	       "  \"histogram_relative_error\": %.6g,\n  \"results\": [",
	       WFW_HIST_REL_ERROR);
	for (size_t i = 0; i < c->nres && !ret; i++) {
		printf("%s\n    {\n      \"result\": ", i ? "," : "");
		wfw_json_string(stdout, c->res[i].arg);
		printf(",\n      \"file\": ");
		wfw_json_string(stdout, c->res[i].path);
		printf(",\n      \"stats\": ");
		ret = wfw_report_json(&c->res[i].set, c->pct, c->npct, 6,
				      stdout);
		if (!ret)
			ret = calc_cpus(c, &c->res[i], stdout);
		if (!ret && wfw_statset_sketched(&c->res[i].set))
			printf(",\n      \"approximate\": true,\n      \"sketch_groups\": %zu,"
			       "\n      \"sketch_relative_error\": %.6g",
			       wfw_statset_sketched(&c->res[i].set), WFW_HIST_REL_ERROR);
		printf("\n    }");
	}
	printf("\n  ]\n}\n");
	return ret;
}

