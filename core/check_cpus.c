/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "check_cpus.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sysstate/cpuidle.h>

#include "cpulock.h"
#include "log.h"
#include "machine.h"

/*
 * Taken and let go at once: is another run measuring it now? Said, not
 * counted against the experiment: a run then goes on too, warning.
 */
static void check_lock(const struct wfw_experiment *e, int cpu)
{
	char err[1024], who[32] = "pid unknown";
	pid_t other = 0;
	int fd = wfw_cpulock_take(cpu, &other, err, sizeof(err));

	if (fd >= 0) {
		wfw_cpulock_release(fd);
		return;
	}
	if (other)
		snprintf(who, sizeof(who), "pid %d", (int)other);
	if (fd == -EBUSY)
		wfw_warn("experiment '%s': CPU %d is being measured by another wultfw (%s) now: running together, each would disturb the other's wake-ups; wait for it or leave CPU %d out",
			 e->name, cpu, who, cpu);
	else if (fd == -EPERM)
		wfw_warn("experiment '%s': CPU %d's lock: %s", e->name, cpu, err);
}

/* The first CPU's states machine.c checked already. */
static void check_cstates(const struct wfw_experiment *e, int cpu,
			  const char *sysfs_root, struct wfw_cfgerr *warns)
{
	const struct wfw_loc *l = &e->cstates_loc;
	struct wfw_cpuidle ci;
	char why[160];

	if (e->cstate_mode == WFW_CSTATES_ANY)
		return;
	if (!wfw_cpuidle_open(&ci, cpu, sysfs_root)) {
		wfw_cpuidle_close(&ci);
		return;
	}
	wfw_cpuidle_why_none(cpu, sysfs_root, why, sizeof(why));
	wfw_cfgerr_add(warns, l->file, l->line, l->key,
		       "%s, so C-states cannot be restricted on CPU %d", why, cpu);
}

/* The source opened on `cpu` as its run there would open it. */
static void check_source(struct wfw_experiment *e, int cpu,
			 const char *sysfs_root, struct wfw_cfgerr *warns)
{
	struct wfw_plugin_inst *src = &e->source;
	struct wultfw_source_info si;
	struct wultfw_ctx ctx;
	struct wfw_source_cpu sc;
	int ret;

	ret = wfw_source_probe(src->h.desc, &src->opts, cpu, sysfs_root, &sc,
			       &ctx, &si);
	if (ret >= 0)
		src->h.desc->source->close(&ctx);
	wfw_source_cpu_close(&sc);
	if (ret < 0)
		wfw_cfgerr_add(warns, "", 0, NULL,
			       "experiment '%s': source '%s' cannot run on CPU %d: %s",
			       e->name, src->h.desc->name, cpu,
			       ctx.err[0] ? ctx.err : strerror(-ret));
}

size_t wfw_check_cpus(struct wfw_experiment *e, const char *sysfs_root,
		      struct wfw_cfgerr *warns)
{
	size_t before = warns->n;

	/* One CPU: machine.c checked the rest; its lock as a list's. */
	if (e->ncpus < 2) {
		check_lock(e, e->cpu);
		return 0;
	}
	for (size_t i = 0; i < e->ncpus; i++) {
		int cpu = e->cpus[i];

		check_lock(e, cpu);
		if (cpu == e->cpu)	/* machine.c's checks were of this one */
			continue;
		check_cstates(e, cpu, sysfs_root, warns);
		check_source(e, cpu, sysfs_root, warns);
	}
	return warns->n - before;
}
