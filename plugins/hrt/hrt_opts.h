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

/* Where the core puts the option values (ABI v2: ctx->cfg). */
struct hrt_optvals {
	bool raw;
	int64_t ring_kib;
	uint64_t poll;
	bool counters;
};

struct hrt_cfg {
	bool raw;		/* add LTime/TBI/TAI/TIntr columns */
	uint64_t ring_bytes;	/* BPF ring buffer size */
	uint64_t poll_ns;	/* how often read() looks at the ring buffer */
	bool counters;		/* read the msr / cstate_* perf events */
	/* counters not given: on only if a counter beyond the TSC exists */
	bool counters_auto;
};

extern const struct wultfw_option hrt_options[];

/*
 * Fill *cfg from ctx->cfg (bounds already checked by the core); what the
 * table cannot say (a power of two) fails with a message naming the key.
 */
int hrt_parse_opts(struct wultfw_ctx *ctx, struct hrt_cfg *cfg);

#endif
