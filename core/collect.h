/* SPDX-License-Identifier: MIT */
/*
 * Collectors: sampler sources (telemetry, ...) that run next to an
 * experiment's main source, each in its own thread off the measured CPU,
 * each writing its own CSV file in the result directory. Declared as
 * `collect = ( { plugin = "telemetry"; ... }, ... );` in an experiment or
 * at the top level. A collector that fails says why and stops; the
 * measurement goes on.
 */
#ifndef WFW_COLLECT_H
#define WFW_COLLECT_H

#include <libconfig.h>
#include <sched.h>

#include "cfgerr.h"
#include "pluginst.h"
#include "resultdir.h"

/* An experiment's collectors, as its file lists them. */
struct wfw_collect_list {
	struct wfw_plugin_inst *pi;	/* loaded, options parsed */
	char **files;			/* each one's file in the result dir */
	size_t n;
};

/* Parse the `collect` list at `list` (key: its path) into cl. */
void wfw_collect_parse(struct wfw_collect_list *cl, const config_setting_t *list,
		       const char *key, struct wfw_cfgerr *errs);
void wfw_collect_free(struct wfw_collect_list *cl);

struct wfw_collectors;

/*
 * Open and start every collector of cl writing below `dir`, off the
 * measured `cpu`; those that cannot run are reported and left out.
 * Returns the running set (NULL when there is none).
 */
struct wfw_collectors *wfw_collect_start(struct wfw_collect_list *cl, int cpu,
					 const char *dir, const char *sysfs,
					 struct wfw_info *info);
/*
 * The same on the CPUs `where` (NULL: wherever the caller may run): an
 * experiment on several CPUs runs its collectors once, on its
 * housekeeping CPUs (percpu.c, housekeep.h); `cpu` is the CPU whose
 * counters a collector takes by default.
 */
struct wfw_collectors *wfw_collect_start_on(struct wfw_collect_list *cl, int cpu,
					    const cpu_set_t *where,
					    const char *dir, const char *sysfs,
					    struct wfw_info *info);
/*
 * One batch of the main source reached the sinks: every on_demand
 * collector takes one sample (in its own thread; this only asks).
 */
void wfw_collect_tick(struct wfw_collectors *cs);
/*
 * Stop them, close their files, list them in info. Returns how many could
 * not run or stopped early (info.yml: collectors_failed, collectN_error),
 * naming them in `lost` ("telemetry (net.csv), ...").
 */
size_t wfw_collect_stop(struct wfw_collectors *cs, struct wfw_info *info,
			char *lost, size_t lostlen);

#include "exitstatus.h"

#endif
