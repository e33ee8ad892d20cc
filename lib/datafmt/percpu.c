/* SPDX-License-Identifier: MIT */
/* Finding the per-CPU results of an experiment directory (percpu.h). */
#include "config.h"

#include "datafmt/percpu.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafmt/infoyml.h"

bool wfw_percpu_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* "cpuN" with N a plain decimal (no sign, no leading zero): N, else -1. */
static long cpu_name(const char *s)
{
	char *end;
	long n;

	if (strncmp(s, "cpu", 3) || s[3] < '0' || s[3] > '9' ||
	    (s[3] == '0' && s[4]))
		return -1;
	errno = 0;
	n = strtol(s + 3, &end, 10);
	return errno || *end || n >= WFW_PERCPU_MAX ? -1 : n;
}

/* EXP/cpuN's datapoints file into *file (malloc'ed), or -ENOENT. */
static int cpu_file(const char *dir, unsigned cpu, char **file)
{
	static const char *const names[] = { "datapoints.csv", "datapoints.wfb" };
	size_t dl = strlen(dir);
	const char *sep = dl && dir[dl - 1] == '/' ? "" : "/";
	char path[PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s%scpu%u/%s", dir, sep, cpu, names[i]);
		/* As in locate.c: root would read whatever file a link names. */
		if (!lstat(path, &st) && S_ISLNK(st.st_mode))
			return -ELOOP;
		if (!access(path, R_OK))
			return (*file = strdup(path)) ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

static int add_cpu(struct wfw_percpu *p, unsigned cpu, const char *dir)
{
	unsigned *c = realloc(p->cpu, (p->n + 1) * sizeof(*c));
	char **f = c ? realloc(p->file, (p->n + 1) * sizeof(*f)) : NULL;

	if (c)
		p->cpu = c;
	if (!f)
		return -ENOMEM;
	p->file = f;
	p->cpu[p->n] = cpu;
	p->file[p->n] = NULL;
	return cpu_file(dir, cpu, &p->file[p->n++]);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

static int link_error(const char *dir, unsigned cpu, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s/cpu%u/: its datapoints file is a symbolic link, not followed in a result directory (root would read whatever file it names): give the file itself if it is data",
		 dir, cpu);
	return -ELOOP;
}

/* No info.yml saying so: the cpuN/ subdirectories with datapoints. */
static int scan_dirs(struct wfw_percpu *p, const char *dir, char *err,
		     size_t errlen)
{
	unsigned cpus[WFW_PERCPU_MAX];
	size_t n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < WFW_PERCPU_MAX) {
		long c = cpu_name(e->d_name);
		char *f;

		int ret = c >= 0 ? cpu_file(dir, (unsigned)c, &f) : -ENOENT;

		if (ret == -ELOOP) {
			closedir(d);
			return link_error(dir, (unsigned)c, err, errlen);
		}
		if (!ret) {
			free(f);
			cpus[n++] = (unsigned)c;
		}
	}
	closedir(d);
	qsort(cpus, n, sizeof(*cpus), cmp_uint);
	for (size_t i = 0; i < n; i++) {
		int ret = add_cpu(p, cpus[i], dir);

		if (ret)
			return ret;
	}
	return 0;
}

/* info.yml's "cpus: [0, 1]" (a flow list of CPU numbers, ascending). */
static int yml_cpus(struct wfw_percpu *p, const char *list, const char *dir,
		    const char *yml, char *err, size_t errlen)
{
	const char *s = list;
	long last = -1;

	while (*s == ' ' || *s == '[')
		s++;
	while (*s && *s != ']') {
		char *end;
		long c = strtol(s, &end, 10);
		int ret;

		if (end == s || c < 0 || c >= WFW_PERCPU_MAX || c <= last) {
			snprintf(err, errlen, "%s: cpus: '%s' is not a list of CPU numbers in ascending order, such as [0, 1]",
				 yml, list);
			return -EINVAL;
		}
		ret = add_cpu(p, (unsigned)c, dir);
		if (ret == -ELOOP)
			link_error(dir, (unsigned)c, err, errlen);
		if (ret == -ENOENT)
			snprintf(err, errlen, "%s: cpus names %ld, but %s/cpu%ld/ holds no datapoints.csv or datapoints.wfb: restore that directory or open the others one by one",
				 yml, c, dir, c);
		if (ret)
			return ret;
		last = c;
		for (s = end; *s == ' ' || *s == ','; s++)
			;
	}
	return 0;
}

int wfw_percpu_find(struct wfw_percpu *p, const char *path, char *err,
		    size_t errlen)
{
	char yml[PATH_MAX], dir[PATH_MAX];
	size_t dl = strlen(path);
	struct wfw_infoyml y;
	char *flag = NULL, *cpus = NULL;
	int ret;

	memset(p, 0, sizeof(*p));
	while (dl > 1 && path[dl - 1] == '/')	/* "EXP/": messages say EXP/cpu1 */
		dl--;
	snprintf(dir, sizeof(dir), "%.*s", (int)dl, path);
	snprintf(yml, sizeof(yml), "%s/info.yml", dir);
	ret = wfw_infoyml_read_path(&y, yml);
	if (ret) {
		snprintf(err, errlen, "%s", ret == -ENOMEM ? "out of memory" : y.err);
		return ret;
	}
	flag = wfw_infoyml_get(&y, "per_cpu_dirs");
	cpus = wfw_infoyml_get(&y, "cpus");
	if (flag && !strcmp(flag, "true") && cpus)
		ret = yml_cpus(p, cpus, dir, yml, err, errlen);
	else
		ret = scan_dirs(p, dir, err, errlen);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", dir);
	free(flag);
	free(cpus);
	wfw_infoyml_free(&y);
	if (ret)
		wfw_percpu_free(p);
	return ret;
}

void wfw_percpu_free(struct wfw_percpu *p)
{
	for (size_t i = 0; p->file && i < p->n; i++)
		free(p->file[i]);
	free(p->file);
	free(p->cpu);
	memset(p, 0, sizeof(*p));
}
