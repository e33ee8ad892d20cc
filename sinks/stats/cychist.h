/* SPDX-License-Identifier: MIT */
/*
 * Latency histograms in the text format of cyclictest -h (rt-tests), so the
 * plotting scripts written for cyclictest read our results unchanged:
 * "# Histogram", one line per bucket ("%06d" bucket, then the count of
 * each column), then "# Total:", "# Min/Avg/Max Latencies:",
 * "# Histogram Overflows:" and the overflow datapoint numbers per column.
 * cyclictest has a column per measured thread; we have one per metric.
 * Values out of range (infinite, or whole parts a long cannot hold) are
 * left out of every line, and counted on one more comment line when
 * there are any.
 */
#ifndef STATS_CYCHIST_H
#define STATS_CYCHIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <wultfw/plugin.h>

#define STATS_CYCHIST_MAX_OVERFLOWS 50	/* datapoint numbers kept */

struct stats_cychist_col {
	size_t col;			/* schema column */
	double div;			/* raw value / div = display unit */
	bool is_float;
	uint64_t *counts;		/* [nbuckets] */
	uint64_t total, overflows;
	uint64_t out;			/* left out: infinite, beyond a long */
	double min, max, sum;		/* display units */
	uint64_t ovf_at[STATS_CYCHIST_MAX_OVERFLOWS];
};

struct stats_cychist {
	size_t nbuckets;
	size_t ncols;
	struct stats_cychist_col *cols;
	uint64_t rows;			/* datapoints seen: the "cycle number" */
};

/*
 * Set up a column per metric name found in the schema (INT or FLOAT).
 * Returns 0, -ENOENT naming the missing metric in err, or -ENOMEM.
 */
int stats_cychist_init(struct stats_cychist *h, const struct wultfw_schema *s,
		       const char *const *names, size_t nnames,
		       size_t nbuckets, char *err, size_t errlen);
void stats_cychist_free(struct stats_cychist *h);
void stats_cychist_add(struct stats_cychist *h, const struct wultfw_batch *b);
/* Write the histogram; returns 0 or -errno of the failed write. */
int stats_cychist_write(const struct stats_cychist *h, FILE *f);

#endif
