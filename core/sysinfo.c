/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "sysinfo.h"

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

void wfw_info_machine(struct wfw_info *info, const char *sysfs_root)
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
}
