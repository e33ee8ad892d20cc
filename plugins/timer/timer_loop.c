/* SPDX-License-Identifier: MIT */
/*
 * The measuring thread of the timer source. It runs pinned to the measured
 * CPU and repeats: LTime = now + LDist (mode ldist) or the previous LTime +
 * LDist (mode grid, timer_deadline.c), sleep until LTime with
 * clock_nanosleep(TIMER_ABSTIME), take TAI on return. Everything between
 * TBI and TAI is the kernel's: the timer interrupt, the C-state exit and
 * the scheduler switching back to this thread.
 */
#include "config.h"

#include "timer_state.h"

#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

int64_t timer_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

bool timer_dp_consistent(const struct timer_dp *dp)
{
	/*
	 * TBI >= LTime: the pre-sleep work took longer than LDist, so the
	 * thread never slept and TAI - LTime would be syscall overhead, not a
	 * wake latency. TAI < LTime: woken early or the clock went backwards.
	 */
	return dp->tbi < dp->ltime && dp->tai >= dp->ltime;
}

int timer_dp_why(const struct timer_dp *dp, int sleep_ret)
{
	if (sleep_ret)
		return TIMER_DISC_SIGNAL;
	if (dp->tbi >= dp->ltime)
		return TIMER_DISC_NO_SLEEP;
	if (dp->tai < dp->ltime)
		return TIMER_DISC_EARLY;
	return -1;
}

int timer_reqcstate(const struct timer_cstates *cs, const uint64_t *before,
		    const uint64_t *after)
{
	int state = wfw_cpuidle_only_state(&cs->ci, before, after);

	if (state == WFW_CPUIDLE_NONE_ENTERED)
		return cs->none;
	if (state < 0)
		return cs->several;
	return cs->map[state];
}

/* Touch the stack once so the loop never page-faults on it. */
static void prefault_stack(void)
{
	volatile char buf[64 * 1024];

	memset((char *)buf, 0, sizeof(buf));
}

/* Remember the first cpuidle read error; the datapoint's ReqCState is unknown. */
static void note_usage_err(struct timer_priv *p, int err)
{
	int none = 0;

	atomic_compare_exchange_strong(&p->usage_err, &none, err);
}

/*
 * cpuidle usage counts around each sleep. Normally the previous wake's
 * counts serve as "before": they cannot change while this thread is
 * runnable, because the CPU does not idle then. Only the first sleep, or
 * one after a failed read, pays for a read before it.
 */
struct usage_pair {
	uint64_t a[WFW_CPUIDLE_MAX_STATES], b[WFW_CPUIDLE_MAX_STATES];
	uint64_t *before, *after;
	bool have_before;
};

static void usage_before(struct timer_priv *p, struct usage_pair *u)
{
	int ret;

	if (!p->cs.on || u->have_before)
		return;
	ret = wfw_cpuidle_read_usage(&p->cs.ci, u->before);
	if (ret)
		note_usage_err(p, ret);
	u->have_before = !ret;
}

/* The C-state requested during the sleep that just ended, or unknown. */
static int usage_after(struct timer_priv *p, struct usage_pair *u)
{
	int cstate = p->cs.unknown, ret;
	uint64_t *tmp;

	if (!p->cs.on)
		return cstate;
	ret = wfw_cpuidle_read_usage(&p->cs.ci, u->after);
	if (ret)
		note_usage_err(p, ret);
	else if (u->have_before)
		cstate = timer_reqcstate(&p->cs, u->before, u->after);
	u->have_before = !ret;
	tmp = u->before;
	u->before = u->after;
	u->after = tmp;
	return cstate;
}

/* Sleep until dp->ltime, taking TBI and TAI; clock_nanosleep()'s result. */
static int sleep_until(struct timer_dp *dp)
{
	struct timespec lts = { .tv_sec = dp->ltime / 1000000000,
				.tv_nsec = dp->ltime % 1000000000 };
	int ret;

	/* Cancellation (from stop()) may only hit inside clock_nanosleep(). */
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	dp->tbi = timer_now_ns();
	ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &lts, NULL);
	dp->tai = timer_now_ns();
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	return ret;
}

/* The datapoint to the ring, or counted as discarded or overrun. */
static void keep_dp(struct timer_priv *p, const struct timer_dp *dp, int sleep_ret)
{
	atomic_uint_fast64_t *count = &p->produced;
	/* EINTR: a signal woke the thread, not the timer. */
	int why = timer_dp_why(dp, sleep_ret);

	if (why >= 0) {
		p->disc_why[why]++;
		count = &p->discarded;
	} else if (!timer_ring_push(&p->ring, dp))
		count = &p->overruns;
	atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
}

void *timer_thread_main(void *arg)
{
	struct timer_priv *p = arg;
	struct usage_pair u = { .have_before = false };
	struct timer_deadline dl;
	struct timer_dp dp;

	u.before = u.a;
	u.after = u.b;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	/*
	 * A SCHED_OTHER thread's sleeps may end up to its timer slack (50 us
	 * by default) late, which would show up as wake latency.
	 */
	if (prctl(PR_SET_TIMERSLACK, (unsigned long)p->slack_ns, 0, 0, 0)) {
		atomic_store(&p->thread_err, -errno);
		return NULL;
	}
	prefault_stack();
	timer_deadline_init(&dl, p->mode, &p->params);

	while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
		int64_t now;
		int sleep_ret;

		now = timer_now_ns();
		dp.ltime = timer_next_ltime(&dl, now, &p->grid_missed);
		/* What this timer was armed with: on a grid, less than a step. */
		dp.ldist = dp.ltime - now;
		usage_before(p, &u);
		sleep_ret = sleep_until(&dp);
		dp.cstate = usage_after(p, &u);
		p->pre_ns_sum += (uint64_t)(dp.tbi - now);
		p->post_ns_sum += (uint64_t)(timer_now_ns() - dp.tai);
		p->slept_ns_sum += (uint64_t)(dp.tai - dp.tbi);
		p->loops++;
		keep_dp(p, &dp, sleep_ret);
	}
	return NULL;
}
