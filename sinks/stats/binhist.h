/* SPDX-License-Identifier: MIT */
/*
 * A text histogram of one metric in fixed-width bins, per group (the
 * values of the group_by ENUM column, e.g. the skid source's Precise):
 * "# " header lines with the counts of values at 0 (the skid source's
 * hits), above 0, below 0 and not a number (and, when there are any, out
 * of range -- infinite or beyond FLT_MAX, not counted elsewhere -- and
 * above the last of STATS_BINHIST_MAX_BINS bins, counted above 0 but
 * not binned), then "BIN_START COUNT" lines from the first bin to the
 * last one holding a value. With the skid source's Skid and bins of 10
 * this is the seed's "skid offset histogram".
 */
#ifndef STATS_BINHIST_H
#define STATS_BINHIST_H

#include <stdint.h>
#include <stdio.h>

#include <wultfw/plugin.h>

/* Bins a group may have: memory and lines that no value can inflate. */
#define STATS_BINHIST_MAX_BINS 100000

struct stats_binhist_group {
	uint64_t *counts;	/* bins from 0 up; values below 0 not binned */
	size_t nbins;
	uint64_t zero, above, below, nan;
	uint64_t out;		/* out of range: infinite, beyond FLT_MAX */
	uint64_t beyond;	/* above 0, past the last bin there may be */
};

struct stats_binhist {
	size_t col;		/* the metric's schema column */
	int gcol;		/* the group column, or -1 */
	double div, width;
	size_t ngroups;		/* enum values + 1 for "-" (or 1) */
	const struct wultfw_schema *schema;
	struct stats_binhist_group *g;
};

/*
 * One histogram of `metric` (INT or FLOAT) per value of `group_by` (an
 * ENUM column; NULL or absent: one group). 0, or -ENOENT naming the
 * missing metric in err, or -ENOMEM.
 */
int stats_binhist_init(struct stats_binhist *h, const struct wultfw_schema *s,
		       const char *metric, const char *group_by, double width,
		       char *err, size_t errlen);
int stats_binhist_add(struct stats_binhist *h, const struct wultfw_batch *b);
int stats_binhist_write(const struct stats_binhist *h, FILE *f);
void stats_binhist_free(struct stats_binhist *h);

#endif
