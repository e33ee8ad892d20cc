/* SPDX-License-Identifier: MIT */
/* Time order for the attribution's records (attrib_order.h). */
#include "config.h"

#include <string.h>

#include "attrib_order.h"

size_t attrib_order_sort(struct attrib_event *ev, size_t n)
{
	struct attrib_event x;
	size_t i, j, moved = 0;

	/* Insertion sort: a record out of order is only a few places off. */
	for (i = 1; i < n; i++) {
		if (ev[i - 1].ts <= ev[i].ts)
			continue;
		x = ev[i];
		for (j = i; j > 0 && ev[j - 1].ts > x.ts; j--)
			ev[j] = ev[j - 1];
		ev[j] = x;
		moved++;
	}
	return moved;
}

size_t attrib_order_late(struct attrib_event *ev, size_t n,
			 uint64_t *last_ts)
{
	size_t i, late = 0;

	for (i = 0; i < n; i++) {
		struct attrib_event *e = &ev[i];

		if (e->ts < *last_ts) {
			e->dur = *last_ts - e->ts;
			e->ts = *last_ts;
			e->kind = ATTRIB_LOST;
			e->id = 1;
			memset(e->comm, 0, sizeof(e->comm));
			late++;
		}
		*last_ts = e->ts;
	}
	return late;
}
