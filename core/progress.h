/* SPDX-License-Identifier: MIT */
/* The progress line of a run on a terminal: count, rate, elapsed, left. */
#ifndef WFW_PROGRESS_H
#define WFW_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct wfw_progress {
	bool on;
	const char *name;
	uint64_t max_datapoints, max_time_ns;
	uint64_t start_ns, last_ns;
};

void wfw_progress_begin(struct wfw_progress *p, const char *name,
			uint64_t max_datapoints, uint64_t max_time_ns,
			bool on);
/* Redraws at most a few times a second. */
void wfw_progress_update(struct wfw_progress *p, uint64_t datapoints,
			 uint64_t discarded);
void wfw_progress_end(struct wfw_progress *p);

/*
 * Seconds left at `elapsed` with `datapoints` so far: the smaller of the
 * time limit's rest (0 once it is reached) and the datapoint limit's
 * rest at the rate so far; -1 when no limit says.
 */
double wfw_progress_left(const struct wfw_progress *p, double elapsed,
			 uint64_t datapoints);

/* "1:02:03" or "2:03" */
void wfw_format_hms(double seconds, char *buf, unsigned long len);

#endif
