/* SPDX-License-Identifier: MIT */
/* A latency's tail in numbers: category shares and dominant causes. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"

const char *const wfw_xp_time_cols[WFW_XP_NCAT] = {
	"IRQTime", "SoftIRQTime", "ThreadTime", "NMITime", "ExitTime",
};
const char *const wfw_xp_labels[WFW_XP_NCAT + 1] = {
	"IRQ", "softirq", "thread", "NMI", "idle exit", "other",
};
const char *const wfw_xp_json[WFW_XP_NCAT + 1] = {
	"irq", "softirq", "thread", "nmi", "idle-exit", "other",
};
const int wfw_xp_col_order[WFW_XP_NCAT] = {
	WFW_XP_IRQ, WFW_XP_SOFTIRQ, WFW_XP_NMI, WFW_XP_THREAD, WFW_XP_EXIT,
};
const char *const wfw_xp_count_cols[WFW_XP_NCNT] = {
	"IRQCnt", "SWIRQCnt", "NMICnt", "SMICnt",
};
const char *const wfw_xp_count_words[WFW_XP_NCNT][2] = {
	{ "IRQ", "IRQs" }, { "softirq", "softirqs" }, { "NMI", "NMIs" }, { "SMI", "SMIs" },
};

int wfw_xp_cause_cat(const char *cause)
{
	if (!cause)
		return WFW_XP_OTHER;
	if (!strncmp(cause, "irq:", 4) && cause[4])
		return WFW_XP_IRQ;
	if (!strncmp(cause, "softirq:", 8) && cause[8])
		return WFW_XP_SOFTIRQ;
	if (!strcmp(cause, "thread"))
		return WFW_XP_THREAD;
	if (!strcmp(cause, "nmi"))
		return WFW_XP_NMI;
	if (!strcmp(cause, "idle-exit"))
		return WFW_XP_EXIT;
	return WFW_XP_OTHER;
}

/* One explained tail row with a known cause: its category, for sorting. */
struct keyed {
	const struct wfw_xp_row *r;
	int cat;
};

/* The same cause: one name (and for a thread, one pid). */
static int cmp_cause(const struct keyed *a, const struct keyed *b)
{
	int d = strcmp(a->r->cause, b->r->cause);

	if (a->cat != b->cat)
		return a->cat < b->cat ? -1 : 1;
	if (d || a->cat != WFW_XP_THREAD || a->r->pid == b->r->pid)
		return d;
	return a->r->pid < b->r->pid ? -1 : 1;
}

static int cmp_keyed(const void *pa, const void *pb)
{
	return cmp_cause(pa, pb);
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

/* The median of category `cat`'s time over k[0..n) (the same cause). */
static double cause_median(const struct keyed *k, size_t n, int cat, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = k[i].r->t[cat];
	if (n > 1)	/* qsort() takes no NULL, even for nothing */
		qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/*
 * A run of one cause: named among the category's WFW_XP_CAUSES largest
 * (more rows first, then the name's order), or counted as "more".
 */
static void add_cause(struct wfw_xp_catsum *cs, const struct keyed *k,
		      size_t n, double *tmp)
{
	struct wfw_xp_cause c = { .name = k->r->cause, .pid = k->r->pid, .rows = n,
				  .median = k->cat < WFW_XP_NCAT ? cause_median(k, n, k->cat, tmp) : NAN };
	size_t at = cs->ncauses;

	while (at > 0 && cs->cause[at - 1].rows < c.rows)
		at--;
	if (at == WFW_XP_CAUSES) {
		cs->more_causes++;
		cs->more_rows += n;
		return;
	}
	if (cs->ncauses == WFW_XP_CAUSES) {	/* the last one drops out */
		cs->more_causes++;
		cs->more_rows += cs->cause[WFW_XP_CAUSES - 1].rows;
		cs->ncauses--;
	}
	memmove(&cs->cause[at + 1], &cs->cause[at], (cs->ncauses - at) * sizeof(c));
	cs->cause[at] = c;
	cs->ncauses++;
}

/* The dominant causes of k[0..n), sorted by cause. */
static void add_causes(struct wfw_xp_analysis *a, struct keyed *k, size_t n,
		       double *tmp)
{
	size_t i = 0;

	if (n > 1)	/* qsort() takes no NULL, even for nothing */
		qsort(k, n, sizeof(*k), cmp_keyed);
	while (i < n) {
		size_t j = i + 1;

		while (j < n && !cmp_cause(&k[i], &k[j]))
			j++;
		a->cat[k[i].cat].dominant += j - i;
		add_cause(&a->cat[k[i].cat], &k[i], j - i, tmp);
		i = j;
	}
}

/* Sums, extremes and the rows with a known cause (into k, *nk of them). */
static double sum_rows(const struct wfw_xp_in *in, struct wfw_xp_analysis *a,
		       struct keyed *k, size_t *nk)
{
	double total = 0;

	a->lo = INFINITY;
	a->hi = -INFINITY;
	for (size_t i = 0; i < in->n; i++) {
		const struct wfw_xp_row *r = &in->rows[i];
		int cat = wfw_xp_cause_cat(r->cause);

		a->lo = fmin(a->lo, r->lat);
		a->hi = fmax(a->hi, r->lat);
		if (!wfw_xp_explained(r)) {
			a->unexplained++;
			continue;
		}
		a->rows++;
		total += r->lat;
		for (int c = 0; c < WFW_XP_NCAT; c++)
			a->cat[c].time += r->t[c];
		for (int c = 0; c < WFW_XP_NCNT; c++)
			if (!isnan(r->cnt[c])) {
				a->have_cnt[c]++;
				a->sum_cnt[c] += r->cnt[c];
			}
		if (r->cause)
			k[(*nk)++] = (struct keyed){ .r = r, .cat = cat };
		else
			a->nocause++;
	}
	return total;
}

int wfw_xp_analyse(const struct wfw_xp_in *in, struct wfw_xp_analysis *a)
{
	struct keyed *k = malloc((in->n ? in->n : 1) * sizeof(*k));
	double *tmp = malloc((in->n ? in->n : 1) * sizeof(*tmp));
	size_t nk = 0;
	double total;

	memset(a, 0, sizeof(*a));
	if (!k || !tmp) {
		free(k);
		free(tmp);
		return -ENOMEM;
	}
	total = sum_rows(in, a, k, &nk);
	for (int c = 0; c < WFW_XP_NCAT; c++)
		a->cat[c].share = total > 0 ? a->cat[c].time / total : 0;
	add_causes(a, k, nk, tmp);
	free(k);
	free(tmp);
	return 0;
}
