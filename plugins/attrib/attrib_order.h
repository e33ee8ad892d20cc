/* SPDX-License-Identifier: MIT */
/*
 * Time order for the records of the attribution's ring (attrib_trace.c),
 * apart so that it is tested on made-up records: sort a pass, and turn a
 * record older than the last one handed on into an ATTRIB_LOST.
 */
#ifndef ATTRIB_ORDER_H
#define ATTRIB_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "attrib_event.h"

/*
 * Sort ev[0..n) by ts; records of equal ts keep their order. Returns how
 * many records moved. Fast on what the ring gives: nearly in order.
 */
size_t attrib_order_sort(struct attrib_event *ev, size_t n);

/*
 * ev[0..n), sorted, is about to be handed on after records up to
 * *last_ts: each record older than that becomes an ATTRIB_LOST at
 * *last_ts covering back to its own time (id 1); *last_ts moves to the
 * last record's. Returns how many were turned.
 */
size_t attrib_order_late(struct attrib_event *ev, size_t n,
			 uint64_t *last_ts);

#endif
