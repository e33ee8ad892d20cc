/* SPDX-License-Identifier: MIT */
/* The tail's max line (words.h): the largest datapoint taken apart. */
#include "config.h"

#include <math.h>

#include "explain/words.h"

/* "IRQ 1711.0 us (2 IRQs), idle exit 150.1 us": the parts, largest first. */
static void put_parts(const struct wfw_xp_say *s, const struct wfw_xp_max *m)
{
	static const int cnt_of[WFW_XP_NCAT] = {
		[WFW_XP_IRQ] = WFW_XP_CNT_IRQ, [WFW_XP_SOFTIRQ] = WFW_XP_CNT_SWIRQ,
		[WFW_XP_NMI] = WFW_XP_CNT_NMI, [WFW_XP_THREAD] = -1, [WFW_XP_EXIT] = -1,
	};
	int order[WFW_XP_NCAT], n = 0;
	double smi = m->cnt[WFW_XP_CNT_SMI];

	for (int i = 0; i < WFW_XP_NCAT; i++)
		if (m->t[wfw_xp_col_order[i]] > 0)
			order[n++] = wfw_xp_col_order[i];
	/* stable: ties keep the identity's order */
	for (int i = 1; i < n; i++)
		for (int j = i; j && m->t[order[j]] > m->t[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		int k = order[i], c = cnt_of[k];

		fprintf(s->f, "%s%s ", i ? ", " : " ", wfw_xp_labels[k]);
		wfw_xp_say_value(s, m->t[k]);
		if (c >= 0 && !isnan(m->cnt[c]))
			fprintf(s->f, " (%.0f %s)", m->cnt[c], wfw_xp_count_words[c][m->cnt[c] != 1]);
	}
	if (!n)
		fputs(" nothing", s->f);
	if (smi > 0)
		fprintf(s->f, ", %.0f %s (their time is in the idle exit)", smi,
			wfw_xp_count_words[WFW_XP_CNT_SMI][smi != 1]);
}

void wfw_xp_say_max(const struct wfw_xp_say *s, const struct wfw_xp_max *m)
{
	char buf[WFW_XP_LABEL_MAX];

	fputs("max: ", s->f);
	wfw_xp_say_value(s, m->lat);
	fprintf(s->f, ", row %llu", (unsigned long long)m->row);
	if (m->state_col) {
		fprintf(s->f, ", %s ", m->state_col);
		wfw_xp_say_name(s, m->state);
	}
	fputs(":", s->f);
	if (m->kind == WFW_XP_MAX_NONE) {
		fputs(" no breakdown (events lost)\n", s->f);
		return;
	}
	if (m->kind == WFW_XP_MAX_BROKEN) {
		fprintf(s->f, " its parts do not add up to its %s\n", s->metric);
		return;
	}
	put_parts(s, m);
	if (!m->cause) {
		fputs("; no Cause\n", s->f);
		return;
	}
	wfw_xp_cause_label(buf, sizeof(buf), s->st, s->threads, m->cause, m->pid);
	fprintf(s->f, "; dominant %s\n", buf);
}
