/* SPDX-License-Identifier: MIT */
/* hrt's option table and its validation, apart so unit tests need no libbpf. */
#ifndef HRT_OPTS_H
#define HRT_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include <wultfw/plugin.h>

/* Index of each option in hrt_options[] (ctx->opts arrives in this order). */
enum {
	HRT_OPT_RAW,
	HRT_OPT_RING_KIB,
	HRT_OPT_POLL,
	HRT_OPT_COUNTERS,
	HRT_NOPTS
};

/* Where the core puts the option values (ctx->cfg), bounds checked. */
struct hrt_optvals {
	bool raw;		/* add LTime/TBI/TAI/TIntr columns */
	int64_t ring_kib;	/* BPF ring buffer size, a power of two */
	uint64_t poll;		/* ns: how often read() looks at the ring */
	bool counters;		/* read the msr / cstate_* perf events */
	/* counters given: false means on only if a counter beyond the TSC exists */
	bool counters_set;
};

extern const struct wultfw_option hrt_options[];

/*
 * validate(): what the table cannot say (ring_kib a power of two), with a
 * message naming the key.
 */
int hrt_check_opts(struct wultfw_ctx *ctx);

#endif
