/* SPDX-License-Identifier: MIT */
/*
 * The accounting of latency attribution (doc/attribution.md): the event
 * stream of the measured CPU in, the columns of one interval out. Pure C,
 * no BPF: the plugin appends what the ring buffer gave, says how far the
 * stream is complete, then asks about each datapoint's interval.
 *
 * Calls, in the order the plugin makes them:
 *
 *	a = attrib_acct_new(0);
 *	attrib_acct_add(a, recs, n);		as records are drained
 *	attrib_acct_lost(a, from, to);		when the ring buffer dropped some
 *	attrib_acct_complete(a, t);		drained: nothing before t to come
 *	attrib_acct_explain(a, start, lat, &row);	per datapoint, by start
 *	attrib_acct_release(a, start);		no interval will start earlier
 *	attrib_acct_threads(a, &n);		for attrib-threads.csv
 *	attrib_acct_free(a);
 *
 * One thread calls it (no locking). Memory: the records from the oldest
 * interval still to come to the newest, 56 bytes each, at most max_events.
 */
#ifndef ATTRIB_ACCOUNT_H
#define ATTRIB_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attrib_event.h"

/* The dominant cause's kind (doc: `Cause`). */
enum attrib_cause {
	ATTRIB_CAUSE_EXIT,	/* idle-exit: the remainder */
	ATTRIB_CAUSE_IRQ,	/* id: IRQ number */
	ATTRIB_CAUSE_VEC,	/* id: enum attrib_vec */
	ATTRIB_CAUSE_SOFTIRQ,	/* id: softirq vector */
	ATTRIB_CAUSE_NMI,	/* NMIs as a whole */
	ATTRIB_CAUSE_THREAD,	/* id: pid */
};

/* The columns of one interval; the five times sum to its latency. */
struct attrib_row {
	uint64_t irq_ns, softirq_ns, nmi_ns, thread_ns, exit_ns;
	uint32_t irq_cnt, softirq_cnt, nmi_cnt;
	enum attrib_cause cause;
	uint32_t cause_id;
	int64_t cause_pid;	/* the pid when cause is THREAD, else -1 */
	uint64_t cause_ns;	/* the dominant contributor's own time */
	/*
	 * SMIs between the last record before the interval and the first
	 * at or after its end (both carrying a count, ATTRIB_F_SMI); -1 when
	 * either is missing or the count went back.
	 */
	int64_t smi_cnt;
};

/* What attrib_acct_explain() could say; only ATTRIB_OK fills the row. */
enum attrib_status {
	ATTRIB_OK,
	/* Events are missing: lost, or no task switch seen since (empty row). */
	ATTRIB_UNKNOWN,
	/* Starts before what was released: its events are gone (empty row). */
	ATTRIB_GONE,
	/* Ends after what the stream holds: ask again when it is complete. */
	ATTRIB_PENDING,
};

/* What was wrong with the stream (doc: "Malformed streams"). */
struct attrib_acct_stats {
	uint64_t events;	/* records appended and kept */
	uint64_t bad;		/* unknown kind or id: dropped */
	uint64_t reordered;	/* ts before the previous record's: moved up */
	uint64_t nmi_cut;	/* NMI reaching before the previous record */
	uint64_t late;		/* began before what complete() vouched for */
	/* Counted once the records are released (release(UINT64_MAX) at the end): */
	uint64_t unmatched_exits;	/* exit of nothing on the stack: ignored */
	uint64_t unclosed;	/* entries closed by another record than their exit */
	uint64_t too_deep;	/* entries beyond ATTRIB_MAX_DEPTH: ignored */
	uint64_t forced_releases;	/* the memory cap released records */
	uint64_t loss_windows;	/* attrib_acct_lost() calls, and failed adds */
	uint64_t smi_backwards;	/* rows whose SMI count went back: no SMICnt */
};

/* A thread named by CausePID, with the comm it had then. */
struct attrib_thread {
	uint32_t pid;
	char comm[ATTRIB_COMM_LEN];
};

/* Softirq vectors: 0 HI .. 9 RCU; a record naming another is dropped. */
#define ATTRIB_NSOFTIRQ 10
/* Deeper than softirq + hard IRQ + nested hard IRQ on any real kernel. */
#define ATTRIB_MAX_DEPTH 8
/* Records held at most by default (56 bytes each). */
#define ATTRIB_DEFAULT_MAX_EVENTS (1u << 20)

struct attrib_acct;

/* max_events: records held at most (0: the default); NULL when out of memory. */
struct attrib_acct *attrib_acct_new(size_t max_events);
void attrib_acct_free(struct attrib_acct *a);

/*
 * Append n records of the measured CPU in the order the ring buffer gave
 * them. Returns 0, or -ENOMEM: the records not kept count as lost.
 */
int attrib_acct_add(struct attrib_acct *a, const struct attrib_event *ev, size_t n);

/*
 * Every record that begins before t (an NMI at ts - dur) has been added:
 * an interval ending by t can be answered. Adding a record implies it for
 * its own ts.
 */
void attrib_acct_complete(struct attrib_acct *a, uint64_t t);

/*
 * Records that begin in [from, to] may be missing (the ring buffer was
 * full; an NMI begins at ts - dur): every interval from `from` until the
 * first task switch after `to` is ATTRIB_UNKNOWN. Call it before asking
 * about intervals ending after `from`.
 */
void attrib_acct_lost(struct attrib_acct *a, uint64_t from, uint64_t to);

/* No interval will start before t: frees the records before it. */
void attrib_acct_release(struct attrib_acct *a, uint64_t t);

/*
 * The columns of [start, start + latency). Intervals are asked in
 * increasing start order (an earlier one costs a replay of what is held).
 * A negative latency is ATTRIB_UNKNOWN.
 */
enum attrib_status attrib_acct_explain(struct attrib_acct *a, uint64_t start,
				       int64_t latency, struct attrib_row *row);

const struct attrib_acct_stats *attrib_acct_stats(const struct attrib_acct *a);

/*
 * Whether a record at or after t is held: an interval ending at t can
 * have its SMI count (attrib_row.smi_cnt) once one is.
 */
bool attrib_acct_seen(const struct attrib_acct *a, uint64_t t);

/*
 * Every pid a row's CausePID held so far, with the comm of the switch
 * record that made it run then (the latest such row's), in no order; *n
 * of them (0 and NULL also when out of memory). Valid until the next call.
 */
const struct attrib_thread *attrib_acct_threads(struct attrib_acct *a, size_t *n);

#endif
