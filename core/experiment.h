/* SPDX-License-Identifier: MIT */
/*
 * The experiment file (libconfig) turned into a list of experiments, each
 * with its source and sinks loaded and their options validated. Nothing
 * here touches the system: that is the scheduler's job.
 */
#ifndef WFW_EXPERIMENT_H
#define WFW_EXPERIMENT_H

#include <libconfig.h>
#include <stdbool.h>
#include <stdint.h>

#include "cfgerr.h"
#include "datasel.h"
#include "options.h"
#include "plugins.h"
#include "sinkfile.h"

/* Where a setting was written, for errors found after parsing. */
struct wfw_loc {
	char file[256];
	int line;
	char key[128];
};

struct wfw_plugin_inst {
	struct wfw_plugin_handle h;
	struct wfw_optvals opts;
	char key[96];			/* "experiments[0].sinks[1]" */
	struct wfw_loc loc;		/* of the group */
	struct wultfw_ctx ctx;
	struct wfw_sinkfiles files;	/* sinks: the files they write */
};

enum wfw_cstate_mode {
	WFW_CSTATES_ANY,		/* leave cpuidle alone */
	WFW_CSTATES_ONLY,		/* disable every state but these */
	WFW_CSTATES_DISABLE,		/* disable these */
};

struct wfw_experiment {
	char *name;
	char *outdir;			/* parent of the result directory */
	int cpu;
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
	char **cstates;
	size_t ncstates;
	struct wfw_loc cstates_loc;
	struct wfw_plugin_inst *collect;	/* samplers run alongside (collect.h) */
	char **collect_files;		/* each one's file in the result dir */
	size_t ncollect;
	struct wfw_datasel_cfg select;	/* include/exclude/keep_filtered */
};

struct wfw_plan {
	config_t cfg;
	char file[256];			/* "-" style name for the embedded one */
	bool embedded;
	struct wfw_experiment *exps;
	size_t n;
};

struct wfw_plan_overrides {
	const char *outdir;		/* -o */
	const char *only;		/* --only NAME */
	const char *sysfs_root;		/* tests: fake /sys; NULL: /sys */
	/* Settings of every experiment, as given (overrides.c checks them). */
	const char *cpu, *ldist, *datapoints, *time;
};

/*
 * Parse `file` (NULL: the embedded default experiment). Returns 0, or
 * -EINVAL with every problem found in errs.
 */
int wfw_plan_load(struct wfw_plan *plan, const char *file,
		  const struct wfw_plan_overrides *ov, struct wfw_cfgerr *errs);
void wfw_plan_free(struct wfw_plan *plan);

/*
 * "FILE:LINE: KEY" of the option the plugin blamed in its last failure
 * (ctx.bad_opt), or of the plugin's group when it blamed none.
 */
void wfw_plugin_where(const struct wfw_plugin_inst *pi, char *buf, size_t len);

/*
 * Load the plugin a group names and check its options (sources, sinks,
 * collectors): errors at file:line in errs. `reserved`: the core's keys.
 */
int wfw_load_plugin(struct wfw_plugin_inst *pi, const config_setting_t *group,
		    const char *key, int kind, const char *const *reserved,
		    int cpu, struct wfw_cfgerr *errs);

/* Text of the embedded default experiment. */
extern const char wfw_default_experiment[];

#endif
