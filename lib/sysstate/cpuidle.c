/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "sysstate/cpuidle.h"
#include "sysstate/sysfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void wfw_cpuidle_state_path(const struct wfw_cpuidle *ci, int state,
			    const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s/devices/system/cpu/cpu%d/cpuidle/state%d/%s",
		 ci->root, ci->cpu, state, file);
}

/* The environment hides this machine's states, not a fake tree's. */
static bool cpuidle_hidden(const char *root)
{
	return getenv(WFW_CPUIDLE_HIDE_ENV) && !strcmp(root, "/sys");
}

int wfw_cpuidle_open(struct wfw_cpuidle *ci, int cpu, const char *sysfs_root)
{
	char path[512];
	int i, ret;

	memset(ci, 0, sizeof(*ci));
	ci->cpu = cpu;
	snprintf(ci->root, sizeof(ci->root), "%s", wfw_sysfs(sysfs_root));
	for (i = 0; i < WFW_CPUIDLE_MAX_STATES; i++) {
		ci->usage_fd[i] = -1;
		ci->time_fd[i] = -1;
	}
	if (cpuidle_hidden(ci->root))
		return -ENOENT;
	for (i = 0; i < WFW_CPUIDLE_MAX_STATES; i++) {
		wfw_cpuidle_state_path(ci, i, "name", path, sizeof(path));
		ret = wfw_read_line(path, ci->names[i], sizeof(ci->names[i]));
		if (ret == -ENODATA)
			ret = 0;	/* a state without a name */
		if (ret == -ENOENT)
			break;
		if (ret)
			return ret;
		ci->name_ptrs[i] = ci->names[i];
	}
	ci->nstates = i;
	return i ? 0 : -ENOENT;
}

void wfw_cpuidle_path(const char *sysfs_root, const char *file, char *buf,
		      size_t len)
{
	snprintf(buf, len, "%s/devices/system/cpu/cpuidle/%s",
		 wfw_sysfs(sysfs_root), file);
}

/* A file of the cpuidle directory, or `none` when it cannot be read. */
static void cpuidle_text(const char *sysfs_root, const char *file,
			 const char *none, char *buf, size_t len)
{
	char path[512];

	wfw_cpuidle_path(sysfs_root, file, path, sizeof(path));
	if (wfw_read_line(path, buf, len) && len)
		snprintf(buf, len, "%s", none);
}

void wfw_cpuidle_driver(const char *sysfs_root, char *buf, size_t len)
{
	cpuidle_text(sysfs_root, "current_driver", "none", buf, len);
}

void wfw_cpuidle_governor(const char *sysfs_root, char *buf, size_t len)
{
	cpuidle_text(sysfs_root, "current_governor", "none", buf, len);
}

void wfw_cpuidle_governors(const char *sysfs_root, char *buf, size_t len)
{
	cpuidle_text(sysfs_root, "available_governors", "", buf, len);
}

void wfw_cpuidle_why_none(int cpu, const char *sysfs_root, char *buf,
			  size_t len)
{
	char drv[64];

	if (cpuidle_hidden(wfw_sysfs(sysfs_root))) {
		snprintf(buf, len, "CPU %d has no cpuidle states (hidden by %s)",
			 cpu, WFW_CPUIDLE_HIDE_ENV);
		return;
	}
	wfw_cpuidle_driver(sysfs_root, drv, sizeof(drv));
	snprintf(buf, len, "CPU %d has no cpuidle states (cpuidle driver: %s)",
		 cpu, drv);
}

void wfw_cpuidle_close(struct wfw_cpuidle *ci)
{
	int i;

	for (i = 0; i < WFW_CPUIDLE_MAX_STATES; i++) {
		if (ci->usage_fd[i] >= 0)
			close(ci->usage_fd[i]);
		if (ci->time_fd[i] >= 0)
			close(ci->time_fd[i]);
		ci->usage_fd[i] = ci->time_fd[i] = -1;
	}
}

int wfw_cpuidle_find(const struct wfw_cpuidle *ci, const char *name)
{
	int i;

	for (i = 0; i < ci->nstates; i++)
		if (!strcmp(ci->names[i], name))
			return i;
	return -1;
}

static int read_counters(struct wfw_cpuidle *ci, int *fds, const char *file,
			 uint64_t *vals)
{
	char path[512];
	int i, ret;

	for (i = 0; i < ci->nstates; i++) {
		if (fds[i] < 0) {
			wfw_cpuidle_state_path(ci, i, file, path, sizeof(path));
			fds[i] = open(path, O_RDONLY | O_CLOEXEC);
			if (fds[i] < 0)
				return -errno;
		}
		ret = wfw_pread_u64(fds[i], &vals[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int wfw_cpuidle_read_usage(struct wfw_cpuidle *ci, uint64_t *usage)
{
	return read_counters(ci, ci->usage_fd, "usage", usage);
}

int wfw_cpuidle_read_time(struct wfw_cpuidle *ci, uint64_t *time_us)
{
	return read_counters(ci, ci->time_fd, "time", time_us);
}

int wfw_cpuidle_only_state(const struct wfw_cpuidle *ci,
			   const uint64_t *before, const uint64_t *after)
{
	int i, found = WFW_CPUIDLE_NONE_ENTERED;

	for (i = 0; i < ci->nstates; i++) {
		if (after[i] == before[i])
			continue;
		if (found >= 0)
			return WFW_CPUIDLE_SEVERAL_ENTERED;
		found = i;
	}
	return found;
}

int wfw_cpuidle_get_disable(const struct wfw_cpuidle *ci, int state,
			    bool *disabled)
{
	char path[512], buf[16];
	int ret;

	if (state < 0 || state >= ci->nstates)
		return -EINVAL;
	wfw_cpuidle_state_path(ci, state, "disable", path, sizeof(path));
	ret = wfw_read_line(path, buf, sizeof(buf));
	if (ret && ret != -ENODATA)
		return ret;
	*disabled = buf[0] == '1';
	return 0;
}

int wfw_cpuidle_set_disable(const struct wfw_cpuidle *ci, int state,
			    bool disabled)
{
	char path[512];
	int fd, ret = 0;

	if (state < 0 || state >= ci->nstates)
		return -EINVAL;
	wfw_cpuidle_state_path(ci, state, "disable", path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, disabled ? "1" : "0", 1) != 1)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

void wfw_cpuidle_describe(int cpu, const char *sysfs_root, char *buf,
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
