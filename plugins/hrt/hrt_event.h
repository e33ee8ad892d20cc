/* SPDX-License-Identifier: MIT */
/*
 * What the hrt eBPF program (hrt.bpf.c) and its loader (hrt.c) share: the
 * ring buffer record and the counters in the program's .bss. Included by
 * both sides, so only fixed-width types.
 */
#ifndef HRT_EVENT_H
#define HRT_EVENT_H

/* Hardware counters the program reads (hrt_pmu.h: HRT_PMU_MAX). */
#define HRT_MAX_CTR	16
/* hrt_event.ctr_bad: a counter read failed at TBI or TAI. */
#define HRT_CTR_READ_FAILED	(1u << 31)

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
	/*
	 * Bit i: counter i did not count for all of TBI..TAI (its
	 * enabled - running time changed), so ctr[i] is not the idle
	 * period's; HRT_CTR_READ_FAILED: a read failed.
	 */
	__u32 ctr_bad;
	/*
	 * ns from TBI (TAI) to the end of the counter reads there: the
	 * counters were sampled somewhere inside, so they cover TAI - TBI
	 * + (ctr_span_tai - ctr_span_tbi) / 2, give or take half the spans.
	 */
	__u32 ctr_span_tbi, ctr_span_tai;
	__u32 pad;
	/* Counter deltas TBI..TAI, in hrt_pmu order; nctr of them valid. */
	__u64 ctr[HRT_MAX_CTR];
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
	/* bpf_perf_event_read_value() failures: how many, last error, which. */
	__u64 ctr_read_err;
	__s64 ctr_last_err;
	__u32 ctr_err_idx;
	__u32 pad;
};

/*
 * The measurement in progress, in the program's .bss; touched only on the
 * measured CPU. A global rather than a static: clang 14 splits a static
 * struct into pieces whose BTF the kernel rejects.
 */
struct hrt_meas {
	__u64 ltime, ldist, tbi, tintr;
	__u64 last_nmi_end;
	/* Counters at TBI and TAI, and their enabled - running times. */
	__u64 c_tbi[HRT_MAX_CTR], l_tbi[HRT_MAX_CTR];
	__u64 c_tai[HRT_MAX_CTR], l_tai[HRT_MAX_CTR];
	__u32 ctr_failed;	/* a read at TBI or TAI failed */
	__u32 ctr_span_tbi, ctr_span_tai;	/* as in struct hrt_event */
	__u32 req_state, nmi, softirq, hrtimer_softirq;
	__s32 intr_cpu;
	__u8 armed, fired, in_idle, inited;
};

#endif
