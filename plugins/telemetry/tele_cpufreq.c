/* SPDX-License-Identifier: MIT */
/* telemetry provider "cpufreq": each CPU's current frequency (a gauge, kHz). */
#include "config.h"

#include "tele_cpus.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#define TELE_CPUFREQ_MAX_CPUS 1024
#define TELE_CPUFREQ_FILE "%s/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq"

static int tele_cpufreq_list(const struct tele_env *env, tele_add_fn add,
			     void *arg, char *why, size_t len)
{
	int cpus[TELE_CPUFREQ_MAX_CPUS], n, i, found = 0;
	char path[PATH_MAX], name[TELE_NAME_LEN];

	n = tele_sysfs_cpus(env, cpus, TELE_CPUFREQ_MAX_CPUS);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), TELE_CPUFREQ_FILE, env->sys, cpus[i]);
		if (access(path, R_OK))
			continue;
		snprintf(name, sizeof(name), "cpufreq:cpu%d:cur_freq", cpus[i]);
		add(arg, name);
		found++;
	}
	if (found)
		return 0;
	snprintf(why, len, "no cpufreq driver (no %s/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq)",
		 env->sys);
	return -ENOENT;
}

static int tele_cpufreq_open(const struct tele_env *env, const char *id,
			     struct tele_counter *c, char *why, size_t len)
{
	int cpu, end = 0;

	if (sscanf(id, "cpu%d:cur_freq%n", &cpu, &end) != 1 || !end || id[end]) {
		snprintf(why, len, "'%s' is not cpuN:cur_freq", id);
		return -EINVAL;
	}
	c->unit = "kHz";
	c->gauge = true;
	c->bits = 64;
	return tele_set_path(c, TELE_CPUFREQ_FILE, env->sys, cpu);
}

const struct tele_provider tele_cpufreq = {
	.name = "cpufreq",
	.ids = "cpuN:cur_freq (scaling_cur_freq, kHz)",
	.list = tele_cpufreq_list,
	.open = tele_cpufreq_open,
	.read = tele_read_path_counter,
	.close = tele_close_nothing,
};
