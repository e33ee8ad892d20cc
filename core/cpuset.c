/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cpuset.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysstate/cpus.h>
#include <sysstate/sysfile.h>

/* The kernel's list of isolated CPUs into set[]; how many, or -errno. */
static int isolated_cpus(bool *set, const char *root)
{
	char path[512], buf[4096] = "";
	int ret;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/isolated",
		 wfw_sysfs(root));
	ret = wfw_read_line(path, buf, sizeof(buf));
	if (ret && ret != -ENODATA)
		return ret;
	return buf[0] ? wfw_parse_cpulist(buf, set, WFW_MAX_CPUS) : 0;
}

/* The CPUs `text` names into set[]: a count or -errno, err said. */
static int named_cpus(const char *text, bool *set, const char *root,
		      char *err, size_t errlen)
{
	int n;

	if (!strcmp(text, "all")) {
		n = wfw_online_cpus(set, WFW_MAX_CPUS, root);
		if (n <= 0)
			snprintf(err, errlen, "\"all\": cannot read %s/devices/system/cpu/online",
				 wfw_sysfs(root));
		return n > 0 ? n : -ENODEV;
	}
	if (!strcmp(text, "isolated")) {
		n = isolated_cpus(set, root);
		if (n <= 0)
			snprintf(err, errlen, "\"isolated\": no CPU is isolated here (%s/devices/system/cpu/isolated is empty; boot with isolcpus=)",
				 wfw_sysfs(root));
		return n > 0 ? n : -ENODEV;
	}
	n = wfw_parse_cpulist(text, set, WFW_MAX_CPUS);
	if (n <= 0) {
		snprintf(err, errlen, "\"%s\" is not a CPU list: give a number, ranges such as \"1-7,9\", \"all\" or \"isolated\"",
			 text);
		return -EINVAL;
	}
	return n;
}

int wfw_cpuset_parse(const char *text, const char *sysfs_root, int **cpus,
		     size_t *n, char *err, size_t errlen)
{
	bool *set = calloc(WFW_MAX_CPUS, sizeof(*set));
	int count, ret = 0;

	*cpus = NULL;
	*n = 0;
	if (!set)
		return -ENOMEM;
	count = named_cpus(text, set, sysfs_root, err, errlen);
	if (count < 0) {
		free(set);
		return count;
	}
	*cpus = calloc((size_t)count, sizeof(**cpus));
	for (int c = 0; *cpus && c < WFW_MAX_CPUS && !ret; c++) {
		if (!set[c])
			continue;
		if (wfw_cpu_online(c, sysfs_root) != 1) {
			snprintf(err, errlen, "CPU %d is not online (see %s/devices/system/cpu/online)",
				 c, wfw_sysfs(sysfs_root));
			ret = -ENODEV;
		}
		(*cpus)[(*n)++] = c;
	}
	if (!*cpus)
		ret = -ENOMEM;
	free(set);
	if (ret) {
		free(*cpus);
		*cpus = NULL;
		*n = 0;
	}
	return ret;
}

void wfw_cpuset_format(const int *cpus, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d",
					 i ? ", " : "", cpus[i]);
}
