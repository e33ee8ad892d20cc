/* SPDX-License-Identifier: MIT */
/* A file opened only below a directory (beneath.h). */
#include "config.h"

#include "sysstate/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

const char *wfw_beneath_rel(const char *root, const char *path)
{
	size_t n = strlen(root);

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (!n || strncmp(path, root, n))
		return NULL;
	path += n;
	if (root[n - 1] != '/' && *path != '/')
		return NULL;	/* "/sysx" is not below "/sys" */
	while (*path == '/')
		path++;
	return *path ? path : NULL;
}

/* O_PATH takes only a few flags; a real open must not block on a FIFO. */
static int open_flags(int flags)
{
	if (flags & O_PATH)
		return (flags & (O_PATH | O_NOFOLLOW)) | O_CLOEXEC;
	return flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
}

/* fd must be a regular file: fd with the caller's flags, or -EINVAL. */
static int regular(int fd, int flags)
{
	struct stat st;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (!(flags & (O_PATH | O_NONBLOCK)))
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int wfw_open_beneath_compat(const char *root, const char *path, int flags)
{
	char rroot[PATH_MAX], rpath[PATH_MAX];
	int fd;

	if (!wfw_beneath_rel(root, path))
		return -EXDEV;
	if (!realpath(root, rroot) || !realpath(path, rpath))
		return -errno;
	if (!wfw_beneath_rel(rroot, rpath))
		return -EXDEV;
	fd = open(rpath, open_flags(flags) | O_NOFOLLOW);
	return regular(fd < 0 ? -errno : fd, flags);
}

int wfw_open_beneath(const char *root, const char *path, int flags)
{
#ifdef SYS_openat2
	struct open_how how = {
		.flags = (unsigned long long)open_flags(flags),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	const char *rel = wfw_beneath_rel(root, path);
	int rootfd, fd, e;

	if (!rel)
		return -EXDEV;
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	e = errno;
	close(rootfd);
	/* No openat2 (before 5.6, or a seccomp filter): the slower way. */
	if (fd < 0 && (e == ENOSYS || e == EPERM))
		return wfw_open_beneath_compat(root, path, flags);
	return regular(fd < 0 ? -e : fd, flags);
#else
	return wfw_open_beneath_compat(root, path, flags);
#endif
}
