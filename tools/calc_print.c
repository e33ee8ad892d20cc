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

/*
 * The table as its rows come (wfw_table_stream): an aligned table takes
 * them twice, measured then printed, so no row is held, and with a
 * million groups neither are their summaries. What each metric needs
 * whole before its rows -- the decimals of each function over all its
 * rows, its "all" row (a merge of every group) -- is found once and kept.
 */
struct tprint {
	struct calc *c;
	struct wfw_table_stream t;
	size_t nm;			/* metrics (by first appearance) */
	int (*dec)[CALC_MAX_FUNCS];	/* per metric, once known */
	bool *dec_known;
	struct wfw_summary *all;	/* [metric * nres + result] */
	bool *all_have, *all_known;
	const struct wultfw_column **col;	/* per metric: its column */
	size_t *cur;			/* per result: next group in order */
	const char **groups;		/* "all", then the groups' names */
	size_t ngroups;
};

/*
 * Result s's group called `name`, the names asked for in
 * wfw_cstate_cmp() order from *cur = 0: the same group a binary search
 * (wfw_statset_group_find()) finds, without its log n comparisons a row.
 */
static size_t next_group(const struct wfw_statset *s, size_t *cur, const char *name)
{
	const char *at;

	for (; *cur < s->ngroups; (*cur)++) {
		at = wfw_statset_group_name(s, wfw_statset_group_at(s, *cur));
		if (wfw_cstate_cmp(at, name) >= 0)
			break;
	}
	if (*cur < s->ngroups && !strcmp(at, name))
		return wfw_statset_group_at(s, *cur);
	return SIZE_MAX;
}

/* Summaries of metric k's group `group` (or "all") in every result; have[i]: it has one. */
static int summarize_results(struct tprint *p, size_t k, const char *metric,
			     const char *group, struct wfw_summary *sum, bool *have)
{
	struct calc *c = p->c;
	bool all = !strcmp(group, "all");
	int ret = 0;

	if (all && p->all_known[k]) {
		memcpy(sum, p->all + k * c->nres, c->nres * sizeof(*sum));
		memcpy(have, p->all_have + k * c->nres, c->nres * sizeof(*have));
		return 0;
	}
	for (size_t i = 0; i < c->nres && !ret; i++) {
		struct wfw_statset *s = &c->res[i].set;
		size_t m = find_metric(s, metric);
		size_t g = all ? SIZE_MAX : next_group(s, &p->cur[i], group);

		have[i] = m != SIZE_MAX && (g != SIZE_MAX || all);
		if (have[i])
			ret = wfw_statset_summary(s, m, g, c->pct, c->npct, &sum[i]);
		if (have[i] && !ret)
			wfw_summary_shown(&sum[i], c->pct);
		if (have[i] && !ret && !sum[i].count && !all)
			have[i] = false;
		if (have[i] && !p->col[k])
			p->col[k] = wfw_statset_metric(s, m);
		c->estimated |= have[i] && !ret && !sum[i].exact;
	}
	if (all && !ret) {
		memcpy(p->all + k * c->nres, sum, c->nres * sizeof(*sum));
		memcpy(p->all_have + k * c->nres, have, c->nres * sizeof(*have));
		p->all_known[k] = true;
	}
	return ret;
}

/* One table row: the lead cells, then each function of sum (or its diff). */
static void add_row(struct tprint *p, const char **lead, const struct wfw_summary *sum,
		    const struct wfw_summary *base, const int *dec, enum diff_form form)
{
	struct calc *c = p->c;
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
	wfw_table_stream_row(&p->t, cells);
}

/* One metric's rows: per group name ("all" first) and result, a summary. */
struct mrows {
	size_t k;		/* the metric's number in struct tprint */
	const char *metric;
	const char **groups;
	size_t ngroups;
	struct wfw_summary *sum;	/* [result], the group's */
	bool *have;
};

/*
 * The rows of group g: one per result, and under each later result its
 * difference to the first.
 */
static void group_table_rows(struct tprint *p, const struct mrows *r, size_t g)
{
	struct calc *c = p->c;
	const struct wfw_summary *sum = r->sum;
	const bool *have = r->have;
	const char *unit = p->col[r->k]->unit ? p->col[r->k]->unit : "";
	const int *dec = p->dec[r->k];
	char diffname[300], pctname[300];
	bool csv = c->format == CALC_CSV;	/* numbers only: % in a row of its own */

	snprintf(diffname, sizeof(diffname), "diff vs %s", c->res[0].arg);
	snprintf(pctname, sizeof(pctname), "diff%% vs %s", c->res[0].arg);
	for (size_t i = 0; i < c->nres; i++) {
		const char *lead[4] = { r->metric, unit, r->groups[g], c->res[i].arg };
		const char *dlead[4] = { csv ? r->metric : "", csv ? unit : "",
					 csv ? r->groups[g] : "", diffname };
		const char *plead[4] = { r->metric, "%", r->groups[g], pctname };

		if (!have[i])
			continue;
		add_row(p, lead, &sum[i], NULL, dec, DIFF_BOTH);
		if (i && have[0])
			add_row(p, dlead, &sum[i], &sum[0], dec, csv ? DIFF_ABS : DIFF_BOTH);
		if (i && have[0] && csv)
			add_row(p, plead, &sum[i], &sum[0], dec, DIFF_PCT);
	}
}

/*
 * Decimals of each function: one rule for all of the metric's rows (every
 * group, result and difference), so that its numbers align and whole
 * numbers show no ".000" (wfw_fmt_decimals()): a pass over its summaries.
 */
static int decimals(struct tprint *p, struct mrows *r)
{
	struct calc *c = p->c;
	struct wfw_decimals d[CALC_MAX_FUNCS];
	bool init = false;
	int ret = 0;

	memset(p->cur, 0, c->nres * sizeof(*p->cur));
	for (size_t g = 0; g < r->ngroups && !ret; g++) {
		ret = summarize_results(p, r->k, r->metric, r->groups[g], r->sum, r->have);
		if (!p->col[r->k])
			continue;
		for (size_t k = 0; k < c->nfuncs && !init; k++)	/* the first row's column */
			wfw_decimals_init(&d[k], wfw_report_decimals(p->col[r->k]));
		init = true;
		for (size_t i = 0; i < c->nres && !ret; i++)
			for (size_t k = 0; r->have[i] && k < c->nfuncs; k++)
				wfw_decimals_add(&d[k], func_value(&c->funcs[k], &r->sum[i]));
	}
	for (size_t k = 0; k < c->nfuncs && p->col[r->k] && !ret; k++)
		p->dec[r->k][k] = c->funcs[k].fn == FN_COUNT ? 0 : wfw_decimals_get(&d[k]);
	p->dec_known[r->k] = !ret;
	return ret;
}

/* Decimals first (once), then the rows. */
static int metric_table_rows(struct tprint *p, struct mrows *r)
{
	struct calc *c = p->c;
	int ret = 0;

	r->sum = calloc(c->nres, sizeof(*r->sum));
	r->have = calloc(c->nres, sizeof(*r->have));
	if (!r->sum || !r->have)
		ret = -ENOMEM;
	if (!ret && !p->dec_known[r->k])
		ret = decimals(p, r);
	memset(p->cur, 0, c->nres * sizeof(*p->cur));
	for (size_t g = 0; g < r->ngroups && !ret && p->col[r->k]; g++) {
		ret = summarize_results(p, r->k, r->metric, r->groups[g], r->sum, r->have);
		if (!ret)
			group_table_rows(p, r, g);
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

/* What the table's percentiles are: exact, from histograms, from sketches. */
static void print_notes(struct calc *c)
{
	size_t nsk;

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

/*
 * Every result's group names, once each, by depth, into names (room: n).
 * One result's are in its listing order already: not sorted again.
 */
static size_t group_names(struct calc *c, const char **names)
{
	size_t n = 0, k = 0, nsets = 0;

	for (size_t j = 0; j < c->nres; j++) {
		struct wfw_statset *sj = &c->res[j].set;

		if (sj->gcol < 0 || c->res[j].no_states)
			continue;
		for (size_t g = 0; g < sj->ngroups; g++)
			names[n++] = wfw_statset_group_name(sj, wfw_statset_group_at(sj, g));
		nsets++;
	}
	if (nsets > 1)
		qsort(names, n, sizeof(*names), cmp_group_names);
	for (size_t i = 0; i < n; i++)
		if (!k || strcmp(names[k - 1], names[i]))
			names[k++] = names[i];
	return k;
}

/* The table's groups: "all", then every result's (group_names()). */
static int table_groups(struct tprint *p)
{
	struct calc *c = p->c;
	size_t cap = 1;

	for (size_t j = 0; c->per_cstate && j < c->nres; j++)
		cap += c->res[j].set.ngroups;
	p->groups = malloc(cap * sizeof(*p->groups));
	if (!p->groups)
		return -ENOMEM;
	p->groups[0] = "all";
	p->ngroups = 1 + (c->per_cstate ? group_names(c, p->groups + 1) : 0);
	return 0;
}

/* Rows of metric k, `name`: all, then per group. */
static int metric_rows(struct tprint *p, size_t k, const char *name)
{
	struct mrows r = { .k = k, .metric = name, .groups = p->groups,
			   .ngroups = p->ngroups };

	return metric_table_rows(p, &r);
}

static void header_row(struct tprint *p)
{
	struct calc *c = p->c;
	const char *hdr[6 + CALC_MAX_FUNCS];
	size_t n = lead_cells(c, hdr, "Metric", "Unit", c->group_by, "Result");

	for (size_t k = 0; k < c->nfuncs; k++)
		hdr[n++] = c->funcs[k].label;
	wfw_table_stream_row(&p->t, hdr);
}

static int tprint_init(struct tprint *p, struct calc *c)
{
	size_t nlead = 2 + c->per_cstate + (c->nres > 1);
	size_t ncols = nlead + c->nfuncs, nm = 0;
	enum wfw_table_form form = c->format == CALC_MARKDOWN ? WFW_TABLE_MARKDOWN :
				   c->format == CALC_CSV ? WFW_TABLE_CSV : WFW_TABLE_TEXT;
	char align[64];

	memset(align, 'r', sizeof(align));
	memset(align, 'l', nlead);
	align[ncols] = '\0';
	wfw_table_stream_init(&p->t, ncols, align, form, stdout);
	for (size_t i = 0; i < c->nres; i++)
		nm += c->res[i].set.nmetrics;
	p->c = c;
	p->dec = calloc(nm ? nm : 1, sizeof(*p->dec));
	p->dec_known = calloc(nm ? nm : 1, sizeof(*p->dec_known));
	p->all = calloc((nm ? nm : 1) * c->nres, sizeof(*p->all));
	p->all_have = calloc((nm ? nm : 1) * c->nres, sizeof(*p->all_have));
	p->all_known = calloc(nm ? nm : 1, sizeof(*p->all_known));
	p->col = calloc(nm ? nm : 1, sizeof(*p->col));
	p->cur = calloc(c->nres, sizeof(*p->cur));
	if (!p->dec || !p->dec_known || !p->all || !p->all_have || !p->all_known ||
	    !p->col || !p->cur)
		return -ENOMEM;
	return table_groups(p);
}

static void tprint_free(struct tprint *p)
{
	free(p->dec);
	free(p->dec_known);
	free(p->all);
	free(p->all_have);
	free(p->all_known);
	free(p->col);
	free(p->cur);
	free(p->groups);
}

/* One pass over the table's rows: the header, then every metric's. */
static int table_pass(struct tprint *p)
{
	struct calc *c = p->c;
	size_t k = 0;
	int ret = 0;

	header_row(p);
	/* Metrics in order of first appearance over results. */
	for (size_t i = 0; i < c->nres && !ret; i++) {
		struct wfw_statset *s = &c->res[i].set;

		for (size_t m = 0; m < s->nmetrics && !ret; m++) {
			const char *name = wfw_statset_metric(s, m)->name;

			if (wfw_statset_pending(s, m) || seen_before(c, i, name))
				continue;
			ret = metric_rows(p, k++, name);
		}
	}
	return ret;
}

int calc_print_table(struct calc *c)
{
	struct tprint p = { 0 };
	int ret = tprint_init(&p, c);

	if (!ret)
		ret = table_pass(&p);
	if (!ret && wfw_table_stream_measuring(&p.t)) {
		wfw_table_stream_print(&p.t);
		ret = table_pass(&p);
	}
	if (!ret)
		print_notes(c);
	tprint_free(&p);
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

