/* SPDX-License-Identifier: MIT */
/*
 * Where the time of a latency's tail went, in plain words: the shared
 * words of `wultfw calc --explain` and the report's explanation section
 * (doc/attribution.md). The caller finds the tail's rows (those at or
 * above a percentile of the explained latency) and the largest one; this
 * turns them into the category shares and dominant causes, and prints
 * them. Names (Cause, a thread's comm) come from the measured system:
 * printed with control bytes escaped, so a terminal shows them as text.
 */
#ifndef WFW_EXPLAIN_H
#define WFW_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "explain/threads.h"

/*
 * The categories of the time columns, in the order the report's words
 * give them; WFW_XP_OTHER: a Cause of no known form.
 */
enum wfw_xp_cat {
	WFW_XP_IRQ,
	WFW_XP_SOFTIRQ,
	WFW_XP_THREAD,
	WFW_XP_NMI,
	WFW_XP_EXIT,
	WFW_XP_NCAT,
	WFW_XP_OTHER = WFW_XP_NCAT
};

/* Their columns (IRQTime, ...), words (IRQ, ..., other), JSON names (irq, ...). */
extern const char *const wfw_xp_time_cols[WFW_XP_NCAT];
extern const char *const wfw_xp_labels[WFW_XP_NCAT + 1];
extern const char *const wfw_xp_json[WFW_XP_NCAT + 1];
/*
 * The identity's order, IRQTime + SoftIRQTime + NMITime + ThreadTime +
 * ExitTime (the columns' in a result): calc's words list and break ties
 * in it.
 */
extern const int wfw_xp_col_order[WFW_XP_NCAT];

/* The count columns, SMICnt last (absent where the CPU has none). */
enum wfw_xp_cnt { WFW_XP_CNT_IRQ, WFW_XP_CNT_SWIRQ, WFW_XP_CNT_NMI, WFW_XP_CNT_SMI };
#define WFW_XP_NCNT 4
extern const char *const wfw_xp_count_cols[WFW_XP_NCNT];
/* What they count: singular, plural ("IRQ", "IRQs"). */
extern const char *const wfw_xp_count_words[WFW_XP_NCNT][2];

/*
 * The category a Cause name is of: irq:NAME, softirq:NAME, nmi, thread,
 * idle-exit; WFW_XP_OTHER for NULL or any other form.
 */
int wfw_xp_cause_cat(const char *cause);

/* One datapoint. */
struct wfw_xp_row {
	double lat;			/* the explained latency */
	double t[WFW_XP_NCAT];		/* its parts; NaN: no breakdown (events lost) */
	const char *cause;		/* Cause, NULL: empty */
	int64_t pid;			/* CausePID, -1: empty */
	const char *cstate;		/* ReqCState, NULL: none */
	double cnt[WFW_XP_NCNT];	/* IRQCnt ... SMICnt; NaN: empty, or no column */
	uint64_t row;			/* the row's index in its file, from 0 */
};

static inline bool wfw_xp_explained(const struct wfw_xp_row *r)
{
	for (int c = 0; c < WFW_XP_NCAT; c++)
		if (r->t[c] != r->t[c])
			return false;
	return true;
}

/* What to explain: the tail of a latency at or above percentile pct. */
struct wfw_xp_in {
	const char *metric, *unit;	/* WakeLatency, us */
	double pct;			/* 99.9 */
	uint64_t nvalues;		/* datapoints with the latency, in all */
	/*
	 * The tail's rows (any order), or its `n` largest when ntail > n.
	 * ntail 0: too few datapoints for pct (it needs 100 / (100 - pct)).
	 */
	const struct wfw_xp_row *rows;
	size_t n;
	uint64_t ntail;
	const struct wfw_xp_row *max;	/* the largest, or NULL */
	const struct wfw_xp_threads *threads;	/* or NULL */
	double thr;			/* the percentile's value */
	int decimals;			/* the most a value shows */
	bool cnt_cols[WFW_XP_NCNT];	/* the count columns there */
	const char *smi_why;		/* info.yml attrib_smi, or NULL */
	const char *lost;		/* info.yml attrib_lost, or NULL */
	/* The rows of one group ("in ReqCState C6"), or NULL: all rows. */
	const char *group_col, *group;
};

/* Up to this many causes are named per category; the rest are counted. */
#define WFW_XP_CAUSES 3

struct wfw_xp_cause {
	const char *name;		/* Cause */
	int64_t pid;			/* thread: its pid */
	uint64_t rows;			/* rows it is dominant in */
	double median;			/* the median of its category's time there; NaN */
	bool estimated;			/* the median is (calc: from a histogram) */
};

struct wfw_xp_catsum {
	double time;			/* summed over the explained tail rows */
	double share;			/* of their summed latency, 0..1 */
	uint64_t dominant;		/* rows whose Cause is of this category */
	struct wfw_xp_cause cause[WFW_XP_CAUSES];
	size_t ncauses;
	uint64_t more_causes, more_rows;	/* beyond those named */
};

struct wfw_xp_analysis {
	uint64_t rows, unexplained;	/* tail rows analysed; without a breakdown */
	uint64_t nocause;		/* of the rows, without a Cause */
	double lo, hi;			/* their least and greatest latency */
	struct wfw_xp_catsum cat[WFW_XP_NCAT + 1];	/* [WFW_XP_OTHER]: no share */
	uint64_t have_cnt[WFW_XP_NCNT];	/* rows holding each count */
	double sum_cnt[WFW_XP_NCNT];
};

/* The tail's numbers. 0 or -ENOMEM. */
int wfw_xp_analyse(const struct wfw_xp_in *in, struct wfw_xp_analysis *a);

/*
 * The words (words.h composes them; doc/attribution.md shows them), for
 * the page: the header, a line per category, the notes, the max line.
 * 0 or -ENOMEM.
 */
int wfw_xp_print(FILE *f, const struct wfw_xp_in *in);
/* The same from an analysis already made. */
void wfw_xp_print_analysis(FILE *f, const struct wfw_xp_in *in,
			   const struct wfw_xp_analysis *a);

/*
 * A name from the measured system as text: bytes < 0x20 and 0x7f as \xNN,
 * at most WFW_XP_NAME_MAX bytes of it (then "..."): a hostile file's
 * megabyte of a name stays out of the words.
 */
#define WFW_XP_NAME_MAX 200
void wfw_xp_put_name(FILE *f, const char *s);
/* The bytes of s shown: all, or WFW_XP_NAME_MAX less a cut character's. */
size_t wfw_xp_name_len(const char *s);

/*
 * s for a terminal (calc): printable ASCII as it is, a backslash doubled,
 * any other byte as \xNN. Cut to fit len (NUL included), never inside an
 * escape.
 */
void wfw_xp_escape(char *buf, size_t len, const char *s);

/* Where the words go: the report's page, or calc's terminal. */
enum wfw_xp_style { WFW_XP_PAGE, WFW_XP_TERMINAL };
/* Room for any label of the page. */
#define WFW_XP_LABEL_MAX 1024

/*
 * A cause as the words name it, into buf (cut to fit len): its Cause
 * name; a thread by comm and pid, "sshd (pid 42)"; one the threads (t,
 * or NULL) lack, "pid 42 (not in attrib-threads.csv)"; one without a
 * pid, "a thread (no CausePID)". The same words for the page and a
 * terminal; names shown as wfw_xp_put_name() (page) or wfw_xp_escape()
 * (terminal) shows them.
 */
void wfw_xp_cause_label(char *buf, size_t len, enum wfw_xp_style st,
			const struct wfw_xp_threads *t, const char *cause, int64_t pid);

#endif
