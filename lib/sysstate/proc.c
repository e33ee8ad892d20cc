/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "sysstate/proc.h"
#include "sysstate/sysfile.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

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
	wfw_read_line("/proc/sys/kernel/random/boot_id", buf, len);
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
