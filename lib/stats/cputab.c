/* SPDX-License-Identifier: MIT */
/* The per-CPU table and its flag (cputab.h). */
#include "config.h"

#include "stats/cputab.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int wfw_cputab_add(struct wfw_cputab *t, const struct wfw_cputab_row *row)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct wfw_cputab_row *r = realloc(t->row, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		t->row = r;
		t->cap = cap;
	}
	t->row[t->n++] = *row;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of the p99.9 of the rows of i's state but i, NAN if none. */
static double others_median(const struct wfw_cputab *t, size_t i, double *v)
{
	size_t n = 0;

	for (size_t k = 0; k < t->n; k++)
		if (k != i && t->row[k].count && !isnan(t->row[k].p999) &&
		    !strcmp(t->row[k].state, t->row[i].state))
			v[n++] = t->row[k].p999;
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void wfw_cputab_flag(struct wfw_cputab *t)
{
	double *v = malloc((t->n ? t->n : 1) * sizeof(*v));

	for (size_t i = 0; i < t->n; i++) {
		struct wfw_cputab_row *r = &t->row[i];

		r->others = v ? others_median(t, i, v) : NAN;
		r->flagged = r->count && !isnan(r->others) &&
			     r->p999 > WFW_CPUTAB_FACTOR * r->others;
	}
	free(v);
}

const char *wfw_cputab_rule(void)
{
	static char rule[200];

	snprintf(rule, sizeof(rule), "a CPU is flagged in a C-state when its p99.9 is more than %g times the median p99.9 of the other CPUs in that C-state",
		 WFW_CPUTAB_FACTOR);
	return rule;
}

static void print_num(FILE *f, double v, int w)
{
	if (isnan(v))
		fprintf(f, " %*s", w, "-");
	else
		fprintf(f, " %*.3f", w, v);
}

void wfw_cputab_print(const struct wfw_cputab *t, FILE *f, bool markdown)
{
	const char *sep = markdown ? " |" : "";
	size_t flagged = 0;

	fprintf(f, "\n%s (%s) per CPU:\n\n", t->metric, *t->unit ? t->unit : "no unit");
	fprintf(f, "%s%5s%s %-16s%s %10s%s %12s%s %12s%s %12s%s %12s%s %s%s\n", markdown ? "|" : "",
		"CPU", sep, "C-state", sep, "count", sep, "median", sep, "p99", sep,
		"p99.9", sep, "max", sep, "tail", sep);
	if (markdown)
		fprintf(f, "|---:|:---|---:|---:|---:|---:|---:|:---|\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct wfw_cputab_row *r = &t->row[i];

		fprintf(f, "%s%5u%s %-16s%s %10llu%s", markdown ? "|" : "", r->cpu, sep,
			r->state, sep, (unsigned long long)r->count, sep);
		print_num(f, r->median, 12);
		fputs(sep, f);
		print_num(f, r->p99, 12);
		fputs(sep, f);
		print_num(f, r->p999, 12);
		fputs(sep, f);
		print_num(f, r->max, 12);
		fputs(sep, f);
		if (r->flagged)
			fprintf(f, " STANDS OUT (%.1fx the others' %.3f)%s\n",
				r->p999 / r->others, r->others, sep);
		else
			fprintf(f, " -%s\n", sep);
		flagged += r->flagged;
	}
	fprintf(f, "\nFlag rule: %s; %zu row%s flagged.\n", wfw_cputab_rule(), flagged,
		flagged == 1 ? "" : "s");
}

void wfw_cputab_free(struct wfw_cputab *t)
{
	free(t->row);
	memset(t, 0, sizeof(*t));
}
