/* SPDX-License-Identifier: MIT */
/*
 * telemetry provider "cpuidle": how often each C-state was entered (usage)
 * and how long was spent in it (time, us), per CPU, from cpuidle sysfs.
 */
#include "config.h"

#include "tele_cpus.h"

#include <sysstate/cpuidle.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define TELE_CPUIDLE_MAX_CPUS 1024

static int tele_cpuidle_list(const struct tele_env *env, tele_add_fn add,
			     void *arg, char *why, size_t len)
{
	int cpus[TELE_CPUIDLE_MAX_CPUS], n, i, s, found = 0;
	char name[TELE_NAME_LEN];

	n = tele_sysfs_cpus(env, cpus, TELE_CPUIDLE_MAX_CPUS);
	for (i = 0; i < n; i++) {
		struct wfw_cpuidle ci;

		if (wfw_cpuidle_open(&ci, cpus[i], env->sys))
			continue;
		for (s = 0; s < ci.nstates; s++) {
			snprintf(name, sizeof(name), "cpuidle:cpu%d:state%d:usage", cpus[i], s);
			add(arg, name);
			snprintf(name, sizeof(name), "cpuidle:cpu%d:state%d:time", cpus[i], s);
			add(arg, name);
		}
		found++;
		wfw_cpuidle_close(&ci);
	}
	if (found)
		return 0;
	wfw_cpuidle_why_none(n > 0 ? cpus[0] : 0, env->sys, why, len);
	return -ENOENT;
}

/* Does the CPU have that state? Asked through lib/sysstate, so a machine
 * without a cpuidle driver (or WULTFW_HIDE_CPUIDLE) says so by name. */
static int tele_cpuidle_has(const struct tele_env *env, int cpu, int state,
			    char *why, size_t len)
{
	struct wfw_cpuidle ci;
	int ret = wfw_cpuidle_open(&ci, cpu, env->sys);

	if (ret == -ENOENT) {
		wfw_cpuidle_why_none(cpu, env->sys, why, len);
		return ret;
	}
	if (ret) {
		snprintf(why, len, "cannot read CPU %d's cpuidle states: %s", cpu, strerror(-ret));
		return ret;
	}
	if (state < 0 || state >= ci.nstates) {
		snprintf(why, len, "CPU %d has cpuidle states 0-%d only", cpu, ci.nstates - 1);
		ret = -ENOENT;
	}
	wfw_cpuidle_close(&ci);
	return ret;
}

static int tele_cpuidle_open(const struct tele_env *env, const char *id,
			     struct tele_counter *c, char *why, size_t len)
{
	char what[16];
	int cpu, state, end = 0, ret;

	if (sscanf(id, "cpu%d:state%d:%15[a-z]%n", &cpu, &state, what, &end) != 3 ||
	    id[end] || (strcmp(what, "usage") && strcmp(what, "time"))) {
		snprintf(why, len, "'%s' is not cpuN:stateK:usage or cpuN:stateK:time", id);
		return -EINVAL;
	}
	ret = tele_cpuidle_has(env, cpu, state, why, len);
	if (ret)
		return ret;
	c->unit = what[0] == 'u' ? "count" : "us";
	c->bits = 64;
	return tele_set_path(c, "%s/devices/system/cpu/cpu%d/cpuidle/state%d/%s",
			     env->sys, cpu, state, what);
}

const struct tele_provider tele_cpuidle = {
	.name = "cpuidle",
	.ids = "cpuN:stateK:usage (times entered) or cpuN:stateK:time (us spent)",
	.list = tele_cpuidle_list,
	.open = tele_cpuidle_open,
	.read = tele_read_path_counter,
	.close = tele_close_nothing,
};
