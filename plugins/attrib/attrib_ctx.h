/* SPDX-License-Identifier: MIT */
/*
 * The context of the measured CPU as the records say it: the stack of
 * hard IRQ and softirq handlers running, the current task, and whether
 * records may be missing. One record at a time, with the rules for
 * malformed streams (doc/attribution.md, "Malformed streams").
 */
#ifndef ATTRIB_CTX_H
#define ATTRIB_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attrib_account.h"

struct attrib_frame {
	uint32_t kind;		/* ATTRIB_IRQ_ENTRY, _VEC_ENTRY or _SOFTIRQ_ENTRY */
	uint32_t id;
	bool own;		/* the measured event's own delivery */
};

struct attrib_ctx {
	uint64_t t;		/* every record with ts < t applied */
	size_t next;		/* absolute index of the next record */
	/*
	 * Records may be missing before here: the stack and the task are
	 * not known again before a task switch after taint_to.
	 */
	bool tainted;
	uint64_t taint_to;
	uint32_t depth;
	struct attrib_frame stack[ATTRIB_MAX_DEPTH];
	uint32_t pid;		/* the current task */
	char comm[ATTRIB_COMM_LEN];
	/* The SMI count of the last record applied, if it had one. */
	bool smi_ok;
	uint64_t smi;
};

/* The stream's start: nothing known before the first task switch. */
void attrib_ctx_init(struct attrib_ctx *c);

/* Records in [.., to] may be missing. */
void attrib_ctx_taint(struct attrib_ctx *c, uint64_t to);

/*
 * Apply one record (not an NMI: it changes no context); own marks the
 * entry pushed as the measured event's delivery. Counts what was wrong in
 * st (may be NULL). Returns whether an entry was pushed.
 */
bool attrib_ctx_step(struct attrib_ctx *c, const struct attrib_event *ev, bool own,
		     struct attrib_acct_stats *st);

#endif
