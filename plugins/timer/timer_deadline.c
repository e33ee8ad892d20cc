/* SPDX-License-Identifier: MIT */
/*
 * Where the measuring thread's next sleep ends, in the timer source's two
 * modes. Apart from the loop so unit tests can drive it with made-up
 * clocks: what a grid skips must be counted exactly, not guessed from a
 * real run's timing.
 */
#include "config.h"

#include "timer_state.h"

void timer_deadline_init(struct timer_deadline *d, enum timer_mode mode,
			 const struct wultfw_source_params *params)
{
	d->mode = mode;
	d->from = params->ldist_from_ns;
	d->to = params->ldist_to_ns;
	d->seed = params->seed;
	d->ltime = 0;
	d->started = false;
}

static int64_t step(struct timer_deadline *d)
{
	return (int64_t)wultfw_pick_ldist(&d->seed, d->from, d->to, 0);
}

/*
 * ldist: now + a picked LDist, whatever the last wake-up's latency was
 * (wult's definition). grid: the previous deadline + a step, as
 * cyclictest -i does; the first is now + a step, as in cyclictest. A
 * grid deadline not after `now` cannot be slept to: it is skipped and
 * counted in *missed (cyclictest skips it silently).
 */
int64_t timer_next_ltime(struct timer_deadline *d, int64_t now,
			 uint64_t *missed)
{
	if (d->mode == TIMER_MODE_LDIST || !d->started) {
		d->started = true;
		d->ltime = now + step(d);
		return d->ltime;
	}
	d->ltime += step(d);
	/* A fixed step: over the passed ones at once, however long the stall. */
	if (d->ltime <= now && d->from == d->to && d->from) {
		uint64_t n = (uint64_t)(now - d->ltime) / d->from + 1;

		d->ltime += (int64_t)(n * d->from);
		*missed += n;
	}
	while (d->ltime <= now) {
		d->ltime += step(d);
		(*missed)++;
	}
	return d->ltime;
}
