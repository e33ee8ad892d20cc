/* SPDX-License-Identifier: MIT */
/* The CPUs of the system: which are online, and the default measured one. */
#ifndef WFW_SYSSTATE_CPUS_H
#define WFW_SYSSTATE_CPUS_H

#include <stdbool.h>

#define WFW_MAX_CPUS 4096

/*
 * Parse a Linux CPU list ("0-3,8,10-11") into online[]; returns the number
 * of CPUs set, or -EINVAL.
 */
int wfw_parse_cpulist(const char *text, bool *online, int max);

/* Online CPUs below sysfs_root (NULL: "/sys"). Returns count or -errno. */
int wfw_online_cpus(bool *online, int max, const char *sysfs_root);

/*
 * Is `cpu` online? 1 or 0; a negative errno when the list cannot be read
 * (then nothing is known either way).
 */
int wfw_cpu_online(int cpu, const char *sysfs_root);

/* The default measured CPU: the highest online CPU other than 0. */
int wfw_default_cpu(const char *sysfs_root);

#endif
