/* SPDX-License-Identifier: MIT */
/*
 * The timeline of a result: the counters its collectors sampled
 * (telemetry.csv and the other files info.yml lists under `collectors`)
 * over time, with the main metric on the same time axis. Both carry
 * CLOCK_MONOTONIC nanoseconds: a collector's `Time` column and the main
 * result's `LTime` (timer and kernel-side sources with raw = true).
 */
#include "config.h"

#include "report/report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/reader.h"
#include "report/reduce.h"
#include "stats/report.h"

/* Counter samples kept per series; beyond, every k-th sample. */
#define MAX_SAMPLES 20000

/* Append why a file is not in the timeline. */
static void note(struct wfw_rep_timeline *t, const char *why, const char *more)
{
	size_t n = strlen(t->notes);

	snprintf(t->notes + n, sizeof(t->notes) - n, "%s%s%s", n ? "; " : "",
		 why, more);
}

/* A file's values out of range (infinite, beyond FLT_MAX): not plotted. */
static void out_of_range(struct wfw_rep_timeline *t, const char *file)
{
	char why[256];

	snprintf(why, sizeof(why), "%s: %llu values out of range (infinite, or beyond %s in magnitude) left out",
		 file, (unsigned long long)t->left_out, WFW_VALUE_MAX_TEXT);
	note(t, why, "");
}

/* One series per numeric column but Time; NULL cells skipped later. */
static int add_series(struct wfw_rep_timeline *t, const char *file,
		      const struct wultfw_schema *s, int tcol, size_t *first)
{
	size_t n = 0;
	struct wfw_rep_series *v;

	for (size_t k = 0; k < s->ncols; k++)
		n += (int)k != tcol && s->cols[k].type != WULTFW_COL_ENUM &&
		     strcmp(s->cols[k].name, "SampleWindow");
	v = realloc(t->series, (t->nseries + n) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->series = v;
	*first = t->nseries;
	for (size_t k = 0; k < s->ncols; k++) {
		if ((int)k == tcol || s->cols[k].type == WULTFW_COL_ENUM ||
		    !strcmp(s->cols[k].name, "SampleWindow"))
			continue;
		v = &t->series[t->nseries++];
		memset(v, 0, sizeof(*v));
		v->col = (int)k;
		v->file = strdup(file);
		v->name = strdup(s->cols[k].name);
		/* Its own copy: a binary file's schema goes with its reader. */
		v->unit = strdup(s->cols[k].unit ? s->cols[k].unit : "");
		if (!v->file || !v->name || !v->unit)
			return -ENOMEM;
	}
	return 0;
}

static int push(struct wfw_rep_series *v, double t, double y)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 1024;
		double *nt = realloc(v->t, cap * sizeof(*nt));
		double *ny = nt ? realloc(v->v, cap * sizeof(*ny)) : NULL;

		if (nt)
			v->t = nt;
		if (!ny)
			return -ENOMEM;
		v->v = ny;
		v->cap = cap;
	}
	v->t[v->n] = t;
	v->v[v->n++] = y;
	return 0;
}

/* The samples of one batch into the file's series. */
static int add_rows(struct wfw_rep_timeline *t, const struct wultfw_schema *s,
		    int tcol, size_t first, const struct wultfw_batch *b)
{
	for (size_t r = 0; r < b->rows; r++) {
		const union wultfw_cell *row = wultfw_crow(b, r);
		double when = wfw_cell_value(&s->cols[tcol], row[tcol]) *
			      (strcmp(s->cols[tcol].unit, "s") ? 1 : 1e9);

		if (!wfw_value_ok(when)) {
			t->left_out += !isnan(when);
			continue;
		}
		if (when < t->t0_ns)
			t->t0_ns = when;
		for (size_t i = first; i < t->nseries; i++) {
			struct wfw_rep_series *v = &t->series[i];
			double y = wfw_cell_value(&s->cols[v->col], row[v->col]);

			t->left_out += !wfw_value_ok(y) && !isnan(y);
			if (wfw_value_ok(y) && push(v, when, y))
				return -ENOMEM;
		}
	}
	return 0;
}

static int load_file(struct wfw_rep_timeline *t, const char *dir, const char *file)
{
	char path[PATH_MAX], err[512];
	struct wfw_reader *rd;
	struct wultfw_batch b = { 0 };
	const struct wultfw_schema *s;
	size_t first = 0;
	long n = 0;
	int tcol, ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (wfw_reader_open(&rd, path, err, sizeof(err))) {
		note(t, err, "");
		return 0;
	}
	s = wfw_reader_schema(rd);
	tcol = wfw_schema_find(s, "Time");
	if (tcol < 0) {
		note(t, file, ": no Time column");
		wfw_reader_close(rd);
		return 0;
	}
	ret = add_series(t, file, s, tcol, &first);
	if (!ret)
		ret = wfw_batch_alloc(&b, s->ncols, 4096);
	t->left_out = 0;
	while (!ret && (n = wfw_reader_read(rd, &b)) > 0) {
		ret = add_rows(t, s, tcol, first, &b);
		b.rows = 0;
	}
	if (!ret && n < 0)
		note(t, wfw_reader_error(rd), "");
	if (!ret && t->left_out)
		out_of_range(t, file);
	wfw_batch_free(&b);
	wfw_reader_close(rd);
	return ret;
}

int wfw_timeline_load(struct wfw_rep_timeline *t, const char *dir,
		      const char *collectors)
{
	char *list = strdup(collectors), *save = NULL, *f;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	t->t0_ns = INFINITY;
	if (!list)
		return -ENOMEM;
	for (f = strtok_r(list, ", ", &save); f && !ret; f = strtok_r(NULL, ", ", &save))
		ret = load_file(t, dir, f);
	free(list);
	t->loaded = !ret;
	return ret;
}

static enum wfw_rep_kind kind_of(const char *w, size_t n)
{
	static const char *const words[] = { "total", "increase", "level" };

	for (size_t k = 0; k < 3; k++)
		if (strlen(words[k]) == n && !strncmp(w, words[k], n))
			return (enum wfw_rep_kind)(WFW_KIND_TOTAL + k);
	return WFW_KIND_UNKNOWN;
}

/* The series of `file` that are counters: all but the NAME.Time ones. */
static bool counter_of(const struct wfw_rep_series *v, const char *file)
{
	size_t n = strlen(v->name);

	return !strcmp(v->file, file) && !(n > 5 && !strcmp(v->name + n - 5, ".Time"));
}

void wfw_timeline_file_kinds(struct wfw_rep_timeline *t, const char *file,
			     const char *words)
{
	size_t ncnt = 0, nw = 0;
	const char *w = words;

	for (size_t i = 0; i < t->nseries; i++)
		ncnt += counter_of(&t->series[i], file);
	for (const char *p = words; *p; p++)
		nw += *p != ' ' && (p == words || p[-1] == ' ');
	if (!ncnt || nw != ncnt)
		return;
	for (size_t i = 0; i < t->nseries; i++) {
		size_t len;

		if (!counter_of(&t->series[i], file))
			continue;
		while (*w == ' ')
			w++;
		len = strcspn(w, " ");
		t->series[i].kind = kind_of(w, len);
		w += len;
	}
}

void wfw_timeline_kinds(struct wfw_rep_timeline *t, const struct wfw_infoyml *info)
{
	char key[64];

	for (size_t i = 0; i < 256; i++) {	/* collectors of one run: a few */
		char *file, *words;

		snprintf(key, sizeof(key), "collect%zu_file", i);
		file = wfw_infoyml_get(info, key);
		if (!file)
			break;
		snprintf(key, sizeof(key), "collect%zu_telemetry_kinds", i);
		words = wfw_infoyml_get(info, key);
		if (words)
			wfw_timeline_file_kinds(t, file, words);
		free(file);
		free(words);
	}
}

void wfw_timeline_free(struct wfw_rep_timeline *t)
{
	for (size_t i = 0; i < t->nseries; i++) {
		free(t->series[i].file);
		free(t->series[i].name);
		free((char *)t->series[i].unit);
		free(t->series[i].t);
		free(t->series[i].v);
	}
	free(t->series);
	memset(t, 0, sizeof(*t));
}

/* The same for a sampled result: its tail, density from its sample. */
static int emit_sampled(struct wfw_rep_result *r, int tc, int mc, double t0,
			FILE *f)
{
	struct wfw_wpoint *p;
	size_t n;

	if (wfw_rep_sampled_points(r, tc, mc, LONG_MIN,
				   wfw_rep_rows(r, mc, LONG_MIN),
				   r->time0_ns - t0, 1e9, &p, &n))
		return -ENOMEM;
	fputs("{", f);
	wfw_rep_wpoints(f, p, n);
	fputs(", \"reduced\": true, \"sampled\": true}", f);
	free(p);
	return 0;
}

/*
 * The main metric against LTime, reduced like a scatter plot (every point
 * of the tail, the rest as density), in seconds from t0.
 */
static int emit_main(struct wfw_rep_result *r, const char *metric,
		     double t0, FILE *f)
{
	int tc = wfw_rep_col(r, "LTime"), mc = wfw_rep_col(r, metric);
	struct wfw_wpoint *p = NULL;
	float *x;
	size_t n = 0;

	if (tc < 0 || mc < 0 || !r->vals[tc] || !r->vals[mc]) {
		fputs("null", f);
		return 0;
	}
	if (r->sampled)
		return emit_sampled(r, tc, mc, t0, f);
	x = malloc((r->nrows ? r->nrows : 1) * sizeof(*x));
	if (!x)
		return -ENOMEM;
	/* LTime is kept relative to time0 (report.h): seconds from t0. */
	for (size_t i = 0; i < r->nrows; i++)
		x[i] = (float)((r->time0_ns + r->vals[tc][i] - t0) / 1e9);
	if (wfw_reduce_scatter(x, r->vals[mc], r->nrows, WFW_REPORT_MAX_POINTS,
			       wfw_rep_ytail(r, metric), WFW_REPORT_GRID, &p, &n)) {
		free(x);
		return -ENOMEM;
	}
	fputs("{", f);
	wfw_rep_wpoints(f, p, n);
	fprintf(f, ", \"reduced\": %s}", n < r->nrows ? "true" : "false");
	free(x);
	free(p);
	return 0;
}

double wfw_timeline_t0(const struct wfw_rep_result *r)
{
	double t0 = r->timeline.t0_ns;

	if (wfw_rep_col(r, "LTime") >= 0 && r->nrows && r->time0_ns < t0)
		t0 = r->time0_ns;
	return t0;
}

/*
 * The explanation's largest datapoints (attrib_emit.c), the first n of
 * them with an LTime: where they are on the time axis.
 */
static void marks(const struct wfw_rep_result *r, size_t n, double t0, FILE *f)
{
	const struct wfw_attrib *a = r->attrib;
	size_t k = 0;

	fputs(", \"marks\": [", f);
	for (size_t i = 0; a && i < a->all.ntop && k < n; i++) {
		const struct wfw_attrib_row *row = &a->all.top[i];

		if (!isfinite(row->ltime_ns))
			continue;
		fprintf(f, "%s{\"rank\": %zu, \"t\": ", k++ ? ", " : "", i + 1);
		wfw_rep_num(f, (row->ltime_ns - t0) / 1e9);
		fputs(", \"lat\": ", f);
		wfw_rep_num(f, row->x.lat);
		fputs("}", f);
	}
	fputs("], \"marks_metric\": ", f);
	wfw_json_string(f, a ? a->latency : "");
}

int wfw_timeline_emit(struct wfw_rep_result *r, const char *metric,
		      size_t nmarks, FILE *f)
{
	const struct wfw_rep_timeline *t = &r->timeline;
	double t0 = wfw_timeline_t0(r);

	if (!t->loaded) {
		fputs("null", f);
		return 0;
	}
	fputs("{\"metric\": ", f);
	wfw_json_string(f, metric);
	fputs(", \"notes\": ", f);
	wfw_json_string(f, t->notes);
	fputs(", \"main\": ", f);
	if (emit_main(r, metric, t0, f))
		return -ENOMEM;
	marks(r, nmarks, t0, f);
	fputs(", \"own\": ", f);
	wfw_json_string(f, t->own ? t->own : "");
	fputs(", \"series\": [", f);
	for (size_t i = 0; i < t->nseries; i++) {
		fputs(i ? ", " : "", f);
		if (wfw_rep_series_json(f, &t->series[i], MAX_SAMPLES, t0))
			return -ENOMEM;
	}
	fputs("]}", f);
	return 0;
}
