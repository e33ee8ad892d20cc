/* SPDX-License-Identifier: MIT */
/*
 * calc on an experiment of several CPUs (datafmt/percpu.h): after the
 * usual table, its CPUs side by side (stats/grouptab.h), each CPU's result
 * read on its own so its C-states are its own. grouptab_member() reads one
 * member's file for the fleet table too (calc_fleet.c).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/calc.h"
#include "datafmt/percpu.h"
#include "stats/grouptab.h"

/* The metric asked for if a column, else WakeLatency, else a "*Latency". */
static const char *pick_metric(const char *want, const struct wultfw_schema *s)
{
	if (want && wfw_schema_find(s, want) >= 0)
		return want;
	if (wfw_schema_find(s, "WakeLatency") >= 0)
		return "WakeLatency";
	for (size_t k = 0; k < s->ncols; k++) {
		size_t n = strlen(s->cols[k].name);

		if (s->cols[k].type != WULTFW_COL_ENUM && n >= 7 &&
		    !strcmp(s->cols[k].name + n - 7, "Latency"))
			return s->cols[k].name;
	}
	return NULL;
}

int group_summary_row(struct wfw_statset *set, const char *label, size_t g,
		      struct wfw_grouptab_row *row)
{
	static const double p[] = { 50, 99, 99.9 };
	struct wfw_summary sm;
	int ret = wfw_statset_summary(set, 0, g, p, 3, &sm);

	if (ret)
		return ret;
	memset(row, 0, sizeof(*row));
	snprintf(row->label, sizeof(row->label), "%s", label);
	snprintf(row->state, sizeof(row->state), "%s",
		 g == SIZE_MAX ? "all" : wfw_statset_group_name(set, g));
	row->count = sm.count;
	row->median = sm.count ? sm.pct[0] : NAN;
	row->p99 = sm.count ? sm.pct[1] : NAN;
	row->p999 = sm.count ? sm.pct[2] : NAN;
	row->max = sm.count ? sm.max : NAN;
	row->others = NAN;
	return 0;
}

static int add_row(struct wfw_grouptab *t, struct wfw_statset *set, const char *label,
		   size_t g)
{
	struct wfw_grouptab_row row;
	int ret = group_summary_row(set, label, g, &row);

	return ret ? ret : wfw_grouptab_add(t, &row);
}

/*
 * Every row of rd that c selects into set, `index` counted from *first
 * (moved past rd's rows). 0, or an error with err saying why.
 */
static int read_selected(const struct group_cfg *c, struct wfw_reader *rd, const char *name,
			 uint64_t *first, struct wfw_statset *set, char *err, size_t len)
{
	struct wfw_select sel = { 0 };
	struct wultfw_batch b = { 0 };
	long n = 0;
	int ret = wfw_select_init(&sel, c->include, c->exclude, wfw_reader_schema(rd), err, len);

	sel.next_index = *first;
	if (!ret)
		ret = wfw_batch_alloc(&b, wfw_reader_schema(rd)->ncols, 65536);
	while (!ret && (n = wfw_reader_read(rd, &b)) > 0) {
		if (wfw_select_batch(&sel, &b))
			ret = -EINVAL, snprintf(err, len, "%s: %s", name, sel.err);
		if (!ret)
			ret = wfw_statset_add(set, &b);
		b.rows = 0;
	}
	*first = sel.next_index;
	if (!ret && n < 0)
		ret = (int)n, snprintf(err, len, "%s", wfw_reader_error(rd));
	wfw_batch_free(&b);
	wfw_select_free(&sel);
	return ret;
}

/*
 * The member read by rd (name: for errors) into t as label: a row per
 * C-state, then "all"; into pool too (NULL: none), which may keep rd.
 */
static int member_rows(const struct group_cfg *c, struct wfw_reader *rd, const char *name,
		       const char *label, uint64_t *first, struct wfw_grouptab *t,
		       struct group_pool *pool, char *err, size_t len)
{
	struct wfw_statset_cfg cfg = { .exact_limit = c->exact_limit,
				       .exact_memory = c->exact_memory };
	struct wfw_statset set = { 0 };
	const char *metric;
	int ret = 0;

	if (c->strict && c->metric && wfw_schema_find(wfw_reader_schema(rd), c->metric) < 0) {
		snprintf(err, len, "%s: no column '%s' (%s); --list-metrics of wultfw report lists them",
			 name, c->metric, c->metric_opt ? c->metric_opt : "-m");
		wfw_reader_close(rd);
		return -ENOENT;
	}
	metric = t->metric[0] ? t->metric : pick_metric(c->metric, wfw_reader_schema(rd));
	if (!metric) {
		snprintf(err, len, "%s: no latency column to put the %ss side by side; name one with %s", name,
			 t->rule->member, c->metric_opt ? c->metric_opt : "-m");
		wfw_reader_close(rd);
		return -ENOENT;
	}
	if (metric != t->metric)
		snprintf(t->metric, sizeof(t->metric), "%s", metric);
	cfg.metrics = &metric;
	cfg.nmetrics = 1;
	if (wfw_schema_find(wfw_reader_schema(rd), "ReqCState") >= 0)
		cfg.group_by = "ReqCState";
	ret = wfw_statset_init(&set, wfw_reader_schema(rd), &cfg, err, len);
	if (!ret)
		ret = read_selected(c, rd, name, first, &set, err, len);
	if (!ret && !t->unit[0] && wfw_statset_metric(&set, 0)->unit)
		snprintf(t->unit, sizeof(t->unit), "%s", wfw_statset_metric(&set, 0)->unit);
	for (size_t i = 0; !ret && cfg.group_by && i < set.ngroups; i++) {
		size_t g = wfw_statset_group_at(&set, i);

		if (wfw_statset_group_count(&set, g))
			ret = add_row(t, &set, label, g);
	}
	if (!ret)
		ret = add_row(t, &set, label, SIZE_MAX);
	if (!ret && pool && group_pool_add(pool, &set, rd, label))
		return 0;	/* the pool keeps set and rd */
	wfw_statset_free(&set);
	wfw_reader_close(rd);
	return ret;
}

int grouptab_member(const struct group_cfg *c, const char *file, const char *label,
		    struct wfw_grouptab *t, struct group_pool *pool, char *err, size_t len)
{
	struct wfw_reader *rd;
	uint64_t first = 0;
	int ret = wfw_reader_open(&rd, file, err, len);

	return ret ? ret : member_rows(c, rd, file, label, &first, t, pool, err, len);
}

/*
 * CPU number `at` of exp (in its order) into t. Its rows are selected as
 * in the whole experiment (with its CPU column; `index` from *first, the
 * rows of the CPUs before it), *first moved past them.
 */
static int one_cpu(const struct group_cfg *c, const char *exp, size_t at, unsigned cpu,
		   uint64_t *first, struct wfw_grouptab *t, char *err, size_t len)
{
	struct wfw_reader *rd;
	char label[16], name[PATH_MAX + 16];
	int ret = wfw_percpu_reader_open_one(&rd, exp, at, NULL, err, len);

	if (ret)
		return ret;
	snprintf(label, sizeof(label), "%u", cpu);
	snprintf(name, sizeof(name), "%s/cpu%u", exp, cpu);
	return member_rows(c, rd, name, label, first, t, NULL, err, len);
}

int cpus_table(const char *exp, const struct group_cfg *cfg, struct wfw_grouptab *t,
	       char *err, size_t len)
{
	struct wfw_percpu p;
	uint64_t first = 0;
	int ret = wfw_percpu_find(&p, exp, err, len);

	memset(t, 0, sizeof(*t));
	t->rule = &wfw_grouptab_cpus;
	if (!ret && !p.n)
		ret = -ENOENT, snprintf(err, len, "%s: no cpuN/ results", exp);
	for (size_t i = 0; !ret && i < p.n; i++)
		ret = one_cpu(cfg, exp, i, p.cpu[i], &first, t, err, len);
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	if (!ret)
		wfw_grouptab_flag(t);
	wfw_percpu_free(&p);
	return ret;
}

int calc_cpus(const struct calc *c, const struct calc_result *r, FILE *f)
{
	struct group_cfg cfg = { .exact_limit = c->exact_limit,
				.exact_memory = c->exact_memory,
				.metric = c->metrics.n == 1 ? c->metrics.v[0] : NULL,
				.include = c->include, .exclude = c->exclude };
	struct wfw_grouptab t;
	char err[600];
	int ret;

	if (!wfw_percpu_is_dir(r->path))
		return 0;
	ret = cpus_table(r->path, &cfg, &t, err, sizeof(err));
	if (!ret && c->format == CALC_JSON) {
		calc_cpus_json(&t, f);
	} else if (!ret && c->format == CALC_CSV) {
		calc_cpus_csv(&t, r->arg, f);
	} else if (!ret) {
		fprintf(f, "\n%s:", r->arg);
		wfw_grouptab_print(&t, f, c->format == CALC_MARKDOWN);
	} else {
		fprintf(stderr, "wultfw calc: %s\n", err);
	}
	wfw_grouptab_free(&t);
	return ret;
}
