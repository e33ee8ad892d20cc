/* SPDX-License-Identifier: MIT */
/* A group's table as text or markdown (grouptab.h). */
#include "config.h"

#include "stats/grouptab.h"

#include <math.h>
#include <string.h>

static void print_num(FILE *f, double v, int w)
{
	if (isnan(v))
		fprintf(f, " %*s", w, "-");
	else
		fprintf(f, " %*.3f", w, v);
}

/* Label column width: the rule's, or the widest label (left-aligned, negative). */
static int label_width(const struct wfw_grouptab *t)
{
	size_t w = strlen(t->rule->member);

	if (t->rule->label_width > 0)
		return t->rule->label_width;
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->row[i].label) > w)
			w = strlen(t->row[i].label);
	return w < 6 ? -6 : -(int)w;	/* "median" fits too */
}

static void print_head(const struct wfw_grouptab *t, FILE *f, bool markdown, int lw)
{
	const char *sep = markdown ? " |" : "";

	fprintf(f, "%s%*s%s %-16s%s %10s%s %12s%s %12s%s %12s%s %12s%s %s%s\n", markdown ? "|" : "",
		lw, t->rule->member, sep, "C-state", sep, "count", sep, "median", sep, "p99", sep,
		"p99.9", sep, "max", sep, t->rule->flag_col, sep);
	if (markdown)
		fprintf(f, "|%s|:---|---:|---:|---:|---:|---:|:---|\n", lw > 0 ? "---:" : ":---");
}

static void print_row(const struct wfw_grouptab *t, const struct wfw_grouptab_row *r,
		      FILE *f, bool markdown, int lw)
{
	const char *sep = markdown ? " |" : "";

	fprintf(f, "%s%*s%s %-16s%s %10llu%s", markdown ? "|" : "", lw, r->label, sep,
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
		fprintf(f, " %s (%.1fx the others' %.3f)%s\n", t->rule->flag_word,
			r->p999 / r->others, r->others, sep);
	else
		fprintf(f, " -%s\n", sep);
}

/* The group's median of each statistic per C-state (fleets). */
static void print_reference(const struct wfw_grouptab *t, FILE *f, bool markdown, int lw)
{
	const char *states[64];
	size_t n = wfw_grouptab_states(t, states, 64);
	struct wfw_grouptab_row ref;

	const struct wfw_grouptab_row *pooled;

	fprintf(f, "\nThe group's reference: the median across %ss of each statistic (median),\nand every %s's datapoints as one (pooled):\n\n",
		t->rule->member, t->rule->member);
	print_head(t, f, markdown, lw);
	for (size_t i = 0; i < n; i++) {
		if (wfw_grouptab_reference(t, states[i], &ref))
			print_row(t, &ref, f, markdown, lw);
		if ((pooled = wfw_grouptab_pooled(t, states[i])))
			print_row(t, pooled, f, markdown, lw);
	}
	if (t->pooled_note[0])
		fprintf(f, "\nNo pooled rows: %s.\n", t->pooled_note);
}

void wfw_grouptab_print(const struct wfw_grouptab *t, FILE *f, bool markdown)
{
	int lw = label_width(t);
	size_t flagged = 0;

	fprintf(f, "\n%s (%s) per %s:\n\n", t->metric, *t->unit ? t->unit : "no unit",
		t->rule->member);
	print_head(t, f, markdown, lw);
	for (size_t i = 0; i < t->n; i++) {
		print_row(t, &t->row[i], f, markdown, lw);
		flagged += t->row[i].flagged;
	}
	if (t->rule->reference)
		print_reference(t, f, markdown, lw);
	fprintf(f, "\nFlag rule: %s; %zu row%s flagged.\n", wfw_grouptab_rule_text(t), flagged,
		flagged == 1 ? "" : "s");
}
