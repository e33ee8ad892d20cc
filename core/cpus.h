/* SPDX-License-Identifier: MIT */
/* Online CPUs and pinning the calling thread. */
#ifndef WFW_CPUS_H
#define WFW_CPUS_H

#include <stdbool.h>

#define WFW_MAX_CPUS 4096

/*
 * Parse a Linux CPU list ("0-3,8,10-11") into online[]; returns the number
 * of CPUs set, or -EINVAL.
 */
int wfw_parse_cpulist(const char *text, bool *online, int max);

/* Online CPUs from sysfs (root NULL: "/sys"). Returns count or -errno. */
int wfw_online_cpus(bool *online, int max, const char *sysfs_root);

/*
 * Pin the calling thread to the CPUs wultfw was started with (taskset)
 * except `avoid`; when those were only `avoid`, to any other online CPU,
 * *widened then true. 0, or -errno (a single CPU: -ENOENT).
 */
int wfw_pin_away_from(int avoid, bool *widened);

/* True when the calling thread's affinity lets it run on `cpu`. */
bool wfw_may_run_on(int cpu);

/* The default measured CPU: the highest online CPU other than 0. */
int wfw_default_cpu(void);

#endif
