/* SPDX-License-Identifier: MIT */
/*
 * What attrib.bpf.c and its loader (attrib_trace.c) share beyond the
 * event: the ring's slot and the counters in the program's .bss.
 * Fixed-width types only.
 */
#ifndef ATTRIB_BPF_H
#define ATTRIB_BPF_H

#include "attrib_event.h"

/*
 * One slot of the ring (an mmap'ed array map). seq is written last: the
 * slot holds record number seq - 1 once it equals that number plus one.
 */
struct attrib_slot {
	__u64 seq;
	struct attrib_event ev;
};

/* Cost slots: one per kind of record the programs make. */
#define ATTRIB_NCOST	(ATTRIB_LOST + 1)

/* Written on the measured CPU only (nested contexts: atomic adds). */
struct attrib_bpf_stats {
	__u64 lost;		/* events not stored: the ring was full */
	__u64 markers;		/* ATTRIB_LOST records stored */
	/* With cost_on: ns inside the programs, and how many, by kind. */
	__u64 cost_ns[ATTRIB_NCOST], cost_cnt[ATTRIB_NCOST];
};

#endif
