/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cstates.h"

#include <cpuidle/cpuidle.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * What to write back: paths and values prepared in advance, so restoring
 * needs only open/write/close, which are safe in a signal handler.
 */
static struct {
	char path[320];
	char value;
} saved[WFW_CPUIDLE_MAX_STATES];
static volatile int nsaved;

void wfw_cstates_restore(void)
{
	int i, n = nsaved;

	nsaved = 0;
	for (i = 0; i < n; i++) {
		int fd = open(saved[i].path, O_WRONLY | O_CLOEXEC);

		if (fd < 0)
			continue;
		if (write(fd, &saved[i].value, 1) != 1) {
			/* Nothing better to do: the file said no. */
		}
		close(fd);
	}
}

static bool listed(const struct wfw_experiment *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->ncstates; i++)
		if (!strcmp(e->cstates[i], name))
			return true;
	return false;
}

int wfw_cstates_apply(const struct wfw_experiment *e, const char *sysfs_root,
		      char *err, size_t errlen)
{
	struct wfw_cpuidle ci;
	bool prev[WFW_CPUIDLE_MAX_STATES];
	int i, ret;

	if (e->cstate_mode == WFW_CSTATES_ANY)
		return 0;
	ret = wfw_cpuidle_open(&ci, e->cpu, sysfs_root);
	if (ret) {
		snprintf(err, errlen, "CPU %d has no cpuidle states: %s", e->cpu,
			 strerror(-ret));
		return ret;
	}
	for (i = 0; i < ci.nstates; i++) {
		ret = wfw_cpuidle_get_disable(&ci, i, &prev[i]);
		if (ret) {
			snprintf(err, errlen, "cannot read state%d/disable of CPU %d: %s",
				 i, e->cpu, strerror(-ret));
			return ret;
		}
	}
	for (i = 0; i < ci.nstates; i++) {
		bool in = listed(e, ci.names[i]);
		bool disable = e->cstate_mode == WFW_CSTATES_ONLY ? !in : in;

		if (disable == prev[i])
			continue;
		snprintf(saved[nsaved].path, sizeof(saved[0].path),
			 "%s/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
			 ci.root, e->cpu, i);
		saved[nsaved].value = prev[i] ? '1' : '0';
		nsaved++;
		ret = wfw_cpuidle_set_disable(&ci, i, disable);
		if (ret) {
			snprintf(err, errlen,
				 "cannot %s C-state %s of CPU %d (%s): %s%s",
				 disable ? "disable" : "enable", ci.names[i], e->cpu,
				 saved[nsaved - 1].path, strerror(-ret),
				 ret == -EACCES || ret == -EPERM ? " (run as root)" : "");
			nsaved--;
			wfw_cstates_restore();
			wfw_cpuidle_close(&ci);
			return ret;
		}
	}
	wfw_cpuidle_close(&ci);
	return 0;
}

void wfw_cstates_describe(int cpu, const char *sysfs_root, char *buf,
			  size_t len)
{
	struct wfw_cpuidle ci;
	size_t used = 0;
	bool dis;
	int i;

	buf[0] = '\0';
	if (wfw_cpuidle_open(&ci, cpu, sysfs_root)) {
		snprintf(buf, len, "no cpuidle states");
		return;
	}
	for (i = 0; i < ci.nstates && used < len; i++) {
		if (wfw_cpuidle_get_disable(&ci, i, &dis))
			dis = false;
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s",
					 i ? ", " : "", ci.names[i],
					 dis ? "off" : "on");
	}
	wfw_cpuidle_close(&ci);
}
