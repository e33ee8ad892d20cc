/* SPDX-License-Identifier: MIT */
/* The tail's sentences (words.h): header, categories, notes. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "explain/words.h"

void wfw_xp_value(char *buf, size_t len, double v, int decimals)
{
	double a = fabs(v);
	int dec = a >= 99.95 ? 1 : a >= 9.995 ? 2 : 3;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%.*f", dec < decimals ? dec : decimals, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));	/* -0.000: 0.000 */
}

void wfw_xp_say_value(const struct wfw_xp_say *s, double v)
{
	char buf[64];

	wfw_xp_value(buf, sizeof(buf), v, s->decimals);
	fprintf(s->f, "%s%s%s", buf, s->unit && *s->unit ? " " : "", s->unit ? s->unit : "");
}

void wfw_xp_say_name(const struct wfw_xp_say *s, const char *v)
{
	char buf[WFW_XP_LABEL_MAX];

	if (s->st == WFW_XP_PAGE) {
		wfw_xp_put_name(s->f, v ? v : "-");
		return;
	}
	wfw_xp_escape(buf, sizeof(buf), v ? v : "-");
	fputs(buf, s->f);
}

/* " in ReqCState C6": one group's rows. */
static void put_group(const struct wfw_xp_say *s, const struct wfw_xp_head *h)
{
	if (!h->group)
		return;
	fprintf(s->f, " in %s ", h->group_col ? h->group_col : "group");
	wfw_xp_say_name(s, h->group);
}

void wfw_xp_say_head(const struct wfw_xp_say *s, const struct wfw_xp_head *h)
{
	char lo[64];

	if (!h->nvalues) {
		fputs(s->metric, s->f);
		put_group(s, h);
		fputs(": no datapoints\n", s->f);
		return;
	}
	fprintf(s->f, "%s p%.10g", s->metric, h->pct);
	if (h->ntail) {
		fputs(" (", s->f);
		wfw_xp_say_value(s, h->thr);
		fputs(")", s->f);
	}
	fputs(" and above", s->f);
	put_group(s, h);
	if (!h->ntail) {
		fprintf(s->f, ": too few datapoints (%llu; p%.10g needs %.0f)\n",
			(unsigned long long)h->nvalues, h->pct,
			ceil(100 / (100 - h->pct) - 1e-9));
		return;
	}
	fprintf(s->f, ": %llu of %llu datapoints", (unsigned long long)h->ntail,
		(unsigned long long)h->nvalues);
	if (h->analysed < h->ntail)
		fprintf(s->f, " (the %llu largest analysed)", (unsigned long long)h->analysed);
	wfw_xp_value(lo, sizeof(lo), h->lo, s->decimals);
	fprintf(s->f, ", %s to ", lo);
	wfw_xp_say_value(s, h->hi);
	fputs("\n", s->f);
}

/* "78%", "<1%" for a share that rounds to 0 but is not, "-" for none. */
static void share(char *buf, size_t len, double sh)
{
	double p = 100 * sh;

	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p > 0 && p < 0.5)
		snprintf(buf, len, "<1%%");
	else if (p >= 99.5 && p < 100)
		snprintf(buf, len, ">99%%");
	else
		snprintf(buf, len, "%.0f%%", p);
}

/* " (median 41.2 us)", "~" when the median is estimated. */
static void put_median(const struct wfw_xp_say *s, const struct wfw_xp_cause *c)
{
	if (isnan(c->median))
		return;
	fprintf(s->f, " (median %s", c->estimated ? "~" : "");
	wfw_xp_say_value(s, c->median);
	fputs(")", s->f);
}

void wfw_xp_say_cat(const struct wfw_xp_say *s, int cat, const struct wfw_xp_catsum *cs)
{
	char sh[16] = "", label[WFW_XP_LABEL_MAX];

	if (cat == WFW_XP_OTHER && !cs->dominant)
		return;
	if (cat < WFW_XP_NCAT)
		share(sh, sizeof(sh), cs->share);
	fprintf(s->f, "  %-9s %4s", wfw_xp_labels[cat], sh);
	if (cs->dominant)
		fprintf(s->f, "  dominant in %llu", (unsigned long long)cs->dominant);
	/* one cause of the category's one name: nothing to tell apart */
	if (cs->ncauses == 1 && !cs->more_causes && (cat == WFW_XP_EXIT || cat == WFW_XP_NMI)) {
		put_median(s, &cs->cause[0]);
		fputs("\n", s->f);
		return;
	}
	for (size_t i = 0; i < cs->ncauses; i++) {
		const struct wfw_xp_cause *c = &cs->cause[i];

		wfw_xp_cause_label(label, sizeof(label), s->st, s->threads, c->name, c->pid);
		fprintf(s->f, "%s%s in %llu", i ? ", " : ": ", label, (unsigned long long)c->rows);
		put_median(s, c);
	}
	if (cs->more_causes)
		fprintf(s->f, ", and %llu more in %llu", (unsigned long long)cs->more_causes,
			(unsigned long long)cs->more_rows);
	fputs("\n", s->f);
}

static void put_counts(const struct wfw_xp_say *s, const struct wfw_xp_notes *n)
{
	char v[64];

	fputs("  counted in them:", s->f);
	for (int k = 0; k < WFW_XP_NCNT; k++) {
		const char *sep = k ? "," : "", *w = wfw_xp_count_words[k][1];

		if (n->col[k] && n->have[k]) {
			snprintf(v, sizeof(v), "%.0f", n->sum[k]);
			fprintf(s->f, "%s %s %s", sep, w, v);
		} else if (n->col[k]) {
			fprintf(s->f, "%s %s -", sep, w);
		} else {
			fprintf(s->f, "%s %s not available%s%s%s", sep, w, n->smi_why ? " (" : "",
				n->smi_why ? n->smi_why : "", n->smi_why ? ")" : "");
		}
	}
	fputs("\n", s->f);
}

void wfw_xp_say_notes(const struct wfw_xp_say *s, const struct wfw_xp_notes *n)
{
	if (n->none)
		fprintf(s->f, "  %llu without a breakdown (events lost%s%s), left out of the shares\n",
			(unsigned long long)n->none, n->lost ? "; info.yml attrib_lost: " : "",
			n->lost ? n->lost : "");
	if (n->broken)
		fprintf(s->f, "  %llu whose parts do not add up to %s, left out of the shares\n",
			(unsigned long long)n->broken, n->lattxt ? n->lattxt : s->metric);
	if (n->nocause)
		fprintf(s->f, "  %llu with a breakdown but no Cause\n", (unsigned long long)n->nocause);
	if (n->explained && (n->col[WFW_XP_CNT_IRQ] || n->col[WFW_XP_CNT_SWIRQ] ||
			     n->col[WFW_XP_CNT_NMI] || n->col[WFW_XP_CNT_SMI]))
		put_counts(s, n);
}

void wfw_xp_cat_order(const double share[WFW_XP_NCAT], int order[WFW_XP_NCAT])
{
	int n = 0;

	for (int i = 0; i < WFW_XP_NCAT; i++)
		if (wfw_xp_col_order[i] != WFW_XP_EXIT)
			order[n++] = wfw_xp_col_order[i];
	/* insertion sort of four: stable, so ties keep the identity's order */
	for (int i = 1; i < n; i++)
		for (int j = i; j && share[order[j]] > share[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	order[n] = WFW_XP_EXIT;
}
