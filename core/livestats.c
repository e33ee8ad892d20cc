/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "livestats.h"

#include <string.h>

int wfw_live_metric(const struct wultfw_schema *s, const char *interval_latency)
{
	const char *want[] = { "WakeLatency", interval_latency };
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; want[k] && i < s->ncols; i++)
			if (!strcmp(s->cols[i].name, want[k]) &&
			    wfw_live_ns_per_raw(&s->cols[i]) > 0)
				return (int)i;
	for (i = 0; i < s->ncols; i++) {
		size_t len = strlen(s->cols[i].name);

		if (len >= 7 && !strcmp(s->cols[i].name + len - 7, "Latency") &&
		    wfw_live_ns_per_raw(&s->cols[i]) > 0)
			return (int)i;
	}
	return -1;
}

double wfw_live_ns_per_raw(const struct wultfw_column *c)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};

	if (c->type != WULTFW_COL_INT || !c->unit)
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(c->unit, units[i].unit))
			return units[i].ns / (c->divisor ? c->divisor : 1);
	return 0;
}

/* 8 buckets per power of two: within 12.5% of the value. */
unsigned wfw_live_bucket(int64_t ns)
{
	uint64_t v = ns > 0 ? (uint64_t)ns : 0;
	unsigned lg;

	if (v < WFW_LIVE_SUB)
		return (unsigned)v;
	lg = 63 - (unsigned)__builtin_clzll(v);		/* >= 3 */
	return (lg - 2) * WFW_LIVE_SUB +
	       (unsigned)((v >> (lg - 3)) & (WFW_LIVE_SUB - 1));
}

int64_t wfw_live_bucket_top(unsigned b)
{
	unsigned lg = b / WFW_LIVE_SUB + 2, sub = b % WFW_LIVE_SUB;

	if (b < WFW_LIVE_SUB)
		return b;
	if (lg >= 63)
		return INT64_MAX;
	return (int64_t)((((uint64_t)WFW_LIVE_SUB + sub + 1) << (lg - 3)) - 1);
}

void wfw_live_add(struct wfw_live *l, struct wultfw_batch *b, int col,
		  double ns_per_raw, uint64_t datapoints, uint64_t discarded)
{
	uint64_t seq = l->seq;

	__atomic_store_n(&l->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (size_t r = 0; col >= 0 && r < b->rows; r++) {
		int64_t ns = (int64_t)((double)wultfw_row(b, r)[col].i * ns_per_raw);

		if (!l->n || ns < l->min)
			l->min = ns;
		if (!l->n || ns > l->max)
			l->max = ns;
		l->last = ns;
		l->sum += (double)ns;
		l->n++;
		l->hist[wfw_live_bucket(ns)]++;
	}
	l->datapoints = datapoints;
	l->discarded = discarded;
	__atomic_store_n(&l->seq, seq + 2, __ATOMIC_RELEASE);
}

bool wfw_live_read(const struct wfw_live *l, struct wfw_live *copy)
{
	for (int tries = 0; tries < 100; tries++) {
		uint64_t s1 = __atomic_load_n(&l->seq, __ATOMIC_ACQUIRE), s2;

		if (s1 & 1)
			continue;
		memcpy(copy, (const void *)l, sizeof(*copy));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&l->seq, __ATOMIC_RELAXED);
		if (s1 == s2)
			return true;
	}
	return false;
}

int64_t wfw_live_quantile(const struct wfw_live *l, double q)
{
	uint64_t want, seen = 0;

	if (!l->n)
		return 0;
	want = (uint64_t)(q * (double)l->n + 0.999999);
	if (!want)
		want = 1;
	for (unsigned b = 0; b < WFW_LIVE_BUCKETS; b++) {
		seen += l->hist[b];
		if (seen >= want) {
			int64_t top = wfw_live_bucket_top(b);

			return top < l->max ? top : l->max;
		}
	}
	return l->max;
}
