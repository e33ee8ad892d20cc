/* SPDX-License-Identifier: MIT */
/*
 * --check of every CPU of a list, not only the first: has it the cpuidle
 * states a restriction needs, can the source open on it, and (a warning
 * only, as a run gives) is another wultfw measuring it (cpulock.h). Of
 * one CPU, the lock alone (machine.c checks the rest).
 */
#ifndef WFW_CHECK_CPUS_H
#define WFW_CHECK_CPUS_H

#include <stddef.h>

#include "cfgerr.h"
#include "experiment.h"

/* Adds one line to warns per problem, naming the CPU; returns how many. */
size_t wfw_check_cpus(struct wfw_experiment *e, const char *sysfs_root,
		      struct wfw_cfgerr *warns);

#endif
