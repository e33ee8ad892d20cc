/* SPDX-License-Identifier: MIT */
/*
 * An experiment bound to the machine it is loaded on, right after it is
 * parsed: its measured CPU (the default one, or the one given if online),
 * its C-state names as that CPU has them, and every plugin's validate()
 * given the CPU and the sysfs root. Problems are errors at file:line, as
 * the file's own are; a machine that lacks what the experiment needs
 * (no cpuidle states) is machine.c's warning and the run's refusal.
 */
#ifndef WFW_BIND_H
#define WFW_BIND_H

#include "cfgerr.h"
#include "experiment.h"

/* sysfs_root: where sysfs is (tests: a fake tree; NULL: "/sys"). */
void wfw_bind_experiment(struct wfw_experiment *e, const char *sysfs_root,
			 struct wfw_cfgerr *errs);

#endif
