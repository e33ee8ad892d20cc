/* SPDX-License-Identifier: MIT */
/* The shared "what is due" rule of every sink (durable.h). */
#include "config.h"

#include <time.h>

#include "atomic/durable.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void wfw_durable_init(struct wfw_durable *d, uint64_t interval_ns,
		      uint64_t max_rows)
{
	d->interval_ns = interval_ns;
	d->max_rows = max_rows;
	d->pending = 0;
	d->unsynced = 0;
	d->last_ns = mono_ns();
}

enum wfw_durable_step wfw_durable_due(struct wfw_durable *d, uint64_t rows)
{
	d->pending += rows;
	d->unsynced += rows;
	if (!d->unsynced)
		return WFW_DURABLE_NONE;
	if (d->interval_ns && mono_ns() - d->last_ns >= d->interval_ns)
		return WFW_DURABLE_SYNC;
	if (d->max_rows && d->pending >= d->max_rows)
		return WFW_DURABLE_HANDOFF;
	return WFW_DURABLE_NONE;
}

void wfw_durable_handed_off(struct wfw_durable *d)
{
	d->pending = 0;
}

void wfw_durable_synced(struct wfw_durable *d)
{
	d->pending = 0;
	d->unsynced = 0;
	d->last_ns = mono_ns();
}
