/* SPDX-License-Identifier: MIT */
/* The shared "is a sync due" rule of every sink (durable.h). */
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
	d->last_ns = mono_ns();
}

bool wfw_durable_due(struct wfw_durable *d, uint64_t rows)
{
	d->pending += rows;
	if (!d->pending)
		return false;
	if (d->max_rows && d->pending >= d->max_rows)
		return true;
	return d->interval_ns && mono_ns() - d->last_ns >= d->interval_ns;
}

void wfw_durable_synced(struct wfw_durable *d)
{
	d->pending = 0;
	d->last_ns = mono_ns();
}
