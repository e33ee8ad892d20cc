/* SPDX-License-Identifier: MIT */
/*
 * A report of an experiment of several CPUs (datafmt/percpu.h): each CPU's
 * result is one of the report's results, so the CPUs are drawn as
 * overlays, one colour each, and compared with the first as a diff is.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/infoyml.h"
#include "datafmt/locate.h"
#include "datafmt/percpu.h"
#include "expr/expr.h"
#include "report_prep.h"
#include "stats/grouptab.h"
#include "tools/calc.h"

/* Append s (copied) named id (copied; NULL: none); -ENOMEM or -E2BIG past REP_MAX. */
static int push(struct rep_args *a, const char *s, const char *id, bool cpu)
{
	if (a->n == REP_MAX)
		return -E2BIG;
	if (!(a->v[a->n] = strdup(s)))
		return -ENOMEM;
	a->cpu[a->n] = cpu;
	if (id && !(a->id[a->n] = strdup(id))) {
		free(a->v[a->n]);
		return -ENOMEM;
	}
	a->n++;
	return 0;
}

/* The experiment's name: --reportids', else its reportid, else its directory's. */
static char *exp_id(const char *arg, const char *given)
{
	char yml[PATH_MAX], *id = NULL;
	size_t al = strlen(arg);
	struct wfw_infoyml y;
	const char *base;

	while (al > 1 && arg[al - 1] == '/')
		al--;
	if (given)
		return strdup(given);
	snprintf(yml, sizeof(yml), "%.*s/info.yml", (int)al, arg);
	if (!wfw_infoyml_read_path(&y, yml)) {
		id = wfw_infoyml_get(&y, "reportid");
		wfw_infoyml_free(&y);
	}
	if (id && *id)
		return id;
	free(id);
	for (base = arg + al; base > arg && base[-1] != '/'; base--)
		;
	return strndup(base, (size_t)(arg + al - base));
}

/* arg's CPUs' directories, EXP/cpuN, in CPU order, named ID/cpuN. */
static int push_cpus(struct rep_args *a, const char *arg, const char *given,
		     const struct wfw_percpu *p)
{
	size_t al = strlen(arg);
	char dir[PATH_MAX], name[PATH_MAX];
	char *id = exp_id(arg, given);
	int ret = id ? 0 : -ENOMEM;

	while (al > 1 && arg[al - 1] == '/')
		al--;
	for (size_t k = 0; k < p->n && !ret; k++) {
		snprintf(dir, sizeof(dir), "%.*s/cpu%u", (int)al, arg, p->cpu[k]);
		snprintf(name, sizeof(name), "%s/cpu%u", id, p->cpu[k]);
		ret = push(a, dir, name, true);
	}
	if (!ret)
		fprintf(stderr, "wultfw report: %s: %zu CPUs, drawn as %zu results %s/cpuN (cpu%u first, the others compared with it)\n",
			arg, p->n, p->n, id, p->cpu[0]);
	free(id);
	return ret;
}

int rep_cpu_args(char **args, size_t n, const struct wfw_names *ids, struct rep_args *a)
{
	char path[PATH_MAX], err[1024];
	int ret = 0;

	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < n && !ret; i++) {
		const char *given = ids->n ? ids->v[i] : NULL;
		struct wfw_percpu p = { 0 };

		/* Not an experiment, or a broken one: rep_open_all() says why. */
		if (wfw_result_locate(args[i], path, sizeof(path), err, sizeof(err)) ||
		    !wfw_percpu_is_dir(path) || wfw_percpu_find(&p, path, err, sizeof(err)) ||
		    !p.n)
			ret = push(a, args[i], given, false);
		else
			ret = push_cpus(a, args[i], given, &p);
		wfw_percpu_free(&p);
	}
	if (ret == -E2BIG)
		fprintf(stderr, "wultfw report: more than %d results with each experiment's CPUs counted: report fewer at once\n",
			REP_MAX);
	else if (ret)
		fprintf(stderr, "wultfw report: out of memory\n");
	return ret;
}

void rep_args_free(struct rep_args *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i]);
		free(a->id[i]);
	}
	memset(a, 0, sizeof(*a));
}

/* One experiment's flag as a paragraph of the report's description. */
static void note_one(FILE *f, const char *arg, const struct wfw_grouptab *t)
{
	size_t flagged = 0;

	fprintf(f, "\n\nCPUs of `%s` side by side (%s p99.9): ", arg, t->metric);
	for (size_t i = 0; i < t->n; i++) {
		const struct wfw_grouptab_row *r = &t->row[i];

		if (!r->flagged)
			continue;
		fprintf(f, "%s*cpu%s stands out* in %s: %.3f %s, %.1f times the other CPUs' median %.3f",
			flagged++ ? "; " : "", r->label, r->state, r->p999, t->unit,
			r->p999 / r->others, r->others);
	}
	fprintf(f, "%s. Rule: %s.", flagged ? "" : "no CPU stands out", wfw_grouptab_rule_text(t));
}

char *rep_cpu_note(const struct rep_cli *c, char **args, size_t n)
{
	const struct group_cfg cfg = { .exact_limit = CALC_DEF_EXACT_LIMIT,
				      .exact_memory = CALC_DEF_EXACT_MEMORY,
				      .include = c->include, .exclude = c->exclude };
	const char *descr = c->descr;
	char path[PATH_MAX], err[1024], *buf = NULL;
	size_t len = 0, found = 0;
	FILE *f;

	if ((c->include && wfw_expr_text_uses_index(c->include)) ||
	    (c->exclude && wfw_expr_text_uses_index(c->exclude))) {
		fprintf(stderr, "wultfw report: note: no CPUs side by side in the description: the selection compares index, which counts each CPU's rows here and the experiment's there\n");
		return NULL;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs(descr ? descr : "", f);
	for (size_t i = 0; i < n; i++) {
		struct wfw_grouptab t;

		if (wfw_result_locate(args[i], path, sizeof(path), err, sizeof(err)) ||
		    !wfw_percpu_is_dir(path))
			continue;
		if (cpus_table(path, &cfg, &t, err, sizeof(err))) {
			fprintf(stderr, "wultfw report: %s: no CPUs side by side: %s\n", args[i], err);
		} else {
			note_one(f, args[i], &t);
			for (size_t k = 0; k < t.n; k++)
				if (t.row[k].flagged)
					fprintf(stderr, "wultfw report: %s: cpu%s stands out in %s (p99.9 %.3f, %.1fx the others' median)\n",
						args[i], t.row[k].label, t.row[k].state, t.row[k].p999,
						t.row[k].p999 / t.row[k].others);
			found++;
		}
		wfw_grouptab_free(&t);
	}
	if (fclose(f) || !found) {
		free(buf);
		return NULL;
	}
	/* No description given: the paragraph alone, without blank lines first. */
	if (!descr || !*descr)
		memmove(buf, buf + 2, strlen(buf + 2) + 1);
	return buf;
}
