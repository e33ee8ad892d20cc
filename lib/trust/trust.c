/* SPDX-License-Identifier: MIT */
/* Trusted files: owned by root or us, writable by no one else (trust.h). */
#include "config.h"

#include "trust/trust.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *type_name(mode_t type)
{
	return type == S_IFDIR ? "a directory" : "a regular file";
}

/*
 * Whether uid owns the running binary or a directory above it: then it
 * could have replaced the binary, so it decides what runs here anyway (a
 * build tree a user checked out or built, run by root with sudo).
 */
static bool owns_binary(uid_t uid)
{
	char path[PATH_MAX], *slash;
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return false;
	path[n] = '\0';
	for (;;) {
		if (!stat(path, &st) && st.st_uid == uid)
			return true;
		slash = strrchr(path, '/');
		if (!slash || !path[1])
			return false;			/* "/" was the last */
		slash[slash == path] = '\0';	/* "/a/b" -> "/a", "/a" -> "/" */
	}
}

static bool trusted_owner(uid_t uid, unsigned int flags)
{
	return uid == 0 || uid == geteuid() ||
	       ((flags & WFW_TRUST_BINARY_OWNER) && owns_binary(uid));
}

static bool others_can_write(const struct stat *st, unsigned int flags)
{
	mode_t m = st->st_mode;

	if ((flags & WFW_TRUST_STICKY) && S_ISDIR(m) && (m & S_ISVTX))
		return false;
	if (m & S_IWOTH)
		return true;
	return (m & S_IWGRP) && !((flags & WFW_TRUST_ROOT_GROUP) && st->st_gid == 0);
}

enum wfw_trust_fault wfw_trust_check(const struct stat *st, mode_t type,
				     unsigned int flags)
{
	if ((st->st_mode & S_IFMT) != type)
		return WFW_TRUST_BAD_TYPE;
	if (!trusted_owner(st->st_uid, flags))
		return WFW_TRUST_BAD_OWNER;
	if (others_can_write(st, flags))
		return WFW_TRUST_BAD_WRITERS;
	return WFW_TRUST_OK;
}

int wfw_trust_stat(const struct stat *st, mode_t type, char *why,
		   size_t len)
{
	uid_t me = geteuid();

	switch (wfw_trust_check(st, type, 0)) {
	case WFW_TRUST_OK:
		return 0;
	case WFW_TRUST_BAD_TYPE:
		snprintf(why, len, "not %s", type_name(type));
		break;
	case WFW_TRUST_BAD_OWNER:
		if (!me)
			snprintf(why, len, "owned by uid %u, not by root",
				 (unsigned)st->st_uid);
		else
			snprintf(why, len, "owned by uid %u, neither root nor you (uid %u)",
				 (unsigned)st->st_uid, (unsigned)me);
		break;
	case WFW_TRUST_BAD_WRITERS:
		snprintf(why, len, "writable by %s (mode %04o)",
			 st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777));
		break;
	}
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
