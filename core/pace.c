/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <time.h>

#include "pace.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void wfw_pace_start(struct wfw_pace *p, uint64_t period_ns, bool aligned)
{
	uint64_t now = mono_ns();

	p->period = period_ns;
	if (!period_ns)
		return;
	p->next = aligned ? (now / period_ns + 1) * period_ns : now + period_ns;
}

bool wfw_pace_wait(struct wfw_pace *p, uint64_t timeout_ns)
{
	uint64_t now = mono_ns(), until = p->next;
	struct timespec ts;

	if (now >= p->next)
		return true;
	if (p->next - now > timeout_ns)
		until = now + timeout_ns;
	ts.tv_sec = (time_t)(until / 1000000000ULL);
	ts.tv_nsec = (long)(until % 1000000000ULL);
	/* Absolute: a signal that wakes us early leaves the deadline as it was. */
	if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		return false;
	return until == p->next;
}

void wfw_pace_next(struct wfw_pace *p)
{
	uint64_t now = mono_ns();

	p->next += p->period;
	if (p->next <= now)
		p->next += (now - p->next) / p->period * p->period + p->period;
}
