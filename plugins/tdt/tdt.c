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
#include <stddef.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "kmod/kmod_source.h"

enum { TDT_OPT_DEVICE, TDT_OPT_RAW, TDT_OPT_NR };

/* Where the core puts the option values (ABI v2: ctx->cfg). */
struct tdt_cfg {
	const char *device;
	bool raw;
};

static const char *const tdt_devices[] = { "tdt", "hrt", NULL };

static const struct wultfw_option tdt_options[] = {
	[TDT_OPT_DEVICE] = { "device", WULTFW_OPT_STRING, "tdt",
		"kernel module device: \"tdt\" (LAPIC TSC-deadline timer, needs "
		"the lapic-deadline clockevent) or \"hrt\" (kernel hrtimer)",
		.choices = tdt_devices,
		.off = offsetof(struct tdt_cfg, device) },
	[TDT_OPT_RAW] = { "raw", WULTFW_OPT_BOOL, "false",
		"also write the raw columns (LTime, TBI, TAI, TIntr, TotCyc, ...)",
		.off = offsetof(struct tdt_cfg, raw) },
	{ .name = NULL },
};

/* Launch distance used to let the module check the device in open(). */
#define TDT_PROBE_LDIST 100000ULL

/* src first: the shared wfw_kmod_source_op_* take ctx->priv as one. */
struct tdt_priv {
	struct wfw_kmod_source src;
	char devdescr[160];
};

static void tdt_close(struct wultfw_ctx *ctx);

static int tdt_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	const struct tdt_cfg *cfg = ctx->cfg;
	struct tdt_priv *p;
	char why[256], ctrs[128];
	int err;

	p = calloc(1, sizeof(*p));
	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	/* cfg->device is one of tdt_devices: the core checked. */
	wfw_kmod_source_init(&p->src, cfg->device,
			     "the device failed to arm or the CPU went offline");
	ctx->priv = p;
	/* Check on the measured CPU when the core knows it already. */
	p->src.probe_cpu = ctx->cpu >= 0 ? ctx->cpu : 0;

	err = wfw_kmod_open(&p->src.km, NULL, p->src.device, why, sizeof(why));
	if (!err)
		err = wfw_kmod_config(&p->src.km, p->src.device,
				      (unsigned int)p->src.probe_cpu,
				      TDT_PROBE_LDIST,
				      TDT_PROBE_LDIST, 0, why, sizeof(why));
	if (err) {
		tdt_close(ctx);	/* frees p: name the device from cfg */
		return wultfw_fail(ctx, err, "device \"%s\": %s", cfg->device, why);
	}

	err = wfw_kmod_source_schema(&p->src, ctx, cfg->raw);
	if (err) {
		tdt_close(ctx);
		return wultfw_fail(ctx, err, "internal: bad kside schema");
	}

	wfw_kmod_ctr_list(p->src.probe_present, ctrs, sizeof(ctrs));
	wultfw_info(ctx, "kmod_device", p->src.device);
	wultfw_info(ctx, "kmod_counters", ctrs);
	snprintf(p->devdescr, sizeof(p->devdescr),
		 "wultfw kernel module, device %s (%s)", p->src.device,
		 p->src.km.cfg.tunit == WULTFW_TUNIT_TSC ? "TSC time base" :
		 "CLOCK_MONOTONIC time base");
	info->devid = p->src.device;
	info->devdescr = p->devdescr;
	wfw_kmod_source_info(&p->src, info);
	/* Only the hrt device times on CLOCK_MONOTONIC (ktime_get_ns()), the
	 * clock annotators join on; tdt's times come from the TSC. */
	if (!strcmp(p->src.device, "hrt"))
		wultfw_kside_interval(info);
	return 0;
}

static void tdt_close(struct wultfw_ctx *ctx)
{
	struct tdt_priv *p = ctx->priv;

	if (!p)
		return;
	wfw_kmod_close(&p->src.km);
	free(p);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops tdt_ops = {
	.open = tdt_open,
	.start = wfw_kmod_source_op_start,
	.read = wfw_kmod_source_op_read,
	.stop = wfw_kmod_source_op_stop,
	.close = tdt_close,
};

WULTFW_PLUGIN(tdt) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "tdt",
	.summary = "wake latency from the wultfw kernel modules: TSC-deadline "
		   "timer (device tdt) or kernel hrtimer (device hrt)",
	.options = tdt_options,
	.source = &tdt_ops,
	.cfg_size = sizeof(struct tdt_cfg),
	.ldist = { WULTFW_LDIST_LAUNCH, 1000, 1000000000ULL },
};
