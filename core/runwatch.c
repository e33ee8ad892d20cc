/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "runwatch.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "resultdir.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int wfw_runwatch_open(struct wfw_runwatch *w, const struct wfw_stop_above *sa,
		      const struct wultfw_schema *s, const char *interval_latency,
		      struct wfw_live *live, int cpu, char *err, size_t len)
{
	memset(w, 0, sizeof(*w));
	w->live = live;
	w->cpu = cpu;
	w->hit_row = -1;
	w->col = wfw_live_metric(s, interval_latency);
	if (w->col >= 0)
		w->ns_per_raw = wfw_live_ns_per_raw(&s->cols[w->col]);
	if (live)
		snprintf(live->metric, sizeof(live->metric), "%s",
			 w->col >= 0 ? s->cols[w->col].name : "");
	w->start_ns = mono_ns();
	return wfw_stop_compile(sa, s, interval_latency, &w->stop, err, len);
}

void wfw_runwatch_clip(struct wfw_runwatch *w, struct wultfw_batch *b)
{
	w->hit_row = wfw_stop_scan(&w->stop, b, &w->hit_rule);
	if (w->hit_row >= 0)
		b->rows = (size_t)w->hit_row + 1;
}

/* The crossing datapoint, the last of b, into hit; hit->hit set last. */
static void note_hit(struct wfw_runwatch *w, struct wultfw_batch *b,
		     uint64_t datapoints, struct wfw_stop_hit *hit)
{
	const struct wfw_stop_check *c = &w->stop;
	size_t k = w->hit_rule;
	const union wultfw_cell *cell = wultfw_row(b, (size_t)w->hit_row);

	hit->cpu = w->cpu;
	snprintf(hit->metric, sizeof(hit->metric), "%s", c->schema->cols[c->col[k]].name);
	hit->value_ns = (double)cell[c->col[k]].i * c->ns_per_raw[k];
	hit->limit_ns = (double)c->rule[k]->ns;
	hit->index = datapoints;
	hit->at_s = (double)(mono_ns() - w->start_ns) / 1e9;
	__atomic_store_n(&hit->hit, 1, __ATOMIC_RELEASE);
}

bool wfw_runwatch_done(struct wfw_runwatch *w, struct wultfw_batch *b,
		       uint64_t datapoints, uint64_t discarded,
		       struct wfw_stop_hit *hit)
{
	if (w->live)
		wfw_live_add(w->live, b, w->col, w->ns_per_raw, datapoints, discarded);
	if (w->hit_row >= 0 && !hit->hit)
		note_hit(w, b, datapoints, hit);
	return hit->hit;
}

void wfw_stop_info(const struct wfw_stop_hit *hit, struct wfw_info *info)
{
	char what[256], line[300];

	wfw_stop_describe(hit, what, sizeof(what));
	snprintf(line, sizeof(line), "stop_above: %s", what);
	wfw_info_str(info, "stopped_by", line);
}

void wfw_stop_report(const char *name, const struct wfw_stop_hit *hit,
		     uint64_t datapoints, const char *dir)
{
	char what[256];

	wfw_stop_describe(hit, what, sizeof(what));
	wfw_warn("experiment '%s' hit stop_above: %s; %" PRIu64 " datapoints, the crossing one last, saved in %s",
		 name, what, datapoints, dir);
}
