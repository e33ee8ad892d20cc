/* SPDX-License-Identifier: MIT */
/*
 * The part of a source plugin that measures through the wultfw kernel
 * modules and is the same for every device (tdt, hrt, i210): configure
 * and start a run, turn records into rows, account for what the kernel
 * dropped, and record the module's counts in info.yml at the end. The
 * plugins keep only what differs: how they choose and prepare the device.
 */
#ifndef WFW_KMOD_SOURCE_H
#define WFW_KMOD_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include <wultfw/plugin.h>

#include "kmod/kmod.h"
#include <wultfw/kside.h>

/* Records read per read() call at most (the batch may be smaller). */
#define WFW_KMOD_SOURCE_RECS 256

struct wfw_kmod_source {
	struct wfw_kmod km;
	struct wultfw_kside ks;
	const char *device;		/* module device: "tdt", "hrt", "i210" */
	const char *stop_hint;		/* why a run may stop by itself */
	uint32_t probe_present;		/* counters the schema was built for */
	int probe_cpu;			/* CPU open() configured to build it */
	int cpu;
	bool warned_same_cpu;
	uint64_t dropped_overhead;	/* by wultfw_kside_check() */
	struct wultfw_record recs[WFW_KMOD_SOURCE_RECS];
};

/* A source not yet open: no module file, no CPU, for `device`. */
void wfw_kmod_source_init(struct wfw_kmod_source *s, const char *device,
			  const char *stop_hint);

/*
 * The schema, once open() has configured the device: the columns of the
 * counters it has, ReqCState named after the measured CPU's cpuidle states
 * as the core read them (ctx->cstate_names), raw latencies if asked for.
 */
int wfw_kmod_source_schema(struct wfw_kmod_source *s,
			   const struct wultfw_ctx *ctx, bool raw);

/* What the device can do, for the source's open(): limits and schema. */
void wfw_kmod_source_info(const struct wfw_kmod_source *s,
			  struct wultfw_source_info *info);

/* Configure the device on the measured CPU, calibrate the TSC, start. */
int wfw_kmod_source_start(struct wfw_kmod_source *s, struct wultfw_ctx *ctx,
			  const struct wultfw_source_params *params);
/* Read records into rows; the kernel's drops count as discarded. */
int wfw_kmod_source_read(struct wfw_kmod_source *s, struct wultfw_ctx *ctx,
			 struct wultfw_batch *b, uint64_t timeout_ns);
/* Stop the run and write the module's counts to info.yml. */
int wfw_kmod_source_stop(struct wfw_kmod_source *s, struct wultfw_ctx *ctx);

/*
 * Ready-made source ops for plugins whose private state starts with a
 * struct wfw_kmod_source: they put these straight into their ops table.
 */
int wfw_kmod_source_op_start(struct wultfw_ctx *ctx,
			     const struct wultfw_source_params *params);
int wfw_kmod_source_op_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
			    uint64_t timeout_ns);
int wfw_kmod_source_op_stop(struct wultfw_ctx *ctx);

#endif
