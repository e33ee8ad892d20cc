/* SPDX-License-Identifier: MIT */
/*
 * Counters over time as the report draws them (doc/report.md): a counter
 * that only grows (info.yml's telemetry kinds `total`, `increase`) as its
 * rate per second over each sample interval, a level (a gauge) and a
 * counter of unknown kind as read. Also a telemetry result's own counters:
 * its data file read as a collector's file is, for the Timeline tab
 * (the caller adds its collectors' kinds: wfw_timeline_kinds()).
 */
#include "config.h"

#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/report.h"

static const char *const kind_names[] = { "unknown", "total", "increase", "level" };

static bool is_rate(const struct wfw_rep_series *v)
{
	return v->kind == WFW_KIND_TOTAL || v->kind == WFW_KIND_INCREASE;
}

/*
 * The rate over samples a..b (a < b) per second: a total's change, or
 * the increases after a summed; NaN where time does not advance or a
 * total went down (reset): no rate to say.
 */
static double rate(const struct wfw_rep_series *v, size_t a, size_t b)
{
	double dt = (v->t[b] - v->t[a]) / 1e9, dv = 0;

	if (v->kind == WFW_KIND_TOTAL) {
		dv = v->v[b] - v->v[a];
	} else {
		for (size_t i = a + 1; i <= b; i++)
			dv += v->v[i];
	}
	return dt > 0 && dv >= 0 ? dv / dt : NAN;
}

size_t wfw_rep_rates(const struct wfw_rep_series *v, size_t step,
		     double *t, double *r)
{
	size_t k = 0;

	for (size_t a = 0; a + 1 < v->n; a += step) {
		size_t b = a + step < v->n ? a + step : v->n - 1;

		t[k] = v->t[b];
		r[k++] = rate(v, a, b);
	}
	return k;
}

/* A series' times in seconds from t0 and its values, as drawn. */
static void arrays(FILE *f, const double *t, const double *y, size_t n,
		   size_t step, double t0)
{
	fputs(", \"t\": [", f);
	for (size_t i = 0; i < n; i += step)
		fprintf(f, "%s%.6f", i ? "," : "", (t[i] - t0) / 1e9);
	fputs("], \"v\": [", f);
	for (size_t i = 0; i < n; i += step) {
		fputs(i ? "," : "", f);
		if (isfinite(y[i]))
			fprintf(f, "%.9g", y[i]);
		else
			fputs("null", f);
	}
	fputs("]", f);
}

int wfw_rep_series_json(FILE *f, const struct wfw_rep_series *v,
			size_t max_points, double t0)
{
	size_t step = v->n > max_points ? (v->n + max_points - 1) / max_points : 1;
	double *t, *r;
	size_t n;

	fputs("{\"file\": ", f);
	wfw_json_string(f, v->file);
	fputs(", \"name\": ", f);
	wfw_json_string(f, v->name);
	fputs(", \"unit\": ", f);
	wfw_json_string(f, v->unit);
	fprintf(f, ", \"kind\": \"%s\", \"rate\": %s, \"samples\": %zu, \"step\": %zu",
		kind_names[v->kind], is_rate(v) ? "true" : "false", v->n, step);
	if (!is_rate(v)) {
		arrays(f, v->t, v->v, v->n, step, t0);
		fputs("}", f);
		return 0;
	}
	t = malloc((v->n ? v->n : 1) * sizeof(*t));
	r = malloc((v->n ? v->n : 1) * sizeof(*r));
	if (!t || !r) {
		free(t);
		free(r);
		return -ENOMEM;
	}
	n = wfw_rep_rates(v, step, t, r);
	arrays(f, t, r, n, 1, t0);
	fputs("}", f);
	free(t);
	free(r);
	return 0;
}

bool wfw_rep_is_telemetry(const struct wfw_rep_result *r)
{
	return r->source && !strcmp(r->source, "telemetry");
}

int wfw_telemetry_load(struct wfw_rep_timeline *t, const char *dir,
		       const char *file, const char *collectors,
		       const struct wfw_infoyml *info)
{
	size_t len = strlen(file) + (collectors ? strlen(collectors) + 2 : 1);
	char *list = malloc(len), *kinds;
	int ret;

	if (!list)
		return -ENOMEM;
	snprintf(list, len, "%s%s%s", file, collectors ? "," : "",
		 collectors ? collectors : "");
	ret = wfw_timeline_load(t, dir, list);
	free(list);
	if (ret)
		return ret;
	kinds = wfw_infoyml_get(info, "telemetry_kinds");
	if (kinds)
		wfw_timeline_file_kinds(t, file, kinds);
	free(kinds);
	t->own = file;
	return 0;
}
