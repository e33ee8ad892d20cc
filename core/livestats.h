/* SPDX-License-Identifier: MIT */
/*
 * A run's figures so far for the live table: count, last, min, mean, max
 * and a log-bucketed histogram (p99 so far) of its main latency metric.
 * One writer (the run, once per batch) and one reader (the per-CPU
 * parent, in shared memory): a sequence counter instead of a lock, odd
 * while the writer is between its two increments.
 */
#ifndef WFW_LIVESTATS_H
#define WFW_LIVESTATS_H

#include <stdbool.h>
#include <stdint.h>

#include <wultfw/plugin.h>

#define WFW_LIVE_SUB 8			/* buckets per power of two */
#define WFW_LIVE_BUCKETS (64 * WFW_LIVE_SUB)

struct wfw_live {
	uint64_t seq;
	char metric[64];		/* its name, set before the first batch */
	uint64_t datapoints, discarded;
	uint64_t n;			/* values of the metric seen */
	int64_t last, min, max;		/* in ns */
	double sum;
	uint32_t hist[WFW_LIVE_BUCKETS];
};

/* The metric the table shows: WakeLatency, the source's interval latency, or the first "...Latency"; -1: none. */
int wfw_live_metric(const struct wultfw_schema *s, const char *interval_latency);

/* ns per unit of column c's raw integer, 0 when it is not a duration. */
double wfw_live_ns_per_raw(const struct wultfw_column *c);

/* Writer: a batch's values of column col (-1: counts only). */
void wfw_live_add(struct wfw_live *l, struct wultfw_batch *b, int col,
		  double ns_per_raw, uint64_t datapoints, uint64_t discarded);

/* Reader: a consistent copy of l, or false if the writer kept it busy. */
bool wfw_live_read(const struct wfw_live *l, struct wfw_live *copy);

/* Value in ns at quantile q (0..1) of what l holds: its bucket's upper edge, clamped to max. */
int64_t wfw_live_quantile(const struct wfw_live *l, double q);

/* Bucket of a value in ns, and the largest value a bucket holds. */
unsigned wfw_live_bucket(int64_t ns);
int64_t wfw_live_bucket_top(unsigned b);

#endif
