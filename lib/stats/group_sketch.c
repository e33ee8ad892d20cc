/* SPDX-License-Identifier: MIT */
/*
 * When a statset's groups take sketches instead of histograms (statset.h):
 * decided from the count of groups, before the memory runs out, not when
 * it has.
 */
#include "config.h"

#include <errno.h>

#include "stats/acc_sketch.h"
#include "stats/hist.h"
#include "stats/statset.h"

/* A histogram for every group and metric would take over this share. */
#define SKETCH_SHARE_DEN 4

static bool too_many(const struct wfw_statset *s)
{
	double need = (double)s->ngroups * (double)s->nmetrics * sizeof(struct wfw_hist);

	return s->gcol >= 0 && s->mem_limit &&
	       need > (double)s->mem_limit / SKETCH_SHARE_DEN;
}

int wfw_statset_choose_sketch(struct wfw_statset *s)
{
	if (s->sketch || !too_many(s))
		return 0;
	s->sketch = true;
	for (size_t m = 0; m < s->nmetrics; m++)
		s->pool[m].sketch = true;
	for (size_t i = 0; i < s->nmetrics * s->gcap; i++)
		if (s->acc[i].hist && wfw_acc_to_sketch(&s->acc[i]))
			return -ENOMEM;
	return 0;
}

size_t wfw_statset_sketched(const struct wfw_statset *s)
{
	size_t n = 0;

	for (size_t g = 0; g < s->ngroups; g++) {
		bool any = false;

		for (size_t m = 0; m < s->nmetrics && !any; m++)
			any = wfw_statset_acc(s, m, g)->sketch;
		n += any;
	}
	return n;
}
