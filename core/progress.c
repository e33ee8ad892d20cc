/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "progress.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "log.h"

#define REDRAW_NS 250000000ULL

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void wfw_format_hms(double seconds, char *buf, unsigned long len)
{
	unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;

	if (s >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

double wfw_progress_left(const struct wfw_progress *p, double elapsed,
			 uint64_t datapoints)
{
	double left = -1, rate = elapsed > 0 ? (double)datapoints / elapsed : 0;

	/* Past the time limit the run is ending: 0, not the count's guess. */
	if (p->max_time_ns)
		left = fmax((double)p->max_time_ns / 1e9 - elapsed, 0);
	if (p->max_datapoints && rate > 0) {
		double by_count = datapoints < p->max_datapoints ?
			(double)(p->max_datapoints - datapoints) / rate : 0;

		if (left < 0 || by_count < left)
			left = by_count;
	}
	return left;
}

void wfw_progress_begin(struct wfw_progress *p, const char *name,
			uint64_t max_datapoints, uint64_t max_time_ns,
			bool on)
{
	p->on = on;
	p->name = name;
	p->max_datapoints = max_datapoints;
	p->max_time_ns = max_time_ns;
	p->start_ns = p->last_ns = mono_ns();
	wfw_log_set_progress_active(on);
}

void wfw_progress_update(struct wfw_progress *p, uint64_t datapoints,
			 uint64_t discarded)
{
	uint64_t now;
	double elapsed, rate, left;
	char el[32], lf[32] = "?";

	if (!p->on)
		return;
	now = mono_ns();
	if (now - p->last_ns < REDRAW_NS)
		return;
	p->last_ns = now;
	elapsed = (double)(now - p->start_ns) / 1e9;
	rate = elapsed > 0 ? (double)datapoints / elapsed : 0;
	left = wfw_progress_left(p, elapsed, datapoints);
	wfw_format_hms(elapsed, el, sizeof(el));
	if (left >= 0)
		wfw_format_hms(left, lf, sizeof(lf));
	fprintf(stderr, "\r\033[K%s: %" PRIu64, p->name, datapoints);
	if (p->max_datapoints)
		fprintf(stderr, "/%" PRIu64, p->max_datapoints);
	fprintf(stderr, " datapoints, %.0f/s, %s elapsed, %s left", rate, el, lf);
	if (discarded)
		fprintf(stderr, ", %" PRIu64 " discarded", discarded);
	fflush(stderr);
}

void wfw_progress_end(struct wfw_progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
	wfw_log_set_progress_active(0);
	p->on = false;
}
