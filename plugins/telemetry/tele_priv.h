/* SPDX-License-Identifier: MIT */
/* telemetry source: state shared by telemetry.c (options, schema) and
 * tele_run.c (sampling in the three modes). */
#ifndef TELE_PRIV_H
#define TELE_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <wultfw/plugin.h>

#include "tele_set.h"

enum tele_mode { TELE_SINGLE, TELE_REPETITIVE, TELE_ON_DEMAND };

struct tele_cfg {
	struct wultfw_strs counters;
	uint64_t period;	/* ns */
	const char *mode;
	int64_t max_samples;
	bool sync_start;
	bool clear;
	const char *layout;
	const char *proc_root;
	bool strict;
};

/* Columns before the counters: Time, SampleWindow. */
#define TELE_FIXED_COLS 2

struct tele_priv {
	struct tele_set set;
	enum tele_mode mode;
	bool per_value;		/* layout = "value": a time column per counter */
	uint64_t period_ns;
	uint64_t max_samples;	/* 0: no limit (single, on_demand) */
	bool sync, clear;
	struct wultfw_column *cols;
	char **time_names;	/* "NAME.Time" column names (layout value) */
	struct wultfw_schema schema;
	char descr[1024];
	int64_t *vals, *times;	/* one sample's values and read times */

	/* measured at open: one sample, a wake-up's lateness (medians) */
	uint64_t sample_ns, late_ns, achievable_ns;

	/* sampling */
	bool stopped;		/* stop() was called: read() takes no more */
	uint64_t next_ns;	/* repetitive: the next sample's deadline */
	uint64_t taken;		/* samples taken */
	uint64_t first_ns, last_ns;
	struct wultfw_ctx *ctx;	/* for the sampling thread's log lines */

	/* repetitive: a thread fills a ring of max_samples rows */
	pthread_t thread;
	bool thread_on;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool quit;
	int64_t *ring;		/* max_samples rows of ncols cells */
	uint64_t head, count;	/* oldest row, rows held */
	uint64_t overwrites;
};

/* How many samples and sleeps tele_run_probe() times. */
#define TELE_PROBES 5
/* The shortest period (the option's minimum). */
#define TELE_MIN_PERIOD_NS 100000ULL

/* Measure sample_ns, late_ns and achievable_ns (their sum). */
void tele_run_probe(struct tele_priv *p);
int tele_run_start(struct wultfw_ctx *ctx, struct tele_priv *p);
int tele_run_read(struct wultfw_ctx *ctx, struct tele_priv *p,
		  struct wultfw_batch *b, uint64_t timeout_ns);
void tele_run_stop(struct wultfw_ctx *ctx, struct tele_priv *p);

#endif
