/* SPDX-License-Identifier: MIT */
/*
 * The measuring thread of the timer source. It runs pinned to the measured
 * CPU and repeats: pick LDist, LTime = now + LDist, sleep until LTime with
 * clock_nanosleep(TIMER_ABSTIME), take TAI on return. Everything between
 * TBI and TAI is the kernel's: the timer interrupt, the C-state exit and
 * the scheduler switching back to this thread.
 */
#include "config.h"

#include "timer_priv.h"

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

void *timer_thread_main(void *arg)
{
	struct timer_priv *p = arg;
	struct timer_cstates *cs = &p->cs;
	uint64_t seed = p->params.seed;
	uint64_t usage_a[WFW_CPUIDLE_MAX_STATES], usage_b[WFW_CPUIDLE_MAX_STATES];
	uint64_t *before = usage_a, *after = usage_b, *tmp;
	bool have_before = false;
	struct timespec lts;
	struct timer_dp dp;
	int ret, sleep_ret;

	/* Cancellation (from stop()) may only hit inside clock_nanosleep(). */
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

	while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
		int64_t now;

		dp.ldist = (int64_t)wultfw_pick_ldist(&seed,
						      p->params.ldist_from_ns,
						      p->params.ldist_to_ns, 0);
		now = timer_now_ns();
		dp.ltime = now + dp.ldist;
		/*
		 * Normally the previous wake's counters serve as "before":
		 * they cannot change while this thread is runnable, because
		 * the CPU does not idle then. Only the first sleep, or one
		 * after a failed read, pays for a read here.
		 */
		if (cs->on && !have_before) {
			ret = wfw_cpuidle_read_usage(&cs->ci, before);
			if (ret)
				note_usage_err(p, ret);
			have_before = !ret;
		}
		lts.tv_sec = dp.ltime / 1000000000;
		lts.tv_nsec = dp.ltime % 1000000000;

		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
		dp.tbi = timer_now_ns();
		sleep_ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					    &lts, NULL);
		dp.tai = timer_now_ns();
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);

		dp.cstate = cs->unknown;
		if (cs->on) {
			ret = wfw_cpuidle_read_usage(&cs->ci, after);
			if (ret)
				note_usage_err(p, ret);
			else if (have_before)
				dp.cstate = timer_reqcstate(cs, before, after);
			have_before = !ret;
			tmp = before;
			before = after;
			after = tmp;
		}
		p->pre_ns_sum += (uint64_t)(dp.tbi - now);
		p->post_ns_sum += (uint64_t)(timer_now_ns() - dp.tai);
		p->loops++;

		/* EINTR: a signal woke the thread, not the timer. */
		if (sleep_ret || !timer_dp_consistent(&dp)) {
			atomic_fetch_add_explicit(&p->discarded, 1,
						  memory_order_relaxed);
			continue;
		}
		if (timer_ring_push(&p->ring, &dp))
			atomic_fetch_add_explicit(&p->produced, 1,
						  memory_order_relaxed);
		else
			atomic_fetch_add_explicit(&p->overruns, 1,
						  memory_order_relaxed);
	}
	return NULL;
}
