/* SPDX-License-Identifier: MIT */
/*
 * The timer run as the kernel saw it: the measured CPU's idle time (from
 * /proc/stat) and the measuring thread's CPU time, taken when the thread
 * starts and just before it stops; then info.yml keys and the warnings of
 * timer_health.c. Why: without them a wake-up of a busy CPU, or a thread
 * held by RT throttling, looks like a wake latency from idle.
 */
#include "config.h"

#include "timer_health.h"
#include "timer_state.h"

#include <inttypes.h>
#include <stdio.h>

static void info_u64(struct wultfw_ctx *ctx, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	wultfw_info(ctx, key, buf);
}

void timer_run_begin(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	char msg[768];

	p->idle0_ok = !timer_proc_idle_ns(p->proc_stat, p->params.cpu,
					  &p->idle0_ns);
	p->have_thread_clock = !pthread_getcpuclockid(p->thread,
						      &p->thread_clock);
	p->run_t0_ns = timer_now_ns();
	if (timer_ldist_warn(p->params.ldist_from_ns, p->priority, msg,
			     sizeof(msg)))
		wultfw_log(ctx, WULTFW_LOG_WARN, "%s", msg);
}

void timer_run_sample(struct timer_priv *p)
{
	struct timespec ts;
	uint64_t idle1;

	p->run_wall_ns = (uint64_t)(timer_now_ns() - p->run_t0_ns);
	p->thread_cpu_ns = 0;
	if (p->have_thread_clock && !clock_gettime(p->thread_clock, &ts))
		p->thread_cpu_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
				   (uint64_t)ts.tv_nsec;
	p->idle_ok = p->idle0_ok &&
		     !timer_proc_idle_ns(p->proc_stat, p->params.cpu, &idle1) &&
		     idle1 >= p->idle0_ns;
	p->idle_ns = p->idle_ok ? idle1 - p->idle0_ns : 0;
}

/* Why datapoints were discarded, each reason its own key. */
static void timer_discard_info(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	info_u64(ctx, "timer_discarded_signal", p->disc_why[TIMER_DISC_SIGNAL]);
	info_u64(ctx, "timer_discarded_tbi_after_ltime",
		 p->disc_why[TIMER_DISC_NO_SLEEP]);
	info_u64(ctx, "timer_discarded_tai_before_ltime",
		 p->disc_why[TIMER_DISC_EARLY]);
}

/* The CPU's idle share against the thread's sleeping share. */
static void timer_idle_report(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	struct timer_idle_in in = {
		.cpu = p->params.cpu, .wall_ns = p->run_wall_ns,
		.idle_ns = p->idle_ns, .slept_ns = p->slept_ns_sum,
	};
	char msg[640];

	/*
	 * Inside clock_nanosleep() is not off the CPU: at a launch distance
	 * of a few us the call returns without blocking. Only the time the
	 * thread did not run can have been idle.
	 */
	if (p->have_thread_clock) {
		uint64_t off = p->run_wall_ns > p->thread_cpu_ns ?
			       p->run_wall_ns - p->thread_cpu_ns : 0;

		if (off < in.slept_ns)
			in.slept_ns = off;
	}

	info_u64(ctx, "timer_slept_ns", p->slept_ns_sum);
	if (!p->idle_ok) {
		wultfw_info(ctx, "timer_cpu_idle_ns", "unknown (cannot read /proc/stat)");
		return;
	}
	info_u64(ctx, "timer_cpu_idle_ns", p->idle_ns);
	if (timer_idle_warn(&in, msg, sizeof(msg)))
		wultfw_log(ctx, WULTFW_LOG_WARN, "%s", msg);
}

static void timer_rt_report(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	struct timer_rt_in in = {
		.priority = p->priority, .wall_ns = p->run_wall_ns,
		.cpu_ns = p->thread_cpu_ns,
	};
	char msg[640];

	if (p->have_thread_clock)
		info_u64(ctx, "timer_thread_cpu_ns", p->thread_cpu_ns);
	if (!p->priority || !p->have_thread_clock ||
	    timer_read_rt_limits(p->proc_sys_kernel, &in.runtime_us,
				 &in.period_us))
		return;
	if (timer_rt_warn(&in, msg, sizeof(msg)))
		wultfw_log(ctx, WULTFW_LOG_WARN, "%s", msg);
}

/* Grid deadlines that passed before they could be armed: no datapoint. */
static void timer_grid_report(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	uint64_t all = p->loops + p->grid_missed;

	if (p->mode != TIMER_MODE_GRID)
		return;
	info_u64(ctx, "timer_grid_missed", p->grid_missed);
	if (p->grid_missed)
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "%" PRIu64 " of %" PRIu64 " grid deadlines (%.2f%%) had passed before the thread could arm them and were skipped, as cyclictest skips them: the wake-up before each took longer than the rest of its period",
			   p->grid_missed, all, 100.0 * (double)p->grid_missed / (double)all);
}

void timer_run_end(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	uint64_t pre, post, mean;
	char msg[512];

	info_u64(ctx, "timer_run_ns", p->run_wall_ns);
	timer_discard_info(ctx, p);
	timer_grid_report(ctx, p);
	timer_idle_report(ctx, p);
	timer_rt_report(ctx, p);
	if (!p->loops)
		return;
	pre = p->pre_ns_sum / p->loops;
	post = p->post_ns_sum / p->loops;
	info_u64(ctx, "timer_work_before_sleep_ns", pre);
	info_u64(ctx, "timer_work_after_sleep_ns", post);
	wultfw_log(ctx, WULTFW_LOG_INFO,
		   "%" PRIu64 " sleeps; on the measured CPU per sleep: %" PRIu64 " ns of work before it (TBI - LTime + LDist), %" PRIu64 " ns after it (after TAI)",
		   p->loops, pre, post);
	mean = (p->params.ldist_from_ns + p->params.ldist_to_ns) / 2;
	if (timer_cost_warn(pre, post, mean, msg, sizeof(msg)))
		wultfw_log(ctx, WULTFW_LOG_WARN, "%s", msg);
}
