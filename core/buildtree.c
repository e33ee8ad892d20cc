/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "buildtree.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Whether dir holds a libtool library (a built plugin). */
static bool has_la(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		found = len > 3 && !strcmp(e->d_name + len - 3, ".la");
	}
	if (d)
		closedir(d);
	return found;
}

/* The plugin directories of top/kind/ into dirs[n..max); the new n. */
static size_t add_kind(const char *top, const char *kind, char dirs[][PATH_MAX],
		       size_t n, size_t max)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", top, kind);
	d = opendir(path);
	while (d && n < max && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(dirs[n], PATH_MAX, "%s/%s/%s", top, kind, e->d_name) <
		    PATH_MAX && has_la(dirs[n]))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

size_t wfw_build_tree_dirs(char dirs[][PATH_MAX], size_t max)
{
	char top[PATH_MAX], probe[PATH_MAX + 16], *slash;
	ssize_t len = readlink("/proc/self/exe", top, sizeof(top) - 1);
	size_t n;

	if (len <= 0)
		return 0;
	top[len] = '\0';
	slash = strrchr(top, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	snprintf(probe, sizeof(probe), "%s/config.status", top);
	if (access(probe, F_OK))
		return 0;
	n = add_kind(top, "plugins", dirs, 0, max);
	return add_kind(top, "sinks", dirs, n, max);
}
