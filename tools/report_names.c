/* SPDX-License-Identifier: MIT */
/*
 * What a report shows: the metrics (tabs), the scatter plots' axes and the
 * column giving the groups, chosen from the options and the results'
 * columns; --list-metrics.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/metricdoc.h"
#include "report_load.h"
#include "report_prep.h"
#include <suggest/suggest.h>

/* Scatter plots' x axes unless --xaxes says otherwise; a sampler's: Time. */
static const char *const default_xaxes[] = { "LDist", "SilentTime" };
static const char *const sampler_xaxis = "Time";
/* Groups of the tables, colours and histograms, unless --group-by says. */
static const char *const default_groups[] = { "ReqCState", "Precise" };

/*
 * The metrics a report shows by default: latencies, skid's Skid, and a
 * telemetry result's SampleWindow (what reading its counters took).
 */
static bool default_metric(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "RTD") || !strcmp(name, "Skid") || !strcmp(name, "SampleWindow") ||
	       (n > 7 && !strcmp(name + n - 7, "Latency"));
}

static bool in_list(const struct wfw_names *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!fnmatch(l->v[i], name, 0))
			return true;
	return false;
}

/* A tab: chosen with -m (default: the latency metrics) or --yaxes. */
static bool chosen(const struct rep_cli *c, const char *name)
{
	return (c->metrics.n ? in_list(&c->metrics, name) : default_metric(name)) ||
	       in_list(&c->yaxes, name);
}

/* Add `name` to list[] unless there already. */
static void add_name(const char **list, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(list[i], name))
			return;
	if (*n < REP_MAX)
		list[(*n)++] = name;
}

/* Every pattern of an option must match a column of some result. */
static int check_list(const struct wfw_names *l, const char *opt,
		      struct wfw_rep_result *res, size_t nres,
		      struct wfw_reader **rd)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *names[256] = { NULL }, *near;
		size_t n = 0;
		bool found = false;

		for (size_t r = 0; r < nres; r++) {
			const struct wultfw_schema *s = wfw_reader_schema(rd[r]);

			for (size_t k = 0; k < s->ncols; k++) {
				found |= !fnmatch(l->v[i], s->cols[k].name, 0);
				if (n < 256)
					names[n++] = s->cols[k].name;
			}
		}
		if (found)
			continue;
		near = wfw_suggest(l->v[i], names, n);
		fprintf(stderr, "wultfw report: --%s: no metric '%s' in %s%s%s%s ('wultfw report --list-metrics RESULT...' lists them)\n",
			opt, l->v[i], nres > 1 ? "any result" : res[0].path,
			near ? " (did you mean '" : "", near ? near : "",
			near ? "'?)" : "");
		return -EINVAL;
	}
	return 0;
}

/* The unit of a column as listed: none for names. */
static const char *listed_unit(const struct wultfw_column *col)
{
	return col->type == WULTFW_COL_ENUM ? "" :
	       wfw_metric_unit(col->name, col->unit);
}

/* One column of a result: name, unit, kind and what it is (as the page says). */
static void list_metric(const struct wfw_rep_result *r,
			const struct wultfw_column *col, int uwidth)
{
	const char *descr = wfw_metric_descr(col->name, r->source);

	printf("  %-16s %-*s %s%s%s%s\n", col->name, uwidth, listed_unit(col),
	       col->type == WULTFW_COL_ENUM ? "names" : "numbers",
	       default_metric(col->name) ? ", reported by default" : "",
	       *descr ? ": " : "", descr);
}

void rep_list_metrics(const struct wfw_rep_result *res, size_t nres,
		      struct wfw_reader **rd)
{
	for (size_t r = 0; r < nres; r++) {
		const struct wultfw_schema *s = wfw_reader_schema(rd[r]);
		int uwidth = 4;

		for (size_t k = 0; k < s->ncols; k++)
			if ((int)strlen(listed_unit(&s->cols[k])) > uwidth)
				uwidth = (int)strlen(listed_unit(&s->cols[k]));
		printf("%s (%s%s%s):\n", res[r].id, res[r].path,
		       res[r].source ? ", source " : "",
		       res[r].source ? res[r].source : "");
		for (size_t k = 0; k < s->ncols; k++)
			list_metric(&res[r], &s->cols[k], uwidth);
	}
}

/* The numeric columns of any result that pass keep(), added to out. */
static void add_columns(struct wfw_reader **rd, size_t nres,
			bool (*keep)(const void *arg, const char *name),
			const void *arg, const char **out, size_t *n)
{
	for (size_t i = 0; i < nres; i++) {
		const struct wultfw_schema *s = wfw_reader_schema(rd[i]);

		for (size_t k = 0; k < s->ncols; k++)
			if (s->cols[k].type != WULTFW_COL_ENUM &&
			    keep(arg, s->cols[k].name))
				add_name(out, n, s->cols[k].name);
	}
}

static bool keep_chosen(const void *c, const char *name)
{
	return chosen(c, name);
}

static bool keep_matching(const void *pattern, const char *name)
{
	return !fnmatch(pattern, name, 0);
}

/* Columns matching l's patterns, in the order the patterns are given. */
static void pick_names(const struct wfw_names *l, struct wfw_reader **rd,
		       size_t nres, const char **out, size_t *n)
{
	for (size_t i = 0; i < l->n; i++)
		add_columns(rd, nres, keep_matching, l->v[i], out, n);
}

static bool any_has(struct wfw_reader **rd, size_t nres, const char *name)
{
	for (size_t i = 0; i < nres; i++)
		if (wfw_schema_find(wfw_reader_schema(rd[i]), name) >= 0)
			return true;
	return false;
}

/* LDist and SilentTime; Time for samplers, which have neither. */
static void default_axes(struct wfw_reader **rd, size_t nres,
			 struct rep_names *nm)
{
	for (size_t i = 0; i < 2; i++)
		nm->xaxes[nm->nxaxes++] = default_xaxes[i];
	if (!any_has(rd, nres, default_xaxes[0]) &&
	    !any_has(rd, nres, default_xaxes[1]) &&
	    any_has(rd, nres, sampler_xaxis)) {
		nm->xaxes[0] = sampler_xaxis;
		nm->nxaxes = 1;
	}
}

int rep_choose_names(const struct rep_cli *c, struct wfw_rep_result *res,
		     size_t nres, struct wfw_reader **rd, struct rep_names *nm)
{
	int ret = check_list(&c->metrics, "metrics", res, nres, rd);

	if (!ret)
		ret = check_list(&c->xaxes, "xaxes", res, nres, rd);
	if (!ret)
		ret = check_list(&c->yaxes, "yaxes", res, nres, rd);
	if (ret)
		return ret;
	add_columns(rd, nres, keep_chosen, c, nm->metrics, &nm->nmetrics);
	if (!nm->nmetrics) {
		fprintf(stderr, "wultfw report: no latency metric in the results: choose some with -m (--list-metrics lists them)\n");
		return -ENOENT;
	}
	if (c->xaxes.n)
		pick_names(&c->xaxes, rd, nres, nm->xaxes, &nm->nxaxes);
	else
		default_axes(rd, nres, nm);
	if (c->yaxes.n)
		pick_names(&c->yaxes, rd, nres, nm->yaxes, &nm->nyaxes);
	return 0;
}

int rep_keep_columns(struct wfw_rep_result *r, const struct wultfw_schema *s,
		     const struct rep_names *nm, bool timeline)
{
	size_t n = nm->nmetrics + nm->nxaxes + timeline;

	r->colnames = calloc(n, sizeof(*r->colnames));
	r->units = calloc(n, sizeof(*r->units));
	r->vals = calloc(n, sizeof(*r->vals));
	if (!r->colnames || !r->units || !r->vals)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *name = i < nm->nmetrics ? nm->metrics[i] :
				   i < nm->nmetrics + nm->nxaxes ?
				   nm->xaxes[i - nm->nmetrics] : rep_timeline_col;
		int k = wfw_schema_find(s, name);

		r->colnames[r->ncols] = name;
		r->units[r->ncols] = k >= 0 ? wfw_metric_unit(name, s->cols[k].unit) : "";
		r->ncols++;
		if (k >= 0 && s->cols[k].type == WULTFW_COL_ENUM)
			r->units[r->ncols - 1] = "";
	}
	r->ntails = nm->nmetrics;
	return 0;
}

/*
 * The column giving the groups: --group-by's (-EINVAL if it is not a
 * name column), else the first default one there is, else -1.
 */
int rep_group_col(const struct rep_cli *c, const struct wultfw_schema *s)
{
	int k;

	if (c->group_by) {
		k = wfw_schema_find(s, c->group_by);
		return k >= 0 && s->cols[k].type == WULTFW_COL_ENUM ? k : -EINVAL;
	}
	for (size_t i = 0; i < 2; i++) {
		k = wfw_schema_find(s, default_groups[i]);
		if (k >= 0 && s->cols[k].type == WULTFW_COL_ENUM)
			return k;
	}
	return -1;
}
