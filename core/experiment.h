/* SPDX-License-Identifier: MIT */
/*
 * One experiment of the experiment file (libconfig): its source and sinks
 * loaded and their options parsed, its limits, C-state request and
 * collectors. Parsing reads nothing of the system: what the experiment
 * asks of the machine is bound to it afterwards (bind.c).
 */
#ifndef WFW_EXPERIMENT_H
#define WFW_EXPERIMENT_H

#include <libconfig.h>
#include <stdbool.h>
#include <stdint.h>

#include "cfgerr.h"
#include "annotate.h"
#include "collect.h"
#include "datasel.h"
#include "overrides.h"
#include "pluginst.h"
#include "stopabove.h"

enum wfw_cstate_mode {
	WFW_CSTATES_ANY,		/* leave cpuidle alone */
	WFW_CSTATES_ONLY,		/* disable every state but these */
	WFW_CSTATES_DISABLE,		/* disable these */
};

/*
 * What the file asks of the machine, as written: the measured CPU's
 * setting and the `cstates` group, checked against this machine's CPUs
 * and C-states when the experiment is bound (bind.c). The settings live
 * as long as the plan's config.
 */
struct wfw_machine_req {
	const config_setting_t *cpu;	/* NULL: the default CPU; int or string */
	char cpu_key[160];
	const config_setting_t *cstates;	/* only or disable, or NULL */
	const config_setting_t *cstates_at;	/* where errors point */
	const config_setting_t *deep;	/* disable_deepest */
	bool want_deep;
	char cstates_group[160];	/* "cstates", errors of disable_deepest */
	char cstates_key[160];		/* "cstates.only" */
	bool cstates_named;		/* every one listed a name in quotes */
	const config_setting_t *hk;	/* housekeeping, or NULL */
	char hk_key[160];
};

struct wfw_experiment {
	char *name;
	char *outdir;			/* parent of the result directory */
	int cpu;			/* set when bound: the (first) measured CPU */
	int *cpus;			/* set when bound: every measured CPU */
	size_t ncpus;			/* > 1: one run per CPU at once (percpu.c) */
	int *hk_cpus;			/* `housekeeping` when given and bound */
	size_t nhk;			/* 0: not given (housekeep.h) */
	enum wultfw_ldist_use ldist_use;	/* NONE: a sampler, no range */
	uint64_t ldist_from_ns, ldist_to_ns;
	struct wfw_loc ldist_loc;
	uint64_t seed;
	uint64_t max_datapoints;	/* 0: no limit */
	uint64_t max_time_ns;		/* 0: no limit */
	struct wfw_plugin_inst source;
	struct wfw_plugin_inst *sinks;
	size_t nsinks;
	enum wfw_cstate_mode cstate_mode;
	char **cstates;			/* the CPU's names (when bound) */
	size_t ncstates;
	struct wfw_loc cstates_loc;
	struct wfw_collect_list collect;	/* samplers run alongside */
	struct wfw_annot_list annotate;		/* columns added to each datapoint */
	/*
	 * The columns its datapoints may have, as the plugins declare them:
	 * the source's, then the annotators'; NULL when one declares none.
	 */
	const struct wultfw_column *columns;
	struct wultfw_column *own_columns;	/* columns, when merged */
	struct wfw_datasel_cfg select;	/* include/exclude/keep_filtered */
	struct wfw_stop_above stop_above;	/* source.stop_above */
	struct wfw_machine_req req;
};

/*
 * Parse experiment group `exp` (NULL: the top level is the one
 * experiment), inheriting from the top level `top`; `path` names it in
 * errors ("experiments[2]"). Every problem goes to errs.
 */
void wfw_experiment_parse(struct wfw_experiment *e, const config_setting_t *exp,
			  const config_setting_t *top, const char *path,
			  const struct wfw_plan_overrides *ov,
			  struct wfw_cfgerr *errs);
void wfw_experiment_free(struct wfw_experiment *e);

#endif
