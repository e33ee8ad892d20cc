/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "hrt_opts.h"

#include <errno.h>
#include <stddef.h>

#define F(field) .off = offsetof(struct hrt_optvals, field)

const struct wultfw_option hrt_options[] = {
	[HRT_OPT_RAW] = { "raw", WULTFW_OPT_BOOL, "false",
		"also write the raw timestamps LTime, TBI, TAI, TIntr (ns)",
		F(raw) },
	[HRT_OPT_RING_KIB] = { "ring_kib", WULTFW_OPT_INT, "1024",
		"BPF ring buffer size in KiB, a power of two; raise it if "
		"datapoints are dropped at high rates",
		.min = "16", .max = "262144", .unit = "KiB", F(ring_kib) },
	[HRT_OPT_POLL] = { "poll", WULTFW_OPT_DURATION, "1ms",
		"how often the reader thread (on another CPU) drains the ring "
		"buffer; the program never wakes the reader, so the measured "
		"CPU gets no extra interrupt",
		.min = "50us", .max = "100ms", F(poll) },
	/* No default: "not given" is its own case (counters_set). */
	[HRT_OPT_COUNTERS] = { "counters", WULTFW_OPT_BOOL, NULL,
		"read the msr (tsc, aperf, mperf, smi) and cstate_core/_module/"
		"_pkg residency perf events this CPU has at every idle entry "
		"and exit, for TotCyc, CC0%, CCx%, PCx%, CPUFreq, SMICnt. Not "
		"given: read them when a counter beyond msr/tsc exists (the "
		"TSC alone gives only TotCyc, a raw column, for a slower idle "
		"entry); true: always; false: never, a shorter probe",
		F(counters),
		.set_off = WULTFW_SET_FLAG(struct hrt_optvals, counters_set) },
	{ NULL },
};

int hrt_check_opts(struct wultfw_ctx *ctx)
{
	const struct hrt_optvals *o = ctx->cfg;

	/* The kernel wants a power-of-two multiple of the page size. */
	if (o->ring_kib & (o->ring_kib - 1))
		return wultfw_fail_opt(ctx, HRT_OPT_RING_KIB, -EINVAL,
			"ring_kib = %lld: use a power of two from 16 to 262144",
			(long long)o->ring_kib);
	return 0;
}
