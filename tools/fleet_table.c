/* SPDX-License-Identifier: MIT */
/*
 * The fleet's table (fleet.h): one row per SUT per C-state and "all",
 * each SUT's file read on its own as an experiment's CPUs are
 * (calc_cpus.c), flagged against the other SUTs; as CSV and JSON too.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/report.h"
#include "tools/fleet.h"

int fleet_table(const struct fleet *fl, const struct group_cfg *cfg, const char *who,
		struct wfw_grouptab *t)
{
	struct group_pool pool = { 0 };
	char err[1024];
	int ret = 0;

	memset(t, 0, sizeof(*t));
	t->rule = &wfw_grouptab_suts;
	for (size_t i = 0; i < fl->n && !ret; i++)
		ret = grouptab_member(cfg, fl->m[i].file, fl->m[i].label, t, &pool, err,
				      sizeof(err));
	if (!ret)
		ret = group_pool_rows(&pool, t);
	group_pool_free(&pool);
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw %s: out of memory\n", who);
	else if (ret)
		fprintf(stderr, "wultfw %s: %s\n", who, err);
	else
		wfw_grouptab_flag(t);
	return ret;
}

static void csv_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(",", f);
	else
		fprintf(f, ",%.17g", v);
}

static void csv_row(const struct wfw_grouptab *t, const struct wfw_grouptab_row *r,
		    const char *kind, FILE *f)
{
	fprintf(f, "%s,%s,%s,%llu", kind, r->label, r->state, (unsigned long long)r->count);
	csv_num(f, r->median);
	csv_num(f, r->p99);
	csv_num(f, r->p999);
	csv_num(f, r->max);
	csv_num(f, r->others);
	fprintf(f, ",%s\n", r->flagged ? t->rule->flag_word : "");
}

void fleet_print_csv(const struct wfw_grouptab *t, FILE *f)
{
	const char *states[64];
	size_t ns = wfw_grouptab_states(t, states, 64);
	struct wfw_grouptab_row ref;

	fprintf(f, "kind,SUT,C-state,count,median,p99,p99.9,max,others_p99.9,flag\n");
	for (size_t i = 0; i < t->n; i++)
		csv_row(t, &t->row[i], "sut", f);
	for (size_t i = 0; i < ns; i++) {
		if (wfw_grouptab_reference(t, states[i], &ref))
			csv_row(t, &ref, "reference", f);
		if (wfw_grouptab_pooled(t, states[i]))
			csv_row(t, wfw_grouptab_pooled(t, states[i]), "reference", f);
	}
}

static void json_num(FILE *f, const char *key, double v)
{
	if (isnan(v))
		fprintf(f, ", \"%s\": null", key);
	else
		fprintf(f, ", \"%s\": %.17g", key, v);
}

static void json_row(const struct wfw_grouptab_row *r, const char *link, FILE *f)
{
	fputs("{\"sut\": ", f);
	wfw_json_string(f, r->label);
	fputs(", \"cstate\": ", f);
	wfw_json_string(f, r->state);
	fprintf(f, ", \"count\": %llu", (unsigned long long)r->count);
	json_num(f, "median", r->median);
	json_num(f, "p99", r->p99);
	json_num(f, "p99.9", r->p999);
	json_num(f, "max", r->max);
	json_num(f, "others_p99.9", r->others);
	fprintf(f, ", \"flagged\": %s", r->flagged ? "true" : "false");
	if (link) {
		fputs(", \"report\": ", f);
		wfw_json_string(f, link);
	}
	fputs("}", f);
}

/* The link of row r's SUT: links[i] of the member of that label. */
static const char *link_of(const struct fleet *fl, const char *const *links,
			   const char *label)
{
	for (size_t i = 0; links && i < fl->n; i++)
		if (!strcmp(fl->m[i].label, label))
			return links[i];
	return NULL;
}

void fleet_print_json(const struct wfw_grouptab *t, const char *const *links,
		      const struct fleet *fl, FILE *f)
{
	const char *states[64];
	size_t ns = wfw_grouptab_states(t, states, 64), k = 0;
	struct wfw_grouptab_row ref;

	fputs("{\"metric\": ", f);
	wfw_json_string(f, t->metric);
	fputs(", \"unit\": ", f);
	wfw_json_string(f, t->unit);
	fputs(", \"member\": ", f);
	wfw_json_string(f, t->rule->member);
	fputs(", \"rule\": ", f);
	wfw_json_string(f, wfw_grouptab_rule_text(t));
	fprintf(f, ", \"factor\": %g, \"floor\": %g", t->rule->factor, t->rule->floor);
	fputs(",\n \"rows\": [", f);
	for (size_t i = 0; i < t->n; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		json_row(&t->row[i], link_of(fl, links, t->row[i].label), f);
	}
	fputs("],\n \"reference\": [", f);
	for (size_t i = 0; i < ns; i++) {
		if (wfw_grouptab_reference(t, states[i], &ref)) {
			fputs(k++ ? ",\n  " : "\n  ", f);
			json_row(&ref, NULL, f);
		}
		if (wfw_grouptab_pooled(t, states[i])) {
			fputs(k++ ? ",\n  " : "\n  ", f);
			json_row(wfw_grouptab_pooled(t, states[i]), NULL, f);
		}
	}
	fputs("],\n \"pooled_note\": ", f);
	wfw_json_string(f, t->pooled_note);
	fputs("}\n", f);
}

int calc_fleet(struct calc *c)
{
	struct group_cfg cfg = { .exact_limit = c->exact_limit, .exact_memory = c->exact_memory,
				 .metric = c->metrics.n ? c->metrics.v[0] : NULL,
				 .strict = true };
	char **args = calloc(c->nres ? c->nres : 1, sizeof(*args));
	struct wfw_grouptab t = { 0 };
	struct fleet fl = { 0 };
	int ret = args ? 0 : -ENOMEM;

	for (size_t i = 0; args && i < c->nres; i++)
		args[i] = (char *)c->res[i].arg;
	if (!ret)
		ret = fleet_members(args, c->nres, "calc", &fl);
	if (!ret)
		ret = fleet_table(&fl, &cfg, "calc", &t);
	if (!ret && c->format == CALC_JSON)
		fleet_print_json(&t, NULL, &fl, stdout);
	else if (!ret && c->format == CALC_CSV)
		fleet_print_csv(&t, stdout);
	else if (!ret)
		wfw_grouptab_print(&t, stdout, c->format == CALC_MARKDOWN);
	wfw_grouptab_free(&t);
	fleet_free(&fl);
	free(args);
	return ret;
}
