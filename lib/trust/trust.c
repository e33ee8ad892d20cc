/* SPDX-License-Identifier: MIT */
/* Trusted files: owned by root or us, writable by no one else (trust.h). */
#include "config.h"

#include "trust/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *type_name(mode_t type)
{
	return type == S_IFDIR ? "a directory" : "a regular file";
}

int wfw_trust_stat(const struct stat *st, mode_t type, char *why,
		   size_t len)
{
	uid_t me = geteuid();

	if ((st->st_mode & S_IFMT) != type)
		snprintf(why, len, "not %s", type_name(type));
	else if (st->st_uid != 0 && st->st_uid != me && !me)
		snprintf(why, len, "owned by uid %u, not by root", (unsigned)st->st_uid);
	else if (st->st_uid != 0 && st->st_uid != me)
		snprintf(why, len, "owned by uid %u, neither root nor you (uid %u)",
			 (unsigned)st->st_uid, (unsigned)me);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, len, "writable by %s (mode %04o)",
			 st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777));
	else
		return 0;
	return -EPERM;
}

int wfw_trust_openat(int dirfd, const char *path, int flags, mode_t mode,
		     mode_t type, char *why, size_t len)
{
	int block = type == S_IFDIR ? 0 : O_NONBLOCK;
	int fd = openat(dirfd, path, flags | block | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
			mode);
	struct stat st;
	int ret;

	if (fd < 0) {
		ret = -errno;
		/* O_NOFOLLOW's ELOOP, or ENOTDIR with O_DIRECTORY */
		if ((ret == -ELOOP || ret == -ENOTDIR) &&
		    !fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISLNK(st.st_mode)) {
			snprintf(why, len, "a symbolic link");
			return -EPERM;
		}
		snprintf(why, len, "%s", strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st))
		ret = -errno;
	else
		ret = wfw_trust_stat(&st, type, why, len);
	if (ret) {
		if (ret != -EPERM)
			snprintf(why, len, "%s", strerror(-ret));
		close(fd);
		return ret;
	}
	if (block && !(flags & O_NONBLOCK))
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}
