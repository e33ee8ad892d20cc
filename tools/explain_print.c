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
#include "explain/words.h"
#include "stats/cstate.h"
#include "stats/report.h"
#include "stats/table.h"

static void esc(char *buf, size_t len, const char *s)
{
	wfw_xp_escape(buf, len, s ? s : "-");
}

/* Where calc's words go; they are lib/explain's (words.h). */
static struct wfw_xp_say say_of(const struct xres *x)
{
	return (struct wfw_xp_say){ .f = stdout, .st = WFW_XP_TERMINAL, .threads = &x->th.t,
				    .metric = x->lattxt, .unit = x->unit, .decimals = x->decimals };
}

/* A category's causes, most rows first, into cs: WFW_XP_CAUSES named. */
static int category(struct xres *x, struct xtail *t, int cat, struct wfw_xp_catsum *sum)
{
	struct xcause **cs;
	size_t n = xtail_sorted(t, x->names, cat, &cs);

	if (!cs)
		return -ENOMEM;
	memset(sum, 0, sizeof(*sum));
	sum->share = cat < WFW_XP_NCAT && t->sum_lat > 0 ? t->sum_t[cat] / t->sum_lat : NAN;
	for (size_t i = 0; i < n; i++) {
		uint64_t key = cs[i]->key;
		struct wfw_xp_cause *c = &sum->cause[sum->ncauses];

		sum->dominant += cs[i]->n;
		if (i >= WFW_XP_CAUSES) {
			sum->more_causes++;
			sum->more_rows += cs[i]->n;
			continue;
		}
		*c = (struct wfw_xp_cause){ .rows = cs[i]->n, .pid = xkey_pid(key), .median = NAN,
					    .name = key & XKEY_THREAD ? "thread" : x->names[key - 1] };
		if (cat < WFW_XP_NCAT && cs[i]->acc.n) {
			c->median = wfw_acc_percentile(&cs[i]->acc, 50) / 1000.0;
			c->estimated = !wfw_acc_exact(&cs[i]->acc);
		}
		sum->ncauses++;
	}
	free(cs);
	return 0;
}

static int print_category(struct xres *x, struct xtail *t, int cat)
{
	struct wfw_xp_say s = say_of(x);
	struct wfw_xp_catsum sum;
	int ret = category(x, t, cat, &sum);

	if (!ret)
		wfw_xp_say_cat(&s, cat, &sum);
	return ret;
}

/* What of the tail is not in the shares, and the counts of its rows. */
static void print_tail_notes(const struct xres *x, const struct xtail *t)
{
	struct wfw_xp_say s = say_of(x);
	struct wfw_xp_notes n = { .none = t->none, .broken = t->broken, .nocause = t->nocause,
				  .lost = x->lost, .lattxt = x->lattxt, .explained = t->nb,
				  .smi_why = x->smi_why };

	for (int k = 0; k < WFW_XP_NCNT; k++) {
		n.col[k] = x->cnt[k] >= 0;
		n.have[k] = t->n_cnt[k];
		n.sum[k] = t->sum_cnt[k];
	}
	wfw_xp_say_notes(&s, &n);
}

static void print_max(const struct xres *x, const struct xgroup *g)
{
	const struct xmax *mx = &g->max;
	struct wfw_xp_say s = say_of(x);
	struct wfw_xp_max m;
	char col[300];

	if (!mx->have)
		return;
	esc(col, sizeof(col), x->scolname);
	m = (struct wfw_xp_max){ .lat = (double)mx->r.lat / 1000.0, .row = mx->r.row,
				 .state_col = x->scol >= 0 ? col : NULL, .state = mx->state,
				 .cause = mx->cause, .pid = mx->r.pid,
				 .kind = mx->r.kind == XROW_NONE ? WFW_XP_MAX_NONE :
					 mx->r.kind == XROW_BROKEN ? WFW_XP_MAX_BROKEN : WFW_XP_MAX_OK };
	for (int c = 0; c < WFW_XP_NCAT; c++)
		m.t[c] = (double)mx->r.t[c] / 1000.0;
	for (int k = 0; k < WFW_XP_NCNT; k++)
		m.cnt[k] = mx->r.cnt[k] >= 0 ? (double)mx->r.cnt[k] : NAN;
	wfw_xp_say_max(&s, &m);
}

static void print_header(const struct xres *x, const struct xgroup *g, bool all)
{
	struct wfw_xp_say s = say_of(x);
	char col[300];
	struct wfw_xp_head h = { .pct = x->c->explain_pct, .nvalues = g->n, .ntail = g->tail.n,
				 .analysed = g->tail.n, .group_col = all ? NULL : col,
				 .group = all ? NULL : g->name };

	esc(col, sizeof(col), x->scolname);
	if (g->tail.n) {
		h.thr = xr_value(&g->rank, g->tail.min) / 1000.0;
		h.lo = (double)g->tail.min / 1000.0;
		h.hi = (double)g->tail.max / 1000.0;
	}
	wfw_xp_say_head(&s, &h);
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
	wfw_seen_warn(&x->r->seen, "calc", p, stderr);
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
