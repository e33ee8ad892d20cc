/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "sysinfo.h"

#include <stdbool.h>

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

/* The value of the first "key<blanks>: value" line of /proc/cpuinfo. */
static int cpuinfo(const char *key, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
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

static void cpuidle_driver(struct wfw_info *info, const char *sysfs_root)
{
	char path[512], drv[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpuidle/current_driver",
		 sysfs_root ? sysfs_root : "/sys");
	f = fopen(path, "r");
	if (!f) {
		/* no cpuidle framework or driver at all */
		wfw_info_str(info, "cpuidle_driver", "none");
		return;
	}
	if (fgets(drv, sizeof(drv), f)) {
		drv[strcspn(drv, "\n")] = '\0';
		wfw_info_str(info, "cpuidle_driver", drv);
	}
	fclose(f);
}

/* The first line of a file, without its newline: 0, or -1 unreadable. */
static int first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
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

static void add_facts(struct wfw_info *info, const char *sysfs_root, int cpu)
{
	char path[512], buf[2048], num[16];

	snprintf(num, sizeof(num), "%d", cpu);
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct fact *f = &facts[i];

		snprintf(path, sizeof(path), "%s/%s%s%s", f->proc ? "/proc" : sysfs_root,
			 f->before, f->per_cpu ? num : "", f->after);
		if (!first_line(path, buf, sizeof(buf)))
			wfw_info_str(info, facts[i].key, chosen(buf));
	}
}

void wfw_info_machine(struct wfw_info *info, const char *sysfs_root, int cpu)
{
	struct utsname u;
	char buf[512];

	if (!uname(&u)) {
		wfw_info_str(info, "hostname", u.nodename);
		snprintf(buf, sizeof(buf), "%s %s", u.release, u.version);
		wfw_info_str(info, "kernel", buf);
	}
	if (!cpuinfo("model name", buf, sizeof(buf)))
		wfw_info_str(info, "cpumodel", buf);
	cpuidle_driver(info, sysfs_root);
	add_facts(info, sysfs_root ? sysfs_root : "/sys", cpu);
}
