/* SPDX-License-Identifier: MIT */
/* telemetry: the CPUs sysfs shows (cpu0, cpu1, ...), for per-CPU providers. */
#ifndef TELE_CPUS_H
#define TELE_CPUS_H

#include "tele_provider.h"

/* CPU numbers below SYS/devices/system/cpu, ascending; count or -errno. */
int tele_sysfs_cpus(const struct tele_env *env, int *cpus, int max);

#endif
