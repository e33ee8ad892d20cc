/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "livetab.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	t->pipe[0] = t->pipe[1] = -1;
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
	/* Without the pipe the runs write to the terminal as they would. */
	if (on && !pipe2(t->pipe, O_CLOEXEC))
		fcntl(t->pipe[0], F_SETFL, O_NONBLOCK);
	return 0;
}

void wfw_livetab_child(struct wfw_livetab *t)
{
	if (t->pipe[1] < 0)
		return;
	fflush(stderr);
	dup2(t->pipe[1], STDERR_FILENO);	/* dup2 clears CLOEXEC on 2 */
	close(t->pipe[0]);
	close(t->pipe[1]);
}

void wfw_livetab_forked(struct wfw_livetab *t)
{
	if (t->pipe[1] >= 0)
		close(t->pipe[1]);
	t->pipe[1] = -1;
}

/* The table off the screen: the cursor where its first line was. */
static void erase(struct wfw_livetab *t)
{
	if (t->drawn)
		fprintf(stderr, "\033[%dA\r\033[J", t->drawn);
	t->drawn = 0;
}

/* Whole lines the runs wrote, printed where the table was; true if any. */
static bool pass_on(struct wfw_livetab *t, bool all)
{
	char *nl;
	ssize_t n;
	size_t whole;

	while (t->pipe[0] >= 0 && t->len < sizeof(t->buf) &&
	       (n = read(t->pipe[0], t->buf + t->len, sizeof(t->buf) - t->len)) > 0)
		t->len += (size_t)n;
	nl = t->len ? memrchr(t->buf, '\n', t->len) : NULL;
	/* A full buffer without a newline, or the end: out as it is. */
	whole = nl ? (size_t)(nl - t->buf) + 1 :
		all || t->len == sizeof(t->buf) ? t->len : 0;
	if (!whole)
		return false;
	erase(t);
	fwrite(t->buf, 1, whole, stderr);
	if (t->buf[whole - 1] != '\n')
		fputc('\n', stderr);
	memmove(t->buf, t->buf + whole, t->len - whole);
	t->len -= whole;
	return true;
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
	erase(t);
	/* One screen line each, or going back up misses: 80 columns at most. */
	fprintf(stderr, "%.79s\n%s\n", head, COLS);
	for (size_t i = 0; i < t->n; i++) {
		if (wfw_live_read(t->rows[i], &l))
			wfw_livetab_row(&l, t->cpus[i], line, sizeof(line));
		else	/* a writer that busy is rare: next time */
			snprintf(line, sizeof(line), "%5d (being updated)", t->cpus[i]);
		fprintf(stderr, "%s\n", line);
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
	if (!pass_on(t, false) && now - t->last_ns < REDRAW_NS)
		return;
	t->last_ns = now;
	draw(t);
}

void wfw_livetab_end(struct wfw_livetab *t)
{
	if (t->on) {
		while (pass_on(t, true))
			;
		draw(t);
	}
	t->on = false;
	if (t->pipe[0] >= 0)
		close(t->pipe[0]);
	wfw_livetab_forked(t);
	t->pipe[0] = -1;
	free(t->rows);
	t->rows = NULL;
}
