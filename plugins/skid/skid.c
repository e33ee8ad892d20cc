/* SPDX-License-Identifier: MIT */
/*
 * skid: PMC sampling skid. A thread pinned to the measured CPU runs a load
 * from a buffer larger than the last-level cache followed by a runway of
 * NOPs (generated code, skid_code.c); an event sampled with perf_event_open
 * records an IP per sample, and the distance of that IP from the load is
 * the skid. A sampler: no launch distance, a datapoint per sample.
 *
 * This file holds the options, schema and ops; the code generator is in
 * skid_code.c, the workload thread in skid_workload.c, event names and
 * refusals in skid_events.c, the ring buffer in skid_perf.c/skid_ring.c,
 * the IP classification in skid_layout.c, the per-level parts in
 * skid_parts.c.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skid_cache.h"
#include "skid_events.h"
#include "skid_state.h"

#define CFG(field) .off = offsetof(struct skid_cfg, field)

static const char *const precise_choices[] = { "0", "1", "2", "3", "all", NULL };

static const struct wultfw_option skid_options[] = {
	[SKID_OPT_EVENT] = { "event", WULTFW_OPT_STRING, "cache-misses",
		"event to sample, as perf names it: cache-misses, "
		"LLC-load-misses, branch-misses, instructions, a raw code "
		"(r412e), cpu-clock (software), or breakpoint (a read/write "
		"data breakpoint on the buffer's first byte)", CFG(event) },
	[SKID_OPT_PERIOD] = { "period", WULTFW_OPT_INT, "0",
		"sample every this many events (cpu-clock: ns); 0: the event's "
		"default (breakpoint 1, cpu-clock 100000, others 10007)",
		.min = "0", .max = "1000000000", .unit = "events", CFG(period) },
	[SKID_OPT_PRECISE] = { "precise", WULTFW_OPT_STRING, "0",
		"precise_ip level 0-3 (0: the PMU's plain skid; 1-3: PEBS/IBS "
		"where the PMU offers them), or \"all\": every level the PMU "
		"accepts, one after the other, the refused ones listed with "
		"the kernel's reason", .choices = precise_choices, CFG(precise) },
	[SKID_OPT_BUFFER_SIZE] = { "buffer_size", WULTFW_OPT_INT, "0",
		"bytes the workload reads through; 0: twice the largest cache "
		"of the measured CPU (sysfs, else CPUID, else sysconf), so the "
		"loads miss the LLC",
		.min = "0", .max = "17179869184", .unit = "bytes",
		CFG(buffer_size) },
	[SKID_OPT_STRIDE] = { "stride", WULTFW_OPT_INT, "64",
		"bytes between consecutive loads (64: a new cache line each)",
		.min = "1", .max = "1048576", .unit = "bytes", CFG(stride) },
	[SKID_OPT_RUNWAY] = { "runway", WULTFW_OPT_INT, "1000",
		"one-byte NOPs after the load; skids longer than this land in "
		"the loop's other instructions", .min = "1", .max = "1000000",
		.unit = "instructions", CFG(runway) },
	[SKID_OPT_SAMPLES] = { "samples", WULTFW_OPT_INT, "10000",
		"samples per precise level (each level is its own part); the "
		"source ends after the last level", .min = "1",
		.max = "1000000000", .unit = "samples", CFG(samples) },
	{ NULL },
};

/* Not "0".."3": a CSV reader would take the column for a number. */
static const char *const precise_names[] = { "p0", "p1", "p2", "p3" };

static int skid_validate(struct wultfw_ctx *ctx)
{
	const struct skid_cfg *cfg = ctx->cfg;

	if (skid_event_check(cfg->event, ctx->err, sizeof(ctx->err))) {
		ctx->bad_opt = SKID_OPT_EVENT;
		return -EINVAL;
	}
	if (cfg->buffer_size && cfg->buffer_size < cfg->stride)
		return wultfw_fail_opt(ctx, SKID_OPT_BUFFER_SIZE, -EINVAL,
				       "buffer_size %lld is smaller than stride %lld: use at least one stride",
				       (long long)cfg->buffer_size, (long long)cfg->stride);
	return 0;
}

/*
 * The columns, then { NULL } (the descriptor declares them); Event's one
 * name, the event measured, is set per run.
 */
static const struct wultfw_column skid_proto[COL_N + 1] = {
	[COL_EVENT] = { "Event", "", WULTFW_COL_ENUM, 0, NULL, 1 },
	[COL_PRECISE] = { "Precise", "", WULTFW_COL_ENUM, 0,
			  precise_names, 4 },
	[COL_SKID] = { "Skid", "instructions", WULTFW_COL_FLOAT },
	[COL_SKIDBYTES] = { "SkidBytes", "bytes", WULTFW_COL_FLOAT },
	[COL_WHERE] = { "Where", "", WULTFW_COL_ENUM, 0,
			skid_where_names, SKID_WHERE_N },
	[COL_TIME] = { "Time", "s", WULTFW_COL_INT, 1000000000 },
};

static void build_schema(struct skid_priv *p)
{
	memcpy(p->cols, skid_proto, COL_N * sizeof(*p->cols));
	p->event_names[0] = p->cfg->event;
	p->cols[COL_EVENT].enum_names = p->event_names;
	p->schema.ncols = COL_N;
	p->schema.cols = p->cols;
}

/* The event does not open at `lvl`: the kernel's reason, what opens here. */
static int refuse_open(struct wultfw_ctx *ctx, int lvl, int err, uint64_t bp)
{
	const char *event = ((const struct skid_cfg *)ctx->cfg)->event;
	char why[512], offer[1536];

	skid_event_why(event, lvl, err, ctx->sysfs_root, why, sizeof(why));
	skid_event_offer(bp, ctx->sysfs_root, 1, why, offer, sizeof(offer));
	return wultfw_fail_opt(ctx, SKID_OPT_EVENT, err, "event %s: %s; %s",
			       event, why, offer);
}

/*
 * Software and breakpoint events: the kernel accepts precise_ip and
 * ignores it, so "all" would sample the same thing four times. One part,
 * at the level asked for (0 for "all"); note_one_level() says why.
 */
static int one_level(struct wultfw_ctx *ctx, struct skid_priv *p, uint64_t bp)
{
	const struct skid_cfg *cfg = p->cfg;
	int lvl = strcmp(cfg->precise, "all") ? atoi(cfg->precise) : 0;
	int r = skid_event_probe(cfg->event, lvl, bp);

	if (r)
		return refuse_open(ctx, lvl, r, bp);
	p->levels[p->nlevels++] = lvl;
	return 0;
}

/* info.yml always, the log when more than the default was asked for. */
static void note_one_level(struct wultfw_ctx *ctx, const struct skid_priv *p)
{
	const char *event = p->cfg->event;
	char note[256];

	if (skid_event_has_precise(event))
		return;
	snprintf(note, sizeof(note),
		 "none for a %s event (no skid to lessen: the kernel accepts precise_ip and ignores it); one part, p%d",
		 strcmp(event, "breakpoint") ? "software" : "breakpoint",
		 p->levels[0]);
	wultfw_info(ctx, "skid_precise_levels", note);
	if (strcmp(p->cfg->precise, "0"))
		wultfw_log(ctx, WULTFW_LOG_INFO, "event %s: precise levels: %s",
			   event, note);
}

/*
 * The levels to sample: the one asked for, or every one the PMU accepts
 * (the refused ones logged and put into info.yml with the reason).
 */
static int pick_levels(struct wultfw_ctx *ctx, struct skid_priv *p, uint64_t bp)
{
	const struct skid_cfg *cfg = p->cfg;
	char why[512], refused[1024] = "";
	int all = !strcmp(cfg->precise, "all"), first_err = 0, first_lvl = 0;
	int lo = all ? 0 : atoi(cfg->precise), hi = all ? 3 : lo;
	size_t n = 0;

	if (!skid_event_has_precise(cfg->event))
		return one_level(ctx, p, bp);
	for (int l = lo; l <= hi; l++) {
		int r = skid_event_probe(cfg->event, l, bp);

		if (!r) {
			p->levels[p->nlevels++] = l;
			continue;
		}
		if (!first_err) {
			first_err = r;
			first_lvl = l;
		}
		skid_event_why(cfg->event, l, r, ctx->sysfs_root, why, sizeof(why));
		if (n < sizeof(refused))
			n += (size_t)snprintf(refused + n, sizeof(refused) - n,
					      "%sprecise %d: %s", n ? "; " : "", l, why);
	}
	if (!p->nlevels)
		return refuse_open(ctx, first_lvl, first_err, bp);
	if (refused[0]) {
		wultfw_log(ctx, WULTFW_LOG_WARN, "event %s: refused %s",
			   cfg->event, refused);
		wultfw_info(ctx, "skid_refused", refused);
	}
	return 0;
}

/*
 * An event can open and never count (a hypervisor that does not deliver
 * debug exceptions): find out now, in well under a second, rather than
 * wait out the run's time limit for the first sample.
 */
static int check_alive(struct wultfw_ctx *ctx, uint64_t bp)
{
	const char *event = ((const struct skid_cfg *)ctx->cfg)->event;
	char why[512], offer[1024];
	int r = skid_event_alive(event, why, sizeof(why));

	if (r > 0)
		return 0;
	if (r < 0)
		return refuse_open(ctx, 0, r, bp);
	skid_event_offer(bp, ctx->sysfs_root, 0, NULL, offer, sizeof(offer));
	return wultfw_fail_opt(ctx, SKID_OPT_EVENT, -ENODATA, "event %s: %s; %s",
			       event, why, offer);
}

static int setup_workload(struct wultfw_ctx *ctx, struct skid_priv *p)
{
	const struct skid_cfg *cfg = p->cfg;
	uint64_t size = (uint64_t)cfg->buffer_size;
	int cpu = ctx->cpu < 0 ? 0 : ctx->cpu;

	if (!size) {
		char from[256], v[320];

		size = 2 * skid_cache_size(ctx->sysfs_root, cpu, &skid_cache_real,
					   from, sizeof(from), ctx->err,
					   sizeof(ctx->err));
		if (!size)
			return -ENOENT;
		snprintf(v, sizeof(v), "%llu bytes: twice the largest cache (%llu bytes, from %s)",
			 (unsigned long long)size, (unsigned long long)size / 2, from);
		wultfw_info(ctx, "skid_buffer_size", v);
		wultfw_log(ctx, WULTFW_LOG_INFO, "buffer_size %s", v);
	}
	if (size < (uint64_t)cfg->stride)
		return wultfw_fail_opt(ctx, SKID_OPT_STRIDE, -EINVAL,
				       "stride %lld is larger than the buffer (%llu bytes)",
				       (long long)cfg->stride, (unsigned long long)size);
	return skid_workload_init(&p->w, size, (uint64_t)cfg->stride,
				  (uint64_t)cfg->runway, cpu, ctx->err,
				  sizeof(ctx->err));
}

static void describe(struct wultfw_ctx *ctx, struct skid_priv *p,
		     struct wultfw_source_info *info)
{
	char offer[1536], lv[64] = "at precise ";
	size_t n = strlen(lv);

	for (int i = 0; i < p->nlevels; i++)
		n += (size_t)snprintf(lv + n, sizeof(lv) - n, "%s%d", i ? "," : "",
				      p->levels[i]);
	if (!skid_event_has_precise(p->cfg->event))
		snprintf(lv, sizeof(lv), "(no precise levels: one part)");
	skid_event_offer((uint64_t)(uintptr_t)p->w.buf, ctx->sysfs_root, 1,
			 NULL, offer, sizeof(offer));
	snprintf(p->descr, sizeof(p->descr),
		 "%s sampled with perf_event_open %s over a %llu-byte buffer, runway %lld NOPs; %s",
		 p->cfg->event, lv, (unsigned long long)p->w.size,
		 (long long)p->cfg->runway, offer);
	info->devid = "skid";
	info->devdescr = p->descr;
	info->resolution_ns = 1;
	info->schema = &p->schema;
}

static int skid_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	/* Opening probes put their breakpoint here; the run's is the buffer. */
	static const char probe_byte;
	uint64_t bp = (uint64_t)(uintptr_t)&probe_byte;
	struct skid_priv *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	p->cfg = ctx->cfg;
	p->perf.fd = -1;
	ctx->priv = p;
	ret = pick_levels(ctx, p, bp);
	if (!ret)
		ret = check_alive(ctx, bp);
	if (!ret)
		ret = setup_workload(ctx, p);
	if (ret) {
		free(p);
		ctx->priv = NULL;
		return ret;
	}
	build_schema(p);
	describe(ctx, p, info);
	note_one_level(ctx, p);
	return 0;
}

static int skid_start(struct wultfw_ctx *ctx,
		      const struct wultfw_source_params *params)
{
	struct skid_priv *p = ctx->priv;
	int ret;

	p->w.cpu = params->cpu;
	p->t0 = skid_mono_ns();
	ret = skid_workload_start(&p->w, ctx->err, sizeof(ctx->err));
	if (ret)
		return ret;
	return skid_part_begin(ctx, p);
}

/* Lost and throttled so far into info.yml (again after the drain). */
static void put_counts(struct wultfw_ctx *ctx, const struct skid_priv *p)
{
	char v[64];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)p->lost);
	wultfw_info(ctx, "skid_lost", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)p->throttled);
	wultfw_info(ctx, "skid_throttled", v);
}

static int skid_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
		     uint64_t timeout_ns)
{
	struct skid_priv *p = ctx->priv;
	int ret;

	if (p->done || !p->perf_open)
		return WULTFW_READ_END;
	ret = skid_part_read(ctx, p, b, timeout_ns);
	if (ret == WULTFW_READ_END)
		put_counts(ctx, p);
	return ret;
}

static int skid_stop(struct wultfw_ctx *ctx)
{
	struct skid_priv *p = ctx->priv;

	p->stopped = true;
	if (p->perf_open && !p->draining)
		skid_part_finish(p);
	skid_workload_stop(&p->w);
	put_counts(ctx, p);
	if (p->bad || (p->perf_open && p->perf.st.bad))
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "%llu malformed records in the perf ring buffer were skipped",
			   (unsigned long long)(p->bad + (p->perf_open ? p->perf.st.bad : 0)));
	if (p->lost || p->throttled)
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "the kernel lost %llu samples (counted as discarded) and throttled the event %llu times (samples not taken; raise period)",
			   (unsigned long long)p->lost, (unsigned long long)p->throttled);
	return 0;
}

static void skid_close(struct wultfw_ctx *ctx)
{
	struct skid_priv *p = ctx->priv;

	if (!p)
		return;
	skid_part_end(p);
	skid_workload_free(&p->w);
	free(p);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops skid_ops = {
	.open = skid_open,
	.start = skid_start,
	.read = skid_read,
	.stop = skid_stop,
	.close = skid_close,
};

WULTFW_PLUGIN(skid) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "skid",
	.summary = "PMC sampling skid: where a sampled event's IP lands after "
		   "a load followed by a NOP runway, per event and precise level",
	.options = skid_options,
	.source = &skid_ops,
	.validate = skid_validate,
	.cfg_size = sizeof(struct skid_cfg),
	/* .ldist left zeroed: a sampler takes no launch distance. */
	.columns = skid_proto,
};
