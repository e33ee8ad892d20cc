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

/* The bands: below p50, p50 to p90, ..., p99.9 and above, the max. */
#define NBANDS 6
#define TAIL_BAND 4
#define MAX_BAND 5
static const double band_share[TAIL_BAND] = { 0.5, 0.9, 0.99, 0.999 };
static const char *const band_names[NBANDS] = {
	"< p50", "p50\u2013p90", "p90\u2013p99", "p99\u2013p99.9", "\u2265 p99.9", "max",
};
#define TAIL_PCT 99.9

struct band {
	uint64_t n;
	uint64_t lat, t[WFW_XP_NCAT];	/* thousandths, as the bins */
	double min, max;
};

/*
 * The rows at or above the summary table's p99.9 (`all`, the statistics of
 * every datapoint): how many, all kept or not.
 */
struct tail {
	double lo;		/* p99.9 */
	uint64_t ntail;		/* 0: too few datapoints */
	size_t n;		/* of them kept, the largest */
	bool whole;		/* n == ntail */
};

static void tail_of(const struct wfw_rep_result *r, const struct wfw_summary *all,
		    struct tail *t)
{
	const struct wfw_attrib *a = r->attrib;
	struct wfw_summary s = *all;
	size_t k = 0;

	memset(t, 0, sizeof(*t));
	while (k < WFW_REP_NPCTS && wfw_rep_pcts[k] != TAIL_PCT)
		k++;
	if (!s.count || k == WFW_REP_NPCTS || k >= s.npct)
		return;
	wfw_summary_shown(&s, wfw_rep_pcts);
	if (isnan(s.pct[k]))
		return;
	t->lo = s.pct[k];
	while (t->n < a->ntop && a->top[t->n].x.lat >= t->lo)
		t->n++;
	t->whole = t->n < a->ntop || a->ntop == a->values;
	/* beyond the rows kept: rank (count - 1) p / 100 and up */
	t->ntail = t->whole ? t->n :
		s.count - (uint64_t)ceil((double)(s.count - 1) * TAIL_PCT / 100);
}

static void band_add(struct band *b, const struct wfw_attrib_bin *bin)
{
	b->n += bin->n;
	b->lat += bin->lat;
	for (int c = 0; c < WFW_XP_NCAT; c++)
		b->t[c] += bin->t[c];
	b->min = fmin(b->min, bin->min);
	b->max = fmax(b->max, bin->max);
}

/* One explained row as a bin of its own. */
static void row_bin(const struct wfw_attrib_row *r, struct wfw_attrib_bin *one)
{
	*one = (struct wfw_attrib_bin){ .n = 1, .min = r->x.lat, .max = r->x.lat,
					.lat = wfw_attrib_milli(r->x.lat) };
	for (int c = 0; c < WFW_XP_NCAT; c++)
		one->t[c] = wfw_attrib_milli(r->x.t[c]);
}

/* The explained tail rows out of the bins, into their band (then exact). */
static void take_tail(struct wfw_attrib_bin *bins, const struct wfw_attrib *a,
		      const struct tail *t, struct band *tb)
{
	for (size_t i = 0; i < t->n; i++) {
		struct wfw_attrib_bin one, *b;

		if (!wfw_xp_explained(&a->top[i].x))
			continue;
		row_bin(&a->top[i], &one);
		band_add(tb, &one);
		b = &bins[wfw_attrib_bin(a->top[i].x.lat)];
		b->n--;
		b->lat -= one.lat;
		for (int c = 0; c < WFW_XP_NCAT; c++)
			b->t[c] -= one.t[c];
	}
}

/*
 * The bands from the bins: a bin goes to the band its first datapoint's
 * share of all of them falls in (the bins are 0.4-0.8% wide). The tail's
 * band is its rows themselves when they were all kept.
 */
static int make_bands(const struct wfw_attrib *a, const struct tail *t,
		      struct band *b)
{
	struct wfw_attrib_bin *bins = malloc(WFW_ATTRIB_NBINS * sizeof(*bins)), one;
	bool exact = t->ntail && t->whole;
	uint64_t seen = 0;

	if (!bins)
		return -ENOMEM;
	memcpy(bins, a->bins, WFW_ATTRIB_NBINS * sizeof(*bins));
	for (int k = 0; k < NBANDS; k++)
		b[k] = (struct band){ .min = INFINITY, .max = -INFINITY };
	if (exact)
		take_tail(bins, a, t, &b[TAIL_BAND]);
	for (size_t i = 0; i < WFW_ATTRIB_NBINS; i++) {
		int k = 0;

		if (!bins[i].n)
			continue;
		while (k < TAIL_BAND && (double)seen >= band_share[k] * (double)a->explained)
			k++;
		/* below p99.9's value, past 99.9% of the rows: it interpolates */
		if (k == TAIL_BAND && exact)
			k--;
		band_add(&b[k], &bins[i]);
		seen += bins[i].n;
	}
	free(bins);
	if (a->ntop && wfw_xp_explained(&a->top[0].x)) {
		row_bin(&a->top[0], &one);
		band_add(&b[MAX_BAND], &one);
	}
	return 0;
}

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

/* thousandths summed over n rows: their mean in the unit. */
static void mean_num(FILE *f, uint64_t sum, uint64_t n)
{
	wfw_rep_num(f, n ? (double)(int64_t)sum / 1000.0 / (double)n : NAN);
}

static void band_json(FILE *f, const struct band *b, const char *name)
{
	fputs("{\"name\": ", f);
	wfw_json_string(f, name);
	fprintf(f, ", \"rows\": %llu, \"lo\": ", (unsigned long long)b->n);
	wfw_rep_num(f, b->n ? b->min : NAN);
	fputs(", \"hi\": ", f);
	wfw_rep_num(f, b->n ? b->max : NAN);
	fputs(", \"lat\": ", f);
	mean_num(f, b->lat, b->n);
	fputs(", \"mean\": [", f);
	for (int c = 0; c < WFW_XP_NCAT; c++) {
		fputs(c ? ", " : "", f);
		mean_num(f, b->t[c], b->n);
	}
	fputs("], \"share\": [", f);
	for (int c = 0; c < WFW_XP_NCAT; c++) {
		fputs(c ? ", " : "", f);
		wfw_rep_num(f, b->n && b->lat ? (double)(int64_t)b->t[c] / (double)(int64_t)b->lat : NAN);
	}
	fputs("]}", f);
}

static int bands_json(FILE *f, const struct wfw_attrib *a, const struct tail *t)
{
	struct band b[NBANDS];
	int ret = make_bands(a, t, b);

	if (ret)
		return ret;
	fputs(", \"bands\": [", f);
	for (int k = 0; k < NBANDS; k++) {
		/* a band's rows are below p99.9's value: not the tail's in its bin */
		if (k < TAIL_BAND && t->ntail && t->whole && b[k].max > t->lo)
			b[k].max = t->lo;
		fputs(k ? ", " : "", f);
		band_json(f, &b[k], band_names[k]);
	}
	fputs("]", f);
	return 0;
}

/* The tail's words (lib/explain), a string per line. */
static int words_json(FILE *f, struct wfw_rep_result *r, const char *metric,
		      const char *unit, const struct tail *t)
{
	const struct wfw_attrib *a = r->attrib;
	struct wfw_xp_row *rows = malloc((t->n ? t->n : 1) * sizeof(*rows));
	struct wfw_xp_in in = { .metric = metric, .unit = unit, .pct = TAIL_PCT,
				.nvalues = a->values, .rows = rows, .n = t->n,
				.ntail = t->ntail, .threads = &r->threads,
				.max = a->ntop ? &a->top[0].x : NULL };
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = rows ? open_memstream(&text, &len) : NULL;
	int ret = m ? 0 : -ENOMEM;

	for (size_t i = 0; i < t->n && rows; i++)
		rows[i] = a->top[i].x;
	if (m) {
		ret = wfw_xp_print(m, &in);
		if (fclose(m) && !ret)
			ret = -ENOMEM;
	}
	fputs(", \"text\": [", f);
	for (line = text && !ret ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		fputs(line == text ? "" : ", ", f);
		wfw_json_string(f, line);
	}
	fputs("]", f);
	free(text);
	free(rows);
	return ret;
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
		exact_num(f, row->cnt[k]);
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

/* The largest datapoints, each with the collectors' samples around it. */
static void top_json(FILE *f, const struct wfw_report *rep,
		     const struct wfw_rep_result *r)
{
	const struct wfw_attrib *a = r->attrib;
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
		fputs("}", f);
	}
	fprintf(f, "], \"more_counters\": %zu, \"rows\": [",
		r->timeline.loaded ? r->timeline.nseries - nc : 0);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		top_row_json(f, r, &a->top[i], t0);
	}
	fputs("]}", f);
}

int wfw_attrib_emit(const struct wfw_report *rep, struct wfw_rep_result *r,
		    const char *metric, const char *unit,
		    const struct wfw_summary *all, FILE *f)
{
	const struct wfw_attrib *a = r->attrib;
	struct tail t;
	int ret;

	if (!a || strcmp(a->latency, metric)) {
		fputs("null", f);
		return 0;
	}
	tail_of(r, all, &t);
	fputs("{\"latency\": ", f);
	wfw_json_string(f, metric);
	fprintf(f, ", \"values\": %llu, \"explained\": %llu, \"mismatched\": %llu, \"smi\": %s, \"tail_whole\": %s, \"kept\": %zu, \"notes\": ",
		(unsigned long long)a->values, (unsigned long long)a->explained,
		(unsigned long long)a->mismatched, a->smi ? "true" : "false",
		!t.ntail || t.whole ? "true" : "false", a->ntop);
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
	ret = bands_json(f, a, &t);
	if (!ret)
		ret = words_json(f, r, metric, unit, &t);
	if (!ret)
		top_json(f, rep, r);
	fputs("}", f);
	return ret;
}
