/* SPDX-License-Identifier: MIT */
/*
 * timer health: what the kernel says about the measured CPU and the
 * measuring thread around a run, and the warnings that follow when the
 * numbers are not wake latencies of an idle CPU. Pure functions on numbers
 * and files, apart so unit tests can give them a model of the machine.
 */
#ifndef TIMER_HEALTH_H
#define TIMER_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Below this launch distance the loop's own cost per sleep (work before
 * and after it, the syscall, arming the hrtimer: 1-2 us) is a sizeable
 * part of it and the CPU has no time to go idle.
 */
#define TIMER_MIN_LDIST_NS 10000
/* The loop's measured work per sleep above this share of LDist: warn. */
#define TIMER_COST_MAX_PCT 10
/* Idle for less than this share of the time the thread slept: warn. */
#define TIMER_IDLE_MIN_PCT 50
/* /proc/stat counts in USER_HZ ticks: judge only over this much sleep. */
#define TIMER_IDLE_MIN_SLEPT_NS 200000000ULL

/*
 * idle + iowait of `cpu` from a /proc/stat-format file, in ns (USER_HZ
 * ticks, 10 ms at the usual 100 Hz). 0, or a negative errno.
 */
int timer_proc_idle_ns(const char *path, int cpu, uint64_t *ns);

/* The CPU's idle time against the time the measuring thread slept. */
struct timer_idle_in {
	int cpu;
	uint64_t wall_ns;	/* the window idle_ns was taken over */
	uint64_t idle_ns;	/* idle + iowait of the CPU in that window */
	uint64_t slept_ns;	/* sum of TAI - TBI: the thread's sleeps */
};

/* A warning into buf when the CPU idled far less than the thread slept. */
bool timer_idle_warn(const struct timer_idle_in *in, char *buf, size_t len);

/*
 * A warning into buf when launch distances start below TIMER_MIN_LDIST_NS;
 * at SCHED_FIFO (priority > 0) it says what that does to the CPU too.
 */
bool timer_ldist_warn(uint64_t ldist_from_ns, int priority, char *buf,
		      size_t len);

/* A warning when the measured work per sleep is a sizeable part of LDist. */
bool timer_cost_warn(uint64_t pre_ns, uint64_t post_ns, uint64_t mean_ldist_ns,
		     char *buf, size_t len);

/* The RT bandwidth limit: sched_rt_runtime_us of sched_rt_period_us. */
struct timer_rt_in {
	int priority;		/* 0: SCHED_OTHER, never throttled */
	int64_t runtime_us;	/* -1: no limit */
	int64_t period_us;
	uint64_t wall_ns;	/* how long the thread ran */
	uint64_t cpu_ns;	/* its CPU time in that span */
};

/*
 * Read sched_rt_runtime_us and sched_rt_period_us below `dir`
 * (/proc/sys/kernel). 0, or a negative errno.
 */
int timer_read_rt_limits(const char *dir, int64_t *runtime_us,
			 int64_t *period_us);

/*
 * A warning when a SCHED_FIFO thread used so much of its CPU for so long
 * that the kernel's RT throttling may have stopped it.
 */
bool timer_rt_warn(const struct timer_rt_in *in, char *buf, size_t len);

#endif
