/* SPDX-License-Identifier: MIT */
/*
 * CPUs side by side: one latency metric's summary per CPU per C-state of
 * an experiment that measured several CPUs, and the CPUs whose tail
 * stands out. The rule: a CPU is flagged in a C-state when its p99.9 is
 * more than WFW_CPUTAB_FACTOR times the median of the other CPUs' p99.9
 * in that C-state (needs two CPUs or more with datapoints there).
 */
#ifndef WFW_STATS_CPUTAB_H
#define WFW_STATS_CPUTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WFW_CPUTAB_FACTOR 2.0

struct wfw_cputab_row {
	unsigned cpu;
	char state[64];		/* a C-state's name, or "all" */
	uint64_t count;
	double median, p99, p999, max;
	double others;		/* the other CPUs' median p99.9 (NAN: none) */
	bool flagged;
};

struct wfw_cputab {
	char metric[128];
	char unit[32];
	struct wfw_cputab_row *row;
	size_t n, cap;
};

/* Append a row (flags not yet set). 0 or -ENOMEM. */
int wfw_cputab_add(struct wfw_cputab *t, const struct wfw_cputab_row *row);

/* Set every row's `others` and `flagged` by the rule above. */
void wfw_cputab_flag(struct wfw_cputab *t);

/* The table as aligned text (markdown: a markdown table), rule stated. */
void wfw_cputab_print(const struct wfw_cputab *t, FILE *f, bool markdown);

/* The rule, one sentence, for outputs that state it (report). */
const char *wfw_cputab_rule(void);

void wfw_cputab_free(struct wfw_cputab *t);

#endif
