/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "livetab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"

#define REDRAW_NS 250000000ULL
#define COLS "  CPU  Datapoints        Cur        Min       Mean        Max        P99"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int wfw_livetab_begin(struct wfw_livetab *t, const char *name, const int *cpus,
		      size_t n, uint64_t max_datapoints, uint64_t max_time_ns,
		      bool on)
{
	memset(t, 0, sizeof(*t));
	t->rows = calloc(n, sizeof(*t->rows));
	if (!t->rows)
		return -ENOMEM;
	t->on = on;
	t->name = name;
	t->cpus = cpus;
	t->n = n;
	t->max_datapoints = max_datapoints;
	t->max_time_ns = max_time_ns;
	t->start_ns = t->last_ns = mono_ns();
	return 0;
}

void wfw_livetab_row(const struct wfw_live *l, int cpu, char *buf, size_t len)
{
	if (!l->n) {
		snprintf(buf, len, "%5d %11" PRIu64 "%11s%11s%11s%11s%11s", cpu,
			 l->datapoints, "-", "-", "-", "-", "-");
		return;
	}
	/* In microseconds, as rtla and cyclictest show them. */
	snprintf(buf, len, "%5d %11" PRIu64 "%11.3f%11.3f%11.3f%11.3f%11.3f", cpu,
		 l->datapoints, l->last / 1e3, l->min / 1e3,
		 l->sum / (double)l->n / 1e3, l->max / 1e3,
		 wfw_live_quantile(l, 0.99) / 1e3);
}

/* "NAME: WakeLatency (us), 0:12 elapsed, 0:48 left" */
static void title(const struct wfw_livetab *t, const char *metric, uint64_t dp,
		  char *buf, size_t len)
{
	struct wfw_progress p = {
		.max_datapoints = t->max_datapoints * t->n,
		.max_time_ns = t->max_time_ns,
	};
	double el = (double)(mono_ns() - t->start_ns) / 1e9;
	double left = wfw_progress_left(&p, el, dp);
	char e[32], l[32] = "?";

	wfw_format_hms(el, e, sizeof(e));
	if (left >= 0)
		wfw_format_hms(left, l, sizeof(l));
	snprintf(buf, len, "%s: %s%s, %s elapsed, %s left", t->name,
		 metric[0] ? metric : dp ? "no latency metric" : "starting",
		 metric[0] ? " in us" : "", e, l);
}

static void draw(struct wfw_livetab *t)
{
	struct wfw_live l;
	char line[256], head[256], metric[64] = "";
	uint64_t dp = 0;

	for (size_t i = 0; i < t->n; i++)
		if (wfw_live_read(t->rows[i], &l)) {
			dp += l.datapoints;
			if (!metric[0])
				snprintf(metric, sizeof(metric), "%s", l.metric);
		}
	title(t, metric, dp, head, sizeof(head));
	if (t->drawn)
		fprintf(stderr, "\033[%dA", t->drawn);
	fprintf(stderr, "\r\033[K%s\n\r\033[K%s\n", head, COLS);
	for (size_t i = 0; i < t->n; i++) {
		if (wfw_live_read(t->rows[i], &l))
			wfw_livetab_row(&l, t->cpus[i], line, sizeof(line));
		else	/* a writer that busy is rare: next time */
			snprintf(line, sizeof(line), "%5d (being updated)", t->cpus[i]);
		fprintf(stderr, "\r\033[K%s\n", line);
	}
	fflush(stderr);
	t->drawn = (int)t->n + 2;
}

void wfw_livetab_update(struct wfw_livetab *t)
{
	uint64_t now;

	if (!t->on)
		return;
	now = mono_ns();
	if (now - t->last_ns < REDRAW_NS)
		return;
	t->last_ns = now;
	draw(t);
}

void wfw_livetab_end(struct wfw_livetab *t)
{
	if (t->on)
		draw(t);
	t->on = false;
	free(t->rows);
	t->rows = NULL;
}
