/* SPDX-License-Identifier: MIT */
/*
 * Members of a group side by side: one latency metric's summary per member
 * (a CPU of an experiment, a SUT of a fleet) per C-state, and the members
 * whose tail stands out against the others. The rule: a member is flagged
 * in a C-state when its p99.9 is more than rule->factor times the median
 * of the OTHER members' p99.9 in that C-state, and above rule->floor
 * (needs two members or more with datapoints there). The median of the
 * others, not of all, so one bad member cannot raise its own bar.
 */
#ifndef WFW_STATS_GROUPTAB_H
#define WFW_STATS_GROUPTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a member is called, how it is shown and when it is flagged. */
struct wfw_grouptab_rule {
	const char *member;	/* "CPU", "SUT" */
	const char *flag_col;	/* the flag column's heading */
	const char *flag_word;	/* in that column when flagged */
	int label_width;	/* > 0: labels right-aligned that wide; 0: fitted, left */
	double factor;		/* p99.9 > factor x the others' median */
	double floor;		/* and p99.9 > floor (metric's unit) */
	bool reference;		/* print the group's median rows */
};

/* CPUs of an experiment: 2x, no floor, "STANDS OUT" in "tail". */
extern const struct wfw_grouptab_rule wfw_grouptab_cpus;
/* SUTs of a fleet: 2x and above 1 unit, "OUTLIER" in "flag". */
extern const struct wfw_grouptab_rule wfw_grouptab_suts;

struct wfw_grouptab_row {
	char label[64];		/* the member: "3" (CPU), "sut7" (SUT) */
	char state[64];		/* a C-state's name, or "all" */
	uint64_t count;
	double median, p99, p999, max;
	double others;		/* the other members' median p99.9 (NAN: none) */
	bool flagged;
};

struct wfw_grouptab {
	const struct wfw_grouptab_rule *rule;
	char metric[128];
	char unit[32];
	struct wfw_grouptab_row *row;
	size_t n, cap;
	/* Every member's datapoints as one, per C-state (label "pooled"). */
	struct wfw_grouptab_row *pooled;
	size_t npooled;
	char pooled_note[300];	/* why there are none, if so */
};

/* Append a row (flags not yet set). 0 or -ENOMEM. */
int wfw_grouptab_add(struct wfw_grouptab *t, const struct wfw_grouptab_row *row);

/* Append a pooled row. 0 or -ENOMEM. */
int wfw_grouptab_add_pooled(struct wfw_grouptab *t, const struct wfw_grouptab_row *row);
/* The pooled row of `state`, or NULL. */
const struct wfw_grouptab_row *wfw_grouptab_pooled(const struct wfw_grouptab *t,
						   const char *state);

/* Set every row's `others` and `flagged` by t->rule. */
void wfw_grouptab_flag(struct wfw_grouptab *t);

/*
 * The group's own reference in C-state `state`: the median across members
 * (with datapoints there) of each statistic, count included, into ref
 * (label "median"). False when no member has datapoints there.
 */
bool wfw_grouptab_reference(const struct wfw_grouptab *t, const char *state,
			    struct wfw_grouptab_row *ref);

/* The states of t in first-seen order, each once, "all" last: n filled into v. */
size_t wfw_grouptab_states(const struct wfw_grouptab *t, const char **v, size_t max);

/* The table as aligned text (markdown: a markdown table), rule stated. */
void wfw_grouptab_print(const struct wfw_grouptab *t, FILE *f, bool markdown);

/* t->rule in one sentence, for outputs that state it (report, CSV). */
const char *wfw_grouptab_rule_text(const struct wfw_grouptab *t);

void wfw_grouptab_free(struct wfw_grouptab *t);

#endif
