/* SPDX-License-Identifier: MIT */
/*
 * Restricting the C-states Linux may request on the measured CPU, and
 * putting every flag back afterwards -- on every path: normal end, error,
 * Ctrl-C, exit() and fatal signals (restore.c), and after kill -9 or a
 * power cut in the next wultfw (each change is in the state file first).
 */
#ifndef WFW_CSTATES_H
#define WFW_CSTATES_H

#include <stddef.h>

#include "experiment.h"

/*
 * Apply the experiment's restriction on every measured CPU (e->cpus):
 * once for all, before the runs of several CPUs start (percpu.c), so no
 * run's end puts them back under the others. Saves the previous flags first.
 * Where the cpuidle governor would ignore the flags (haltpoll), switches
 * to one that honours them and says so in `note`. Returns 0 or a negative
 * errno with a reason in err.
 */
int wfw_cstates_apply(const struct wfw_experiment *e, const char *sysfs_root,
		      char *note, size_t notelen, char *err, size_t errlen);

/*
 * Put back what apply changed. Safe to call twice; signal handlers use
 * wfw_restore_all() instead.
 */
void wfw_cstates_restore(void);

#endif
