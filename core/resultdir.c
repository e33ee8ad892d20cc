/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "resultdir.h"

#include <datafmt/infoyml.h>
#include <datafmt/runstate.h>
#include <sysstate/proc.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

int wfw_mkdir_p(const char *path)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	return remove(path);
}

int wfw_remove_tree(const char *path)
{
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

/* A pid as info.yml spells it, or -1 when it is none. */
static long pid_of(const char *text)
{
	char *end;
	long pid;

	errno = 0;
	pid = strtol(text, &end, 10);
	if (errno || end == text || *end || pid <= 0 || pid > INT_MAX)
		return -1;
	return pid;
}

/*
 * "DIR/info.yml" says a run that still goes made DIR: its pid (-1 when
 * info.yml gives none that is valid), else 0.
 */
static long going_pid(const char *path)
{
	char info[PATH_MAX + 16], why[256], *pid;
	struct wfw_infoyml y;
	long ret = 0;

	snprintf(info, sizeof(info), "%s/info.yml", path);
	if (wfw_run_end(info, why, sizeof(why)) != WFW_RUN_GOING)
		return 0;
	if (wfw_infoyml_read(&y, info))
		return -1;
	pid = wfw_infoyml_get(&y, "pid");
	ret = pid ? pid_of(pid) : -1;
	free(pid);
	wfw_infoyml_free(&y);
	return ret;
}

int wfw_resultdir_replaceable(const char *path, char *err, size_t errlen)
{
	char probe[PATH_MAX];
	long pid = going_pid(path);

	if (pid) {
		if (pid < 0)
			snprintf(err, errlen,
				 "%s is the result directory of a run that is still going (its info.yml names no valid pid): wait for it to end, or choose another name (-o)",
				 path);
		else
			snprintf(err, errlen,
				 "%s is the result directory of a run that is still going (pid %ld): wait for it to end or stop it (kill %ld), or choose another name (-o)",
				 path, pid, pid);
		return -EBUSY;
	}
	snprintf(probe, sizeof(probe), "%s/logs", path);
	if (access(probe, F_OK)) {
		snprintf(err, errlen,
			 "%s exists and is not a wultfw result directory (no logs/), which --force would not remove either: choose another name",
			 path);
		return -EEXIST;
	}
	return 0;
}

/*
 * An existing `path`: --force replaces an old result directory, and
 * nothing that is not one or that a running wultfw writes to.
 */
static int take_over(const char *path, bool force, char *err, size_t errlen)
{
	int ret = wfw_resultdir_replaceable(path, err, errlen);

	if (ret)	/* not ours, or still in use: --force would not help */
		return ret;
	if (!force) {
		snprintf(err, errlen,
			 "result directory %s exists already: move it away, choose another outdir (-o), or replace it with --force",
			 path);
		return -EEXIST;
	}
	if (wfw_remove_tree(path)) {
		ret = -errno;
		snprintf(err, errlen, "cannot remove the old result directory %s: %s",
			 path, strerror(-ret));
		return ret;
	}
	return 0;
}

/* The parents of `path`, as mkdir -p would make them. */
static int make_parents(const char *path)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return 0;
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	return wfw_mkdir_p(parent);
}

#define MAX_NUMBERED 1000	/* name-2 ... name-999 */
#define MAX_TAKEOVERS 3		/* removed, then made by another run again */

/* The next numbered name: path-N. */
static int number(char *path, size_t base, size_t size, int n)
{
	if (n >= MAX_NUMBERED ||
	    snprintf(path + base, size - base, "-%d", n) >= (int)(size - base))
		return -EEXIST;
	return 0;
}

/*
 * mkdir(2) of an existing name fails: of two runs that want one name,
 * exactly one gets it, whatever the timing.
 */
static int claim(char *path, size_t size, bool force, bool numbered,
		 char *err, size_t errlen)
{
	size_t base = strlen(path);
	int n = 1, tries = 0, ret;

	while (mkdir(path, 0755)) {
		ret = -errno;
		if (ret == -EEXIST && numbered)
			ret = number(path, base, size, ++n);
		else if (ret == -EEXIST && tries++ < MAX_TAKEOVERS)
			ret = take_over(path, force, err, errlen);
		else
			snprintf(err, errlen, "cannot create result directory %s: %s",
				 path, strerror(-ret));
		if (ret && !err[0])
			snprintf(err, errlen, "cannot create result directory %.*s-N: %d names taken",
				 (int)base, path, MAX_NUMBERED - 1);
		if (ret)
			return ret;
	}
	return 0;
}

int wfw_resultdir_make(char *path, size_t size, bool force, bool numbered,
		       char *err, size_t errlen)
{
	int ret = make_parents(path), fd;

	err[0] = '\0';
	if (ret) {
		snprintf(err, errlen, "cannot create the parent directories of %s: %s",
			 path, strerror(-ret));
		return ret;
	}
	ret = claim(path, size, force, numbered, err, errlen);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open result directory %s: %s",
			 path, strerror(-ret));
	}
	return fd < 0 ? ret : fd;
}

int wfw_resultdir_create(const char *path, bool force, char *err,
			 size_t errlen)
{
	char buf[PATH_MAX];
	int fd, ret = 0;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		snprintf(err, errlen, "%s: name too long", path);
		return -ENAMETOOLONG;
	}
	fd = wfw_resultdir_make(buf, sizeof(buf), force, false, err, errlen);
	if (fd < 0)
		return fd;
	if (mkdirat(fd, "logs", 0755)) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s/logs: %s", path, strerror(-ret));
	}
	close(fd);
	return ret;
}
static void info_put(struct wfw_info *info, const char *key, char *val)
{
	char **k, **v;
	size_t i;

	if (!val)
		return;
	for (i = 0; i < info->n; i++) {
		if (!strcmp(info->keys[i], key)) {
			free(info->vals[i]);
			info->vals[i] = val;
			return;
		}
	}
	k = realloc(info->keys, (info->n + 1) * sizeof(*k));
	if (k)
		info->keys = k;
	v = realloc(info->vals, (info->n + 1) * sizeof(*v));
	if (v)
		info->vals = v;
	if (!k || !v || !(info->keys[info->n] = strdup(key))) {
		free(val);
		return;
	}
	info->vals[info->n++] = val;
}

/* YAML single-quoted scalar: only ' needs escaping (as ''). */
void wfw_info_str(struct wfw_info *info, const char *key, const char *val)
{
	size_t len = strlen(val), i, j = 0;
	char *q = malloc(2 * len + 3);

	if (!q)
		return;
	q[j++] = '\'';
	for (i = 0; i < len; i++) {
		char c = val[i];

		if (c == '\n' || c == '\r')
			c = ' ';
		if (c == '\'')
			q[j++] = '\'';
		q[j++] = c;
	}
	q[j++] = '\'';
	q[j] = '\0';
	info_put(info, key, q);
}

void wfw_info_raw(struct wfw_info *info, const char *key, const char *val)
{
	info_put(info, key, strdup(val));
}

void wfw_info_identity(struct wfw_info *info, const char *name)
{
	const char *host = getenv("WULTFW_HOST");
	struct utsname u;

	if (!uname(&u))
		wfw_info_str(info, "sut_hostname", u.nodename);
	if (host && *host) {
		wfw_info_str(info, "host", host);
		wfw_info_fmt(info, "reportid", "%s-%s", host, name);
	}
}

void wfw_info_fmt(struct wfw_info *info, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	wfw_info_raw(info, key, buf);
}

void wfw_info_free(struct wfw_info *info)
{
	size_t i;

	for (i = 0; i < info->n; i++) {
		free(info->keys[i]);
		free(info->vals[i]);
	}
	free(info->keys);
	free(info->vals);
	memset(info, 0, sizeof(*info));
}

/*
 * dirfd/name written whole or not at all: a temporary file beside it,
 * fsynced, renamed over it. Relative to the directory the run holds open,
 * so a result directory removed or renamed under a run never receives a
 * file meant for another.
 */
static int write_atomic(int dirfd, const char *name, const char *text,
			size_t len)
{
	const char *base = strrchr(name, '/');
	char tmp[PATH_MAX];
	ssize_t n = 0;
	size_t done;
	int fd, ret = 0;

	/* DIR/.NAME.tmp for DIR/NAME, as lib/atomic names it. */
	base = base ? base + 1 : name;
	snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp", (int)(base - name), name, base);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	for (done = 0; done < len && n >= 0; done += (size_t)n)
		n = write(fd, text + done, len - done);
	if (n < 0 || fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && renameat(dirfd, tmp, dirfd, name))
		ret = -errno;
	if (ret)
		unlinkat(dirfd, tmp, 0);
	else
		(void)fsync(dirfd);	/* best effort: the rename's entry */
	return ret;
}

/*
 * On a full disk the atomic rename needs blocks there are none of; the
 * first info.yml was padded with a comment, so overwriting it in place
 * fits in the blocks it already has.
 */
static int overwrite_in_place(int dirfd, const char *text, size_t len)
{
	struct stat st;
	int fd, ret = 0;

	fd = openat(dirfd, "info.yml", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || (size_t)st.st_size < len)
		ret = -ENOSPC;
	else if (pwrite(fd, text, len, 0) != (ssize_t)len || ftruncate(fd, (off_t)len) ||
		 fsync(fd))
		ret = -errno;
	close(fd);
	return ret;
}

int wfw_info_write_at(const struct wfw_info *info, int dirfd, size_t reserve)
{
	size_t i, len = 0, used = 0;
	char *text;
	int ret;

	for (i = 0; i < info->n; i++)
		len += strlen(info->keys[i]) + strlen(info->vals[i]) + 3;
	text = malloc(len + reserve + 64);
	if (!text)
		return -ENOMEM;
	for (i = 0; i < info->n; i++)
		used += (size_t)sprintf(text + used, "%s: %s\n", info->keys[i],
					info->vals[i]);
	if (reserve > used + 64) {
		/* A YAML comment that keeps room for the final version. */
		used += (size_t)sprintf(text + used, "# room for the final info.yml:");
		memset(text + used, ' ', reserve - used - 1);
		used = reserve - 1;
		text[used++] = '\n';
	}
	ret = write_atomic(dirfd, "info.yml", text, used);
	if (ret == -ENOSPC || ret == -EDQUOT)
		ret = overwrite_in_place(dirfd, text, used);
	free(text);
	return ret;
}

int wfw_info_write(const struct wfw_info *info, const char *dir, size_t reserve)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = wfw_info_write_at(info, fd, reserve);
	close(fd);
	return ret;
}

int wfw_write_text_at(int dirfd, const char *name, const char *text)
{
	return write_atomic(dirfd, name, text, strlen(text));
}

void wfw_info_running(struct wfw_info *info, const char *config_file)
{
	char buf[64];

	wfw_info_str(info, "experiment_file", config_file ? config_file : "(embedded default)");
	wfw_info_raw(info, "duration", "0");
	wfw_info_raw(info, "datapoints", "0");
	wfw_info_raw(info, "discarded", "0");
	wfw_info_str(info, "status", "running");
	wfw_info_fmt(info, "pid", "%d", (int)getpid());
	wfw_info_fmt(info, "pid_start", "%llu", wfw_proc_start(getpid()));
	wfw_boot_id(buf, sizeof(buf));
	wfw_info_str(info, "boot_id", buf);
}
