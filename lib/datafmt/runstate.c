/* SPDX-License-Identifier: MIT */
/* Did a run end, and does the process that made something still run? */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "datafmt/infoyml.h"
#include "datafmt/runstate.h"

unsigned long long wfw_proc_start(pid_t pid)
{
	unsigned long long start = 0;
	char path[64], buf[1024], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* After the command name in parentheses: state is field 3, starttime 22. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
			 &start) != 1)
		return 0;
	return start;
}

void wfw_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

bool wfw_proc_alive(pid_t pid, unsigned long long start, const char *boot)
{
	char now[64];

	wfw_boot_id(now, sizeof(now));
	if (boot && *boot && *now && strcmp(boot, now))
		return false;	/* the machine rebooted since */
	if (pid <= 0 || (kill(pid, 0) && errno == ESRCH))
		return false;
	return !start || wfw_proc_start(pid) == start;
}

/* status: running, but on this machine, in this boot, does it still run? */
static enum wfw_run_end judge_running(const struct wfw_infoyml *y, char *why,
				      size_t len)
{
	char *pid = wfw_infoyml_get(y, "pid"), *start = wfw_infoyml_get(y, "pid_start");
	char *boot = wfw_infoyml_get(y, "boot_id"), *host = wfw_infoyml_get(y, "sut_hostname");
	enum wfw_run_end end = WFW_RUN_KILLED;
	struct utsname u;

	if (!pid || (host && (uname(&u) || strcmp(host, u.nodename)))) {
		snprintf(why, len, "incomplete: the run did not finish (info.yml still says status: running%s%s)",
			 host ? ", measured on " : "", host ? host : "");
		end = WFW_RUN_UNFINISHED;
	} else if (wfw_proc_alive((pid_t)atoi(pid), start ? strtoull(start, NULL, 10) : 0, boot)) {
		snprintf(why, len, "incomplete: the run is still going (pid %s)", pid);
		end = WFW_RUN_GOING;
	} else {
		snprintf(why, len, "incomplete: the run was killed (pid %s %s; the files hold what reached the disk)",
			 pid, boot && *boot ? "is gone" : "no longer runs");
	}
	free(pid);
	free(start);
	free(boot);
	free(host);
	return end;
}

enum wfw_run_end wfw_run_end(const char *datafile, char *why, size_t len)
{
	struct wfw_infoyml y = { 0 };
	enum wfw_run_end end = WFW_RUN_ENDED;
	char *status;

	why[0] = '\0';
	if (wfw_infoyml_read(&y, datafile))
		return WFW_RUN_ENDED;
	status = wfw_infoyml_get(&y, "status");
	if (status && !strcmp(status, "running"))
		end = judge_running(&y, why, len);
	free(status);
	wfw_infoyml_free(&y);
	return end;
}

void wfw_run_end_warn(const char *tool, const char *datafile)
{
	char why[256];

	if (wfw_run_end(datafile, why, sizeof(why)) != WFW_RUN_ENDED)
		fprintf(stderr, "wultfw %s: %s: %s\n", tool, datafile, why);
}
