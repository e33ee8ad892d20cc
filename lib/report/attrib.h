/* SPDX-License-Identifier: MIT */
/*
 * A result's latency attribution as the report keeps it while reading
 * (doc/attribution.md, doc/report.md): in memory that does not grow with
 * the file, the explained latency's composition in fine bins (counts and
 * summed parts, for the percentile bands) and its largest rows whole (for
 * the tail's words and the top datapoints). Fed batch by batch, by rows
 * or by columns, merged part by part in the file's order.
 */
#ifndef WFW_REPORT_ATTRIB_H
#define WFW_REPORT_ATTRIB_H

#include <stdbool.h>
#include <stdint.h>

#include "datafmt/reader.h"
#include "explain/explain.h"

/*
 * Bins of the latency: a positive float's bits >> 16 (its exponent and 7
 * bits of mantissa): 128 an octave, 0.4-0.8% wide, from 2^-10 to 2^30 of the
 * unit (about 1 ns to 18 minutes in us); below and above: the end bins.
 */
#define WFW_ATTRIB_BIN_BASE (117u << 7)		/* 2^-10 */
#define WFW_ATTRIB_NBINS ((157u << 7) - WFW_ATTRIB_BIN_BASE + 1)

/* Sums are kept in thousandths of the unit as integers: any order adds up alike. */
struct wfw_attrib_bin {
	uint64_t n;
	uint64_t lat, t[WFW_XP_NCAT];	/* two's complement sums */
	double min, max;		/* of the latency */
};

/* A row kept whole. */
struct wfw_attrib_row {
	struct wfw_xp_row x;		/* its counts too (x.cnt) */
	double ltime_ns;		/* LTime, CLOCK_MONOTONIC ns; NaN: none */
};

/* Largest rows kept: the tail up to 10 M rows at p99.9, and --explain-top. */
#define WFW_ATTRIB_KEEP 10000
/*
 * Per requested C-state: its tail up to 2 M of its rows at p99.9 (no top
 * table), and at most this many C-states (the rest only in the whole),
 * so a part's memory stays under 10 MiB whatever the file names.
 */
#define WFW_ATTRIB_GROUP_KEEP 2000
#define WFW_ATTRIB_GROUPS 16

/* The rows of the whole result, or of one C-state. */
struct wfw_attrib_set {
	struct wfw_attrib_bin *bins;	/* WFW_ATTRIB_NBINS, explained rows only */
	uint64_t values;		/* rows with a latency */
	uint64_t explained;		/* ... and all five parts */
	uint64_t mismatched;		/* explained rows whose parts do not add up */
	struct wfw_attrib_row *top;	/* a min-heap of the largest; sorted once finished */
	size_t ntop, keep;
};

/* A requested C-state's rows (ReqCState). */
struct wfw_attrib_group {
	const char *name;		/* the reader's, as the rows' cstate */
	struct wfw_attrib_set set;
};

struct wfw_attrib {
	const char *latency;		/* the explained column (info.yml's attrib_latency) */
	struct wfw_attrib_set all;
	struct wfw_attrib_group *groups;	/* in the order they came */
	size_t ngroups;
	uint64_t ungrouped;		/* rows of C-states beyond WFW_ATTRIB_GROUPS */
	uint64_t seen;			/* rows fed: the next one's index */
	uint64_t row0;			/* the index of the first row fed */
	bool sorted;
	bool smi;			/* the file has SMICnt */
	/* The columns in the current batch's schema (-1: none). */
	int lat, t[WFW_XP_NCAT], cnt[WFW_XP_NCNT], cause, pid, cstate, ltime;
	/* ReqCState's names in the current schema -> group (-1: none, -2: not looked up) */
	const char *const *gnames;
	int *gmap;
	size_t ngmap;
};

/*
 * Does schema s hold the attribution columns (the five times, Cause)?
 * Those a report explains, with `latency` (a column of s) explained.
 */
bool wfw_attrib_columns(const struct wultfw_schema *s, const char *latency);

/* 0 or -ENOMEM. latency is kept, not copied. */
int wfw_attrib_init(struct wfw_attrib *a, const char *latency);
void wfw_attrib_free(struct wfw_attrib *a);

/* Mark in want[] (s's columns) those the attribution reads. */
void wfw_attrib_want(struct wfw_attrib *a, const struct wultfw_schema *s,
		     bool *want);

/* The batch's rows (after any selection), by rows or by columns. */
void wfw_attrib_rows(struct wfw_attrib *a, const struct wultfw_schema *s,
		     const struct wultfw_batch *b);
void wfw_attrib_cols(struct wfw_attrib *a, const struct wultfw_schema *s,
		     const struct wfw_col_batch *b);

/* The rows of src, which come after dst's in the file, into dst. */
void wfw_attrib_merge(struct wfw_attrib *dst, const struct wfw_attrib *src);

/* After the last row: the kept rows sorted, largest first. */
void wfw_attrib_finish(struct wfw_attrib *a);

/* The rows of C-state `name`, or NULL. */
const struct wfw_attrib_set *wfw_attrib_group(const struct wfw_attrib *a,
					      const char *name);

/* v in thousandths as the sums keep it (bounded: sums cannot trap). */
uint64_t wfw_attrib_milli(double v);

/* Bin of latency v, and the value where bin i starts. */
size_t wfw_attrib_bin(double v);
double wfw_attrib_bin_lo(size_t i);

#endif
