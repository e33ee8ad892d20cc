/* SPDX-License-Identifier: MIT */
/*
 * `stop_above` in an experiment's source group: a run ends, every CPU's
 * at once, when a datapoint's metric goes above a duration, and says
 * which CPU, metric, value and datapoint (rtla's "hit stop tracing").
 * One duration is for the main latency metric (livestats.h); a group
 * gives one per metric: stop_above = { WakeLatency = "200us"; };
 */
#ifndef WFW_STOPABOVE_H
#define WFW_STOPABOVE_H

#include <libconfig.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <wultfw/plugin.h>

#include "cfgerr.h"

#define WFW_STOP_MAX_RULES 16

struct wfw_stop_rule {
	char metric[64];		/* "": the main metric */
	uint64_t ns;
	const config_setting_t *at;	/* for errors */
	char key[192];
};

struct wfw_stop_above {
	struct wfw_stop_rule rules[WFW_STOP_MAX_RULES];
	size_t n;
};

/* The rules compiled against a run's columns. */
struct wfw_stop_check {
	size_t n;
	int col[WFW_STOP_MAX_RULES];
	double ns_per_raw[WFW_STOP_MAX_RULES];
	const struct wfw_stop_rule *rule[WFW_STOP_MAX_RULES];
	const struct wultfw_schema *schema;
};

/* What crossed, in shared memory for the per-CPU parent: hit is set last. */
struct wfw_stop_hit {
	int hit;
	int cpu;
	char metric[64];
	double value_ns, limit_ns;
	uint64_t index;			/* 1-based, of the run's datapoints */
	double at_s;			/* into the run */
};

/* `stop_above` of source group src (at key) into sa. */
void wfw_stop_above_parse(struct wfw_stop_above *sa, const config_setting_t *src,
			  const char *key, struct wfw_cfgerr *errs);
/* Every metric named among the declared columns (NULL: not known yet). */
void wfw_stop_above_check(const struct wfw_stop_above *sa,
			  const struct wultfw_column *cols, struct wfw_cfgerr *errs);

/* As the experiment file writes it, for logs/config: " stop_above = ...;" */
void wfw_stop_above_write(const struct wfw_stop_above *sa, FILE *f);

/* 0, or -EINVAL with why in err (the file's line and key named). */
int wfw_stop_compile(const struct wfw_stop_above *sa, const struct wultfw_schema *s,
		     const char *interval_latency, struct wfw_stop_check *c,
		     char *err, size_t len);
/* The first row of b above a limit, or -1; *rule: which. */
long wfw_stop_scan(const struct wfw_stop_check *c, struct wultfw_batch *b,
		   size_t *rule);
/* "CPU 1: WakeLatency 250.1us is above stop_above 200us at datapoint 501, 3.21s into the run" */
void wfw_stop_describe(const struct wfw_stop_hit *h, char *buf, size_t len);

#endif
