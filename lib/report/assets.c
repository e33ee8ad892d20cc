/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "report/assets.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trust/trust.h>

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

/*
 * As root, a file the environment variable `var` named is another user's
 * choice until checked: it must be a regular file root (or we) own that
 * nobody else can write, and one anybody may read (a report is).
 */
static int trusted_input(int fd, const char *from, const char *var,
			 char *err, size_t errlen)
{
	char why[160];
	struct stat st;

	if (!var || geteuid() != 0)
		return 0;
	if (fstat(fd, &st)) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
	} else if (!wfw_trust_stat(&st, S_IFREG, why, sizeof(why))) {
		if (st.st_mode & S_IROTH)
			return 0;
		snprintf(why, sizeof(why), "not readable by others (mode %04o): the report would publish it",
			 (unsigned)(st.st_mode & 07777));
	}
	snprintf(err, errlen, "%s (from %s): %s: refused; point %s at files root owns that only root can write and anybody may read",
		 from, var, why, var);
	return -EPERM;
}

int wfw_report_create(const char *dir, const char *name, char *err,
		      size_t errlen)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0)
		return fd;
	if (errno == ELOOP)
		snprintf(err, errlen, "%s is a symbolic link: refusing to write through it; remove it, or choose another -o DIR",
			 path);
	else
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return -errno;
}

/* from into dir/name; var: the environment variable that named from. */
static int copy_file(const char *from, const char *var, const char *dir,
		     const char *name, char *err, size_t errlen)
{
	char to[PATH_MAX], buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	snprintf(to, sizeof(to), "%s/%s", dir, name);	/* for messages */
	in = open(from, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (in < 0) {
		snprintf(err, errlen, "%s: %s", from, strerror(errno));
		return -errno;
	}
	ret = trusted_input(in, from, var, err, errlen);
	if (ret) {
		close(in);
		return ret;
	}
	out = wfw_report_create(dir, name, err, errlen);
	if (out < 0) {
		close(in);
		return out;
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

/* The page's files, copied into every report. */
static const char *const page_files[] = {
	"index.html", "report.css", "report.js", "colors.js", "dist.js",
	"metric.js", "timeline.js", "explain.js", "skid.js", "telemetry.js",
	"descr.js",
};
#define NPAGE_FILES (sizeof(page_files) / sizeof(page_files[0]))

/* The fleet page's files (report --fleet): each from, and its name in dir. */
static const char *const fleet_files[][2] = {
	{ "fleet.html", "index.html" }, { "fleet.js", "fleet.js" },
	{ "report.css", "report.css" },
};
#define NFLEET_FILES (sizeof(fleet_files) / sizeof(fleet_files[0]))

/* Does dir hold every one of them? (A partial or older install may not.) */
static bool whole_page(const char *dir)
{
	char probe[PATH_MAX];

	for (size_t i = 0; i < NPAGE_FILES; i++) {
		snprintf(probe, sizeof(probe), "%s/%s", dir, page_files[i]);
		if (access(probe, R_OK))
			return false;
	}
	for (size_t i = 0; i < NFLEET_FILES; i++) {
		snprintf(probe, sizeof(probe), "%s/%s", dir, fleet_files[i][0]);
		if (access(probe, R_OK))
			return false;
	}
	return true;
}

/*
 * The page's files: the environment (*var set to its name), else the
 * installed copy; for a build tree's wultfw its sources' page first (the
 * installed one may be older, as core/buildtree.c has it for plugins).
 */
static const char *assets_dir(const char *src, const char **var)
{
	const char *env = getenv("WULTFW_REPORT_ASSETS");

	*var = NULL;
	if (env && *env) {
		*var = "WULTFW_REPORT_ASSETS";
		return env;
	}
	if (*src && whole_page(src))
		return src;
	return WFW_REPORT_ASSETS_DIR;
}

/*
 * plotly.js: the environment's (*var set to its name), else for a build
 * tree's wultfw the one configure found, else the copy installed beside
 * the page; NULL if none is readable.
 */
static const char *plotly_js(const char *built, const char **var)
{
	const char *env = getenv("WULTFW_PLOTLY_JS");

	*var = NULL;
	if (env && *env) {
		*var = "WULTFW_PLOTLY_JS";
		return env;
	}
	if (*built && !access(built, R_OK))
		return built;
	if (!access(WFW_REPORT_ASSETS_DIR "/plotly.min.js", R_OK))
		return WFW_REPORT_ASSETS_DIR "/plotly.min.js";
	return NULL;
}

static int copy_page(const char *dir, bool fleet, char *err, size_t errlen)
{
	char src[PATH_MAX], built[PATH_MAX], from[PATH_MAX];
	const char *avar, *pvar, *adir, *plotly;
	int ret = 0;

	wfw_report_build_paths(src, sizeof(src), built, sizeof(built));
	adir = assets_dir(src, &avar);
	plotly = plotly_js(built, &pvar);
	if (!plotly) {
		snprintf(err, errlen, "plotly.min.js is not installed (%s/plotly.min.js): reinstall the wultfw package (it ships it); built from source: 'npm install -g plotly.js-gl2d-dist-min@3', re-run configure and make install; or set WULTFW_PLOTLY_JS=PATH",
			 WFW_REPORT_ASSETS_DIR);
		return -ENOENT;
	}
	if (pvar && access(plotly, R_OK)) {
		snprintf(err, errlen, "plotly.min.js not readable at %s (from WULTFW_PLOTLY_JS): %s",
			 plotly, strerror(errno));
		return -ENOENT;
	}
	for (size_t i = 0; !fleet && i < NPAGE_FILES && !ret; i++) {
		snprintf(from, sizeof(from), "%s/%s", adir, page_files[i]);
		ret = copy_file(from, avar, dir, page_files[i], err, errlen);
	}
	for (size_t i = 0; fleet && i < NFLEET_FILES && !ret; i++) {
		snprintf(from, sizeof(from), "%s/%s", adir, fleet_files[i][0]);
		ret = copy_file(from, avar, dir, fleet_files[i][1], err, errlen);
	}
	if (!ret)
		ret = copy_file(plotly, pvar, dir, "plotly.min.js", err, errlen);
	return ret;
}

int wfw_report_copy_assets(const char *dir, char *err, size_t errlen)
{
	return copy_page(dir, false, err, errlen);
}

int wfw_report_copy_fleet_assets(const char *dir, char *err, size_t errlen)
{
	return copy_page(dir, true, err, errlen);
}
