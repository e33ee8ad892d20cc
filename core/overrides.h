/* SPDX-License-Identifier: MIT */
/*
 * Settings given on the command line (--cpu, --ldist, --datapoints,
 * --time) written into the experiment file's tree before it is parsed, so
 * they are checked by the same code, with the same errors, as the file's.
 */
#ifndef WFW_OVERRIDES_H
#define WFW_OVERRIDES_H

#include <libconfig.h>

#include "cfgerr.h"

struct wfw_plan_overrides;

/* Every experiment of cfg gets ov's settings; 0 or -EINVAL (errs says). */
int wfw_overrides_apply(config_t *cfg, const struct wfw_plan_overrides *ov,
			struct wfw_cfgerr *errs);

#endif
