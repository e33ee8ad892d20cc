/* SPDX-License-Identifier: MIT */
/*
 * Running one experiment: open the source and the sinks, move batches of
 * datapoints from one to the others until a limit or a signal, and leave
 * a complete result directory behind whatever happens.
 */
#ifndef WFW_RUN_H
#define WFW_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "experiment.h"
#include "livestats.h"
#include "stopabove.h"

struct wfw_run_opts {
	bool force;			/* reuse an existing result directory */
	bool numbered;			/* generated names: a taken one gets -2, -3... */
	bool progress;			/* draw the progress line */
	const char *sysfs_root;		/* tests: fake /sys; NULL: /sys */
	const char *cmdline;		/* for logs/cmdline */
	const char *config_file;	/* for logs/ and info.yml */
	/* One CPU's run of several at once (percpu.c): */
	const char *dirname;		/* its directory's name, not e->name */
	bool no_leftovers;		/* the parent restored them */
	bool parent_once;		/* C-states and collectors: the parent's */
	volatile uint64_t *live;	/* datapoints, discarded: for the parent */
	struct wfw_live *live_stats;	/* the live table's figures, or NULL */
	const int *stop_req;		/* set: another CPU crossed stop_above */
};

struct wfw_run_result {
	uint64_t datapoints;
	uint64_t discarded;
	double duration_s;
	int stop_signal;		/* the signal that stopped it, or 0 */
	bool failed;
	bool empty;			/* ended without one datapoint: status 'empty' */
	size_t collectors_failed;	/* could not run or stopped early */
	char collectors_lost[256];	/* which: "telemetry (net.csv)" */
	struct wfw_stop_hit stop_hit;	/* stop_above crossed here */
	bool stopped_by_other;		/* another CPU's run crossed it */
};

#include "exitstatus.h"

/* Ended by stop_above: crossed here, or on another CPU of the experiment. */
static inline bool wfw_stopped(const struct wfw_run_result *r)
{
	return r->stop_hit.hit || r->stopped_by_other;
}

/*
 * Returns 0, or a negative errno when the experiment failed. Several CPUs
 * (e->ncpus > 1) are measured at once by wfw_run_percpu() (percpu.h).
 */
int wfw_run_experiment(struct wfw_experiment *e, const struct wfw_run_opts *o,
		       struct wfw_run_result *r);

#define WFW_BATCH_ROWS 4096

#endif
