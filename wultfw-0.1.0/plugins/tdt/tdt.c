/* SPDX-License-Identifier: MIT */
/*
 * tdt source: wake latency measured by the wultfw kernel modules (kmod/).
 * The default device is "tdt", the LAPIC TSC-deadline timer; the option
 * device = "hrt" selects the modules' hrtimer device instead, through the
 * same code (lib/kmod), which is what runs on kernels where the eBPF hrt
 * source cannot (before Linux 6.7) or where the clockevent is not
 * lapic-deadline (virtual machines).
 *
 * open():  opens /dev/wultfw and lets the module check the device on CPU 0,
 *          so "clockevent is not lapic-deadline" is reported before a run;
 *          builds the schema from the counters the CPU has.
 * start(): configures the measured CPU and ldist range, calibrates the TSC
 *          against CLOCK_MONOTONIC, starts the module's armer thread.
 * read():  reads fixed-size records, converts them to ns and derives the
 *          wult columns with lib/kside. The module has already dropped and
 *          counted inconsistent datapoints; its count is reported too.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "cpuidle/cpuidle.h"
#include "kmod/kmod.h"
#include "kside/kside.h"

enum { TDT_OPT_DEVICE, TDT_OPT_RAW, TDT_OPT_NR };

static const struct wultfw_option tdt_options[] = {
	[TDT_OPT_DEVICE] = { "device", WULTFW_OPT_STRING, "tdt",
		"kernel module device: \"tdt\" (LAPIC TSC-deadline timer, needs "
		"the lapic-deadline clockevent) or \"hrt\" (kernel hrtimer)" },
	[TDT_OPT_RAW] = { "raw", WULTFW_OPT_BOOL, "false",
		"also write the raw columns (LTime, TBI, TAI, TIntr, TotCyc, ...)" },
	{ NULL },
};

/* Records read per read() call at most (the batch may be smaller). */
#define TDT_MAX_RECS 256
/* Launch distance used to let the module check the device in open(). */
#define TDT_PROBE_LDIST 100000ULL

struct tdt_priv {
	struct wfw_kmod km;
	struct wfw_kside ks;
	struct wfw_cpuidle ci;
	bool have_ci;
	const char *device;
	uint32_t probe_present;		/* counters the schema was built for */
	int cpu;
	bool warned_same_cpu;
	char devdescr[160];
	struct wultfw_record recs[TDT_MAX_RECS];
};

static void tdt_close(struct wultfw_ctx *ctx);

static int tdt_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	struct wfw_kside_cfg kc = { 0 };
	struct tdt_priv *p;
	char why[256], ctrs[128];
	int err;

	p = calloc(1, sizeof(*p));
	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	p->km.fd = -1;
	p->cpu = -1;
	ctx->priv = p;
	p->device = ctx->opts[TDT_OPT_DEVICE].s;
	if (!p->device || !p->device[0]) {
		tdt_close(ctx);
		return wultfw_fail(ctx, -EINVAL, "device: empty; use \"tdt\" or \"hrt\"");
	}

	err = wfw_kmod_open(&p->km, NULL, why, sizeof(why));
	if (!err)
		err = wfw_kmod_config(&p->km, p->device, 0, TDT_PROBE_LDIST,
				      TDT_PROBE_LDIST, why, sizeof(why));
	if (err) {
		tdt_close(ctx);
		return wultfw_fail(ctx, err, "device \"%s\": %s", p->device, why);
	}

	p->probe_present = p->km.cfg.ctr_present;
	p->have_ci = wfw_cpuidle_open(&p->ci, 0, NULL) == 0;
	wfw_kmod_kside_cfg(&p->km, &kc);
	kc.cstate_names = p->have_ci ? p->ci.name_ptrs : NULL;
	kc.n_cstates = p->have_ci ? (size_t)p->ci.nstates : 0;
	kc.raw = ctx->opts[TDT_OPT_RAW].b;
	err = wfw_kside_init(&p->ks, &kc);
	if (err) {
		tdt_close(ctx);
		return wultfw_fail(ctx, err, "internal: bad kside schema");
	}

	wfw_kmod_ctr_list(p->probe_present, ctrs, sizeof(ctrs));
	wultfw_info(ctx, "kmod_device", p->device);
	wultfw_info(ctx, "kmod_counters", ctrs);
	snprintf(p->devdescr, sizeof(p->devdescr),
		 "wultfw kernel module, device %s (%s)", p->device,
		 p->km.cfg.tunit == WULTFW_TUNIT_TSC ? "TSC time base" :
		 "CLOCK_MONOTONIC time base");
	info->devid = p->device;
	info->devdescr = p->devdescr;
	info->resolution_ns = p->km.cfg.resolution_ns;
	info->ldist_min_ns = p->km.cfg.ldist_min_ns;
	info->ldist_max_ns = p->km.cfg.ldist_max_ns;
	info->ldist_gran_ns = p->km.cfg.resolution_ns;
	info->schema = &p->ks.schema;
	return 0;
}

static int tdt_start(struct wultfw_ctx *ctx,
		     const struct wultfw_source_params *params)
{
	struct tdt_priv *p = ctx->priv;
	char why[256];
	int err;

	if (params->cpu < 0)
		return wultfw_fail(ctx, -EINVAL, "cpu = %d: no such CPU", params->cpu);
	err = wfw_kmod_config(&p->km, p->device, (unsigned int)params->cpu,
			      params->ldist_from_ns, params->ldist_to_ns, why,
			      sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "device \"%s\" on CPU %d: %s",
				   p->device, params->cpu, why);
	if (p->km.cfg.ctr_present != p->probe_present)
		return wultfw_fail(ctx, -EINVAL, "CPU %d has other counters "
			"(0x%x) than CPU 0 (0x%x); the columns would be wrong",
			params->cpu, p->km.cfg.ctr_present, p->probe_present);
	if (p->km.cfg.tunit == WULTFW_TUNIT_TSC) {
		err = wfw_kmod_tsc_calibrate(&p->km.tsc, 100000000ULL);
		if (err)
			return wultfw_fail(ctx, err, "cannot calibrate the TSC "
				"against CLOCK_MONOTONIC: %s", strerror(-err));
		wultfw_log(ctx, WULTFW_LOG_INFO, "TSC: %.3f MHz",
			   1000.0 / p->km.tsc.ns_per_cyc);
	}
	p->cpu = params->cpu;
	err = wfw_kmod_start(&p->km);
	if (err)
		return wultfw_fail(ctx, err, "cannot start the measurement: %s",
				   strerror(-err));
	return 0;
}

static int tdt_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
		    uint64_t timeout_ns)
{
	struct tdt_priv *p = ctx->priv;
	struct wultfw_stats st;
	size_t room = b->capacity - b->rows, i;
	long n;
	int err;

	if (!p->warned_same_cpu && sched_getcpu() == p->cpu) {
		p->warned_same_cpu = true;
		wultfw_log(ctx, WULTFW_LOG_WARN, "reading datapoints on the "
			   "measured CPU %d disturbs it; pin the reader "
			   "elsewhere", p->cpu);
	}
	if (room > TDT_MAX_RECS)
		room = TDT_MAX_RECS;
	n = room ? wfw_kmod_read(&p->km, p->recs, room, timeout_ns) : 0;
	if (n < 0)
		return wultfw_fail(ctx, (int)n, "reading %s: %s",
				   WFW_KMOD_DEVPATH, strerror((int)-n));
	for (i = 0; i < (size_t)n; i++) {
		struct wfw_kside_dp dp;

		wfw_kmod_to_dp(&p->km, &p->recs[i], &dp);
		if (wfw_kside_check(&p->ks, &dp) != WFW_KSIDE_OK) {
			b->discarded++;	/* e.g. a stray TSC value */
			continue;
		}
		wfw_kside_fill(&p->ks, &dp, wultfw_row(b, b->rows++));
	}
	err = wfw_kmod_stats(&p->km, &st);
	if (err)
		return wultfw_fail(ctx, err, "reading the module's statistics: %s",
				   strerror(-err));
	b->discarded += st.discarded - p->km.discarded_seen;
	p->km.discarded_seen = st.discarded;
	if (!st.running && n == 0)
		return wultfw_fail(ctx, -EIO, "the kernel module stopped "
			"measuring (device \"%s\" failed to arm or the CPU went "
			"offline): see dmesg",
			p->device);
	return WULTFW_READ_OK;
}

static int tdt_stop(struct wultfw_ctx *ctx)
{
	struct tdt_priv *p = ctx->priv;
	struct wultfw_stats st;
	char v[32];

	if (!p || p->km.fd < 0)
		return 0;
	wfw_kmod_stop(&p->km);
	if (wfw_kmod_stats(&p->km, &st))
		return 0;
#define TDT_INFO(key, val) do { \
		snprintf(v, sizeof(v), "%llu", (unsigned long long)(val)); \
		wultfw_info(ctx, key, v); \
	} while (0)
	TDT_INFO("kmod_armed", st.armed);
	TDT_INFO("kmod_published", st.published);
	TDT_INFO("kmod_dropped_other_cpu", st.discard_cpu);
	TDT_INFO("kmod_dropped_not_idle", st.discard_noidle);
	TDT_INFO("kmod_dropped_order", st.discard_order);
	TDT_INFO("kmod_timeouts", st.timeouts);
	TDT_INFO("kmod_rearmed", st.rearm);
#undef TDT_INFO
	return 0;
}

static void tdt_close(struct wultfw_ctx *ctx)
{
	struct tdt_priv *p = ctx->priv;

	if (!p)
		return;
	wfw_kmod_close(&p->km);
	if (p->have_ci)
		wfw_cpuidle_close(&p->ci);
	free(p);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops tdt_ops = {
	.open = tdt_open,
	.start = tdt_start,
	.read = tdt_read,
	.stop = tdt_stop,
	.close = tdt_close,
};

WULTFW_PLUGIN(tdt) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.kind = WULTFW_KIND_SOURCE,
	.name = "tdt",
	.summary = "wake latency from the wultfw kernel modules: TSC-deadline "
		   "timer (device tdt) or kernel hrtimer (device hrt)",
	.options = tdt_options,
	.source = &tdt_ops,
};
