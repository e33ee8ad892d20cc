/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datafmt/locate.h"
#include "datafmt/percpu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An experiment of several CPUs (percpu.h): "EXP/", which readopen.c opens. */
static int locate_percpu(const char *arg, char *path, size_t len, char *err,
			 size_t errlen)
{
	size_t al = strlen(arg);
	struct wfw_percpu p;
	int ret = wfw_percpu_find(&p, arg, err, errlen);

	if (ret)
		return ret;
	if (p.n) {
		wfw_percpu_free(&p);
		snprintf(path, len, "%s%s", arg, al && arg[al - 1] == '/' ? "" : "/");
		return 0;
	}
	snprintf(err, errlen, "%s: a directory without datapoints.csv, datapoints.wfb or cpuN/ results: give a result directory or a data file",
		 arg);
	return -ENOENT;
}

int wfw_result_locate(const char *arg, char *path, size_t len, char *err,
		      size_t errlen)
{
	static const char *const names[] = { "datapoints.csv",
					     "datapoints.wfb" };
	struct stat st;

	if (stat(arg, &st)) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", arg, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, len, "%s/%s", arg, names[i]);
		/* Found, not named: root would copy whatever a link names. */
		if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
			snprintf(err, errlen, "%s: a symbolic link, not followed in a result directory (root would read whatever file it names): give the file itself if it is data",
				 path);
			return -ELOOP;
		}
		if (!access(path, R_OK))
			return 0;
	}
	return locate_percpu(arg, path, len, err, errlen);
}
