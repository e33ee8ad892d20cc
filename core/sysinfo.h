/* SPDX-License-Identifier: MIT */
/* Facts about the measured machine for info.yml (and the report's intro). */
#ifndef WFW_SYSINFO_H
#define WFW_SYSINFO_H

#include "resultdir.h"

/*
 * Add hostname, kernel (release and build), cpumodel (/proc/cpuinfo's
 * model name), cpuidle_driver ("none" without one), and the clocksource,
 * cpu's clockevent and cpufreq governor, isolated and nohz_full CPUs, THP,
 * sched_rt_runtime_us and the kernel command line to info. A fact that
 * cannot be read is left out, never guessed.
 */
void wfw_info_machine(struct wfw_info *info, const char *sysfs_root, int cpu);

#endif
