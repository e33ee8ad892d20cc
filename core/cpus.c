/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cpus.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
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
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online",
		 sysfs_root ? sysfs_root : "/sys");
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return wfw_parse_cpulist(buf, online, max);
}

/* The online CPUs but avoid, within `within` if not NULL, into set: how many. */
static int cpus_but(const bool *online, int avoid, const cpu_set_t *within,
		    cpu_set_t *set)
{
	int n = 0;

	CPU_ZERO(set);
	for (int cpu = 0; cpu < WFW_MAX_CPUS && cpu < CPU_SETSIZE; cpu++) {
		if (online[cpu] && cpu != avoid && (!within || CPU_ISSET(cpu, within))) {
			CPU_SET(cpu, set);
			n++;
		}
	}
	return n;
}

int wfw_pin_away_from(int avoid, bool *widened)
{
	static bool online[WFW_MAX_CPUS], have_given;
	static cpu_set_t given;	/* what wultfw was started with (taskset) */
	cpu_set_t set;

	*widened = false;
	if (!have_given)
		have_given = !sched_getaffinity(0, sizeof(given), &given);
	if (wfw_online_cpus(online, WFW_MAX_CPUS, NULL) < 0)
		return -ENOENT;
	if (!cpus_but(online, avoid, have_given ? &given : NULL, &set)) {
		/* Only the measured CPU was given: the measurement comes first. */
		if (!cpus_but(online, avoid, NULL, &set))
			return -ENOENT;	/* a single CPU: nowhere else to go */
		*widened = true;
	}
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

bool wfw_may_run_on(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE ||
	    pthread_getaffinity_np(pthread_self(), sizeof(set), &set))
		return false;
	return CPU_ISSET(cpu, &set);
}

int wfw_default_cpu(void)
{
	static bool online[WFW_MAX_CPUS];
	int cpu;

	if (wfw_online_cpus(online, WFW_MAX_CPUS, NULL) <= 0)
		return 0;
	for (cpu = WFW_MAX_CPUS - 1; cpu > 0; cpu--)
		if (online[cpu])
			return cpu;
	return 0;
}
