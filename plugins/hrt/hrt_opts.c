/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "hrt_opts.h"

const struct wultfw_option hrt_options[] = {
	[HRT_OPT_RAW] = { "raw", WULTFW_OPT_BOOL, "false",
		"also write the raw timestamps LTime, TBI, TAI, TIntr (ns)" },
	[HRT_OPT_RING_KIB] = { "ring_kib", WULTFW_OPT_INT, "1024",
		"BPF ring buffer size in KiB, a power of two from 16 to 262144; "
		"raise it if datapoints are dropped at high rates" },
	[HRT_OPT_POLL] = { "poll", WULTFW_OPT_DURATION, "1ms",
		"how often the reader thread (on another CPU) drains the ring "
		"buffer, 50us..100ms; the program never wakes the reader, so "
		"the measured CPU gets no extra interrupt" },
	[HRT_OPT_COUNTERS] = { "counters", WULTFW_OPT_BOOL, "true",
		"read the msr (tsc, aperf, mperf, smi) and cstate_core/_module/"
		"_pkg residency perf events this CPU has at every idle entry "
		"and exit, for TotCyc, CC0%, CCx%, PCx%, CPUFreq, SMICnt; "
		"false saves the probe that time" },
	{ NULL },
};

int hrt_parse_opts(struct wultfw_ctx *ctx, struct hrt_cfg *cfg)
{
	const struct wultfw_value *o = ctx->opts;
	int64_t kib;

	cfg->raw = o && o[HRT_OPT_RAW].set ? o[HRT_OPT_RAW].b : false;
	kib = o && o[HRT_OPT_RING_KIB].set ? o[HRT_OPT_RING_KIB].i : 1024;
	cfg->poll_ns = o && o[HRT_OPT_POLL].set ? o[HRT_OPT_POLL].ns : 1000000;
	cfg->counters = o && o[HRT_OPT_COUNTERS].set ? o[HRT_OPT_COUNTERS].b : true;

	/* The kernel wants a power-of-two multiple of the page size. */
	if (kib < 16 || kib > 262144 || (kib & (kib - 1)))
		return wultfw_fail_opt(ctx, HRT_OPT_RING_KIB, -EINVAL,
			"ring_kib = %lld: use a power of two from 16 to 262144",
			(long long)kib);
	if (cfg->poll_ns < 50000 || cfg->poll_ns > 100000000)
		return wultfw_fail_opt(ctx, HRT_OPT_POLL, -EINVAL,
			"poll = %lluns: use a duration from 50us to 100ms",
			(unsigned long long)cfg->poll_ns);
	cfg->ring_bytes = (uint64_t)kib * 1024;
	return 0;
}
