/* SPDX-License-Identifier: MIT */
/*
 * Sink options that name the source's columns (the stats sink's group_by,
 * metrics, ...), checked against the columns the source declares when the
 * file is loaded, and against those it gives when --check opens it: a
 * typo is said at its line, with a did-you-mean, before a run starts (and
 * fails at its start, leaving a failed result directory behind).
 */
#ifndef WFW_SINKCOLS_H
#define WFW_SINKCOLS_H

#include <wultfw/plugin.h>

#include "cfgerr.h"
#include "experiment.h"

/* Against the source descriptor's `columns` (none declared: nothing). */
void wfw_sinkcols_check(const struct wfw_experiment *e, struct wfw_cfgerr *errs);
/* Against the schema the source gave when it opened here: warnings. */
void wfw_sinkcols_check_schema(const struct wfw_experiment *e,
			       const struct wultfw_schema *s,
			       struct wfw_cfgerr *warns);

/*
 * A run, once the source is open: every problem as an error, before the
 * result directory is made; -EINVAL when there was one.
 */
int wfw_sinkcols_refuse(const struct wfw_experiment *e,
			const struct wultfw_schema *s);

#endif
