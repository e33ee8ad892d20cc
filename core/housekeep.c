/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "housekeep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysstate/cpus.h>

#include "cpuset.h"
#include "log.h"

static bool measured(const struct wfw_experiment *e, int cpu)
{
	for (size_t i = 0; i < e->ncpus; i++)
		if (e->cpus[i] == cpu)
			return true;
	return false;
}

void wfw_housekeep_plan(const struct wfw_experiment *e, struct wfw_housekeep *hk)
{
	bool online[WFW_MAX_CPUS];

	memset(hk, 0, sizeof(*hk));
	CPU_ZERO(&hk->set);
	if (e->nhk) {
		for (size_t i = 0; i < e->nhk; i++)
			if (e->hk_cpus[i] < CPU_SETSIZE)
				CPU_SET(e->hk_cpus[i], &hk->set);
		hk->given = true;
	} else if (wfw_online_cpus(online, WFW_MAX_CPUS, NULL) >= 0) {
		/* The machine's own CPUs, whatever tree the tests fake. */
		for (int c = 0; c < WFW_MAX_CPUS && c < CPU_SETSIZE; c++)
			if (online[c] && !measured(e, c))
				CPU_SET(c, &hk->set);
	}
	hk->pinned = CPU_COUNT(&hk->set) > 0;
}

int wfw_housekeep_apply(const struct wfw_experiment *e,
			const struct wfw_housekeep *hk)
{
	char cpus[256];

	wfw_cpuset_format(e->cpus, e->ncpus, cpus, sizeof(cpus));
	if (!hk->pinned) {
		wfw_warn("experiment '%s': every online CPU is measured (%s), none is left for housekeeping: wultfw's reader, sinks and collectors run unpinned, on measured CPUs, and their work adds to the latencies measured there; name housekeeping CPUs (housekeeping = \"0\") or measure fewer CPUs",
			 e->name, cpus);
		return 0;
	}
	if (sched_setaffinity(0, sizeof(hk->set), &hk->set)) {
		int ret = -errno;

		wfw_warn("experiment '%s': cannot move wultfw's own threads to the housekeeping CPUs: %s; they run unpinned",
			 e->name, strerror(errno));
		return ret;
	}
	return 0;
}

void wfw_housekeep_info(const struct wfw_housekeep *hk, struct wfw_info *info)
{
	char buf[1024];
	size_t used = 0;

	if (!hk->pinned) {
		wfw_info_str(info, "housekeeping", "unpinned");
		return;
	}
	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used < sizeof(buf); c++)
		if (CPU_ISSET(c, &hk->set))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used,
						 "%s%d", used ? ", " : "", c);
	wfw_info_fmt(info, "housekeeping", "[%s]", buf);
}
