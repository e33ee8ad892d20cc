/* SPDX-License-Identifier: MIT */
/*
 * calc --explain --format json: the numbers of the text (explain_print.c)
 * in the latency's unit, shares as fractions, every cause of each
 * category, one element of the "explain" array per result.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "explain_impl.h"
#include "stats/report.h"

/* Thousandths of the unit, in the unit. */
static void num(double milli)
{
	wfw_json_num(stdout, milli / 1000.0);
}

static void str(const char *s)
{
	if (s)
		wfw_json_string(stdout, s);
	else
		fputs("null", stdout);
}

static void key(int ind, const char *k)
{
	printf("%*s\"%s\": ", ind, "", k);
}

/* A member holding a string (NULL: null), then ",\n". */
static void text(int ind, const char *k, const char *v)
{
	key(ind, k);
	str(v);
	printf(",\n");
}

/* A member holding a count, then ",\n". */
static void count(int ind, const char *k, uint64_t v)
{
	key(ind, k);
	printf("%llu,\n", (unsigned long long)v);
}

/* A member holding thousandths of the unit (NAN: null), then ",\n". */
static void value(int ind, const char *k, double milli)
{
	key(ind, k);
	num(milli);
	printf(",\n");
}

/* ", "pid": 88, "comm": "kworker/1:2"" (null for what is unknown). */
static void thread(const struct xres *x, int64_t pid)
{
	printf(", \"pid\": ");
	if (pid < 0)
		fputs("null", stdout);
	else
		printf("%lld", (long long)pid);
	printf(", \"comm\": ");
	str(pid >= 0 ? wfw_xp_comm(&x->th.t, pid) : NULL);
}

static void cause(const struct xres *x, struct xcause *c, bool first)
{
	printf("%s\n                { \"cause\": ", first ? "" : ",");
	str(c->key & XKEY_THREAD ? "thread" : x->names[c->key - 1]);
	if (c->key & XKEY_THREAD)
		thread(x, xkey_pid(c->key));
	printf(", \"datapoints\": %llu", (unsigned long long)c->n);
	if (c->cat < WFW_XP_NCAT && c->acc.n) {
		printf(", \"median\": ");
		num(wfw_acc_percentile(&c->acc, 50));
		printf(", \"median_exact\": %s", wfw_acc_exact(&c->acc) ? "true" : "false");
	}
	printf(" }");
}

static int category(const struct xres *x, struct xtail *t, int cat, bool first)
{
	struct xcause **cs;
	size_t n = xtail_sorted(t, x->names, cat, &cs);
	uint64_t dom = 0;

	if (!cs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		dom += cs[i]->n;
	printf("%s\n              { \"category\": \"%s\"", first ? "" : ",", wfw_xp_json[cat]);
	if (cat < WFW_XP_NCAT) {
		printf(", \"column\": \"%s\", \"sum\": ", wfw_xp_time_cols[cat]);
		num(t->sum_t[cat]);
		printf(", \"share\": ");
		wfw_json_num(stdout, t->sum_lat > 0 ? t->sum_t[cat] / t->sum_lat : NAN);
	}
	printf(", \"dominant_in\": %llu, \"causes\": [", (unsigned long long)dom);
	for (size_t i = 0; i < n; i++)
		cause(x, cs[i], !i);
	printf("%s] }", n ? "\n              " : "");
	free(cs);
	return 0;
}

static void counts(const struct xres *x, const struct xtail *t)
{
	key(12, "counts");
	printf("{");
	for (int k = 0; k < WFW_XP_NCNT; k++) {
		printf("%s\"%s\": ", k ? ", " : " ", wfw_xp_count_cols[k]);
		if (x->cnt[k] >= 0 && t->n_cnt[k])
			wfw_json_num(stdout, t->sum_cnt[k]);
		else
			fputs("null", stdout);
	}
	printf(" }");
}

static int tail(const struct xres *x, struct xtail *t)
{
	int order[WFW_XP_NCAT], ret = 0;
	bool any = false;

	printf("{\n");
	count(12, "datapoints", t->n);
	value(12, "min", t->n ? (double)t->min : NAN);
	value(12, "max", t->n ? (double)t->max : NAN);
	count(12, "without_breakdown", t->none);
	count(12, "identity_broken", t->broken);
	count(12, "without_cause", t->nocause);
	value(12, "latency_sum", t->sum_lat);
	counts(x, t);
	printf(",\n");
	key(12, "categories");
	printf("[");
	xtail_order(t, order);
	for (int k = 0; k < WFW_XP_NCAT && !ret; k++, any = true)
		ret = category(x, t, order[k], !any);
	for (size_t i = 0; !ret && i < t->ncauses; i++)
		if (t->causes[i].cat == WFW_XP_OTHER) {
			ret = category(x, t, WFW_XP_OTHER, false);
			break;
		}
	printf("\n            ]\n          }");
	return ret;
}

static void max_row(const struct xres *x, const struct xmax *m)
{
	static const char *const kind[] = { "ok", "none", "broken" };

	if (!m->have) {
		fputs("null", stdout);
		return;
	}
	printf("{ \"row\": %llu, \"latency\": ", (unsigned long long)m->r.row);
	num((double)m->r.lat);
	printf(", \"state\": ");
	str(x->scol >= 0 ? (m->state ? m->state : "-") : NULL);
	printf(", \"breakdown\": \"%s\"", kind[m->r.kind]);
	for (int i = 0; i < WFW_XP_NCAT; i++) {
		int k = wfw_xp_col_order[i];

		printf(", \"%s\": ", wfw_xp_time_cols[k]);
		num(m->r.t[k] < 0 ? NAN : (double)m->r.t[k]);
	}
	for (int k = 0; k < WFW_XP_NCNT; k++) {
		printf(", \"%s\": ", wfw_xp_count_cols[k]);
		if (m->r.cnt[k] >= 0)
			printf("%lld", (long long)m->r.cnt[k]);
		else
			fputs("null", stdout);
	}
	printf(", \"cause\": ");
	str(m->cause);
	if (m->cause && wfw_xp_cause_cat(m->cause) == WFW_XP_THREAD)
		thread(x, m->r.pid);
	printf(" }");
}

static int group(const struct xres *x, struct xgroup *g, bool first)
{
	printf("%s\n        {\n", first ? "" : ",");
	text(10, "group", g->name);
	count(10, "datapoints", g->n);
	value(10, "percentile_value", g->n ? xr_value(&g->rank, g->tail.min) : NAN);
	key(10, "tail");
	if (tail(x, &g->tail))
		return -ENOMEM;
	printf(",\n");
	key(10, "max");
	max_row(x, &g->max);
	printf("\n        }");
	return 0;
}

/* Counts over the whole file. */
static void file_counts(const struct xres *x)
{
	count(6, "rows", x->rows);
	count(6, "selected", x->kept);
	count(6, "without_latency", x->nolat);
	count(6, "without_breakdown", x->none);
	count(6, "identity_broken", x->broken);
	key(6, "first_broken_row");
	if (x->broken)
		printf("%llu,\n", (unsigned long long)x->first_broken);
	else
		printf("null,\n");
}

int xprint_json(struct xres *x, bool first)
{
	size_t *o = xgroup_order(x);
	int ret = o ? 0 : -ENOMEM;

	if (first)
		printf("{\n  \"percentile_method\": \"linear\",\n  \"explain\": [");
	printf("%s\n    {\n", first ? "" : ",");
	text(6, "result", x->r->arg);
	text(6, "file", x->r->path);
	text(6, "latency", x->latname);
	text(6, "unit", x->unit);
	key(6, "percentile");
	wfw_json_num(stdout, x->c->explain_pct);
	printf(",\n");
	text(6, "group_by", x->gcol >= 0 ? x->scolname : NULL);
	file_counts(x);
	key(6, "groups");
	printf("[");
	for (size_t g = 0; g < x->ng && !ret; g++)
		ret = group(x, &x->g[o[g]], !g);
	printf("\n      ]\n    }");
	free(o);
	return ret;
}
