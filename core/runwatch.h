/* SPDX-License-Identifier: MIT */
/*
 * What a run watches in each batch it hands to the sinks: the stop_above
 * limits (the batch clipped after the first datapoint above one) and,
 * for the per-CPU parent's live table, the figures so far.
 */
#ifndef WFW_RUNWATCH_H
#define WFW_RUNWATCH_H

#include "livestats.h"
#include "stopabove.h"

struct wfw_runwatch {
	struct wfw_stop_check stop;
	struct wfw_live *live;		/* NULL: no one reads it */
	int col;			/* the main metric, or -1 */
	double ns_per_raw;
	int cpu;
	uint64_t start_ns;
	long hit_row;			/* in the current batch, or -1 */
	size_t hit_rule;
};

/* 0, or -EINVAL with why in err (a stop_above metric the run lacks). */
int wfw_runwatch_open(struct wfw_runwatch *w, const struct wfw_stop_above *sa,
		      const struct wultfw_schema *s, const char *interval_latency,
		      struct wfw_live *live, int cpu, char *err, size_t len);
/* Before the sinks: b ends at the first datapoint above a limit. */
void wfw_runwatch_clip(struct wfw_runwatch *w, struct wultfw_batch *b);
/*
 * After the sinks took b and datapoints counts it: the live figures, and
 * the crossing in *hit (true once there is one).
 */
bool wfw_runwatch_done(struct wfw_runwatch *w, struct wultfw_batch *b,
		       uint64_t datapoints, uint64_t discarded,
		       struct wfw_stop_hit *hit);

struct wfw_info;

/* info.yml's stopped_by for a crossing. */
void wfw_stop_info(const struct wfw_stop_hit *hit, struct wfw_info *info);
/* The closing line of a run stop_above ended, as rtla's "hit stop tracing". */
void wfw_stop_report(const char *name, const struct wfw_stop_hit *hit,
		     uint64_t datapoints, const char *dir);

#endif
