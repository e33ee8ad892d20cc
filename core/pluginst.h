/* SPDX-License-Identifier: MIT */
/*
 * A plugin group of the experiment file (a source, a sink, a collector):
 * the plugin it names loaded, its options checked against the plugin's
 * table, and later the plugin's own validate().
 */
#ifndef WFW_PLUGINST_H
#define WFW_PLUGINST_H

#include <libconfig.h>
#include <stdbool.h>

#include "cfgerr.h"
#include "options.h"
#include "plugins.h"
#include "sinkfile.h"

struct wfw_plugin_inst {
	struct wfw_plugin_handle h;
	struct wfw_optvals opts;
	char key[96];			/* "experiments[0].sinks[1]" */
	struct wfw_loc loc;		/* of the group */
	bool parsed;			/* loaded, its options parsed */
	struct wultfw_ctx ctx;
	struct wfw_sinkfiles files;	/* sinks: the files they write */
};

/*
 * Load the plugin a group names and check its options: errors at
 * file:line in errs. `reserved`: the core's keys of the group.
 */
int wfw_load_plugin(struct wfw_plugin_inst *pi, const config_setting_t *group,
		    const char *key, int kind, const char *const *reserved,
		    struct wfw_cfgerr *errs);

/*
 * The plugin's own check of its option values (validate()), given the
 * measured CPU (-1 for sinks) and the sysfs root (NULL: "/sys"); nothing
 * for a plugin that did not load or parse.
 */
void wfw_plugin_validate(struct wfw_plugin_inst *pi, int cpu,
			 const char *sysfs_root, struct wfw_cfgerr *errs);

/*
 * "FILE:LINE: KEY" of the option the plugin blamed in its last failure
 * (ctx.bad_opt), or of the plugin's group when it blamed none.
 */
void wfw_plugin_where(const struct wfw_plugin_inst *pi, char *buf, size_t len);

/* The plugin's reason for ret, or the errno text when it gave none. */
const char *wfw_plugin_reason(struct wfw_plugin_inst *pi, int ret);

/*
 * Report a plugin's failure: at the experiment file's line when it blamed
 * one of its options, else as "WHAT: reason" (WHAT NULL: "sink 'csv'
 * (sinks[0])").
 */
void wfw_plugin_error(struct wfw_plugin_inst *pi, int ret, const char *what);

/* Its options freed, the plugin unloaded. */
void wfw_plugin_inst_free(struct wfw_plugin_inst *pi);

#endif
