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

static void cause(const struct xres *x, struct xcause *c, bool first)
{
	int64_t pid = xkey_pid(c->key);

	printf("%s\n                { \"cause\": ", first ? "" : ",");
	str(c->key & XKEY_THREAD ? "thread" : x->names[c->key - 1]);
	if (c->key & XKEY_THREAD) {
		printf(", \"pid\": ");
		if (pid < 0)
			fputs("null", stdout);
		else
			printf("%lld", (long long)pid);
		printf(", \"comm\": ");
		str(pid >= 0 ? xthreads_comm(&x->th, pid) : NULL);
	}
	printf(", \"datapoints\": %llu", (unsigned long long)c->n);
	if (c->cat < XC_N && c->acc.n) {
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
	printf("%s\n              { \"category\": \"%s\"", first ? "" : ",", xcat_json[cat]);
	if (cat < XC_N) {
		printf(", \"column\": \"%s\", \"sum\": ", xcat_col[cat]);
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
	for (int k = 0; k < XN_N; k++) {
		printf("%s\"%s\": ", k ? ", " : " ", xcnt_col[k]);
		if (x->cnt[k] >= 0 && t->n_cnt[k])
			wfw_json_num(stdout, t->sum_cnt[k]);
		else
			fputs("null", stdout);
	}
	printf(" }");
}

static int tail(const struct xres *x, struct xtail *t)
{
	int order[XC_N], ret = 0;
	bool any = false;

	printf("{\n");
	key(12, "datapoints");
	printf("%llu,\n", (unsigned long long)t->n);
	key(12, "min");
	num(t->n ? (double)t->min : NAN);
	printf(",\n");
	key(12, "max");
	num(t->n ? (double)t->max : NAN);
	printf(",\n");
	key(12, "without_breakdown");
	printf("%llu,\n", (unsigned long long)t->none);
	key(12, "identity_broken");
	printf("%llu,\n", (unsigned long long)t->broken);
	key(12, "without_cause");
	printf("%llu,\n", (unsigned long long)t->nocause);
	key(12, "latency_sum");
	num(t->sum_lat);
	printf(",\n");
	counts(x, t);
	printf(",\n");
	key(12, "categories");
	printf("[");
	xtail_order(t, order);
	for (int k = 0; k < XC_N && !ret; k++, any = true)
		ret = category(x, t, order[k], !any);
	for (size_t i = 0; !ret && i < t->ncauses; i++)
		if (t->causes[i].cat == XC_OTHER) {
			ret = category(x, t, XC_OTHER, false);
			break;
		}
	printf("\n            ]\n          }");
	return ret;
}

static void max_row(const struct xres *x, const struct xmax *m)
{
	static const char *const kind[] = { "ok", "none", "broken" };
	int64_t pid = m->r.pid;

	if (!m->have) {
		fputs("null", stdout);
		return;
	}
	printf("{ \"row\": %llu, \"latency\": ", (unsigned long long)m->r.row);
	num((double)m->r.lat);
	printf(", \"state\": ");
	str(x->scol >= 0 ? (m->state ? m->state : "-") : NULL);
	printf(", \"breakdown\": \"%s\"", kind[m->r.kind]);
	for (int k = 0; k < XC_N; k++) {
		printf(", \"%s\": ", xcat_col[k]);
		num(m->r.t[k] < 0 ? NAN : (double)m->r.t[k]);
	}
	for (int k = 0; k < XN_N; k++) {
		printf(", \"%s\": ", xcnt_col[k]);
		if (m->r.cnt[k] >= 0)
			printf("%lld", (long long)m->r.cnt[k]);
		else
			fputs("null", stdout);
	}
	printf(", \"cause\": ");
	str(m->cause);
	if (m->cause && xcat_of(m->cause) == XC_THREAD) {
		printf(", \"pid\": ");
		if (pid < 0)
			fputs("null", stdout);
		else
			printf("%lld", (long long)pid);
		printf(", \"comm\": ");
		str(pid >= 0 ? xthreads_comm(&x->th, pid) : NULL);
	}
	printf(" }");
}

static int group(const struct xres *x, struct xgroup *g, bool first)
{
	printf("%s\n        {\n", first ? "" : ",");
	key(10, "group");
	str(g->name);
	printf(",\n");
	key(10, "datapoints");
	printf("%llu,\n", (unsigned long long)g->n);
	key(10, "percentile_value");
	num(g->n ? xr_value(&g->rank, g->tail.min) : NAN);
	printf(",\n");
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
	key(6, "rows");
	printf("%llu,\n", (unsigned long long)x->rows);
	key(6, "selected");
	printf("%llu,\n", (unsigned long long)x->kept);
	key(6, "without_latency");
	printf("%llu,\n", (unsigned long long)x->nolat);
	key(6, "without_breakdown");
	printf("%llu,\n", (unsigned long long)x->none);
	key(6, "identity_broken");
	printf("%llu,\n", (unsigned long long)x->broken);
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
	key(6, "result");
	str(x->r->arg);
	printf(",\n");
	key(6, "file");
	str(x->r->path);
	printf(",\n");
	key(6, "latency");
	str(x->latname);
	printf(",\n");
	key(6, "unit");
	str(x->unit);
	printf(",\n");
	key(6, "percentile");
	wfw_json_num(stdout, x->c->explain_pct);
	printf(",\n");
	key(6, "group_by");
	str(x->gcol >= 0 ? x->scolname : NULL);
	printf(",\n");
	file_counts(x);
	key(6, "groups");
	printf("[");
	for (size_t g = 0; g < x->ng && !ret; g++)
		ret = group(x, &x->g[o[g]], !g);
	printf("\n      ]\n    }");
	free(o);
	return ret;
}
