/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "report/assets.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

int wfw_report_prepare_dir(const char *dir, bool force, char *err,
			   size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	int ret;

	if (!stat(dir, &st)) {
		snprintf(path, sizeof(path), "%s/data.js", dir);
		if (access(path, F_OK)) {	/* --force would not help */
			snprintf(err, errlen, "%s exists and holds no report (no data.js), which --force would not write into either: choose another -o DIR",
				 dir);
			return -EEXIST;
		}
		if (!force) {
			snprintf(err, errlen, "%s exists already: choose another -o DIR, or replace the report in it with --force",
				 dir);
			return -EEXIST;
		}
		return 0;
	}
	snprintf(path, sizeof(path), "%s", dir);
	ret = mkdir_p(path);
	if (ret)
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(-ret));
	return ret;
}

static int copy_file(const char *from, const char *dir, const char *name,
		     char *err, size_t errlen)
{
	char to[PATH_MAX], buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	snprintf(to, sizeof(to), "%s/%s", dir, name);
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		snprintf(err, errlen, "%s: %s", from, strerror(errno));
		return -errno;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", to, strerror(errno));
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0 && !ret)
		if (write(out, buf, (size_t)n) != n)
			ret = -EIO;
	if (n < 0)
		ret = -EIO;
	if (close(out) && !ret)
		ret = -EIO;
	close(in);
	if (ret)
		snprintf(err, errlen, "copying %s to %s failed", from, to);
	return ret;
}

/* The page's files: the environment, the installed copy, the sources. */
static const char *assets_dir(void)
{
	static const char *const dirs[] = { WFW_REPORT_ASSETS_DIR,
					    WFW_SRC_REPORT_ASSETS_DIR };
	const char *env = getenv("WULTFW_REPORT_ASSETS");
	char probe[PATH_MAX];

	if (env && *env)
		return env;
	for (size_t i = 0; i < 2; i++) {
		snprintf(probe, sizeof(probe), "%s/report.js", dirs[i]);
		if (!access(probe, R_OK))
			return dirs[i];
	}
	return WFW_REPORT_ASSETS_DIR;
}

int wfw_report_copy_assets(const char *dir, char *err, size_t errlen)
{
	static const char *const files[] = { "index.html", "report.js",
					     "report.css" };
	const char *plotly = getenv("WULTFW_PLOTLY_JS");
	const char *adir = assets_dir();
	char from[PATH_MAX];
	int ret = 0;

	if (!plotly || !*plotly)
		plotly = WFW_PLOTLY_JS;
	if (!*plotly || access(plotly, R_OK)) {
		snprintf(err, errlen, "plotly.min.js %s%s: install it with 'npm install -g plotly.js-gl2d-dist-min@3' and re-run configure, or set WULTFW_PLOTLY_JS=PATH",
			 *plotly ? "not readable at " : "was not found by configure",
			 plotly);
		return -ENOENT;
	}
	for (size_t i = 0; i < 3 && !ret; i++) {
		snprintf(from, sizeof(from), "%s/%s", adir, files[i]);
		ret = copy_file(from, dir, files[i], err, errlen);
	}
	if (!ret)
		ret = copy_file(plotly, dir, "plotly.min.js", err, errlen);
	return ret;
}
