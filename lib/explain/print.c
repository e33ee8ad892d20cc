/* SPDX-License-Identifier: MIT */
/* A latency's tail in plain words (explain.h shows them). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "explain/explain.h"

/* " us", or nothing for a unitless metric. */
static void put_unit(FILE *f, const char *unit)
{
	if (unit && *unit)
		fprintf(f, " %s", unit);
}

static void put_cause(FILE *f, const struct wfw_xp_in *in, const char *cause,
		      int64_t pid)
{
	char label[WFW_XP_LABEL_MAX];

	wfw_xp_cause_label(label, sizeof(label), WFW_XP_PAGE, in->threads, cause, pid);
	fputs(label, f);
}

/* "  IRQ        61%  dominant in 803: irq:24 ... in 790 (its IRQTime median 41.2 us), ..." */
static void put_category(FILE *f, const struct wfw_xp_in *in,
			 const struct wfw_xp_catsum *cs, int cat)
{
	fprintf(f, "  %-10s%3.0f%%", wfw_xp_labels[cat], 100 * cs->share);
	if (cs->dominant)
		fprintf(f, "  dominant in %llu", (unsigned long long)cs->dominant);
	/* NMIs and the idle exit are one cause each: nothing to name */
	for (size_t i = 0; cat != WFW_XP_NMI && cat != WFW_XP_EXIT && i < cs->ncauses; i++) {
		const struct wfw_xp_cause *c = &cs->cause[i];

		fputs(i ? ", " : ": ", f);
		put_cause(f, in, c->name, c->pid);
		fprintf(f, " in %llu", (unsigned long long)c->rows);
		if (i)
			continue;
		fprintf(f, " (its %s median %.1f", wfw_xp_time_cols[cat], c->median);
		put_unit(f, in->unit);
		fputs(")", f);
	}
	if (cs->more_causes && cat != WFW_XP_NMI && cat != WFW_XP_EXIT)
		fprintf(f, ", %llu more in %llu", (unsigned long long)cs->more_causes,
			(unsigned long long)cs->more_rows);
	fputs("\n", f);
}

/* The first line: which datapoints, how many, from what to what. */
static void put_head(FILE *f, const struct wfw_xp_in *in,
		     const struct wfw_xp_analysis *a)
{
	fprintf(f, "%s p%g and above", in->metric, in->pct);
	if (in->group) {
		fprintf(f, " in %s ", in->group_col ? in->group_col : "group");
		wfw_xp_put_name(f, in->group);
	}
	fputs(": ", f);
	if (!in->ntail) {
		fprintf(f, "too few datapoints (%llu; p%g needs %.0f)\n",
			(unsigned long long)in->nvalues, in->pct,
			ceil(100 / (100 - in->pct) - 1e-9));
		return;
	}
	fprintf(f, "%llu datapoints", (unsigned long long)in->ntail);
	if (in->ntail > in->n)
		fprintf(f, " (the %zu largest analysed)", in->n);
	if (a->rows + a->unexplained) {
		fprintf(f, ", %.1f to %.1f", a->lo, a->hi);
		put_unit(f, in->unit);
	}
	if (a->unexplained)
		fprintf(f, ", %llu without a breakdown (events lost)",
			(unsigned long long)a->unexplained);
	fputs("\n", f);
}

/* "max: 1904.2 us, row 81231, C-state C6: IRQ 1711.0 us, ...; dominant ..." */
static void put_max(FILE *f, const struct wfw_xp_in *in, const struct wfw_xp_row *m)
{
	bool done[WFW_XP_NCAT] = { false };
	int shown = 0;

	fprintf(f, "max: %.1f", m->lat);
	put_unit(f, in->unit);
	fprintf(f, ", row %llu", (unsigned long long)m->row);
	if (m->cstate) {
		fputs(", C-state ", f);
		wfw_xp_put_name(f, m->cstate);
	}
	fputs(": ", f);
	if (!wfw_xp_explained(m))
		fputs("no breakdown (events lost)", f);
	for (int k = 0; k < WFW_XP_NCAT && wfw_xp_explained(m); k++) {
		int big = -1;	/* the largest part not shown yet */

		for (int c = 0; c < WFW_XP_NCAT; c++)
			if (!done[c] && (big < 0 || m->t[c] > m->t[big]))
				big = c;
		done[big] = true;
		if (!(m->t[big] > 0))
			break;
		fprintf(f, "%s%s %.1f", shown++ ? ", " : "", wfw_xp_labels[big], m->t[big]);
		put_unit(f, in->unit);
	}
	if (m->cause) {
		fputs("; dominant ", f);
		if (wfw_xp_cause_cat(m->cause) == WFW_XP_THREAD && m->pid >= 0)
			fputs("thread ", f);
		put_cause(f, in, m->cause, m->pid);
	}
	fputs("\n", f);
}

void wfw_xp_print_analysis(FILE *f, const struct wfw_xp_in *in,
			   const struct wfw_xp_analysis *a)
{
	put_head(f, in, a);
	for (int c = 0; in->ntail && c < WFW_XP_NCAT; c++)
		put_category(f, in, &a->cat[c], c);
	if (in->max)
		put_max(f, in, in->max);
}

int wfw_xp_print(FILE *f, const struct wfw_xp_in *in)
{
	struct wfw_xp_analysis a;
	int ret = wfw_xp_analyse(in, &a);

	if (!ret)
		wfw_xp_print_analysis(f, in, &a);
	return ret;
}
