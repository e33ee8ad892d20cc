/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "pin.h"

#include <sysstate/cpus.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* The machine's own CPUs, whatever tree the tests fake. */
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
