/* SPDX-License-Identifier: MIT */
/*
 * telemetry: a sampler source. Every `period` it reads a list of counters
 * (PROVIDER:ID, each provider one file behind tele_provider.h) and makes
 * one datapoint: its CLOCK_MONOTONIC time, how long reading took, and a
 * column per counter. Modes, sync_start, clear and layout follow NVIDIA's
 * DOCA telemetry diagnostics (doc/telemetry.md). It takes no launch
 * distance.
 *
 * This file holds the options, the schema and the ops; sampling is in
 * tele_run.c, the counter set in tele_set.c.
 */
#include "config.h"

#include "tele_defaults.h"
#include "tele_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	TELE_OPT_COUNTERS, TELE_OPT_PERIOD, TELE_OPT_MODE, TELE_OPT_MAX,
	TELE_OPT_SYNC, TELE_OPT_CLEAR, TELE_OPT_LAYOUT, TELE_OPT_PROC,
	TELE_OPT_STRICT, TELE_OPT_COUNT,
};

#define CFG(field) .off = offsetof(struct tele_cfg, field)

static const char *const tele_modes[] = { "single", "repetitive", "on_demand", NULL };
static const char *const tele_layouts[] = { "sample", "value", NULL };

static const struct wultfw_option tele_options[] = {
	[TELE_OPT_COUNTERS] = { "counters", WULTFW_OPT_STRING_LIST, NULL,
		"Counters to sample, PROVIDER:ID: interrupts:LOC:cpu1, "
		"softirqs:TIMER:cpu0, cpuidle:cpu1:state1:usage, "
		"cpufreq:cpu0:cur_freq, stat:cpu1:idle, net:lo:rx_packets, "
		"aer:0000:00:1c.0:correctable:RxErr, perf:msr/tsc, "
		"thermal:zone0:temp. `wultfw help telemetry` lists what this "
		"machine offers. Unset: every per-CPU counter of the measured "
		"CPU (its interrupts, softirqs, cpuidle states, cpufreq and "
		"/proc/stat times).", CFG(counters) },
	[TELE_OPT_PERIOD] = { "period", WULTFW_OPT_DURATION, "100ms",
		"Time between samples (single, repetitive). The achieved "
		"period goes to info.yml, with a warning when it is more than "
		"10% off.", .min = "100us", .max = "1h", CFG(period) },
	[TELE_OPT_MODE] = { "mode", WULTFW_OPT_STRING, "single",
		"single: sample every period, stop after max_samples (0: "
		"when the experiment stops). repetitive: a sampling thread "
		"keeps the last max_samples in a ring; samples not read in "
		"time are overwritten and counted. on_demand: one sample each "
		"time the consumer asks.", .choices = tele_modes, CFG(mode) },
	[TELE_OPT_MAX] = { "max_samples", WULTFW_OPT_INT, "0",
		"single and on_demand: stop after this many samples (0: no "
		"limit); repetitive: the ring's size (at least 1).",
		.min = "0", .max = "100000000", .unit = "samples",
		CFG(max_samples) },
	[TELE_OPT_SYNC] = { "sync_start", WULTFW_OPT_BOOL, "true",
		"Read all counters of a sample in one tight window (each "
		"table file such as /proc/interrupts read once per sample) "
		"and start on a multiple of the period, so samplers with one "
		"period sample together. false: each counter read on its own.",
		CFG(sync_start) },
	[TELE_OPT_CLEAR] = { "clear", WULTFW_OPT_BOOL, "false",
		"Values are increases since the previous sample instead of "
		"running totals (levels such as cpufreq and thermal stay "
		"levels).", CFG(clear) },
	[TELE_OPT_LAYOUT] = { "layout", WULTFW_OPT_STRING, "sample",
		"sample: one time per sample (Time, the start of its read "
		"window, and SampleWindow, its length). value: also a "
		"NAME.Time column per counter, when it was read.",
		.choices = tele_layouts, CFG(layout) },
	[TELE_OPT_PROC] = { "proc_root", WULTFW_OPT_STRING, "/proc",
		"Where procfs is (tests use fake trees).", CFG(proc_root) },
	[TELE_OPT_STRICT] = { "strict", WULTFW_OPT_BOOL, "false",
		"A counter this machine cannot give (no cpuidle driver, no "
		"such interface) is an error. false: it is left out, named "
		"in one warning and in info.yml (telemetry_unavailable); only "
		"when none can be read does telemetry fail.", CFG(strict) },
	[TELE_OPT_COUNT] = { NULL, 0, NULL, NULL },
};

static int tele_validate(struct wultfw_ctx *ctx)
{
	const struct tele_cfg *cfg = ctx->cfg;

	if (!strcmp(cfg->mode, "repetitive") && cfg->max_samples < 1)
		return wultfw_fail_opt(ctx, TELE_OPT_MAX, -EINVAL,
				       "max_samples: mode repetitive keeps a ring of max_samples; give at least 1");
	return 0;
}

/* ---- what this machine offers, for `wultfw scan` and `help` ---- */

struct tele_offer {
	char *buf;
	size_t len, used, start;
	const char *prov;	/* provider being counted */
	size_t count;
	char first[TELE_NAME_LEN];
};

static void tele_offer_flush(struct tele_offer *o)
{
	if (o->prov && o->count)
		o->used += (size_t)snprintf(o->buf + o->used, o->len - o->used,
					    "%s%s (%zu, e.g. %s)", o->used > o->start ? "; " : "",
					    o->prov, o->count, o->first);
	o->prov = NULL;
	o->count = 0;
}

static void tele_offer_add(void *arg, const char *name)
{
	struct tele_offer *o = arg;
	size_t plen = strcspn(name, ":");

	if (o->used >= o->len - 1)
		return;
	if (!o->prov || strncmp(o->prov, name, plen) || o->prov[plen]) {
		tele_offer_flush(o);
		for (size_t i = 0; i < tele_n_providers; i++)
			if (!strncmp(tele_providers[i]->name, name, plen) &&
			    !tele_providers[i]->name[plen])
				o->prov = tele_providers[i]->name;
		snprintf(o->first, sizeof(o->first), "%s", name);
	}
	o->count++;
}

static void tele_offer_missing(void *arg, const char *prov, const char *why)
{
	struct tele_offer *o = arg;

	tele_offer_flush(o);
	if (o->used < o->len - 1)
		o->used += (size_t)snprintf(o->buf + o->used, o->len - o->used,
					    "%sno %s: %s", o->used > o->start ? "; " : "", prov, why);
}

static void tele_describe_offer(const struct tele_env *env, char *buf, size_t len)
{
	struct tele_offer o = { .buf = buf, .len = len };
	int n = snprintf(buf, len, "counter sampler; this machine offers ");

	o.used = o.start = (size_t)n;
	tele_set_offered(env, tele_offer_add, tele_offer_missing, &o);
	tele_offer_flush(&o);
}

/* ---- open(): counters, schema ---- */

static int tele_build_schema(struct tele_priv *p)
{
	size_t n = p->set.n, per = p->per_value ? 2 : 1, i, c;

	p->cols = calloc(TELE_FIXED_COLS + per * n, sizeof(*p->cols));
	p->time_names = calloc(n ? n : 1, sizeof(char *));
	p->vals = calloc(n ? n : 1, sizeof(*p->vals));
	p->times = calloc(n ? n : 1, sizeof(*p->times));
	if (!p->cols || !p->time_names || !p->vals || !p->times)
		return -ENOMEM;
	p->cols[0] = (struct wultfw_column){ "Time", "ns", WULTFW_COL_INT, 1, NULL, 0 };
	p->cols[1] = (struct wultfw_column){ "SampleWindow", "ns", WULTFW_COL_INT, 1, NULL, 0 };
	for (i = 0, c = TELE_FIXED_COLS; i < n; i++) {
		const struct tele_counter *k = &p->set.slots[i].c;

		p->cols[c++] = (struct wultfw_column){ k->name, k->unit, WULTFW_COL_INT, 1, NULL, 0 };
		if (!p->per_value)
			continue;
		if (asprintf(&p->time_names[i], "%s.Time", k->name) < 0)
			return -ENOMEM;
		p->cols[c++] = (struct wultfw_column){ p->time_names[i], "ns", WULTFW_COL_INT, 1, NULL, 0 };
	}
	p->schema.cols = p->cols;
	p->schema.ncols = c;
	return 0;
}

/* One warning naming every counter left out, and why. */
static void tele_warn_missing(struct wultfw_ctx *ctx, struct tele_priv *p)
{
	char head[96], text[560];	/* a line of --check holds it whole */

	if (!p->set.nmissing)
		return;
	snprintf(head, sizeof(head), "%zu of %zu counters cannot be read here and are left out: ",
		 p->set.nmissing, p->set.nmissing + p->set.n);
	tele_set_missing_text(&p->set, head, text, sizeof(text));
	wultfw_warn_opt(ctx, TELE_OPT_COUNTERS, "%s; strict = true makes this an error", text);
}

/* "150us", "2.50ms", "1.00s" */
static const char *tele_dur(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000000)
		snprintf(buf, len, "%" PRIu64 "us", (ns + 500) / 1000);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	return buf;
}

/*
 * What period this machine can keep with these counters, measured now: a
 * period shorter than a sample plus a wake-up's lateness cannot be kept.
 */
static void tele_warn_period(struct wultfw_ctx *ctx, struct tele_priv *p)
{
	char a[32], b[32], c[32], d[32], these[48];

	tele_run_probe(p);
	if (p->period_ns >= p->achievable_ns)
		return;
	if (p->set.n == 1)
		snprintf(these, sizeof(these), "this counter");
	else
		snprintf(these, sizeof(these), "these %zu counters", p->set.n);
	wultfw_warn_opt(ctx, TELE_OPT_PERIOD,
			"period %s is shorter than this machine can sample %s: about every %s at best (a sample took %s and a wake-up from sleep came %s late, medians of %d at open); info.yml gets the achieved period",
			tele_dur(p->period_ns, a, sizeof(a)), these,
			tele_dur(p->achievable_ns, b, sizeof(b)),
			tele_dur(p->sample_ns, c, sizeof(c)),
			tele_dur(p->late_ns, d, sizeof(d)), TELE_PROBES);
}

static void tele_free(struct tele_priv *p)
{
	for (size_t i = 0; p->time_names && i < p->set.n; i++)
		free(p->time_names[i]);
	tele_set_close(&p->set);
	free(p->time_names);
	free(p->cols);
	free(p->vals);
	free(p->times);
	free(p->ring);
	free(p);
}

/*
 * The plugin gets one CPU, ctx->cpu: of an experiment on several CPUs,
 * the first listed. Said, so nobody takes them for every CPU's counters.
 */
static void tele_say_default_cpu(struct wultfw_ctx *ctx)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", ctx->cpu);
	wultfw_info(ctx, "default_counters_cpu", buf);
	wultfw_log(ctx, WULTFW_LOG_INFO,
		   "counters: none named, so CPU %d's (the measured CPU; of a list, the first): name other CPUs' counters in `counters` to have them",
		   ctx->cpu);
}

/* The counters named, or the measured CPU's (tele_defaults.h). */
static int tele_open_set(struct wultfw_ctx *ctx, struct tele_priv *p,
			 const struct tele_env *env, char *why, size_t len)
{
	const struct tele_cfg *cfg = ctx->cfg;
	struct tele_defaults d;
	int ret;

	if (cfg->counters.n)
		return tele_set_open(&p->set, env, cfg->counters.v, cfg->counters.n,
				     cfg->strict, why, len);
	ret = tele_defaults_list(&d, env, ctx->cpu);
	if (!ret && !d.n) {
		snprintf(why, len, "counters: none named, and this machine offers no per-CPU counter of CPU %d (interrupts, softirqs, cpuidle, cpufreq, stat): name some (`wultfw help telemetry` lists this machine's)",
			 ctx->cpu);
		ret = -ENOENT;
	} else if (!ret) {
		ret = tele_set_open(&p->set, env, (const char *const *)d.v, d.n, false, why, len);
		if (!ret)
			tele_say_default_cpu(ctx);
	} else {
		snprintf(why, len, "out of memory");
	}
	tele_defaults_free(&d);
	return ret;
}

static int tele_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	const struct tele_cfg *cfg = ctx->cfg;
	struct tele_env env = { ctx->sysfs_root, cfg->proc_root };
	struct tele_priv *p = calloc(1, sizeof(*p));
	char why[1024];
	int ret;

	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	p->mode = !strcmp(cfg->mode, "single") ? TELE_SINGLE
		: !strcmp(cfg->mode, "repetitive") ? TELE_REPETITIVE : TELE_ON_DEMAND;
	p->per_value = !strcmp(cfg->layout, "value");
	p->period_ns = cfg->period;
	p->max_samples = (uint64_t)cfg->max_samples;
	p->sync = cfg->sync_start;
	p->clear = cfg->clear;
	ret = tele_open_set(ctx, p, &env, why, sizeof(why));
	if (ret) {
		tele_free(p);
		return wultfw_fail_opt(ctx, TELE_OPT_COUNTERS, ret, "%s", why);
	}
	tele_warn_missing(ctx, p);
	if (p->mode != TELE_ON_DEMAND)
		tele_warn_period(ctx, p);
	if (tele_build_schema(p)) {
		tele_free(p);
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	}
	if (cfg->counters.n)
		snprintf(p->descr, sizeof(p->descr), "counter sampler: %zu counters, %s mode",
			 p->set.n, cfg->mode);
	else	/* the default set; `wultfw scan` shows what the machine offers */
		tele_describe_offer(&env, p->descr, sizeof(p->descr));
	ctx->priv = p;
	info->devid = "telemetry";
	info->devdescr = p->descr;
	info->resolution_ns = 1;
	info->schema = &p->schema;
	/*
	 * single: the core calls read() every period (aligned with
	 * sync_start) and read() samples at once; repetitive keeps its own
	 * thread, which samples on time however late the consumer reads;
	 * on_demand samples when the consumer asks.
	 */
	info->on_demand = p->mode == TELE_ON_DEMAND;
	if (p->mode == TELE_SINGLE) {
		info->period_ns = p->period_ns;
		info->period_aligned = p->sync;
	}
	return 0;
}

static int tele_start(struct wultfw_ctx *ctx,
		      const struct wultfw_source_params *params)
{
	(void)params;
	return tele_run_start(ctx, ctx->priv);
}

static int tele_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
		     uint64_t timeout_ns)
{
	return tele_run_read(ctx, ctx->priv, b, timeout_ns);
}

static int tele_stop(struct wultfw_ctx *ctx)
{
	tele_run_stop(ctx, ctx->priv);
	return 0;
}

static void tele_close(struct wultfw_ctx *ctx)
{
	if (ctx->priv)
		tele_free(ctx->priv);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops tele_ops = {
	.open = tele_open,
	.start = tele_start,
	.read = tele_read,
	.stop = tele_stop,
	.close = tele_close,
};

WULTFW_PLUGIN(telemetry) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "telemetry",
	.summary = "counter sampler: interrupts, softirqs, cpuidle, cpufreq, /proc/stat, net, PCIe AER, perf, thermal",
	.options = tele_options,
	.source = &tele_ops,
	.validate = tele_validate,
	.cfg_size = sizeof(struct tele_cfg),
};
