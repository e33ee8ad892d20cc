/* SPDX-License-Identifier: MIT */
/*
 * calc's CPUs side by side as CSV and JSON (calc.h): the numbers of the
 * text table, nothing rounded, a missing one empty (CSV) or null (JSON).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "tools/calc.h"
#include "stats/grouptab.h"
#include "stats/report.h"

/* A CSV field: quoted when it holds a comma, quote or line end. */
static void csv_field(FILE *f, const char *s)
{
	const char *p;

	for (p = s; *p && *p != ',' && *p != '"' && *p != '\n' && *p != '\r'; p++)
		;
	if (!*p) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.17g", v);
	fputc(',', f);
}

void calc_cpus_csv(const struct wfw_grouptab *t, const char *arg, FILE *f)
{
	fputs("\nResult,CPU,C-state,Metric,Unit,count,median,p99,p99.9,max,others_p99.9,stands_out\n", f);
	for (size_t i = 0; i < t->n; i++) {
		const struct wfw_grouptab_row *r = &t->row[i];

		csv_field(f, arg);
		fprintf(f, ",%s,", r->label);
		csv_field(f, r->state);
		fputc(',', f);
		csv_field(f, t->metric);
		fputc(',', f);
		csv_field(f, t->unit);
		fprintf(f, ",%llu,", (unsigned long long)r->count);
		csv_num(f, r->median);
		csv_num(f, r->p99);
		csv_num(f, r->p999);
		csv_num(f, r->max);
		csv_num(f, r->others);
		fputs(r->flagged ? "yes\n" : "no\n", f);
	}
}

static void json_num(FILE *f, const char *key, double v, const char *sep)
{
	fprintf(f, "\"%s\": ", key);
	if (isnan(v))
		fputs("null", f);
	else
		fprintf(f, "%.17g", v);
	fputs(sep, f);
}

void calc_cpus_json(const struct wfw_grouptab *t, FILE *f)
{
	fputs(",\n      \"cpus\": {\n        \"metric\": ", f);
	wfw_json_string(f, t->metric);
	fputs(",\n        \"unit\": ", f);
	wfw_json_string(f, t->unit);
	fputs(",\n        \"flag_rule\": ", f);
	wfw_json_string(f, wfw_grouptab_rule_text(t));
	fputs(",\n        \"rows\": [", f);
	for (size_t i = 0; i < t->n; i++) {
		const struct wfw_grouptab_row *r = &t->row[i];

		fprintf(f, "%s\n          {\"cpu\": %s, \"cstate\": ", i ? "," : "", r->label);
		wfw_json_string(f, r->state);
		fprintf(f, ", \"count\": %llu, ", (unsigned long long)r->count);
		json_num(f, "median", r->median, ", ");
		json_num(f, "p99", r->p99, ", ");
		json_num(f, "p99.9", r->p999, ", ");
		json_num(f, "max", r->max, ", ");
		json_num(f, "others_p99.9", r->others, ", ");
		fprintf(f, "\"stands_out\": %s}", r->flagged ? "true" : "false");
	}
	fputs("\n        ]\n      }", f);
}
