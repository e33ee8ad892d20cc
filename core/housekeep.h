/* SPDX-License-Identifier: MIT */
/*
 * Where wultfw's own work runs while it measures: the reader, the sinks,
 * the collectors and the per-CPU parent. The `housekeeping` key names the
 * CPUs (as `cpu` does); by default they are the online CPUs not measured,
 * and when every online CPU is measured the work runs unpinned, said once.
 */
#ifndef WFW_HOUSEKEEP_H
#define WFW_HOUSEKEEP_H

#include <sched.h>
#include <stdbool.h>

#include "experiment.h"
#include "resultdir.h"

struct wfw_housekeep {
	cpu_set_t set;		/* where, when pinned */
	bool pinned;		/* false: no CPU left, run anywhere */
	bool given;		/* the user named them (may be measured ones) */
};

/* e's housekeeping CPUs, from its key or the default. */
void wfw_housekeep_plan(const struct wfw_experiment *e, struct wfw_housekeep *hk);

/*
 * Pin the calling thread (and the threads and processes it starts later)
 * there; says once why not when unpinned or when that fails. 0 or -errno.
 */
int wfw_housekeep_apply(const struct wfw_experiment *e,
			const struct wfw_housekeep *hk);

/* info.yml's `housekeeping`: [0, 1], or 'unpinned'. */
void wfw_housekeep_info(const struct wfw_housekeep *hk, struct wfw_info *info);

#endif
