/* SPDX-License-Identifier: MIT */
/*
 * The explanation of a latency metric in data.js (doc/report.md): its
 * composition by percentile band, the tail's words (lib/explain, as calc
 * --explain says them), and its largest datapoints with their breakdown
 * and the collectors' counters around them. All of it bounded: six bands,
 * a few lines, at most WFW_REPORT_EXPLAIN_TOP_MAX datapoints of at most
 * WFW_REPORT_EXPLAIN_COUNTERS counters, whatever the result's size.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stats/report.h"

/* A number read back as itself (LTime in ns, a counter's running total). */
static void exact_num(FILE *f, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	for (int prec = 9; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

/* The collector's samples of series v before LTime t and after it. */
static void around_json(FILE *f, const struct wfw_rep_series *v, double t)
{
	size_t lo = 0, hi = v->n;

	if (isnan(t)) {
		fputs("[null, null, null, null]", f);
		return;
	}
	while (lo < hi) {	/* the first sample after t */
		size_t mid = lo + (hi - lo) / 2;

		if (v->t[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	fputs("[", f);
	exact_num(f, lo ? v->v[lo - 1] : NAN);
	fputs(", ", f);
	exact_num(f, lo < v->n ? v->v[lo] : NAN);
	fputs(", ", f);
	wfw_rep_num(f, lo ? (v->t[lo - 1] - t) / 1e6 : NAN);
	fputs(", ", f);
	wfw_rep_num(f, lo < v->n ? (v->t[lo] - t) / 1e6 : NAN);
	fputs("]", f);
}

static size_t shown_counters(const struct wfw_rep_result *r)
{
	size_t n = r->timeline.loaded ? r->timeline.nseries : 0;

	return n < WFW_REPORT_EXPLAIN_COUNTERS ? n : WFW_REPORT_EXPLAIN_COUNTERS;
}

/* A name (Cause, ReqCState, a comm) or null; as long as the words show it. */
static void name_json(FILE *f, const char *s)
{
	char cut[WFW_XP_NAME_MAX + 4];
	size_t n = wfw_xp_name_len(s);

	if (!s) {
		fputs("null", f);
		return;
	}
	if (!s[n]) {
		wfw_json_string(f, s);
		return;
	}
	memcpy(cut, s, n);
	memcpy(cut + n, "...", 4);
	wfw_json_string(f, cut);
}

static void top_row_json(FILE *f, const struct wfw_rep_result *r,
			 const struct wfw_attrib_row *row, double t0)
{
	const struct wfw_xp_row *x = &row->x;
	bool thread = wfw_xp_cause_cat(x->cause) == WFW_XP_THREAD && x->pid >= 0;

	fprintf(f, "{\"row\": %llu, \"ltime\": ", (unsigned long long)x->row);
	exact_num(f, row->ltime_ns);
	fputs(", \"t\": ", f);
	wfw_rep_num(f, isfinite(t0) ? (row->ltime_ns - t0) / 1e9 : NAN);
	fputs(", \"lat\": ", f);
	wfw_rep_num(f, x->lat);
	fputs(", \"parts\": [", f);
	for (int c = 0; c < WFW_XP_NCAT; c++) {
		fputs(c ? ", " : "", f);
		wfw_rep_num(f, x->t[c]);
	}
	fputs("], \"cnt\": [", f);
	for (int k = 0; k < WFW_XP_NCNT; k++) {
		fputs(k ? ", " : "", f);
		exact_num(f, row->x.cnt[k]);
	}
	fputs("], \"cstate\": ", f);
	name_json(f, x->cstate);
	fputs(", \"cause\": ", f);
	name_json(f, x->cause);
	fputs(", \"pid\": ", f);
	exact_num(f, thread ? (double)x->pid : NAN);
	fputs(", \"comm\": ", f);
	name_json(f, thread ? wfw_xp_comm(&r->threads, x->pid) : NULL);
	fputs(", \"around\": [", f);
	for (size_t i = 0; i < shown_counters(r); i++) {
		fputs(i ? ", " : "", f);
		around_json(f, &r->timeline.series[i], row->ltime_ns);
	}
	fputs("]}", f);
}

static const char *const kind_names[] = { "unknown", "total", "increase", "level" };

/* The largest datapoints, each with the collectors' samples around it. */
static void top_json(FILE *f, const struct wfw_report *rep,
		     const struct wfw_rep_result *r)
{
	const struct wfw_attrib_set *a = &r->attrib->all;
	size_t n = a->ntop < rep->explain_top ? a->ntop : rep->explain_top;
	size_t nc = shown_counters(r);
	double t0 = r->timeline.loaded ? wfw_timeline_t0(r) : NAN;

	fprintf(f, ", \"top\": {\"n\": %zu, \"asked\": %zu, \"counters\": [", n, rep->explain_top);
	for (size_t i = 0; i < nc; i++) {
		const struct wfw_rep_series *v = &r->timeline.series[i];

		fputs(i ? ", {\"file\": " : "{\"file\": ", f);
		wfw_json_string(f, v->file);
		fputs(", \"name\": ", f);
		wfw_json_string(f, v->name);
		fputs(", \"unit\": ", f);
		wfw_json_string(f, v->unit);
		fprintf(f, ", \"kind\": \"%s\"}", kind_names[v->kind]);
	}
	fprintf(f, "], \"more_counters\": %zu, \"rows\": [",
		r->timeline.loaded ? r->timeline.nseries - nc : 0);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		top_row_json(f, r, &a->top[i], t0);
	}
	fputs("]}", f);
}

/*
 * , "groups": [..]: per requested C-state that has rows, in the summary
 * table's order (by depth), its bands and words at its own p99.9.
 */
static int groups_json(FILE *f, struct wfw_rep_result *r, struct wfw_xp_in *in)
{
	const struct wfw_attrib *a = r->attrib;
	size_t m = wfw_rep_metric(&r->set, a->latency), shown = 0;
	int ret = 0;

	fprintf(f, ", \"ungrouped\": %llu, \"group_by\": ", (unsigned long long)a->ungrouped);
	wfw_json_string(f, r->group_by ? r->group_by : "");
	fputs(", \"groups\": [", f);
	/* the attribution's rows are kept by ReqCState: no other grouping */
	if (!r->group_by || strcmp(r->group_by, "ReqCState"))
		m = SIZE_MAX;
	for (size_t i = 0; m != SIZE_MAX && r->set.gcol >= 0 && i < r->set.ngroups && !ret; i++) {
		size_t g = wfw_statset_group_at(&r->set, i);
		const char *name = wfw_statset_group_name(&r->set, g);
		const struct wfw_attrib_set *set = wfw_attrib_group(a, name);
		struct wfw_summary s;

		if (!set || !set->values)
			continue;
		ret = wfw_statset_summary(&r->set, m, g, wfw_rep_pcts, WFW_REP_NPCTS, &s);
		if (ret)
			break;
		fputs(shown++ ? ", {\"name\": " : "{\"name\": ", f);
		name_json(f, name);
		in->group = name;
		ret = wfw_attrib_set_json(f, set, &s, in);
		fputs("}", f);
	}
	fputs("]", f);
	return ret;
}

int wfw_attrib_emit(const struct wfw_report *rep, struct wfw_rep_result *r,
		    const char *metric, const char *unit,
		    const struct wfw_summary *all, FILE *f)
{
	const struct wfw_attrib *a = r->attrib;
	struct wfw_xp_in in = { .metric = metric, .unit = unit, .threads = &r->threads,
				.smi_why = r->attrib_smi, .lost = r->attrib_lost };
	int ret;

	if (!a || strcmp(a->latency, metric)) {
		fputs("null", f);
		return 0;
	}
	for (int k = 0; k < WFW_XP_NCNT; k++)
		in.cnt_cols[k] = a->cnt[k] >= 0;
	fputs("{\"latency\": ", f);
	wfw_json_string(f, metric);
	fprintf(f, ", \"smi\": %s, \"notes\": ", a->smi ? "true" : "false");
	wfw_json_string(f, r->attrib_notes);
	fputs(", \"cats\": [", f);
	for (int c = 0; c < WFW_XP_NCAT; c++) {
		fputs(c ? ", " : "", f);
		wfw_json_string(f, wfw_xp_labels[c]);
	}
	fputs("], \"cols\": [", f);
	for (int c = 0; c < WFW_XP_NCAT; c++) {
		fputs(c ? ", " : "", f);
		wfw_json_string(f, wfw_xp_time_cols[c]);
	}
	fputs("]", f);
	ret = wfw_attrib_set_json(f, &a->all, all, &in);
	if (!ret) {
		in.group_col = "ReqCState";
		ret = groups_json(f, r, &in);
	}
	if (!ret)
		top_json(f, rep, r);
	fputs("}", f);
	return ret;
}
