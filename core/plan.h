/* SPDX-License-Identifier: MIT */
/*
 * The experiment file (libconfig) turned into a list of experiments
 * (experiment.h), each with its source and sinks loaded, their options
 * validated and what it asks of this machine checked (bind.h); every
 * problem found at once, at file:line. Nothing here changes the system:
 * that is the scheduler's job.
 */
#ifndef WFW_PLAN_H
#define WFW_PLAN_H

#include <libconfig.h>
#include <stdbool.h>

#include "cfgerr.h"
#include "experiment.h"
#include "overrides.h"

struct wfw_plan {
	config_t cfg;
	char file[256];			/* "-" style name for the embedded one */
	bool embedded;
	struct wfw_experiment *exps;
	size_t n;
};

/*
 * Parse `file` (NULL: the embedded default experiment). Returns 0, or
 * -EINVAL with every problem found in errs.
 */
int wfw_plan_load(struct wfw_plan *plan, const char *file,
		  const struct wfw_plan_overrides *ov, struct wfw_cfgerr *errs);
void wfw_plan_free(struct wfw_plan *plan);

#endif
