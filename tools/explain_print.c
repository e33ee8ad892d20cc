/* SPDX-License-Identifier: MIT */
/*
 * calc --explain in plain words (doc/attribution.md, "calc --explain"):
 * per group, the tail's share of each part of the latency with the causes
 * that dominated its rows, then the largest datapoint taken apart; on
 * stderr, what the whole file holds that the analysis left out. Text
 * from the file (names, comms) is escaped for the terminal.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_impl.h"
#include "stats/cstate.h"
#include "stats/report.h"
#include "stats/table.h"

/* Causes named on a category's line; the rest are counted. */
#define SHOWN_CAUSES 3

static void esc(char *buf, size_t len, const char *s)
{
	wfw_xp_escape(buf, len, s ? s : "-");
}

/*
 * Thousandths of the unit, shown in the unit with four digits or so
 * (1904.2, 312.4, 20.99, 1.000), never more decimals than the data has.
 */
static void val(const struct xres *x, char *buf, size_t len, double milli)
{
	double v = milli / 1000.0, a = fabs(v);
	int dec = a >= 99.95 ? 1 : a >= 9.995 ? 2 : 3;

	wfw_fmt_value(buf, len, v, dec < x->decimals ? dec : x->decimals);
}

static const char *sp_unit(const struct xres *x)
{
	return x->unit[0] ? " " : "";
}

static void share(char *buf, size_t len, double part, double whole)
{
	double s = whole > 0 ? 100 * part / whole : NAN;

	if (isnan(s))
		snprintf(buf, len, "-");
	else if (s > 0 && s < 0.5)
		snprintf(buf, len, "<1%%");
	else if (s >= 99.5 && s < 100)
		snprintf(buf, len, ">99%%");
	else
		snprintf(buf, len, "%.0f%%", s);
}

/* A cause as the text shows it: its name, a thread by comm and pid. */
static void cause_label(const struct xres *x, uint64_t key, char *buf, size_t len)
{
	const char *name = key & XKEY_THREAD ? "thread" : x->names[key - 1];

	wfw_xp_cause_label(buf, len, WFW_XP_TERMINAL, &x->th.t, name, xkey_pid(key));
}

/* " (median 41.2 us)", "~" when the median is estimated. */
static void print_median(const struct xres *x, struct xcause *c)
{
	char v[40];

	if (c->cat >= WFW_XP_NCAT || !c->acc.n)
		return;
	val(x, v, sizeof(v), wfw_acc_percentile(&c->acc, 50));
	printf(" (median %s%s%s%s)", wfw_acc_exact(&c->acc) ? "" : "~", v, sp_unit(x), x->unit);
}

/* "dominant in N: cause in n (median ...), ..., and K more in M". */
static void print_causes(const struct xres *x, struct xcause **cs, size_t n, int cat)
{
	uint64_t dom = 0, rest = 0;
	char label[400];

	for (size_t i = 0; i < n; i++)
		dom += cs[i]->n;
	if (!dom)
		return;
	printf("  dominant in %llu", (unsigned long long)dom);
	/* one cause of the category's one name: nothing to tell apart */
	if (n == 1 && (cat == WFW_XP_EXIT || cat == WFW_XP_NMI)) {
		print_median(x, cs[0]);
		return;
	}
	for (size_t i = 0; i < n && i < SHOWN_CAUSES; i++) {
		cause_label(x, cs[i]->key, label, sizeof(label));
		printf("%s%s in %llu", i ? ", " : ": ", label, (unsigned long long)cs[i]->n);
		print_median(x, cs[i]);
	}
	for (size_t i = SHOWN_CAUSES; i < n; i++)
		rest += cs[i]->n;
	if (n > SHOWN_CAUSES)
		printf(", and %zu more in %llu", n - SHOWN_CAUSES, (unsigned long long)rest);
}

static int print_category(struct xres *x, struct xtail *t, int cat)
{
	struct xcause **cs;
	size_t n = xtail_sorted(t, x->names, cat, &cs);
	char s[16] = "";

	if (!cs)
		return -ENOMEM;
	if (cat == WFW_XP_OTHER && !n) {
		free(cs);
		return 0;
	}
	if (cat < WFW_XP_NCAT)
		share(s, sizeof(s), t->sum_t[cat], t->sum_lat);
	printf("  %-9s %4s", wfw_xp_labels[cat], s);
	print_causes(x, cs, n, cat);
	putchar('\n');
	free(cs);
	return 0;
}

/* What of the tail is not in the shares, and the counts of its rows. */
static void print_tail_notes(const struct xres *x, const struct xtail *t)
{
	char v[64];

	if (t->none)
		printf("  %llu without a breakdown (events lost%s%s), left out of the shares\n",
		       (unsigned long long)t->none, x->lost ? "; info.yml attrib_lost: " : "",
		       x->lost ? x->lost : "");
	if (t->broken)
		printf("  %llu whose parts do not add up to %s, left out of the shares\n",
		       (unsigned long long)t->broken, x->lattxt);
	if (t->nocause)
		printf("  %llu with a breakdown but no Cause\n", (unsigned long long)t->nocause);
	if (!t->nb)
		return;
	printf("  counted in them:");
	for (int k = 0; k < WFW_XP_NCNT; k++) {
		if (x->cnt[k] >= 0 && t->n_cnt[k]) {
			wfw_fmt_value(v, sizeof(v), t->sum_cnt[k], 0);
			printf("%s %s %s", k ? "," : "", wfw_xp_count_words[k][1], v);
		} else if (x->cnt[k] >= 0) {
			printf("%s %s -", k ? "," : "", wfw_xp_count_words[k][1]);
		} else {
			printf("%s %s not available%s%s%s", k ? "," : "", wfw_xp_count_words[k][1],
			       x->smi_why ? " (" : "", x->smi_why ? x->smi_why : "",
			       x->smi_why ? ")" : "");
		}
	}
	putchar('\n');
}

/* "IRQ 1711.0 us (2 IRQs), idle exit 150.1 us": the parts, largest first. */
static void print_parts(const struct xres *x, const struct xrow *r)
{
	static const int cnt_of[WFW_XP_NCAT] = {
		[WFW_XP_IRQ] = WFW_XP_CNT_IRQ, [WFW_XP_SOFTIRQ] = WFW_XP_CNT_SWIRQ,
		[WFW_XP_NMI] = WFW_XP_CNT_NMI, [WFW_XP_THREAD] = -1, [WFW_XP_EXIT] = -1,
	};
	int order[WFW_XP_NCAT], n = 0;
	char v[40];

	for (int i = 0; i < WFW_XP_NCAT; i++)
		if (r->t[wfw_xp_col_order[i]] > 0)
			order[n++] = wfw_xp_col_order[i];
	for (int i = 1; i < n; i++)
		for (int j = i; j && r->t[order[j]] > r->t[order[j - 1]]; j--) {
			int s = order[j];

			order[j] = order[j - 1];
			order[j - 1] = s;
		}
	for (int i = 0; i < n; i++) {
		int k = order[i], c = cnt_of[k];

		val(x, v, sizeof(v), (double)r->t[k]);
		printf("%s%s %s%s%s", i ? ", " : " ", wfw_xp_labels[k], v, sp_unit(x), x->unit);
		if (c >= 0 && r->cnt[c] >= 0)
			printf(" (%lld %s)", (long long)r->cnt[c], wfw_xp_count_words[c][r->cnt[c] != 1]);
	}
	if (!n)
		printf(" nothing");
	if (r->cnt[WFW_XP_CNT_SMI] > 0)
		printf(", %lld %s (their time is in the idle exit)", (long long)r->cnt[WFW_XP_CNT_SMI],
		       wfw_xp_count_words[WFW_XP_CNT_SMI][r->cnt[WFW_XP_CNT_SMI] != 1]);
}

static void print_max(const struct xres *x, const struct xgroup *g)
{
	const struct xmax *m = &g->max;
	char v[40], s[300], c[300];
	uint64_t key;

	if (!m->have)
		return;
	val(x, v, sizeof(v), (double)m->r.lat);
	printf("max: %s%s%s, row %llu", v, sp_unit(x), x->unit, (unsigned long long)m->r.row);
	if (x->scol >= 0) {
		esc(s, sizeof(s), m->state);
		esc(c, sizeof(c), x->scolname);
		printf(", %s %s", c, s);
	}
	putchar(':');
	if (m->r.kind == XROW_NONE) {
		printf(" no breakdown (events lost)\n");
		return;
	}
	if (m->r.kind == XROW_BROKEN) {
		printf(" its parts do not add up to its %s\n", x->lattxt);
		return;
	}
	print_parts(x, &m->r);
	if (!m->cause) {
		printf("; no Cause\n");
		return;
	}
	/* the pid as a thread cause's key holds it */
	key = XKEY_THREAD | (m->r.pid >= 0 ? (uint64_t)m->r.pid : XKEY_NOPID);
	wfw_xp_cause_label(c, sizeof(c), WFW_XP_TERMINAL, &x->th.t, m->cause, xkey_pid(key));
	printf("; dominant %s\n", c);
}

static void print_header(const struct xres *x, const struct xgroup *g, bool all)
{
	char p[32], name[300], col[300], thr[40], lo[40], hi[40];
	const char *u = x->unit, *sp = sp_unit(x);

	wfw_report_pct_label(p, sizeof(p), x->c->explain_pct);
	esc(name, sizeof(name), g->name);
	esc(col, sizeof(col), x->scolname);
	if (!all)
		snprintf(col + strlen(col), sizeof(col) - strlen(col), " %s", name);
	if (!g->tail.n) {
		printf("%s%s%s: no datapoints\n", x->lattxt, all ? "" : " in ", all ? "" : col);
		return;
	}
	val(x, thr, sizeof(thr), xr_value(&g->rank, g->tail.min));
	val(x, lo, sizeof(lo), (double)g->tail.min);
	val(x, hi, sizeof(hi), (double)g->tail.max);
	printf("%s p%s (%s%s%s) and above%s%s: %llu of %llu datapoints, %s to %s%s%s\n",
	       x->lattxt, p, thr, sp, u, all ? "" : " in ", all ? "" : col,
	       (unsigned long long)g->tail.n, (unsigned long long)g->n, lo, hi, sp, u);
}

static int print_group(struct xres *x, struct xgroup *g, bool all)
{
	int order[WFW_XP_NCAT], ret = 0;

	print_header(x, g, all);
	if (!g->tail.n)
		return 0;
	xtail_order(&g->tail, order);
	for (int k = 0; k < WFW_XP_NCAT && !ret && g->tail.nb; k++)
		ret = print_category(x, &g->tail, order[k]);
	if (!ret && g->tail.nb)
		ret = print_category(x, &g->tail, WFW_XP_OTHER);
	print_tail_notes(x, &g->tail);
	print_max(x, g);
	return ret;
}

size_t *xgroup_order(const struct xres *x)
{
	size_t *o = malloc(x->ng * sizeof(*o));

	for (size_t i = 0; o && i < x->ng; i++)
		o[i] = i;
	for (size_t i = 2; o && i < x->ng; i++)	/* o[0] is all */
		for (size_t j = i; j > 1 && wfw_cstate_cmp(x->g[o[j]].name, x->g[o[j - 1]].name) < 0; j--) {
			size_t s = o[j];

			o[j] = o[j - 1];
			o[j - 1] = s;
		}
	return o;
}

int xprint_text(struct xres *x, bool first)
{
	size_t *o = xgroup_order(x);
	char a[300];
	int ret = o ? 0 : -ENOMEM;

	if (x->c->nres > 1) {
		esc(a, sizeof(a), x->r->arg);
		printf("%s== %s ==\n", first ? "" : "\n", a);
	} else if (!first) {
		putchar('\n');
	}
	for (size_t i = 0; i < x->ng && !ret; i++) {
		if (i)
			putchar('\n');
		ret = print_group(x, &x->g[o[i]], !o[i]);
	}
	free(o);
	return ret;
}

/* ---- stderr: the file as a whole ---- */

static int cmp_pid(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Thread causes whose pid the threads file does not name, over every tail. */
static void pid_notes(const struct xres *x)
{
	int64_t *pid = NULL;
	size_t n = 0, cap = 0, k = 0;

	for (size_t g = 0; g < x->ng; g++)
		for (size_t i = 0; i < x->g[g].tail.ncauses; i++) {
			const struct xcause *c = &x->g[g].tail.causes[i];
			int64_t p = xkey_pid(c->key);

			if (c->cat != WFW_XP_THREAD || p < 0 || wfw_xp_comm(&x->th.t, p))
				continue;
			if (xgrow(&pid, &cap, n + 1, sizeof(*pid)))
				break;
			pid[n++] = p;
		}
	if (n)	/* qsort() takes no NULL, even for nothing */
		qsort(pid, n, sizeof(*pid), cmp_pid);
	for (size_t i = 0; i < n; i++)
		if (!k || pid[k - 1] != pid[i])
			pid[k++] = pid[i];
	if (k && !x->th.found)
		fprintf(stderr, "wultfw calc: %s: no %s beside it: threads are shown by pid\n",
			x->r->path, WFW_XP_THREADS_FILE);
	else if (k == 1 && !x->th.err[0])
		fprintf(stderr, "wultfw calc: %s: no line for CausePID %lld: shown by pid\n",
			x->th.path, (long long)pid[0]);
	else if (k && !x->th.err[0])
		fprintf(stderr, "wultfw calc: %s: no line for CausePID %lld and %zu more: "
			"shown by pid\n", x->th.path, (long long)pid[0], k - 1);
	free(pid);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

void xnotes(struct xres *x)
{
	const char *p = x->r->path;

	if (x->c->include || x->c->exclude)
		fprintf(stderr, "wultfw calc: %s: %llu of %llu rows selected\n", p,
			(unsigned long long)x->kept, (unsigned long long)x->rows);
	if (x->nolat)
		fprintf(stderr, "wultfw calc: %s: %llu row%s without a %s value, left out\n", p,
			(unsigned long long)x->nolat, plural(x->nolat), x->lattxt);
	if (x->none)
		fprintf(stderr, "wultfw calc: %s: %llu row%s without a breakdown (events lost%s%s): "
			"counted, not explained\n", p, (unsigned long long)x->none, plural(x->none),
			x->lost ? "; info.yml attrib_lost: " : "", x->lost ? x->lost : "");
	if (x->broken)
		fprintf(stderr, "wultfw calc: %s: %llu row%s break%s IRQTime + SoftIRQTime + NMITime + "
			"ThreadTime + ExitTime == %s (the first: row %llu): counted, not explained\n",
			p, (unsigned long long)x->broken, plural(x->broken),
			x->broken == 1 ? "s" : "", x->lattxt, (unsigned long long)x->first_broken);
	if (x->th.err[0])
		fprintf(stderr, "wultfw calc: %s\n", x->th.err);
	pid_notes(x);
}
