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
 * Hardware counters (msr/tsc, aperf, mperf, smi, cstate_* residencies; the
 * ones this machine has, opened on the measured CPU by hrt_pmu.c) are read
 * right after TBI and right after TAI, so each record carries their deltas
 * over exactly its own idle period.
 *
 * Re-arming at idle exit keeps the CPU's pattern "run a little, go idle,
 * get woken by our timer" and never arms while a datapoint is open. If the
 * timer fires while the CPU is not idle there is no datapoint: the callback
 * counts it as busy and leaves the timer unarmed; the next idle entry arms
 * it (LTime = entry + LDist). Re-arming from the callback instead would, at
 * launch distances shorter than the CPU's busy stretches, turn into a
 * timer-interrupt storm that never lets the CPU go idle (seen at 2-5 us).
 *
 * GPL: bpf_timer helpers are GPL-only.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "hrt_event.h"
#include "wultfw/ldist.h"

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
__u32 nctr;			/* counters in hrt_ctrs, 0..HRT_MAX_CTR */
struct hrt_stats stats;

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

/* Perf events on the measured CPU, index = hrt_pmu order. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, HRT_MAX_CTR);
} hrt_ctrs SEC(".maps");

/* The open measurement (hrt_event.h); global, not static: see there. */
struct hrt_meas m;

/* The same generator as user space and the kernel modules. */
static __u64 pick_ldist(void)
{
	return wultfw_ldist_pick(&rng, ldist_from, ldist_to, ldist_gran);
}

static int timer_cb(void *map, __u32 *key, struct hrt_timer *tm);

/*
 * Read every counter into val[]; lost[] gets enabled - running, which
 * stays constant while the event counts. Returns 0, or -1 after counting
 * the failure (user space stops the run and names the counter).
 */
static int read_ctrs(__u64 *val, __u64 *lost)
{
	struct bpf_perf_event_value v;
	__u32 i;
	long err;

	for (i = 0; i < HRT_MAX_CTR && i < nctr; i++) {
		err = bpf_perf_event_read_value(&hrt_ctrs, i, &v, sizeof(v));
		if (err) {
			stats.ctr_read_err++;
			stats.ctr_last_err = err;
			stats.ctr_err_idx = i;
			return -1;
		}
		val[i] = v.counter;
		lost[i] = v.enabled - v.running;
	}
	return 0;
}

static void arm(struct hrt_timer *tm, __u64 now)
{
	long err;

	m.ldist = pick_ldist();
	m.ltime = now + m.ldist;
	m.tbi = m.tintr = 0;
	m.nmi = m.softirq = m.hrtimer_softirq = 0;
	m.intr_cpu = -1;
	m.fired = 0;
	m.armed = 1;
	err = bpf_timer_start(&tm->t, m.ltime, HRT_TIMER_ABS | HRT_TIMER_CPU_PIN);
	if (err) {
		/* -EINVAL here: a kernel older than 6.7 (no CPU pinning). */
		m.armed = 0;
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
		m.armed = 0;
		return 0;
	}
	m.tintr = now;
	m.intr_cpu = cpu;	/* another CPU: dropped by user space */
	m.fired = 1;
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
	e->nmi = m.nmi;
	/* The HRTIMER softirq that ran our callback is not a disturbance. */
	e->softirq = m.softirq + (m.hrtimer_softirq ? m.hrtimer_softirq - 1 : 0);
	e->ctr_bad = m.ctr_failed ? HRT_CTR_READ_FAILED : 0;
	e->ctr_span_tbi = m.ctr_span_tbi;
	e->ctr_span_tai = m.ctr_span_tai;
	for (__u32 i = 0; i < HRT_MAX_CTR; i++) {
		if (i < nctr) {
			e->ctr[i] = m.c_tai[i] - m.c_tbi[i];
			if (m.l_tai[i] != m.l_tbi[i])
				e->ctr_bad |= 1u << i;
		} else {
			e->ctr[i] = 0;
		}
	}
	/* No wakeup: it would send an IPI/irq_work to the measured CPU. */
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	stats.events++;
}

/* What the probe itself took on the measured CPU, by path. */
static void cost(int path, __u64 start)
{
	stats.cost_ns[path] += bpf_ktime_get_ns() - start;
	stats.cost_cnt[path]++;
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
		m.in_idle = 1;
		if (state < 8)
			stats.idle_entries[state]++;
		if (!m.inited) {
			/* First event on the measured CPU: pin the timer here. */
			bpf_timer_init(&tm->t, &hrt_timers, HRT_CLOCK_MONOTONIC);
			bpf_timer_set_callback(&tm->t, timer_cb);
			m.inited = 1;
		}
		if (!m.armed)	/* first time, or the last timer found us busy */
			arm(tm, now);
		if (m.armed && !m.fired) {
			/*
			 * The last idle entry before LTime counts. TBI is taken
			 * after a possible (slow) arm above: the CPU cannot halt
			 * before that, so a timer due earlier (a launch distance
			 * shorter than this probe) gives TBI >= LTime and the
			 * datapoint is dropped instead of passing for a wake
			 * from idle. The counters follow TBI at once.
			 */
			m.tbi = bpf_ktime_get_ns();
			m.req_state = state;
			if (nctr) {
				m.ctr_failed = read_ctrs(m.c_tbi, m.l_tbi) ? 1 : 0;
				m.ctr_span_tbi = bpf_ktime_get_ns() - m.tbi;
			}
		}
		cost(HRT_COST_ENTRY, now);
		return 0;
	}

	m.in_idle = 0;
	if (!m.armed || !m.fired) {
		/* Woken by something else; keep waiting for our timer. */
		if (m.armed && m.tbi)
			stats.early_exits++;
		cost(HRT_COST_EXIT, now);
		return 0;
	}
	if (nctr) {
		if (read_ctrs(m.c_tai, m.l_tai))
			m.ctr_failed = 1;
		m.ctr_span_tai = bpf_ktime_get_ns() - now;
	}
	submit(now);
	m.armed = 0;
	arm(tm, bpf_ktime_get_ns());
	cost(HRT_COST_EXIT_DP, now);
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

/*
 * nmi_handler fires once per handler an NMI runs (perf, watchdog, ...), so
 * handlers that start within 2 us of the previous one's end are taken as
 * the same NMI. Counted from LTime to TAI: an NMI before LTime ends the
 * idle period early and the datapoint then starts from the next idle entry.
 */
SEC("tp_btf/nmi_handler")
int BPF_PROG(hrt_nmi_handler, void *handler, s64 delta_ns, int handled)
{
	__u64 now;

	if (bpf_get_smp_processor_id() != target_cpu || !m.armed || !m.tbi)
		return 0;
	now = bpf_ktime_get_ns();
	if (now < m.ltime)
		return 0;
	if (now - delta_ns > m.last_nmi_end + 2000)
		m.nmi++;
	m.last_nmi_end = now;
	return 0;
}
