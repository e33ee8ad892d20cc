/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "sysstate/cpus.h"
#include "sysstate/sysfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wfw_parse_cpulist(const char *text, bool *online, int max)
{
	const char *p = text;
	int count = 0;

	memset(online, 0, (size_t)max * sizeof(*online));
	while (*p && *p != '\n') {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			b = strtol(p, &end, 10);
			p = end;
		}
		if (a < 0 || b < a || b >= max)
			return -EINVAL;
		for (; a <= b; a++) {
			if (!online[a])
				count++;
			online[a] = true;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return count;
}

int wfw_online_cpus(bool *online, int max, const char *sysfs_root)
{
	char path[512], buf[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online",
		 wfw_sysfs(sysfs_root));
	ret = wfw_read_line(path, buf, sizeof(buf));
	if (ret && ret != -ENODATA)
		return ret;
	return wfw_parse_cpulist(buf, online, max);
}

int wfw_cpu_online(int cpu, const char *sysfs_root)
{
	bool *online = calloc(WFW_MAX_CPUS, sizeof(*online));
	int n, ret;

	if (!online)
		return -ENOMEM;
	n = wfw_online_cpus(online, WFW_MAX_CPUS, sysfs_root);
	if (n > 0)
		ret = cpu >= 0 && cpu < WFW_MAX_CPUS && online[cpu];
	else
		ret = n < 0 ? n : -ENODATA;	/* an empty list says nothing */
	free(online);
	return ret;
}

int wfw_default_cpu(const char *sysfs_root)
{
	bool *online = calloc(WFW_MAX_CPUS, sizeof(*online));
	int cpu = 0;

	if (online && wfw_online_cpus(online, WFW_MAX_CPUS, sysfs_root) > 0)
		for (cpu = WFW_MAX_CPUS - 1; cpu > 0 && !online[cpu]; cpu--)
			;
	free(online);
	return cpu;
}
