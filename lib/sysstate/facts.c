/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "sysstate/cpuidle.h"
#include "sysstate/facts.h"
#include "sysstate/sysfile.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

/* The value of the first "key<blanks>: value" line of /proc/cpuinfo. */
static int cpuinfo(const char *key, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, key, strlen(key)) ||
		    strspn(line + strlen(key), " \t") != (size_t)(colon - line) - strlen(key))
			continue;
		snprintf(buf, len, "%s", colon + 1 + strspn(colon + 1, " \t"));
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * What else decides a latency (kernel timekeeping, isolation, RT
 * throttling, THP): key from the file root/before[CPU]after, root the
 * sysfs root or /proc, CPU the measured one where per_cpu. Left out where
 * the file does not exist.
 */
static const struct fact {
	const char *key;
	bool proc, per_cpu;
	const char *before, *after;
} facts[] = {
	{ "clocksource", false, false,
	  "devices/system/clocksource/clocksource0/current_clocksource", "" },
	{ "clockevent", false, true, "devices/system/clockevents/clockevent", "/current_device" },
	{ "cpufreq_governor", false, true, "devices/system/cpu/cpu", "/cpufreq/scaling_governor" },
	{ "isolated_cpus", false, false, "devices/system/cpu/isolated", "" },
	{ "nohz_full_cpus", false, false, "devices/system/cpu/nohz_full", "" },
	{ "transparent_hugepage", false, false, "kernel/mm/transparent_hugepage/enabled", "" },
	{ "sched_rt_runtime_us", true, false, "sys/kernel/sched_rt_runtime_us", "" },
	{ "kernel_cmdline", true, false, "cmdline", "" },
};

/* "always [madvise] never": the one in brackets. */
static const char *chosen(char *buf)
{
	char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close)
		return buf;
	*close = '\0';
	return open + 1;
}

static void file_facts(const char *root, int cpu, wfw_fact_fn fn, void *arg)
{
	char path[512], buf[2048], num[16];

	snprintf(num, sizeof(num), "%d", cpu);
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct fact *f = &facts[i];

		snprintf(path, sizeof(path), "%s/%s%s%s", f->proc ? "/proc" : root,
			 f->before, f->per_cpu ? num : "", f->after);
		if (!wfw_read_line(path, buf, sizeof(buf)))
			fn(arg, f->key, chosen(buf));
	}
}

void wfw_machine_facts(const char *sysfs_root, int cpu, wfw_fact_fn fn,
		       void *arg)
{
	struct utsname u;
	char buf[512];

	if (!uname(&u)) {
		fn(arg, "hostname", u.nodename);
		snprintf(buf, sizeof(buf), "%s %s", u.release, u.version);
		fn(arg, "kernel", buf);
	}
	if (!cpuinfo("model name", buf, sizeof(buf)))
		fn(arg, "cpumodel", buf);
	wfw_cpuidle_driver(sysfs_root, buf, sizeof(buf));
	fn(arg, "cpuidle_driver", buf);
	file_facts(wfw_sysfs(sysfs_root), cpu, fn, arg);
}
