/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "config.h"

#include "kmod_source.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

int wfw_kmod_source_start(struct wfw_kmod_source *s, struct wultfw_ctx *ctx,
			  const struct wultfw_source_params *params)
{
	char why[256];
	int err;

	if (params->cpu < 0)
		return wultfw_fail(ctx, -EINVAL, "cpu = %d: no such CPU", params->cpu);
	err = wfw_kmod_config(&s->km, s->device, (unsigned int)params->cpu,
			      params->ldist_from_ns, params->ldist_to_ns,
			      params->seed, why, sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "device \"%s\" on CPU %d: %s",
				   s->device, params->cpu, why);
	if (s->km.cfg.ctr_present != s->probe_present)
		return wultfw_fail(ctx, -EINVAL, "CPU %d has other counters "
			"(0x%x) than CPU %d (0x%x); the columns would be wrong",
			params->cpu, s->km.cfg.ctr_present, s->probe_cpu,
			s->probe_present);
	if (s->km.cfg.tunit == WULTFW_TUNIT_TSC) {
		err = wfw_kmod_tsc_calibrate(&s->km.tsc, 100000000ULL);
		if (err)
			return wultfw_fail(ctx, err, "cannot calibrate the TSC "
				"against CLOCK_MONOTONIC: %s", strerror(-err));
		wultfw_log(ctx, WULTFW_LOG_INFO, "TSC: %.3f MHz",
			   1000.0 / s->km.tsc.ns_per_cyc);
	}
	s->cpu = params->cpu;
	err = wfw_kmod_start(&s->km);
	if (err)
		return wultfw_fail(ctx, err, "cannot start the measurement: %s",
				   strerror(-err));
	return 0;
}

int wfw_kmod_source_read(struct wfw_kmod_source *s, struct wultfw_ctx *ctx,
			 struct wultfw_batch *b, uint64_t timeout_ns)
{
	size_t room = b->capacity - b->rows, i;
	struct wultfw_stats st;
	enum wultfw_kside_bad bad;
	long n;
	int err;

	if (!s->warned_same_cpu && sched_getcpu() == s->cpu) {
		s->warned_same_cpu = true;
		wultfw_log(ctx, WULTFW_LOG_WARN, "reading datapoints on the "
			   "measured CPU %d disturbs it; pin the reader "
			   "elsewhere", s->cpu);
	}
	if (room > WFW_KMOD_SOURCE_RECS)
		room = WFW_KMOD_SOURCE_RECS;
	n = room ? wfw_kmod_read(&s->km, s->recs, room, timeout_ns) : 0;
	if (n < 0)
		return wultfw_fail(ctx, (int)n, "reading %s: %s",
				   WFW_KMOD_DEVPATH, strerror((int)-n));
	for (i = 0; i < (size_t)n; i++) {
		struct wultfw_kside_dp dp;

		wfw_kmod_to_dp(&s->km, &s->recs[i], &dp);
		bad = wultfw_kside_check(&s->ks, &dp);
		if (bad != WULTFW_KSIDE_OK) {
			b->discarded++;	/* e.g. a stray TSC value */
			if (bad == WULTFW_KSIDE_BAD_OVERHEAD)
				s->dropped_overhead++;
			continue;
		}
		wultfw_kside_fill(&s->ks, &dp, wultfw_row(b, b->rows));
		wfw_kmod_fill_dev(&s->km, &s->recs[i], wultfw_row(b, b->rows),
				  s->ks.first_extra);
		b->rows++;
	}
	err = wfw_kmod_stats(&s->km, &st);
	if (err)
		return wultfw_fail(ctx, err, "reading the module's statistics: %s",
				   strerror(-err));
	b->discarded += st.discarded - s->km.discarded_seen;
	s->km.discarded_seen = st.discarded;
	if (!st.running && n == 0)
		return wultfw_fail(ctx, -EIO, "the kernel module stopped "
			"measuring (%s): see dmesg", s->stop_hint);
	return WULTFW_READ_OK;
}

static void info_u64(struct wultfw_ctx *ctx, const char *key, uint64_t val)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)val);
	wultfw_info(ctx, key, v);
}

int wfw_kmod_source_stop(struct wfw_kmod_source *s, struct wultfw_ctx *ctx)
{
	struct wultfw_stats st;

	if (s->km.fd < 0)
		return 0;
	wfw_kmod_stop(&s->km);
	if (wfw_kmod_stats(&s->km, &st))
		return 0;
	info_u64(ctx, "kmod_armed", st.armed);
	info_u64(ctx, "kmod_published", st.published);
	info_u64(ctx, "kmod_dropped_other_cpu", st.discard_cpu);
	info_u64(ctx, "kmod_dropped_not_idle", st.discard_noidle);
	info_u64(ctx, "kmod_dropped_order", st.discard_order);
	info_u64(ctx, "kmod_dropped_event_changed", st.discard_changed);
	info_u64(ctx, "kmod_timeouts", st.timeouts);
	info_u64(ctx, "kmod_rearmed", st.rearm);
	/* Half of it is taken out of each latency (kmod/README.md). */
	info_u64(ctx, "kmod_time_read_ns", st.read_cost_ns);
	info_u64(ctx, "kmod_dropped_overhead", s->dropped_overhead);
	return 0;
}

int wfw_kmod_source_schema(struct wfw_kmod_source *s,
			   const struct wultfw_ctx *ctx, bool raw)
{
	struct wultfw_kside_cfg kc = { 0 };

	s->probe_present = s->km.cfg.ctr_present;
	wfw_kmod_kside_cfg(&s->km, &kc);
	kc.cstate_names = ctx->cstate_names;
	kc.n_cstates = (size_t)ctx->n_cstates;
	kc.raw = raw;
	return wultfw_kside_init(&s->ks, &kc);
}

void wfw_kmod_source_info(const struct wfw_kmod_source *s,
			  struct wultfw_source_info *info)
{
	info->resolution_ns = s->km.cfg.resolution_ns;
	info->ldist_min_ns = s->km.cfg.ldist_min_ns;
	info->ldist_max_ns = s->km.cfg.ldist_max_ns;
	info->ldist_gran_ns = s->km.cfg.resolution_ns;
	info->schema = &s->ks.schema;
}

int wfw_kmod_source_op_start(struct wultfw_ctx *ctx,
			     const struct wultfw_source_params *params)
{
	return wfw_kmod_source_start(ctx->priv, ctx, params);
}

int wfw_kmod_source_op_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
			    uint64_t timeout_ns)
{
	return wfw_kmod_source_read(ctx->priv, ctx, b, timeout_ns);
}

int wfw_kmod_source_op_stop(struct wultfw_ctx *ctx)
{
	return ctx->priv ? wfw_kmod_source_stop(ctx->priv, ctx) : 0;
}

void wfw_kmod_source_init(struct wfw_kmod_source *s, const char *device,
			  const char *stop_hint)
{
	s->km.fd = -1;
	s->cpu = -1;
	s->device = device;
	s->stop_hint = stop_hint;
}
