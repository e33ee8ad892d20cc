/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "percpu_once.h"

#include <stdio.h>
#include <string.h>

#include <sysstate/sysfile.h>

#include "cstates.h"
#include "log.h"

int wfw_percpu_once_begin(struct wfw_percpu_once *po, struct wfw_experiment *e,
			  const struct wfw_run_opts *o, struct wfw_info *info)
{
	char note[512], err[1024];
	int ret;

	memset(po, 0, sizeof(*po));
	wfw_housekeep_plan(e, &po->hk);
	wfw_housekeep_apply(e, &po->hk);
	wfw_housekeep_info(&po->hk, info);
	ret = wfw_cstates_apply(e, o->sysfs_root, note, sizeof(note), err, sizeof(err));
	if (ret) {
		wfw_err("experiment '%s': %s", e->name, err);
		return ret;
	}
	po->cstates_set = true;
	if (note[0])
		wfw_warn("experiment '%s': %s", e->name, note);
	return 0;
}

void wfw_percpu_once_collect(struct wfw_percpu_once *po, struct wfw_experiment *e,
			     const struct wfw_run_opts *o, const char *dir,
			     struct wfw_info *info)
{
	/* By default a collector counts the first measured CPU's counters. */
	po->collectors = wfw_collect_start_on(&e->collect, e->cpus[0],
					      po->hk.pinned ? &po->hk.set : NULL,
					      dir, wfw_sysfs(o->sysfs_root), info);
}

void wfw_percpu_once_tick(struct wfw_percpu_once *po)
{
	wfw_collect_tick(po->collectors);
}

void wfw_percpu_once_end(struct wfw_percpu_once *po, struct wfw_info *info,
			 struct wfw_run_result *r)
{
	if (po->collectors)	/* once: a second call keeps what it said */
		r->collectors_failed = wfw_collect_stop(po->collectors, info,
			r->collectors_lost, sizeof(r->collectors_lost));
	po->collectors = NULL;
	if (po->cstates_set)
		wfw_cstates_restore();
	po->cstates_set = false;
}
