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

/* What the command line says over the file (and where sysfs is). */
struct wfw_plan_overrides {
	const char *outdir;		/* -o */
	const char *only;		/* --only NAME */
	const char *sysfs_root;		/* tests: fake /sys; NULL: /sys */
	/* Settings of every experiment, as given (overrides.c checks them). */
	const char *cpu, *ldist, *datapoints, *time;
};

/* Every experiment of cfg gets ov's settings; 0 or -EINVAL (errs says). */
int wfw_overrides_apply(config_t *cfg, const struct wfw_plan_overrides *ov,
			struct wfw_cfgerr *errs);

#endif
