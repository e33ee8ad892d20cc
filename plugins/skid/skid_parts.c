/* SPDX-License-Identifier: MIT */
/*
 * Sampling, one part per precise level: open the event on the workload
 * thread, read its ring into rows until the part has its samples, disable
 * it, drain what the ring still holds (those samples are kept, not
 * dropped), then the next level.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "skid_events.h"
#include "skid_layout.h"
#include "skid_state.h"

static int on_sample(void *arg, uint64_t ip, uint64_t time)
{
	struct skid_priv *p = arg;
	struct wultfw_batch *b = p->b;
	struct skid_place pl;
	union wultfw_cell *row;

	if (b->rows >= b->capacity)
		return 1;
	pl = skid_classify(&p->w.code.layout, ip);
	row = wultfw_row(b, b->rows++);
	row[COL_EVENT].i = 0;
	row[COL_PRECISE].i = p->levels[p->part];
	row[COL_SKID].f = pl.skid < 0 ? NAN : (double)pl.skid;
	row[COL_SKIDBYTES].f = pl.bytes < 0 ? NAN : (double)pl.bytes;
	row[COL_WHERE].i = pl.where;
	row[COL_TIME].i = (int64_t)(time - p->t0);
	p->part_samples++;
	p->samples++;
	return 0;
}

static void on_lost(void *arg, uint64_t lost)
{
	struct skid_priv *p = arg;

	p->b->discarded += lost;
	p->lost += lost;
}

static void on_throttle(void *arg, int on, uint64_t time)
{
	struct skid_priv *p = arg;

	p->throttled += on ? 1 : 0;
}

static const struct skid_ring_ops ring_ops = {
	.sample = on_sample,
	.lost = on_lost,
	.throttle = on_throttle,
};

int skid_part_begin(struct wultfw_ctx *ctx, struct skid_priv *p)
{
	const struct skid_cfg *cfg = p->cfg;
	int lvl = p->levels[p->part], ret;
	struct perf_event_attr a;
	char why[512];

	skid_event_attr(cfg->event, (uint64_t)cfg->period, lvl,
			(uint64_t)(uintptr_t)p->w.buf, &a);
	ret = skid_perf_open(&p->perf, &a, p->w.tid);
	if (ret) {
		skid_event_why(cfg->event, lvl, ret, ctx->sysfs_root, why, sizeof(why));
		return wultfw_fail(ctx, ret, "event %s, precise %d: %s",
				   cfg->event, lvl, why);
	}
	p->perf_open = true;
	p->draining = false;
	p->part_samples = 0;
	p->part_t0 = skid_mono_ns();
	ret = skid_perf_enable(&p->perf, 1);
	if (ret)
		return wultfw_fail(ctx, ret, "event %s: cannot enable it: %s",
				   cfg->event, strerror(-ret));
	wultfw_log(ctx, WULTFW_LOG_DEBUG, "part %d: %s at precise %d",
		   p->part + 1, cfg->event, lvl);
	return 0;
}

void skid_part_end(struct skid_priv *p)
{
	if (!p->perf_open)
		return;
	p->bad += p->perf.st.bad;
	skid_perf_close(&p->perf);
	p->perf_open = false;
}

/* The part has its samples (or the run stops): no new ones, drain. */
void skid_part_finish(struct skid_priv *p)
{
	skid_perf_enable(&p->perf, 0);
	p->draining = true;
}

/* How long a part may wait for its first sample. */
static uint64_t silent_bound(const struct skid_cfg *cfg)
{
	uint64_t period = cfg->period ? (uint64_t)cfg->period :
			  skid_event_default_period(cfg->event);

	if (!strcmp(cfg->event, "cpu-clock") && period > SKID_SILENT_NS / 10)
		return 10 * period;
	return SKID_SILENT_NS;
}

/*
 * No sample since the part began, for longer than the bound: say why
 * (log, info.yml) and end the part. The liveness probe at open() finds
 * breakpoint and cpu-clock events that never count; this finds the rest.
 */
static bool part_silent(struct wultfw_ctx *ctx, struct skid_priv *p)
{
	const struct skid_cfg *cfg = p->cfg;
	uint64_t bound = silent_bound(cfg);
	size_t n = strlen(p->silent);
	char why[256];

	if (p->part_samples || skid_mono_ns() - p->part_t0 < bound)
		return false;
	if (!strcmp(cfg->event, "breakpoint"))
		snprintf(why, sizeof(why), "it opened but never fired: a hypervisor that does not deliver debug exceptions?");
	else
		snprintf(why, sizeof(why), "it opened but does not count here, or is rarer than once per %llu s at this period: lower period",
			 (unsigned long long)(bound / 1000000000u));
	snprintf(p->silent + n, sizeof(p->silent) - n,
		 "%sevent %s, precise %d: no sample in %llu s while the workload ran; %s",
		 n ? "; " : "", cfg->event, p->levels[p->part],
		 (unsigned long long)(bound / 1000000000u), why);
	/* The last part of a run without a sample: the run's error says it. */
	if (p->samples || p->part + 1 < p->nlevels)
		wultfw_log(ctx, WULTFW_LOG_WARN, "%s", p->silent + n + (n ? 2 : 0));
	wultfw_info(ctx, "skid_silent", p->silent);
	return true;
}

int skid_part_read(struct wultfw_ctx *ctx, struct skid_priv *p,
		   struct wultfw_batch *b, uint64_t timeout_ns)
{
	size_t before = b->rows;
	int ret;

	if (!p->draining) {
		ret = skid_perf_wait(&p->perf, timeout_ns);
		if (ret < 0)
			return wultfw_fail(ctx, ret, "waiting for samples: %s",
					   strerror(-ret));
	}
	p->b = b;
	skid_perf_read(&p->perf, &ring_ops, p);
	if (!p->draining && (p->part_samples >= (uint64_t)p->cfg->samples ||
			     part_silent(ctx, p)))
		skid_part_finish(p);
	if (!p->draining || b->rows == b->capacity)
		return WULTFW_READ_OK;
	/* Draining and the batch had room: is the ring empty now? */
	skid_perf_read(&p->perf, &ring_ops, p);
	if (b->rows == b->capacity || b->rows > before)
		return WULTFW_READ_OK;
	skid_part_end(p);
	if (p->stopped || ++p->part >= p->nlevels) {
		p->done = true;
		if (!p->samples && p->silent[0] && !p->stopped)
			return wultfw_fail(ctx, -ENODATA, "%s", p->silent);
		return WULTFW_READ_END;
	}
	return skid_part_begin(ctx, p);
}
