/* SPDX-License-Identifier: MIT */
/*
 * When a sink makes its data safe, shared by the file sinks and the stats
 * sink so every sink bounds what a crash can lose the same way:
 * - every `max_rows` rows written, HANDOFF: what the sink buffers goes to
 *   the kernel (which kill -9 cannot take away) and writeback starts;
 * - every `interval_ns` with something new, SYNC: the data goes to the
 *   disk and is waited for (fdatasync), which a power cut cannot take away;
 *   the stats sink rewrites stats.json then.
 */
#ifndef WFW_DURABLE_H
#define WFW_DURABLE_H

#include <stdbool.h>
#include <stdint.h>

enum wfw_durable_step {
	WFW_DURABLE_NONE,
	WFW_DURABLE_HANDOFF,
	WFW_DURABLE_SYNC,
};

struct wfw_durable {
	uint64_t interval_ns;
	uint64_t max_rows;
	uint64_t last_ns;	/* CLOCK_MONOTONIC of the last sync */
	uint64_t pending;	/* rows written since the last handoff or sync */
	uint64_t unsynced;	/* rows written since the last sync */
};

/* Starts the clock now. interval_ns or max_rows 0: that bound is off. */
void wfw_durable_init(struct wfw_durable *d, uint64_t interval_ns,
		      uint64_t max_rows);
/* Count `rows` just written; what is due now. */
enum wfw_durable_step wfw_durable_due(struct wfw_durable *d, uint64_t rows);
/* The buffered rows went to the kernel. */
void wfw_durable_handed_off(struct wfw_durable *d);
/* Everything is on the disk: the clock and the counts start again. */
void wfw_durable_synced(struct wfw_durable *d);

#endif /* WFW_DURABLE_H */
