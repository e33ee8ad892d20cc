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
	__u32 nmi;		/* NMIs on the measured CPU, LTime..TAI */
	__u32 softirq;		/* softirqs besides our own, LTime..TAI */
};

enum {
	HRT_COST_ENTRY,		/* idle entry (TBI; arms after a busy miss) */
	HRT_COST_EXIT,		/* idle exit that closes no datapoint */
	HRT_COST_EXIT_DP,	/* idle exit: submit the record and re-arm */
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
	__u64 idle_entries[8];	/* idle entries of the CPU by requested state */
	/* Time spent in the cpu_idle probe on the measured CPU, by path. */
	__u64 cost_ns[3], cost_cnt[3];
};

/*
 * The measurement in progress, in the program's .bss; touched only on the
 * measured CPU. A global rather than a static: clang 14 splits a static
 * struct into pieces whose BTF the kernel rejects.
 */
struct hrt_meas {
	__u64 ltime, ldist, tbi, tintr;
	__u64 last_nmi_end;
	__u32 req_state, nmi, softirq, hrtimer_softirq;
	__s32 intr_cpu;
	__u8 armed, fired, in_idle, inited;
};

#endif
