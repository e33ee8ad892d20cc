/* SPDX-License-Identifier: MIT */
/*
 * What the attribution eBPF program (attrib.bpf.c) hands to user space
 * (attrib_trace.c) and what the accounting (attrib_account.c) reads: one
 * record per context change on the measured CPU. Included by both sides,
 * so only fixed-width types (doc/attribution.md).
 */
#ifndef ATTRIB_EVENT_H
#define ATTRIB_EVENT_H

#if !defined(__KERNEL__) && !defined(__bpf__)	/* BPF: vmlinux.h has them */
#include <linux/types.h>
#endif

#define ATTRIB_COMM_LEN 16

enum attrib_kind {
	ATTRIB_IRQ_ENTRY = 1,	/* id: IRQ number (irq_handler_entry) */
	ATTRIB_IRQ_EXIT,	/* id: IRQ number */
	ATTRIB_VEC_ENTRY,	/* id: enum attrib_vec (x86 system vectors) */
	ATTRIB_VEC_EXIT,	/* id: enum attrib_vec */
	ATTRIB_SOFTIRQ_ENTRY,	/* id: softirq vector (0 HI .. 9 RCU) */
	ATTRIB_SOFTIRQ_EXIT,	/* id: softirq vector */
	/*
	 * ts: the handler's end; dur: its length. One per handler the NMI
	 * ran (nmi_handler): an NMI that runs several gives several records
	 * back to back, to be counted as one NMI.
	 */
	ATTRIB_NMI,
	ATTRIB_SWITCH,		/* id: next pid (0: idle); comm: next's */
	/*
	 * Not a context change: events were lost (ring buffer full, or one
	 * arrived after later ones had been handed on). Any event in
	 * [ts - dur, ts] may be missing, and with it which context ran
	 * there and after, until the next switch record; id: how many were
	 * lost, 0 if unknown.
	 */
	ATTRIB_LOST,
};

/* flags: smi holds the SMI count read just after ts (smi_event option). */
#define ATTRIB_F_SMI	1u
/*
 * Another program ran nested between this one's start and its read: the
 * count may have been read well after ts, so it bounds only from above.
 */
#define ATTRIB_F_SMI_LATE	2u

/* x86 system vectors, as /proc/interrupts abbreviates them. */
enum attrib_vec {
	ATTRIB_VEC_LOC,		/* local timer */
	ATTRIB_VEC_CAL,		/* function call (single and many) */
	ATTRIB_VEC_RES,		/* reschedule */
	ATTRIB_VEC_IWI,		/* irq_work */
	ATTRIB_NVEC,
};

/*
 * User space (attrib_trace.h) hands these on in time order: ts never
 * decreases; records of equal ts keep the order the CPU made them in.
 */
struct attrib_event {
	__u64 ts;		/* CLOCK_MONOTONIC ns (bpf_ktime_get_ns) */
	__u64 dur;		/* ATTRIB_NMI only: ns */
	__u32 kind;		/* enum attrib_kind */
	__u32 id;
	char comm[ATTRIB_COMM_LEN];	/* ATTRIB_SWITCH only */
	/*
	 * The measured CPU's SMI count (the msr PMU's smi event, 64 bits,
	 * never wrapping) right after ts, when flags has ATTRIB_F_SMI.
	 */
	__u64 smi;
	__u32 flags;
	__u32 pad;
};

#endif
