/* SPDX-License-Identifier: MIT */
/*
 * The tail's sentences, composed once for calc --explain's text and the
 * report's explanation section (doc/attribution.md has them): the
 * header, a line per category with its dominant causes, the notes and
 * counts, the max line. Each caller gathers the numbers its own way and
 * hands them over here; the words and number formats are these only.
 */
#ifndef WFW_XP_WORDS_H
#define WFW_XP_WORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "explain/explain.h"

/* Where, and how a value is shown. */
struct wfw_xp_say {
	FILE *f;
	enum wfw_xp_style st;		/* names escaped for the page or a terminal */
	const struct wfw_xp_threads *threads;	/* or NULL */
	const char *metric, *unit;	/* as shown (the caller escaped them) */
	int decimals;			/* the most a value shows */
};

/*
 * v in the unit with four digits or so (1904.2, 312.4, 20.99, 1.000),
 * at most `decimals` of them; NaN: "-".
 */
void wfw_xp_value(char *buf, size_t len, double v, int decimals);
/* The same with the unit, " us", if any. */
void wfw_xp_say_value(const struct wfw_xp_say *s, double v);
/* A value from the measured system (a group, a C-state; NULL: "-") as s->st shows it. */
void wfw_xp_say_name(const struct wfw_xp_say *s, const char *v);

/* "WakeLatency p99 (21.49 us) and above in ReqCState C6: 100 of 10000 datapoints, ..." */
struct wfw_xp_head {
	double pct;
	double thr;			/* the percentile's value */
	const char *group_col, *group;	/* one group's rows; group NULL: all */
	uint64_t nvalues;		/* datapoints of the group */
	uint64_t ntail;			/* 0: none, or too few for pct */
	uint64_t analysed;		/* of them, the largest (< ntail: said) */
	double lo, hi;			/* the tail's least and largest */
};
void wfw_xp_say_head(const struct wfw_xp_say *s, const struct wfw_xp_head *h);

/*
 * "  IRQ        78%  dominant in 91: irq:24 ... in 91 (median 96.00 us), ...":
 * category cat (WFW_XP_OTHER: a Cause of no known form, no share).
 */
void wfw_xp_say_cat(const struct wfw_xp_say *s, int cat, const struct wfw_xp_catsum *cs);

/* The tail's rows the shares leave out, and the counts of the rest. */
struct wfw_xp_notes {
	uint64_t none, broken, nocause;	/* no breakdown; identity broken; no Cause */
	const char *lost;		/* info.yml attrib_lost, or NULL */
	const char *lattxt;		/* the latency as the notes name it */
	uint64_t explained;		/* rows in the shares: 0, no counts line */
	bool col[WFW_XP_NCNT];		/* the count column is there */
	uint64_t have[WFW_XP_NCNT];	/* rows holding the count */
	double sum[WFW_XP_NCNT];
	const char *smi_why;		/* info.yml attrib_smi, or NULL */
};
void wfw_xp_say_notes(const struct wfw_xp_say *s, const struct wfw_xp_notes *n);

/* "max: 533.0 us, row 10000, ReqCState C6: IRQ 500.0 us (2 IRQs), ...; dominant ..." */
enum wfw_xp_max_kind { WFW_XP_MAX_OK, WFW_XP_MAX_NONE, WFW_XP_MAX_BROKEN };
struct wfw_xp_max {
	double lat;
	uint64_t row;			/* in the file, from 1 */
	const char *state_col, *state;	/* col NULL: not said; state NULL: "-" */
	enum wfw_xp_max_kind kind;
	double t[WFW_XP_NCAT];
	double cnt[WFW_XP_NCNT];	/* NaN: empty */
	const char *cause;		/* NULL: none */
	int64_t pid;
};
void wfw_xp_say_max(const struct wfw_xp_say *s, const struct wfw_xp_max *m);

/* The categories' lines in order: biggest share first, the idle exit last. */
void wfw_xp_cat_order(const double share[WFW_XP_NCAT], int order[WFW_XP_NCAT]);

#endif
