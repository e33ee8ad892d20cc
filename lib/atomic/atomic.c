/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomic/atomic.h"

void wfw_atomic_temp_name(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash)
		snprintf(tmp, len, "%.*s/.%s.tmp", (int)(slash - path), path,
			 slash + 1);
	else
		snprintf(tmp, len, ".%s.tmp", path);
}

void wfw_sync_dir_at(int dirfd, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? (slash == path ? "/" : path) : ".");
	fd = openat(dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);	/* best effort: the file's data is synced */
		close(fd);
	}
}

int wfw_atomic_write(const char *path, int (*emit)(FILE *f, void *arg),
		     void *arg)
{
	char tmp[PATH_MAX + 8];
	FILE *f;
	int fd, ret;

	wfw_atomic_temp_name(path, tmp, sizeof(tmp));
	/* A fresh file: never one planted at the temporary name, nor a link's target. */
	if (unlink(tmp) && errno != ENOENT)
		return -errno;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret;
	}
	ret = emit(f, arg);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		ret = ret ? ret : -(errno ? errno : EIO);
	if (fclose(f) && !ret)
		ret = -(errno ? errno : EIO);
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	else
		wfw_sync_dir_at(AT_FDCWD, path);
	return ret;
}

struct text {
	const char *p;
	size_t len;
};

static int emit_text(FILE *f, void *arg)
{
	const struct text *t = arg;

	return fwrite(t->p, 1, t->len, f) == t->len ? 0 : -(errno ? errno : EIO);
}

int wfw_atomic_write_text(const char *path, const char *text, size_t len)
{
	struct text t = { text, len };

	return wfw_atomic_write(path, emit_text, &t);
}

int wfw_atomic_write_text_at(int dirfd, const char *name, const char *text,
			     size_t len, mode_t mode)
{
	char tmp[PATH_MAX + 8];
	int fd, ret = 0;

	wfw_atomic_temp_name(name, tmp, sizeof(tmp));
	if (unlinkat(dirfd, tmp, 0) && errno != ENOENT)
		return -errno;
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	while (len && !ret) {
		ssize_t n = write(fd, text, len);

		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
		} else {
			text += n;
			len -= (size_t)n;
		}
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -(errno ? errno : EIO);
	if (!ret && renameat(dirfd, tmp, dirfd, name))
		ret = -errno;
	if (ret)
		unlinkat(dirfd, tmp, 0);
	else
		(void)fsync(dirfd);	/* best effort, as wfw_sync_dir_at() */
	return ret;
}
