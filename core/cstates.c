/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cstates.h"

#include <cpuidle/cpuidle.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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
	char value[32];
} saved[WFW_CPUIDLE_MAX_STATES + 1];
static volatile int nsaved;

void wfw_cstates_restore(void)
{
	sigset_t block, old;
	int i, n = nsaved;

	/*
	 * A stop signal arriving half-way must not find the list already
	 * emptied (its handler restores too and exits): hold the signals
	 * while writing, and forget the list only once all is written.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < n; i++) {
		int fd = open(saved[i].path, O_WRONLY | O_CLOEXEC);

		if (fd < 0)
			continue;
		if (write(fd, saved[i].value, strlen(saved[i].value)) < 0) {
			/* Nothing better to do: the file said no. */
		}
		close(fd);
	}
	nsaved = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static bool listed(const struct wfw_experiment *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->ncstates; i++)
		if (!strcmp(e->cstates[i], name))
			return true;
	return false;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

/*
 * The haltpoll governor (KVM guests) never looks at the disable flags, so
 * a restriction would silently do nothing. Switch to a governor that
 * honours them for the experiment; restore() puts haltpoll back.
 */
static int fix_governor(const char *root, char *note, size_t notelen,
			char *err, size_t errlen)
{
	static const char *const honest[] = { "menu", "teo", "ladder" };
	char path[320], avail[256], cur[64];
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpuidle/current_governor", root);
	if (read_line(path, cur, sizeof(cur)) || strcmp(cur, "haltpoll"))
		return 0;
	snprintf(avail, sizeof(avail), "%s/devices/system/cpu/cpuidle/available_governors", root);
	if (read_line(avail, avail, sizeof(avail)))
		avail[0] = '\0';
	strncat(avail, " ", sizeof(avail) - strlen(avail) - 1);
	for (i = 0; i < sizeof(honest) / sizeof(honest[0]); i++) {
		char word[16];

		snprintf(word, sizeof(word), "%s ", honest[i]);
		if (!strstr(avail, word))
			continue;
		f = fopen(path, "we");
		if (!f || fputs(honest[i], f) < 0 || fclose(f)) {
			snprintf(err, errlen,
				 "the haltpoll cpuidle governor ignores C-state restrictions and %s cannot be changed: %s",
				 path, strerror(errno));
			return -errno;
		}
		snprintf(saved[nsaved].path, sizeof(saved[0].path), "%s", path);
		snprintf(saved[nsaved].value, sizeof(saved[0].value), "haltpoll");
		nsaved++;
		snprintf(note, notelen,
			 "the haltpoll cpuidle governor ignores C-state restrictions: using '%s' for this experiment",
			 honest[i]);
		return 0;
	}
	snprintf(err, errlen,
		 "the haltpoll cpuidle governor ignores C-state restrictions and no other governor is available (%s): remove 'cstates' or boot with cpuidle.governor=menu",
		 avail);
	return -ENOTSUP;
}

int wfw_cstates_apply(const struct wfw_experiment *e, const char *sysfs_root,
		      char *note, size_t notelen, char *err, size_t errlen)
{
	struct wfw_cpuidle ci;
	bool prev[WFW_CPUIDLE_MAX_STATES];
	int i, ret;

	note[0] = '\0';
	if (e->cstate_mode == WFW_CSTATES_ANY)
		return 0;
	ret = wfw_cpuidle_open(&ci, e->cpu, sysfs_root);
	if (ret) {
		char why[160];

		wfw_cpuidle_why_none(e->cpu, sysfs_root, why, sizeof(why));
		snprintf(err, errlen, "%s:%d: %s: %s, so C-states cannot be restricted on this machine: remove 'cstates' or measure on a machine with a cpuidle driver",
			 e->cstates_loc.file, e->cstates_loc.line,
			 e->cstates_loc.key, why);
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
	ret = fix_governor(ci.root, note, notelen, err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < ci.nstates; i++) {
		bool in = listed(e, ci.names[i]);
		bool disable = e->cstate_mode == WFW_CSTATES_ONLY ? !in : in;

		if (disable == prev[i])
			continue;
		snprintf(saved[nsaved].path, sizeof(saved[0].path),
			 "%s/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
			 ci.root, e->cpu, i);
		snprintf(saved[nsaved].value, sizeof(saved[0].value), "%d", prev[i]);
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

void wfw_cstates_governor(const char *sysfs_root, char *buf, size_t len)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpuidle/current_governor",
		 sysfs_root ? sysfs_root : "/sys");
	if (read_line(path, buf, len))
		snprintf(buf, len, "none");
}
