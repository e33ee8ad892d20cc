/* SPDX-License-Identifier: MIT */
/* Did a run end? */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "datafmt/infoyml.h"
#include "datafmt/runstate.h"
#include "sysstate/proc.h"

/* status: running, but on this machine, in this boot, does it still run? */
static enum wfw_run_end judge_running(const struct wfw_infoyml *y, char *why,
				      size_t len)
{
	char *pid = wfw_infoyml_get(y, "pid"), *start = wfw_infoyml_get(y, "pid_start");
	char *boot = wfw_infoyml_get(y, "boot_id"), *host = wfw_infoyml_get(y, "sut_hostname");
	enum wfw_run_end end = WFW_RUN_KILLED;
	struct utsname u;
	char *e = NULL;
	long p = pid ? strtol(pid, &e, 10) : 0;

	if (!pid || (host && (uname(&u) || strcmp(host, u.nodename)))) {
		snprintf(why, len, "incomplete: the run did not finish (info.yml still says status: running%s%s)",
			 host ? ", measured on " : "", host ? host : "");
		end = WFW_RUN_UNFINISHED;
	} else if (*e || p <= 0 || p > INT_MAX) {
		snprintf(why, len, "incomplete: the run did not finish (info.yml still says status: running, with no valid pid)");
		end = WFW_RUN_UNFINISHED;
	} else if (wfw_proc_alive((pid_t)p, start ? strtoull(start, NULL, 10) : 0, boot)) {
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
	switch (wfw_infoyml_read(&y, datafile)) {
	case 0:
		break;
	case -ENOMEM:
		return WFW_RUN_ENDED;	/* nothing to say it did not */
	default:
		snprintf(why, len, "%s: ignored", y.err);
		return WFW_RUN_UNKNOWN;
	}
	status = wfw_infoyml_get(&y, "status");
	if (status && !strcmp(status, "running"))
		end = judge_running(&y, why, len);
	free(status);
	wfw_infoyml_free(&y);
	return end;
}

void wfw_run_end_warn(const char *tool, const char *datafile)
{
	char why[700];

	switch (wfw_run_end(datafile, why, sizeof(why))) {
	case WFW_RUN_ENDED:
		break;
	case WFW_RUN_UNKNOWN:
		fprintf(stderr, "wultfw %s: warning: %s\n", tool, why);
		break;
	default:
		fprintf(stderr, "wultfw %s: %s: %s\n", tool, datafile, why);
	}
}
