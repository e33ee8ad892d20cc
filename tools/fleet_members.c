/* SPDX-License-Identifier: MIT */
/*
 * The SUTs of a fleet among the arguments of calc/report --fleet
 * (fleet.h): results, or directories of them as a remote run lays them
 * out (OUTDIR/HOST/EXPERIMENT/, remote/remote_fetch.c).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "datafmt/infoyml.h"
#include "datafmt/locate.h"
#include "tools/fleet.h"

/* A directory's last component, trailing slashes left out. */
static void base_name(const char *path, char *out, size_t len)
{
	size_t n = strlen(path);
	const char *b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	b = path + n;
	while (b > path && b[-1] != '/')
		b--;
	snprintf(out, len, "%.*s", (int)(path + n - b), b);
}

/* A name fit for a directory of the report: [A-Za-z0-9._-], no leading dot. */
static void tidy(char *s)
{
	for (char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			*p = '_';
	if (*s == '.')
		*s = '_';
	if (!*s)
		snprintf(s, 2, "_");
}

/*
 * The names report --fleet's page takes in its directory: a SUT so named
 * gets "-sut" after it, so that its own report's directory is elsewhere.
 */
static const char *const taken[] = {
	"index.html", "data.js", "fleet.js", "report.css", "plotly.min.js",
};

/* info.yml's host, else machine, else fallback; made unique in fl. */
static void name_it(const struct fleet *fl, struct fleet_member *m, const char *fallback)
{
	struct wfw_infoyml y = { 0 };
	char *v = NULL, base[48];
	unsigned k = 1;

	if (!wfw_infoyml_read(&y, m->file)) {
		v = wfw_infoyml_get(&y, "host");
		if (!v || !*v) {
			free(v);
			v = wfw_infoyml_get(&y, "machine");
		}
	}
	snprintf(base, sizeof(base), "%s", v && *v ? v : fallback);
	free(v);
	wfw_infoyml_free(&y);
	tidy(base);
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		if (!strcmp(base, taken[i]))
			snprintf(base, sizeof(base), "%s-sut", taken[i]);
	snprintf(m->label, sizeof(m->label), "%s", base);
	for (size_t i = 0; i < fl->n; i++)
		if (!strcmp(fl->m[i].label, m->label)) {
			snprintf(m->label, sizeof(m->label), "%s-%u", base, ++k);
			i = (size_t)-1;	/* again, against every name */
		}
}

/* dir as a member if it is a result; 1 if not, 0 added, -ENOMEM. */
static int try_add(struct fleet *fl, const char *dir, const char *fallback)
{
	char err[512];
	struct fleet_member *m;

	if (fl->n == fl->cap) {
		size_t cap = fl->cap ? 2 * fl->cap : 16;
		struct fleet_member *v = realloc(fl->m, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		fl->m = v;
		fl->cap = cap;
	}
	m = &fl->m[fl->n];
	if (wfw_result_locate(dir, m->file, sizeof(m->file), err, sizeof(err)))
		return 1;
	snprintf(m->dir, sizeof(m->dir), "%s", dir);
	name_it(fl, m, fallback);
	fl->n++;
	return 0;
}

static int only_dirs(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/*
 * The results in dir's subdirectories (depth 1: SUT/; depth 2:
 * HOST/EXPERIMENT/, named by HOST if info.yml names none); found counts.
 */
static int scan(struct fleet *fl, const char *dir, const char *host, int depth,
		size_t *found)
{
	struct dirent **e;
	char sub[PATH_MAX];
	struct stat st;
	int n = scandir(dir, &e, only_dirs, alphasort), ret = 0;

	for (int i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, e[i]->d_name);
		if (!ret && !stat(sub, &st) && S_ISDIR(st.st_mode)) {
			ret = try_add(fl, sub, host ? host : e[i]->d_name);
			if (!ret)
				++*found;
			else if (ret == 1 && depth == 1)
				ret = scan(fl, sub, e[i]->d_name, 2, found);
			else if (ret == 1)
				ret = 0;
		}
		free(e[i]);
	}
	if (n >= 0)
		free(e);
	return ret;
}

static int one_arg(struct fleet *fl, const char *arg, const char *who)
{
	char base[256], path[PATH_MAX], err[1024];
	size_t found = 0;
	struct stat st;
	int ret;

	base_name(arg, base, sizeof(base));
	ret = try_add(fl, arg, base);
	if (ret <= 0)
		return ret;
	if (!stat(arg, &st) && S_ISDIR(st.st_mode)) {
		ret = scan(fl, arg, NULL, 1, &found);
		if (ret || found)
			return ret;
		fprintf(stderr, "wultfw %s: %s: not a result, and no result in its subdirectories (SUT/ or HOST/EXPERIMENT/ as wultfw -H lays them out): give a result directory, or the -o directory of a remote run\n",
			who, arg);
		return -ENOENT;
	}
	wfw_result_locate(arg, path, sizeof(path), err, sizeof(err));
	fprintf(stderr, "wultfw %s: --fleet: %s; give a result directory, or the -o directory of a remote run\n",
		who, err);
	return -ENOENT;
}

int fleet_members(char **args, size_t n, const char *who, struct fleet *fl)
{
	int ret = 0;

	memset(fl, 0, sizeof(*fl));
	for (size_t i = 0; i < n && !ret; i++)
		ret = one_arg(fl, args[i], who);
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw %s: out of memory\n", who);
	if (!ret && fl->n < 2)
		fprintf(stderr, "wultfw %s: --fleet compares SUTs, and %s holds %zu: give two results or more\n",
			who, n == 1 ? args[0] : "the arguments", fl->n), ret = -EINVAL;
	return ret;
}

void fleet_free(struct fleet *fl)
{
	free(fl->m);
	memset(fl, 0, sizeof(*fl));
}
