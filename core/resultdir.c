/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "resultdir.h"

#include <atomic/atomic.h>

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

int wfw_resultdir_replaceable(const char *path, char *err, size_t errlen)
{
	char probe[PATH_MAX];

	snprintf(probe, sizeof(probe), "%s/logs", path);
	if (access(probe, F_OK)) {
		snprintf(err, errlen,
			 "%s exists and is not a wultfw result directory (no logs/), which --force would not remove either: choose another name",
			 path);
		return -EEXIST;
	}
	return 0;
}

/* --force replaces an old result directory, and nothing that is not one. */
static int remove_old(const char *path, char *err, size_t errlen)
{
	int ret = wfw_resultdir_replaceable(path, err, errlen);

	if (ret)
		return ret;
	if (wfw_remove_tree(path)) {
		snprintf(err, errlen, "cannot remove the old result directory %s: %s",
			 path, strerror(errno));
		return -errno;
	}
	return 0;
}

int wfw_resultdir_create(const char *path, bool force, char *err,
			 size_t errlen)
{
	char logs[PATH_MAX];
	struct stat st;
	int ret;

	if (stat(path, &st) == 0) {
		ret = wfw_resultdir_replaceable(path, err, errlen);
		if (ret)	/* not ours: --force would not help either */
			return ret;
		if (!force) {
			snprintf(err, errlen,
				 "result directory %s exists already: move it away, choose another outdir (-o), or replace it with --force",
				 path);
			return -EEXIST;
		}
		ret = remove_old(path, err, errlen);
		if (ret)
			return ret;
	}
	ret = wfw_mkdir_p(path);
	if (!ret) {
		snprintf(logs, sizeof(logs), "%s/logs", path);
		ret = wfw_mkdir_p(logs);
	}
	if (ret)
		snprintf(err, errlen, "cannot create result directory %s: %s",
			 path, strerror(-ret));
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

static int write_atomic(const char *dir, const char *name, const char *text,
			size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return wfw_atomic_write_text(path, text, len);
}

/*
 * On a full disk the atomic rename needs blocks there are none of; the
 * first info.yml was padded with a comment, so overwriting it in place
 * fits in the blocks it already has.
 */
static int overwrite_in_place(const char *dir, const char *text, size_t len)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/info.yml", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
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

int wfw_info_write(const struct wfw_info *info, const char *dir, size_t reserve)
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
	ret = write_atomic(dir, "info.yml", text, used);
	if (ret == -ENOSPC || ret == -EDQUOT)
		ret = overwrite_in_place(dir, text, used);
	free(text);
	return ret;
}

int wfw_write_text(const char *dir, const char *name, const char *text)
{
	return write_atomic(dir, name, text, strlen(text));
}
