/* SPDX-License-Identifier: MIT */
/*
 * An experiment whose `cpu` lists several CPUs: every CPU measured at
 * once, one run per CPU into EXP/cpuN/ (each a complete result of its
 * own), and EXP/info.yml naming them (`per_cpu_dirs: true`, `cpus: [..]`).
 */
#ifndef WFW_PERCPU_H
#define WFW_PERCPU_H

#include "run.h"

/* As wfw_run_experiment(), for e->ncpus > 1; r sums every CPU's. */
int wfw_run_percpu(struct wfw_experiment *e, const struct wfw_run_opts *o,
		   struct wfw_run_result *r);

#endif
