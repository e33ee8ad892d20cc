// SPDX-License-Identifier: GPL-2.0
/*
 * attrib: every context change on the measured CPU, as a struct
 * attrib_event in a ring (attrib_event.h, doc/attribution.md): hard IRQ
 * handlers, the x86 system vectors, softirqs, NMI handlers and task
 * switches. It runs on the CPU being measured, so each program does the
 * least it can: a CPU check, a claim, a timestamp, a few stores.
 *
 * The ring is an mmap'ed array written by this CPU alone, not a BPF ring
 * buffer: its reserve and submit (a spinlock with interrupts off, a
 * header, a wakeup check) cost a third more here (doc/attribution.md).
 * A record is claimed by moving head (compare-and-swap: an IRQ or NMI
 * program may interrupt us and claim too), filled, and committed by
 * writing its number + 1 into seq. Nothing is claimed while the ring is
 * full (head - tail, tail moved by the reader), so no slot is ever
 * overwritten and no claimed slot is left empty: the reader stops at the
 * first uncommitted one and goes on from there next time.
 *
 * The timestamp is taken after the claim. A record that a nested context
 * makes between our claim and our timestamp lies after ours in the ring
 * and is committed before ours: the reader, never reading past an
 * uncommitted slot, gets both in the same pass and sorts them.
 *
 * Nothing wakes the reader: it polls. A wakeup would queue irq_work on
 * the measured CPU, which this program would trace, and so on.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "attrib_bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load: the verifier sees them as constants. */
const volatile __u32 target_cpu;
const volatile __u32 ring_mask;	/* slots - 1, a power of two - 1 */
const volatile __u8 cost_on;	/* time each program into stats.cost_* */
const volatile __u8 smi_on;	/* read attrib_smi into each record */

/*
 * 1 while tracing: set after every program is attached and cleared
 * before any is detached, so the stream starts and ends whole (attaching
 * one by one, with the kernel's own IPIs between, leaves entries without
 * exits otherwise).
 */
volatile __u32 run;
volatile __u64 head;		/* records claimed */
volatile __u64 tail;		/* records the reader is done with */
struct attrib_bpf_stats stats;
/* Programs started: one that changed meanwhile had another nested in it. */
__u64 started;
/* Lost events not yet marked in the stream: how many, since when. */
__u64 lost_pending, lost_from;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1 << 16);	/* set by the loader: ring_mask + 1 */
	__type(key, __u32);
	__type(value, struct attrib_slot);
} attrib_ring SEC(".maps");

/*
 * The SMI count of the measured CPU: the msr PMU's smi event (a stand-in
 * event of that PMU in tests), opened for target_cpu by the loader. Only
 * read on that CPU, so slot 0 and no BPF_F_CURRENT_CPU.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);
} attrib_smi SEC(".maps");

/* Claim the next slot: its record number, or -1 if the ring is full. */
static __always_inline __s64 claim(void)
{
	__u64 cur;
	int i;

	/* A retry means a nested program claimed meanwhile: rare. */
	for (i = 0; i < 4; i++) {
		cur = head;
		if (cur - tail > ring_mask)
			return -1;
		if (__sync_val_compare_and_swap(&head, cur, cur + 1) == cur)
			return (__s64)cur;
	}
	return -1;
}

static __always_inline struct attrib_slot *slot_of(__s64 n)
{
	__u32 k = (__u32)n & ring_mask;

	return bpf_map_lookup_elem(&attrib_ring, &k);
}

/* Commit: the reader may take the slot once seq is its number + 1. */
static __always_inline void commit(struct attrib_slot *s, __s64 n)
{
	__sync_lock_test_and_set(&s->seq, (__u64)n + 1);
}

/*
 * The SMI count right after the timestamp; flags say if it is there, and
 * if a nested program (started after n0) may have delayed the read.
 */
static __always_inline void read_smi(struct attrib_event *ev, __u64 n0)
{
	struct bpf_perf_event_value v;

	ev->flags = 0;
	ev->smi = 0;
	ev->pad = 0;
	if (!smi_on || bpf_perf_event_read_value(&attrib_smi, 0, &v, sizeof(v)))
		return;
	ev->smi = v.counter;
	ev->flags = ATTRIB_F_SMI | (started != n0 ? ATTRIB_F_SMI_LATE : 0);
}

static __always_inline void lost(void)
{
	__u64 now = bpf_ktime_get_ns();

	__sync_fetch_and_add(&stats.lost, 1);
	/* From first: whoever sees lost_pending finds it set. */
	__sync_val_compare_and_swap(&lost_from, 0, now);
	__sync_fetch_and_add(&lost_pending, 1);
}

/* Say in the stream that events were lost, before the next one. */
static __noinline int mark_lost(void)
{
	struct attrib_slot *s;
	__u64 from, cnt, n0 = __sync_add_and_fetch(&started, 1);
	__s64 n;

	from = __sync_lock_test_and_set(&lost_from, 0);
	cnt = __sync_lock_test_and_set(&lost_pending, 0);
	n = claim();
	s = n < 0 ? NULL : slot_of(n);
	if (!s) {
		/* Still full: put them back (an older start is the right one). */
		__sync_fetch_and_add(&lost_pending, cnt);
		lost_from = from;
		return 0;
	}
	s->ev.ts = bpf_ktime_get_ns();
	/* No start seen (a race with a nested loss): all before is suspect. */
	s->ev.dur = from && from <= s->ev.ts ? s->ev.ts - from : s->ev.ts;
	s->ev.kind = ATTRIB_LOST;
	s->ev.id = cnt > 0xffffffffULL ? 0 : (__u32)cnt;
	__builtin_memset(s->ev.comm, 0, sizeof(s->ev.comm));
	read_smi(&s->ev, n0);
	commit(s, n);
	__sync_fetch_and_add(&stats.markers, 1);
	return 0;
}

static __always_inline void emit(__u32 kind, __u32 id, __u64 dur,
				 struct task_struct *next)
{
	struct attrib_slot *s;
	__u64 t0 = 0, n0 = 0;
	__s64 n;

	if (cost_on)
		t0 = bpf_ktime_get_ns();
	if (smi_on)
		n0 = __sync_add_and_fetch(&started, 1);
	if (lost_pending)
		mark_lost();
	n = claim();
	if (n < 0) {
		lost();
		return;
	}
	s = slot_of(n);
	if (!s)
		return;	/* cannot happen: the index is masked */
	s->ev.ts = bpf_ktime_get_ns();
	read_smi(&s->ev, n0);
	s->ev.dur = dur;
	s->ev.kind = kind;
	s->ev.id = id;
	if (next)
		__builtin_memcpy(s->ev.comm, next->comm, sizeof(s->ev.comm));
	else
		__builtin_memset(s->ev.comm, 0, sizeof(s->ev.comm));
	commit(s, n);
	if (cost_on && kind < ATTRIB_NCOST) {
		__sync_fetch_and_add(&stats.cost_ns[kind], bpf_ktime_get_ns() - t0);
		__sync_fetch_and_add(&stats.cost_cnt[kind], 1);
	}
}

#define ON_CPU() (bpf_get_smp_processor_id() == target_cpu && run)

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(attrib_irq_entry, int irq)
{
	if (ON_CPU())
		emit(ATTRIB_IRQ_ENTRY, (__u32)irq, 0, NULL);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(attrib_irq_exit, int irq)
{
	if (ON_CPU())
		emit(ATTRIB_IRQ_EXIT, (__u32)irq, 0, NULL);
	return 0;
}

/* One entry/exit pair per x86 system vector; names match the BTF. */
#define VEC_PROGS(tp, vec)						\
SEC("tp_btf/" #tp "_entry")						\
int BPF_PROG(attrib_##tp##_entry)					\
{									\
	if (ON_CPU())							\
		emit(ATTRIB_VEC_ENTRY, vec, 0, NULL);			\
	return 0;							\
}									\
SEC("tp_btf/" #tp "_exit")						\
int BPF_PROG(attrib_##tp##_exit)					\
{									\
	if (ON_CPU())							\
		emit(ATTRIB_VEC_EXIT, vec, 0, NULL);			\
	return 0;							\
}

VEC_PROGS(local_timer, ATTRIB_VEC_LOC)
VEC_PROGS(call_function, ATTRIB_VEC_CAL)
VEC_PROGS(call_function_single, ATTRIB_VEC_CAL)
VEC_PROGS(reschedule, ATTRIB_VEC_RES)
VEC_PROGS(irq_work, ATTRIB_VEC_IWI)

SEC("tp_btf/softirq_entry")
int BPF_PROG(attrib_softirq_entry, unsigned int vec_nr)
{
	if (ON_CPU())
		emit(ATTRIB_SOFTIRQ_ENTRY, vec_nr, 0, NULL);
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(attrib_softirq_exit, unsigned int vec_nr)
{
	if (ON_CPU())
		emit(ATTRIB_SOFTIRQ_EXIT, vec_nr, 0, NULL);
	return 0;
}

SEC("tp_btf/nmi_handler")
int BPF_PROG(attrib_nmi_handler, void *handler, s64 delta_ns, int handled)
{
	if (ON_CPU())
		emit(ATTRIB_NMI, 0, delta_ns > 0 ? (__u64)delta_ns : 0, NULL);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(attrib_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	if (ON_CPU())
		emit(ATTRIB_SWITCH, (__u32)next->pid, 0, next);
	return 0;
}
