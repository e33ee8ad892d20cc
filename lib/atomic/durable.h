/* SPDX-License-Identifier: MIT */
/*
 * When a sink makes its data durable: at least every `interval_ns` and
 * every `max_rows` rows written since the last time. Shared by the file
 * sinks (write + fdatasync) and the stats sink (stats.json rewritten), so
 * every sink bounds what kill -9 or a power cut can lose the same way.
 */
#ifndef WFW_DURABLE_H
#define WFW_DURABLE_H

#include <stdbool.h>
#include <stdint.h>

struct wfw_durable {
	uint64_t interval_ns;
	uint64_t max_rows;
	uint64_t last_ns;	/* CLOCK_MONOTONIC of the last sync */
	uint64_t pending;	/* rows written since */
};

/* Starts the clock now. interval_ns or max_rows 0: that bound is off. */
void wfw_durable_init(struct wfw_durable *d, uint64_t interval_ns,
		      uint64_t max_rows);
/* Count `rows` just written; true when a sync is due. */
bool wfw_durable_due(struct wfw_durable *d, uint64_t rows);
/* A sync happened: the clock and the count start again. */
void wfw_durable_synced(struct wfw_durable *d);

#endif /* WFW_DURABLE_H */
