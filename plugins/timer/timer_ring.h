/* SPDX-License-Identifier: MIT */
/*
 * Single-producer/single-consumer ring of timer datapoints: the measuring
 * thread pushes, read() pops from another CPU. Lock-free on purpose: the
 * producer runs on the measured CPU and must never block or make a
 * syscall to hand a datapoint over.
 */
#ifndef TIMER_RING_H
#define TIMER_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One measurement, all times CLOCK_MONOTONIC nanoseconds. */
struct timer_dp {
	int64_t ltime;		/* launch time: when the sleep was to end */
	int64_t tbi;		/* taken just before clock_nanosleep() */
	int64_t tai;		/* taken just after it returned */
	int64_t ldist;		/* LTime - when it was armed (in mode ldist,
				   the generator's pick) */
	int32_t cstate;		/* schema ReqCState index, -1 if unknown */
};

struct timer_ring {
	struct timer_dp *slots;
	size_t mask;		/* slot count - 1; the count is a power of 2 */
	/* Producer and consumer indexes on their own cache lines. */
	_Alignas(64) _Atomic size_t head;	/* next slot to write */
	_Alignas(64) _Atomic size_t tail;	/* next slot to read */
};

/* Room for at least `min_slots` datapoints (rounded up to a power of 2). */
int timer_ring_init(struct timer_ring *r, size_t min_slots);
void timer_ring_free(struct timer_ring *r);
size_t timer_ring_size(const struct timer_ring *r);

/* Producer side: false when the ring is full (the datapoint is lost). */
bool timer_ring_push(struct timer_ring *r, const struct timer_dp *dp);

/* Consumer side: copy up to `max` datapoints into out[], return how many. */
size_t timer_ring_pop(struct timer_ring *r, struct timer_dp *out, size_t max);

#endif
