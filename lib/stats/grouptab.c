/* SPDX-License-Identifier: MIT */
/* Members of a group side by side and their flag (grouptab.h). */
#include "config.h"

#include "stats/grouptab.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct wfw_grouptab_rule wfw_grouptab_cpus = {
	.member = "CPU", .flag_col = "tail", .flag_word = "STANDS OUT",
	.label_width = 5,
	.factor = 2.0, .floor = 0,
};

/*
 * The floor keeps a fleet of quiet SUTs from flagging one whose p99.9 is
 * 2.5 us against the others' 1 us: twice, but nothing a lab acts on.
 */
const struct wfw_grouptab_rule wfw_grouptab_suts = {
	.member = "SUT", .flag_col = "flag", .flag_word = "OUTLIER",
	.factor = 2.0, .floor = 1.0, .reference = true,
};

int wfw_grouptab_add(struct wfw_grouptab *t, const struct wfw_grouptab_row *row)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct wfw_grouptab_row *r = realloc(t->row, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		t->row = r;
		t->cap = cap;
	}
	t->row[t->n++] = *row;
	return 0;
}

int wfw_grouptab_add_pooled(struct wfw_grouptab *t, const struct wfw_grouptab_row *row)
{
	struct wfw_grouptab_row *r = realloc(t->pooled, (t->npooled + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	t->pooled = r;
	t->pooled[t->npooled++] = *row;
	return 0;
}

const struct wfw_grouptab_row *wfw_grouptab_pooled(const struct wfw_grouptab *t,
						   const char *state)
{
	for (size_t i = 0; i < t->npooled; i++)
		if (!strcmp(t->pooled[i].state, state))
			return &t->pooled[i];
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median of the p99.9 of the rows of i's state but i, NAN if none. */
static double others_median(const struct wfw_grouptab *t, size_t i, double *v)
{
	size_t n = 0;

	for (size_t k = 0; k < t->n; k++)
		if (k != i && t->row[k].count && !isnan(t->row[k].p999) &&
		    !strcmp(t->row[k].state, t->row[i].state))
			v[n++] = t->row[k].p999;
	return median_of(v, n);
}

void wfw_grouptab_flag(struct wfw_grouptab *t)
{
	double *v = malloc((t->n ? t->n : 1) * sizeof(*v));

	for (size_t i = 0; i < t->n; i++) {
		struct wfw_grouptab_row *r = &t->row[i];

		r->others = v ? others_median(t, i, v) : NAN;
		r->flagged = r->count && !isnan(r->others) &&
			     r->p999 > t->rule->factor * r->others &&
			     r->p999 > t->rule->floor;
	}
	free(v);
}

/* Median across the rows of `state` with datapoints of the field at off. */
static double stat_median(const struct wfw_grouptab *t, const char *state,
			  size_t off, double *v)
{
	size_t n = 0;

	for (size_t k = 0; k < t->n; k++) {
		const struct wfw_grouptab_row *r = &t->row[k];
		double x = off == SIZE_MAX ? (double)r->count :
			   *(const double *)((const char *)r + off);

		if (r->count && !strcmp(r->state, state) && !isnan(x))
			v[n++] = x;
	}
	return median_of(v, n);
}

bool wfw_grouptab_reference(const struct wfw_grouptab *t, const char *state,
			    struct wfw_grouptab_row *ref)
{
	double *v = malloc((t->n ? t->n : 1) * sizeof(*v));
	double count;

	memset(ref, 0, sizeof(*ref));
	if (!v)
		return false;
	snprintf(ref->label, sizeof(ref->label), "median");
	snprintf(ref->state, sizeof(ref->state), "%s", state);
	count = stat_median(t, state, SIZE_MAX, v);
	ref->count = isnan(count) ? 0 : (uint64_t)llround(count);
	ref->median = stat_median(t, state, offsetof(struct wfw_grouptab_row, median), v);
	ref->p99 = stat_median(t, state, offsetof(struct wfw_grouptab_row, p99), v);
	ref->p999 = stat_median(t, state, offsetof(struct wfw_grouptab_row, p999), v);
	ref->max = stat_median(t, state, offsetof(struct wfw_grouptab_row, max), v);
	ref->others = NAN;
	free(v);
	return !isnan(count);
}

size_t wfw_grouptab_states(const struct wfw_grouptab *t, const char **v, size_t max)
{
	size_t n = 0;
	bool all = false;

	for (size_t i = 0; i < t->n; i++) {
		size_t k = 0;

		if (!strcmp(t->row[i].state, "all")) {
			all = true;
			continue;
		}
		while (k < n && strcmp(v[k], t->row[i].state))
			k++;
		if (k == n && n + 1 < max)	/* room for "all" kept */
			v[n++] = t->row[i].state;
	}
	if (all && n < max)
		v[n++] = "all";
	return n;
}

const char *wfw_grouptab_rule_text(const struct wfw_grouptab *t)
{
	static char rule[300];
	const struct wfw_grouptab_rule *r = t->rule;
	int n = snprintf(rule, sizeof(rule), "a %s is flagged in a C-state when its p99.9 is more than %g times the median p99.9 of the other %ss in that C-state",
			 r->member, r->factor, r->member);

	if (r->floor > 0 && n > 0 && (size_t)n < sizeof(rule))
		snprintf(rule + n, sizeof(rule) - (size_t)n, " and above %g%s%s", r->floor,
			 *t->unit ? " " : "", t->unit);
	return rule;
}

void wfw_grouptab_free(struct wfw_grouptab *t)
{
	const struct wfw_grouptab_rule *rule = t->rule;

	free(t->row);
	free(t->pooled);
	memset(t, 0, sizeof(*t));
	t->rule = rule;
}
