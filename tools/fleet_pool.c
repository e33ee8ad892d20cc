/* SPDX-License-Identifier: MIT */
/*
 * The fleet's pooled reference (calc.h, struct group_pool): every SUT's
 * datapoints as one distribution, per C-state. Each SUT's statistics are
 * merged into the first's as calc merges the parts of one file, which
 * needs the same columns in the same places: the same experiment run by
 * the same wultfw has them; where a SUT's file differs the pooled rows
 * are left out and the table says why.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/grouptab.h"
#include "tools/calc.h"

/* Why set cannot be merged into the pool, or NULL. */
static const char *unlike(const struct group_pool *p, const struct wfw_statset *set)
{
	const struct wultfw_column *a = wfw_statset_metric(&p->set, 0),
				   *b = wfw_statset_metric(set, 0);

	if (set->nmetrics != 1 || p->set.nmetrics != 1 || set->mcol[0] != p->set.mcol[0] ||
	    strcmp(a->name, b->name))
		return "its metric column is elsewhere in its file";
	if (strcmp(a->unit ? a->unit : "", b->unit ? b->unit : ""))
		return "its metric has another unit";
	if ((set->gcol < 0) != (p->set.gcol < 0) || set->gcol != p->set.gcol)
		return "its ReqCState column is elsewhere, or missing";
	return NULL;
}

bool group_pool_add(struct group_pool *p, struct wfw_statset *set, struct wfw_reader *rd,
		    const char *label)
{
	const char *why;
	int ret;

	if (p->off)
		return false;
	if (!p->have) {
		p->set = *set;
		p->rd = rd;
		p->have = true;
		return true;
	}
	why = unlike(p, set);
	ret = why ? 0 : wfw_statset_merge(&p->set, set);
	if (why || ret) {
		snprintf(p->why, sizeof(p->why), "SUT %s's file cannot be pooled with the first's (%s)",
			 label, why ? why : ret == -ENOMEM ? "out of memory" :
			 "a column holds text in one and numbers in the other");
		p->off = true;
	}
	return false;
}

/* The raw group of set named state with datapoints, or SIZE_MAX. */
static size_t group_named(const struct wfw_statset *set, const char *state)
{
	for (size_t g = 0; g < set->ngroups; g++)
		if (wfw_statset_group_count(set, g) &&
		    !strcmp(wfw_statset_group_name(set, g), state))
			return g;
	return SIZE_MAX;
}

int group_pool_rows(struct group_pool *p, struct wfw_grouptab *t)
{
	const char *states[64];
	size_t n = wfw_grouptab_states(t, states, 64);
	struct wfw_grouptab_row row;
	int ret = 0;

	if (p->off || !p->have) {
		snprintf(t->pooled_note, sizeof(t->pooled_note), "%s",
			 p->off ? p->why : "no datapoints");
		return 0;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		bool all = !strcmp(states[i], "all");
		size_t g = all ? SIZE_MAX : group_named(&p->set, states[i]);

		if (!all && g == SIZE_MAX)
			continue;
		ret = group_summary_row(&p->set, "pooled", g, &row);
		if (!ret)
			ret = wfw_grouptab_add_pooled(t, &row);
	}
	return ret;
}

void group_pool_free(struct group_pool *p)
{
	if (p->have) {
		wfw_statset_free(&p->set);
		wfw_reader_close(p->rd);
	}
	memset(p, 0, sizeof(*p));
}
