/* SPDX-License-Identifier: MIT */
/*
 * The counters telemetry samples when `counters` names none: every
 * per-CPU counter of the measured CPU that this machine offers (its
 * interrupts, softirqs, cpuidle states, cpufreq and /proc/stat times),
 * what a latency's lateness on that CPU is usually explained by.
 */
#ifndef TELE_DEFAULTS_H
#define TELE_DEFAULTS_H

#include "tele_provider.h"

#include <stddef.h>

struct tele_defaults {
	char **v;
	size_t n, cap;
	int cpu;
	bool failed;	/* out of memory while listing */
};

/* Fill d with CPU `cpu`'s counters; 0, or -ENOMEM. */
int tele_defaults_list(struct tele_defaults *d, const struct tele_env *env, int cpu);
void tele_defaults_free(struct tele_defaults *d);

#endif
