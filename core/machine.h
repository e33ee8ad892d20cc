/* SPDX-License-Identifier: MIT */
/*
 * What this machine can run: the questions an experiment asks of the
 * machine before it measures, asked early for --check and scan.
 */
#ifndef WFW_MACHINE_H
#define WFW_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sysstate/cpuidle.h>

#include "cfgerr.h"
#include "experiment.h"

#include "exitstatus.h"

/*
 * Fit the requested launch distances to what the source can do here:
 * round to its granularity, refuse what is outside its range with
 * "FILE:LINE: KEY: ..." in err.
 */
int wfw_fit_ldist(const struct wfw_experiment *e,
		  const struct wultfw_source_info *si, uint64_t *from,
		  uint64_t *to, char *err, size_t errlen);

/* The measured CPU's cpuidle states as a source gets them (ctx). */
struct wfw_source_cpu {
	struct wfw_cpuidle ci;
	char why_none[160];		/* why it has none */
};

/*
 * Read `cpu`'s cpuidle state names below `sysfs_root` and hand them to a
 * source's ctx (cstate_names, n_cstates, or no_cstates and why). `sc`
 * must outlive the source's open()..close().
 */
void wfw_source_cpu_open(struct wfw_source_cpu *sc, int cpu,
			 const char *sysfs_root, struct wultfw_ctx *ctx);
void wfw_source_cpu_close(struct wfw_source_cpu *sc);

/*
 * open() the source with option values `opts` on `cpu`, quietly: can it
 * run here? On success the caller closes it with desc->source->close(ctx)
 * and then wfw_source_cpu_close(sc).
 */
int wfw_source_probe(const struct wultfw_plugin *desc,
		     const struct wfw_optvals *opts, int cpu,
		     const char *sysfs_root, struct wfw_source_cpu *sc,
		     struct wultfw_ctx *ctx, struct wultfw_source_info *si);

/*
 * Add a warning to `warns` for each thing experiment `e` needs that this
 * machine lacks (its source or a collector cannot open here, ...), or
 * that would stop its run (its result directory exists, without
 * `force`); returns how many. Changes nothing on the system.
 */
size_t wfw_machine_check(struct wfw_experiment *e, const char *sysfs_root,
			 bool force, struct wfw_cfgerr *warns);

#endif
