// SPDX-License-Identifier: GPL-2.0
/*
 * hrt: wake latency measured with a bpf_timer and the cpu_idle tracepoint.
 *
 * One measurement on the measured CPU:
 *   arm:       LTime = now + LDist; a bpf_timer pinned to this CPU, absolute
 *   idle entry (tp_btf/cpu_idle, state != EXIT): TBI, requested state
 *   timer callback (softirq, same CPU): TIntr
 *   idle exit  (tp_btf/cpu_idle, state == EXIT) after the callback: TAI,
 *              submit the record, re-arm from here.
 * Re-arming at idle exit keeps the CPU's pattern "run a little, go idle,
 * get woken by our timer" and never arms while a datapoint is open. If the
 * timer fires while the CPU is not idle there is no datapoint: the callback
 * counts it as busy and re-arms itself (nothing else would).
 *
 * GPL: bpf_timer helpers are GPL-only.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "hrt_event.h"

char LICENSE[] SEC("license") = "GPL";

/* uapi values; libbpf 1.1 headers predate them (Linux 6.4 and 6.7). */
#define HRT_TIMER_ABS		(1ULL << 0)
#define HRT_TIMER_CPU_PIN	(1ULL << 1)
#define HRT_CLOCK_MONOTONIC	1
#define HRT_PWR_EVENT_EXIT	((unsigned int)-1)
#define HRT_HRTIMER_SOFTIRQ	8

/* Set by user space before run goes to 1. */
__u32 target_cpu;
__u64 ldist_from, ldist_to, ldist_gran;
__u64 rng;			/* splitmix64 state */
volatile __u32 run;		/* 1: measure; 0: stop arming */
struct hrt_stats stats;

/* Per-CPU NMI count (x86); weak so the program loads where it is absent. */
extern irq_cpustat_t irq_stat __ksym __weak;

struct hrt_timer {
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hrt_timer);
} hrt_timers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);	/* resized by the loader */
} hrt_rb SEC(".maps");

/* The open measurement; touched only on the measured CPU. */
static struct {
	__u64 ltime, ldist, tbi, tintr;
	__u32 req_state, nmi_bi, softirq, hrtimer_softirq;
	__s32 intr_cpu;
	bool armed, fired, in_idle, inited;
} m;

static __u64 next_rand(void)
{
	__u64 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static __u64 pick_ldist(void)
{
	__u64 span = ldist_to - ldist_from + 1;
	__u64 v = span ? ldist_from + next_rand() % span : ldist_from;

	if (ldist_gran > 1) {
		v -= v % ldist_gran;
		if (v < ldist_from)
			v += ldist_gran;
	}
	return v;
}

static __u32 nmi_count(void)
{
	irq_cpustat_t *st;

	if (!bpf_core_field_exists(irq_cpustat_t, __nmi_count) || !&irq_stat)
		return 0;
	st = bpf_this_cpu_ptr(&irq_stat);
	return BPF_CORE_READ(st, __nmi_count);
}

static int timer_cb(void *map, __u32 *key, struct hrt_timer *tm);

static void arm(struct hrt_timer *tm, __u64 now)
{
	long err;

	m.ldist = pick_ldist();
	m.ltime = now + m.ldist;
	m.tbi = m.tintr = 0;
	m.softirq = m.hrtimer_softirq = 0;
	m.intr_cpu = -1;
	m.fired = false;
	m.armed = true;
	err = bpf_timer_start(&tm->t, m.ltime, HRT_TIMER_ABS | HRT_TIMER_CPU_PIN);
	if (err) {
		/* -EINVAL here: a kernel older than 6.7 (no CPU pinning). */
		m.armed = false;
		stats.arm_errors++;
		stats.last_error = err;
		return;
	}
	stats.arms++;
}

static int timer_cb(void *map, __u32 *key, struct hrt_timer *tm)
{
	__u64 now = bpf_ktime_get_ns();
	__s32 cpu = bpf_get_smp_processor_id();

	if (!run || !m.armed || m.fired)
		return 0;
	if (cpu == target_cpu && !m.in_idle) {
		/* The CPU was busy at LTime: no wake-up to measure. */
		stats.busy++;
		arm(tm, now);
		return 0;
	}
	m.tintr = now;
	m.intr_cpu = cpu;	/* another CPU: dropped by user space */
	m.fired = true;
	return 0;
}

static void submit(__u64 tai)
{
	struct hrt_event *e = bpf_ringbuf_reserve(&hrt_rb, sizeof(*e), 0);

	if (!e) {
		stats.rb_full++;
		return;
	}
	e->ltime = m.ltime;
	e->tbi = m.tbi;
	e->tai = tai;
	e->tintr = m.tintr;
	e->ldist = m.ldist;
	e->req_state = m.req_state;
	e->intr_cpu = m.intr_cpu;
	e->nmi = nmi_count() - m.nmi_bi;
	/* The HRTIMER softirq that ran our callback is not a disturbance. */
	e->softirq = m.softirq + (m.hrtimer_softirq ? m.hrtimer_softirq - 1 : 0);
	/* No wakeup: it would send an IPI/irq_work to the measured CPU. */
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	stats.events++;
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(hrt_cpu_idle, unsigned int state, unsigned int cpu_id)
{
	struct hrt_timer *tm;
	__u32 key = 0;
	__u64 now;

	if (cpu_id != target_cpu || !run)
		return 0;
	now = bpf_ktime_get_ns();
	tm = bpf_map_lookup_elem(&hrt_timers, &key);
	if (!tm)
		return 0;

	if (state != HRT_PWR_EVENT_EXIT) {
		m.in_idle = true;
		if (!m.inited) {
			/* First event on the measured CPU: pin the timer here. */
			bpf_timer_init(&tm->t, &hrt_timers, HRT_CLOCK_MONOTONIC);
			bpf_timer_set_callback(&tm->t, timer_cb);
			m.inited = true;
			arm(tm, now);
		}
		if (m.armed && !m.fired) {
			/* The last idle entry before LTime counts. */
			m.tbi = now;
			m.req_state = state;
			m.nmi_bi = nmi_count();
		}
		return 0;
	}

	m.in_idle = false;
	if (!m.armed)
		return 0;
	if (!m.fired) {
		/* Woken by something else; keep waiting for our timer. */
		if (m.tbi)
			stats.early_exits++;
		return 0;
	}
	submit(now);
	m.armed = false;
	arm(tm, bpf_ktime_get_ns());
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(hrt_softirq_entry, unsigned int vec_nr)
{
	if (bpf_get_smp_processor_id() != target_cpu || !m.armed ||
	    !m.tbi || bpf_ktime_get_ns() < m.ltime)
		return 0;
	if (vec_nr == HRT_HRTIMER_SOFTIRQ)
		m.hrtimer_softirq++;
	else
		m.softirq++;
	return 0;
}
