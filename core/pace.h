/* SPDX-License-Identifier: MIT */
/*
 * The core's schedule for a sampler that declares its period
 * (wultfw_source_info.period_ns): read() is called once per period, on a
 * fixed grid of CLOCK_MONOTONIC deadlines, the first one period after
 * start(); a deadline missed while the sampler was late is skipped, not
 * made up. The main source (core/sched.c) and collectors (core/collect.c)
 * are paced alike.
 */
#ifndef WFW_PACE_H
#define WFW_PACE_H

#include <stdbool.h>
#include <stdint.h>

struct wfw_pace {
	uint64_t period;	/* ns; 0: not paced by the core */
	uint64_t next;		/* the next deadline */
};

/* From now; aligned: deadlines are multiples of the period. */
void wfw_pace_start(struct wfw_pace *p, uint64_t period_ns, bool aligned);
/*
 * Sleep until the next deadline, at most timeout_ns: true when it came
 * (read now, then wfw_pace_next()), false when the wait ended first (the
 * timeout, a signal).
 */
bool wfw_pace_wait(struct wfw_pace *p, uint64_t timeout_ns);
/* After the read: the first deadline of the grid still ahead. */
void wfw_pace_next(struct wfw_pace *p);

#endif
