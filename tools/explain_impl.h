/* SPDX-License-Identifier: MIT */
/*
 * calc --explain's parts (doc/attribution.md, "calc --explain"): the
 * columns and causes (explain_tail.c), reading a part of the file into
 * rows (explain_read.c), the passes over the parts (explain_pass.c), one
 * result from its opening to its analysis (explain.c), and the printing
 * (explain_print.c, explain_json.c).
 */
#ifndef WFW_EXPLAIN_IMPL_H
#define WFW_EXPLAIN_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "calc.h"
#include "explain_rank.h"
#include "explain/explain.h"
#include "stats/stats.h"

/*
 * The latency's parts and counts are lib/explain's (WFW_XP_IRQ, ...,
 * WFW_XP_OTHER for a Cause that names no known cause; WFW_XP_CNT_IRQ, ...,
 * SMICnt maybe absent), listed in the identity's order (wfw_xp_col_order).
 */

/* A cell without a value, and one out of range (times: breaks the identity). */
#define XEMPTY INT64_MIN
#define XBAD (INT64_MIN + 1)

/*
 * Cause keys: XKEY_NONE (no Cause), a Cause name's number + 1 (its enum
 * index in a part, its place in xres.names once merged), or XKEY_THREAD
 * with the pid (CausePID) in the low 32 bits, all ones when it has none.
 */
#define XKEY_NONE 0
#define XKEY_THREAD ((uint64_t)1 << 63)
#define XKEY_NOPID 0xffffffffu

enum xkind { XROW_OK, XROW_NONE, XROW_BROKEN };

/*
 * The info.yml keys of result `path` (explain_cpus.c): of an experiment
 * of several CPUs, its CPUs' attribution keys. wfw_infoyml_read()'s contract.
 */
struct wfw_infoyml;
int explain_info_read(struct wfw_infoyml *y, const char *path);

/* One datapoint as the analysis takes it. */
struct xrow {
	int64_t lat;		/* thousandths of the latency column's unit */
	int64_t t[WFW_XP_NCAT];	/* the same; XEMPTY */
	int64_t cnt[WFW_XP_NCNT];	/* as counted; XEMPTY */
	int64_t pid;		/* CausePID; -1: none */
	int64_t cause;		/* Cause: the part's enum index; -1: none */
	int64_t state;		/* the C-state column's enum index; -1 */
	uint64_t row;		/* in the file, from 1 (from 0 in a part) */
	enum xkind kind;
};

/* Whether a row's parts add up: XROW_OK, XROW_NONE (empty), XROW_BROKEN. */
enum xkind xrow_kind(const struct xrow *r);

/* The rows of one cause among a tail's. */
struct xcause {
	uint64_t key;
	uint64_t n;
	int cat;		/* its category, WFW_XP_OTHER */
	struct wfw_acc acc;	/* its category's time in those rows */
};

/* The rows at or above a threshold: what they add up to, and their causes. */
struct xtail {
	uint64_t n;		/* rows */
	uint64_t none;		/* of them without a breakdown */
	uint64_t broken;	/* of them breaking the identity */
	uint64_t nb;		/* of them with a breakdown that holds */
	int64_t min, max;	/* latency */
	double sum_lat, sum_t[WFW_XP_NCAT];	/* the nb rows' */
	double sum_cnt[WFW_XP_NCNT];
	uint64_t n_cnt[WFW_XP_NCNT];	/* rows holding each count */
	uint64_t nocause;	/* nb rows without a Cause */
	struct xcause *causes;
	size_t ncauses, cap;
	uint32_t *slot;		/* open addressing: causes index + 1; 0 free */
	size_t nslot;
	size_t exact_limit;	/* of each cause's accumulator */
};

void xtail_init(struct xtail *t, size_t exact_limit);
void xtail_free(struct xtail *t);
/* Add row r whose cause has key `key` and category `cat`. 0 or -ENOMEM. */
int xtail_add(struct xtail *t, const struct xrow *r, uint64_t key, int cat);
/* The cause of `key`, or NULL. */
struct xcause *xtail_find(const struct xtail *t, uint64_t key);
/*
 * Add src to dst, src's cause keys through map (a part's enum indexes to
 * names' numbers): key -> map[key - 1] + 1 for keys of names. 0, -ENOMEM.
 */
int xtail_merge(struct xtail *dst, const struct xtail *src, const size_t *map,
		size_t nmap);

/* The datapoint of a group's largest latency. */
struct xmax {
	bool have;
	struct xrow r;
	char *cause;		/* its Cause's name, NULL: none */
	char *state;		/* its C-state (or group column's value), NULL */
};

/*
 * Groups at most (-c, -g): each holds a histogram of 30 KB per part while
 * its percentile is found, and a block of output.
 */
#define XMAX_GROUPS 1024

/* "all", or one value of the group column: its percentile and its tail. */
struct xgroup {
	char *name;
	uint64_t n;		/* rows with a latency */
	uint64_t *hist;		/* the next histogram's counts */
	int64_t maxv;
	uint64_t maxrow;	/* the first row holding maxv */
	struct xr rank;
	struct xrow *cand;	/* XR_KEEP: rows in [lo, hi] (keys merged) */
	size_t ncand, capcand;
	struct xtail tail;
	struct xmax max;
};

/* attrib-threads.csv beside the result, read by lib/explain. */
struct xthreads {
	struct wfw_xp_threads t;
	bool found;		/* the file was there */
	char path[4096];
	char err[700];		/* what of the file could not be used, or "" */
};

/*
 * attrib-threads.csv of result `path` into th (explain_cpus.c): of an
 * experiment of several CPUs, its CPUs' files as one list. 0 or -ENOMEM.
 */
int explain_threads_read(struct xthreads *th, const char *path);

/* One result's analysis. */
struct xres {
	struct calc *c;
	struct calc_result *r;	/* its path and argument */
	/* columns: schema indexes, -1 absent */
	int lat, t[WFW_XP_NCAT], cnt[WFW_XP_NCNT], cause, pid;
	int gcol;		/* grouped by (-c, -g), -1 */
	int scol;		/* shown with the max: gcol, else ReqCState */
	char scolname[256];
	char latname[256];	/* the explained latency column */
	char lattxt[1024];	/* the same for a terminal (escaped) */
	char unit[64];		/* the latency's, escaped */
	int decimals;		/* of a value shown in plain words */
	char *smi_why;		/* info.yml attrib_smi, when SMICnt is absent (escaped) */
	char *lost;		/* info.yml attrib_lost (escaped) */
	struct xthreads th;
	bool one_pass;		/* CSV read in one pass (no selection) */
	unsigned nparts, threads;
	uint64_t *offset;	/* per part: rows before it */
	/* every row read */
	uint64_t rows, kept, nolat;
	uint64_t none, broken, first_broken;
	struct xgroup *g;	/* [0]: all */
	size_t ng;
	char **names;		/* Cause names of every part, once each */
	size_t nnames;
	/* thread causes whose pid the threads file lacks */
	uint64_t nopid;
	int64_t nopid_first;
	char err[1024];
};

/* Room for n entries of size sz in *v (an array of *cap), the new zeroed. */
int xgrow(void *v, size_t *cap, size_t n, size_t sz);

/* A group by name, added when new (n_enum: its histogram). SIZE_MAX: -ENOMEM. */
size_t xres_group(struct xres *x, const char *name);
/* A Cause name's number, added when new. SIZE_MAX: -ENOMEM. */
size_t xres_name(struct xres *x, const char *name);

/*
 * Pass over the file's parts: 1, the histograms, the identity, the
 * maxima; 2 (as long as a group's range is too wide to keep), narrower
 * histograms; 3, the tails. 0, or an error said in x->err.
 */
int xpass_hist(struct xres *x);
int xpass_refine(struct xres *x);
int xpass_tail(struct xres *x);

/*
 * A merged tail's causes of category cat (names: xres.names), most rows
 * first: their number, *out malloc'ed (NULL: out of memory).
 */
size_t xtail_sorted(const struct xtail *t, char *const *names, int cat,
		    struct xcause ***out);
/* The categories to show, biggest share first, the idle exit last. */
void xtail_order(const struct xtail *t, int order[WFW_XP_NCAT]);
/* A thread cause's pid (-1: none), from its key. */
int64_t xkey_pid(uint64_t key);

/* The groups as calc lists them: all, then by depth (wfw_cstate_cmp()). */
size_t *xgroup_order(const struct xres *x);
/* What stderr should know of the whole file (explain_print.c). */
void xnotes(struct xres *x);
/* Print one result's analysis (explain_print.c, explain_json.c). */
int xprint_text(struct xres *x, bool first);
int xprint_json(struct xres *x, bool first);

#endif
