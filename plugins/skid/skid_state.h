/* SPDX-License-Identifier: MIT */
/* The skid source's state, shared by skid.c and skid_parts.c (neither owns it). */
#ifndef SKID_STATE_H
#define SKID_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <wultfw/plugin.h>

#include "skid_perf.h"
#include "skid_workload.h"

enum {
	SKID_OPT_EVENT,
	SKID_OPT_PERIOD,
	SKID_OPT_PRECISE,
	SKID_OPT_BUFFER_SIZE,
	SKID_OPT_STRIDE,
	SKID_OPT_RUNWAY,
	SKID_OPT_SAMPLES,
};

/* Where the core puts the option values (ABI v2: ctx->cfg). */
struct skid_cfg {
	const char *event;
	int64_t period;
	const char *precise;	/* "0".."3" or "all" */
	int64_t buffer_size;	/* 0: twice the largest cache */
	int64_t stride;
	int64_t runway;
	int64_t samples;	/* per precise level */
};

/* Columns, in schema order. */
enum { COL_EVENT, COL_PRECISE, COL_SKID, COL_SKIDBYTES, COL_WHERE, COL_TIME,
       COL_N };

struct skid_priv {
	const struct skid_cfg *cfg;
	struct skid_workload w;
	const char *event_names[1];
	struct wultfw_column cols[COL_N];
	struct wultfw_schema schema;
	char descr[2048];

	/* The precise levels this run samples, one part each, in order. */
	int levels[4];
	int nlevels, part;
	struct skid_perf perf;
	bool perf_open, draining, done, stopped;
	uint64_t part_samples;	/* samples of the current part so far */
	uint64_t samples;	/* of every part so far */
	uint64_t t0;		/* CLOCK_MONOTONIC at start, ns */
	uint64_t part_t0;	/* ... at the current part's start */
	char silent[512];	/* why parts ended without a sample */

	/* Filled by the ring callbacks while read() parses. */
	struct wultfw_batch *b;
	uint64_t lost, throttled;
	uint64_t bad;		/* ring records too short for their kind */
};

/*
 * A part that has no sample this long after it began ends with a reason
 * instead of waiting out the run's time limit (cpu-clock: at least ten
 * periods).
 */
#define SKID_SILENT_NS (10 * 1000000000ull)

static inline uint64_t skid_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* skid_parts.c: one part per precise level, in turn. */
int skid_part_begin(struct wultfw_ctx *ctx, struct skid_priv *p);
int skid_part_read(struct wultfw_ctx *ctx, struct skid_priv *p,
		   struct wultfw_batch *b, uint64_t timeout_ns);
/* Disable the event: what its ring holds is still read, then the next. */
void skid_part_finish(struct skid_priv *p);
void skid_part_end(struct skid_priv *p);

#endif
