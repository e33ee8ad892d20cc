/* SPDX-License-Identifier: MIT */
/* Pinning the calling thread off the measured CPU. */
#ifndef WFW_PIN_H
#define WFW_PIN_H

#include <stdbool.h>

/*
 * Pin the calling thread to the CPUs wultfw was started with (taskset)
 * except `avoid`; when those were only `avoid`, to any other online CPU,
 * *widened then true. 0, or -errno (a single CPU: -ENOENT).
 */
int wfw_pin_away_from(int avoid, bool *widened);

/* True when the calling thread's affinity lets it run on `cpu`. */
bool wfw_may_run_on(int cpu);

#endif
