/* SPDX-License-Identifier: MIT */
/*
 * The report's words of a tail (explain.h): its analysis handed to the
 * one composer of them (words.h), as calc's text hands its own.
 */
#include "config.h"

#include <math.h>

#include "explain/words.h"

static void put_max(const struct wfw_xp_say *s, const struct wfw_xp_in *in,
		    const struct wfw_xp_row *r)
{
	struct wfw_xp_max m = { .lat = r->lat, .row = r->row + 1,	/* as calc numbers it */
				.state_col = in->group_col ? in->group_col : "ReqCState",
				.state = r->cstate, .cause = r->cause, .pid = r->pid,
				.kind = wfw_xp_explained(r) ? WFW_XP_MAX_OK : WFW_XP_MAX_NONE };

	for (int c = 0; c < WFW_XP_NCAT; c++)
		m.t[c] = r->t[c];
	for (int k = 0; k < WFW_XP_NCNT; k++)
		m.cnt[k] = in->cnt_cols[k] ? r->cnt[k] : NAN;
	wfw_xp_say_max(s, &m);
}

static void put_notes(const struct wfw_xp_say *s, const struct wfw_xp_in *in,
		      const struct wfw_xp_analysis *a)
{
	struct wfw_xp_notes n = { .none = a->unexplained, .nocause = a->nocause,
				  .explained = a->rows, .smi_why = in->smi_why,
				  .lost = in->lost };

	for (int k = 0; k < WFW_XP_NCNT; k++) {
		n.col[k] = in->cnt_cols[k];
		n.have[k] = a->have_cnt[k];
		n.sum[k] = a->sum_cnt[k];
	}
	wfw_xp_say_notes(s, &n);
}

void wfw_xp_print_analysis(FILE *f, const struct wfw_xp_in *in,
			   const struct wfw_xp_analysis *a)
{
	struct wfw_xp_say s = { .f = f, .st = WFW_XP_PAGE, .threads = in->threads,
				.metric = in->metric, .unit = in->unit,
				.decimals = in->decimals ? in->decimals : 3 };
	struct wfw_xp_head h = { .pct = in->pct, .thr = in->thr, .group_col = in->group_col,
				 .group = in->group, .nvalues = in->nvalues, .ntail = in->ntail,
				 .analysed = in->n, .lo = a->lo, .hi = a->hi };
	double share[WFW_XP_NCAT];
	int order[WFW_XP_NCAT];

	wfw_xp_say_head(&s, &h);
	if (!in->ntail) {
		if (in->max)
			put_max(&s, in, in->max);
		return;
	}
	for (int c = 0; c < WFW_XP_NCAT; c++)
		share[c] = a->rows ? a->cat[c].share : NAN;
	wfw_xp_cat_order(share, order);
	for (int c = 0; a->rows && c < WFW_XP_NCAT; c++)
		wfw_xp_say_cat(&s, order[c], &a->cat[order[c]]);
	if (a->rows)
		wfw_xp_say_cat(&s, WFW_XP_OTHER, &a->cat[WFW_XP_OTHER]);
	put_notes(&s, in, a);
	if (in->max)
		put_max(&s, in, in->max);
}

int wfw_xp_print(FILE *f, const struct wfw_xp_in *in)
{
	struct wfw_xp_analysis a;
	int ret = wfw_xp_analyse(in, &a);

	if (!ret)
		wfw_xp_print_analysis(f, in, &a);
	return ret;
}
