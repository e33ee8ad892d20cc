/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "timer_ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int timer_ring_init(struct timer_ring *r, size_t min_slots)
{
	size_t n = 2;

	while (n < min_slots) {
		if (n > SIZE_MAX / 2 / sizeof(*r->slots))
			return -EOVERFLOW;
		n *= 2;
	}
	r->slots = calloc(n, sizeof(*r->slots));
	if (!r->slots)
		return -ENOMEM;
	/*
	 * calloc() may hand out untouched zero pages; write every slot now so
	 * the measuring thread never takes a page fault on first use.
	 */
	memset(r->slots, 0xff, n * sizeof(*r->slots));
	r->mask = n - 1;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	return 0;
}

void timer_ring_free(struct timer_ring *r)
{
	free(r->slots);
	r->slots = NULL;
	r->mask = 0;
}

size_t timer_ring_size(const struct timer_ring *r)
{
	return r->mask + 1;
}

bool timer_ring_push(struct timer_ring *r, const struct timer_dp *dp)
{
	size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail > r->mask)
		return false;
	r->slots[head & r->mask] = *dp;
	/* Publish the slot contents before the new head. */
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return true;
}

size_t timer_ring_pop(struct timer_ring *r, struct timer_dp *out, size_t max)
{
	size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	size_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	size_t n = head - tail, i;

	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = r->slots[(tail + i) & r->mask];
	/* Hand the slots back only after they were copied. */
	atomic_store_explicit(&r->tail, tail + n, memory_order_release);
	return n;
}
