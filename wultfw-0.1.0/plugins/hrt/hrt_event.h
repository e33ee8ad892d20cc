/* SPDX-License-Identifier: MIT */
/*
 * What the hrt eBPF program (hrt.bpf.c) and its loader (hrt.c) share: the
 * ring buffer record and the counters in the program's .bss. Included by
 * both sides, so only fixed-width types.
 */
#ifndef HRT_EVENT_H
#define HRT_EVENT_H

/* One completed measurement, as seen by the program; checked in user space. */
struct hrt_event {
	__u64 ltime;		/* when the timer was due (CLOCK_MONOTONIC ns) */
	__u64 tbi;		/* last idle entry before LTime */
	__u64 tai;		/* idle exit after the timer fired */
	__u64 tintr;		/* timer callback */
	__u64 ldist;
	__u32 req_state;	/* cpuidle index from the idle-entry tracepoint */
	__s32 intr_cpu;		/* CPU the callback ran on */
	__u32 nmi;		/* NMIs on the measured CPU, TBI..TAI */
	__u32 softirq;		/* softirqs besides our own, LTime..TAI */
};

/* Program-side counters, read by user space through the mmap'ed .bss. */
struct hrt_stats {
	__u64 arms;		/* timers started */
	__u64 events;		/* records submitted */
	__u64 busy;		/* timer fired while the CPU was not idle */
	__u64 early_exits;	/* idle exits before the timer fired */
	__u64 rb_full;		/* record lost: ring buffer full */
	__u64 arm_errors;	/* bpf_timer_start() failed */
	__s64 last_error;	/* its last return value */
};

#endif
