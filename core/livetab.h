/* SPDX-License-Identifier: MIT */
/*
 * The live table of a run on several CPUs, drawn on a terminal a few
 * times a second in place of the progress line (as rtla timerlat top):
 * one row per CPU with datapoints, current, min, mean, max and p99 so
 * far of the main latency metric. Only draws: each CPU's run computes
 * its figures (livestats.h). While it is drawn, the runs' messages come
 * through a pipe and are printed above it, so it stays one table.
 */
#ifndef WFW_LIVETAB_H
#define WFW_LIVETAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "livestats.h"

struct wfw_livetab {
	bool on;
	const char *name;
	size_t n;
	const int *cpus;
	const struct wfw_live **rows;	/* n of them, the caller's to set */
	uint64_t max_datapoints, max_time_ns;	/* per CPU */
	uint64_t start_ns, last_ns;
	int drawn;			/* lines on the screen, to go back up */
	int pipe[2];			/* the runs' stderr, when on; else -1 */
	char buf[8192];			/* what came of it, up to a whole line */
	size_t len;
};

/* 0, or -ENOMEM; t->rows[i] must be set before the first update. */
int wfw_livetab_begin(struct wfw_livetab *t, const char *name, const int *cpus,
		      size_t n, uint64_t max_datapoints, uint64_t max_time_ns,
		      bool on);
/* In each run's process (after fork): its stderr into the pipe. */
void wfw_livetab_child(struct wfw_livetab *t);
/* In the parent, once every run started: only they write to the pipe. */
void wfw_livetab_forked(struct wfw_livetab *t);
/* The runs' messages above the table; redraws at most a few times a second. */
void wfw_livetab_update(struct wfw_livetab *t);
/* The last figures drawn once more and left on the screen. */
void wfw_livetab_end(struct wfw_livetab *t);

/* One CPU's row, as drawn (no newline). */
void wfw_livetab_row(const struct wfw_live *l, int cpu, char *buf, size_t len);

#endif
