/* SPDX-License-Identifier: MIT */
/*
 * One interval's time per contributor (an IRQ number, a system vector, a
 * softirq vector, NMIs, a thread, the remainder) and its counts, made
 * into the row: the five times, which sum to what was charged, and the
 * dominant cause with doc/attribution.md's ties.
 */
#ifndef ATTRIB_SUMS_H
#define ATTRIB_SUMS_H

#include <stdbool.h>
#include <stdint.h>

#include "attrib_account.h"
#include "attrib_map.h"

struct attrib_sums {
	struct attrib_map by;	/* key: cause << 32 | id */
	uint64_t exit_ns, nmi_ns;
	uint32_t irq_cnt, softirq_cnt, nmi_cnt;
	bool nomem;		/* a contributor could not be kept */
};

void attrib_sums_reset(struct attrib_sums *s);
/* ns of cause/id (EXIT and NMI take no id); comm: a thread's, else NULL. */
void attrib_sums_add(struct attrib_sums *s, enum attrib_cause cause, uint32_t id,
		     uint64_t ns, const char *comm);
/*
 * The row, the measuring task's time (pid, unless 0) moved to the
 * remainder; *comm points at the comm of a THREAD cause. Returns -1 when
 * memory ran out on the way (the row is then not filled).
 */
int attrib_sums_row(struct attrib_sums *s, uint32_t measuring_pid,
		    struct attrib_row *row, const char **comm);
void attrib_sums_fini(struct attrib_sums *s);

#endif
