/* SPDX-License-Identifier: MIT */
/*
 * What an experiment on several CPUs does once, in the parent, around
 * its per-CPU runs (percpu.c): it moves itself to the housekeeping CPUs
 * (the children inherit them), sets the C-states of every measured CPU
 * and puts them back only after the last run ended (no run's end undoes
 * them under the others; a killed parent's state file lets the next
 * wultfw restore them), and runs the collectors, one set into EXP/.
 */
#ifndef WFW_PERCPU_ONCE_H
#define WFW_PERCPU_ONCE_H

#include <stdbool.h>

#include "collect.h"
#include "housekeep.h"
#include "run.h"

struct wfw_percpu_once {
	struct wfw_housekeep hk;
	bool cstates_set;
	struct wfw_collectors *collectors;
};

/*
 * Before the children: housekeeping and C-states (info.yml says both).
 * 0, or -errno with the reason logged: then start no child.
 */
int wfw_percpu_once_begin(struct wfw_percpu_once *po, struct wfw_experiment *e,
			  const struct wfw_run_opts *o, struct wfw_info *info);
/* Right before the children start: the collectors, writing into dir. */
void wfw_percpu_once_collect(struct wfw_percpu_once *po, struct wfw_experiment *e,
			     const struct wfw_run_opts *o, const char *dir,
			     struct wfw_info *info);
/* Datapoints arrived since the last call: on-demand collectors sample. */
void wfw_percpu_once_tick(struct wfw_percpu_once *po);
/* After the last child: collectors stopped (into info and r), C-states back. */
void wfw_percpu_once_end(struct wfw_percpu_once *po, struct wfw_info *info,
			 struct wfw_run_result *r);

#endif
