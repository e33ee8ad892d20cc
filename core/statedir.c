/* SPDX-License-Identifier: MIT */
/* The state directory and its files, checked before use (statedir.h). */
#include "config.h"

#include "statedir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trust/trust.h>

#include "restore_file.h"

int wfw_statedir_open(bool create, char *err, size_t errlen)
{
	const char *dir = wfw_restore_dir();
	char why[160];
	int fd;

	if (create && mkdir(dir, 0755) && errno != EEXIST) {
		int e = errno;

		snprintf(err, errlen, "cannot create %s to remember the settings to restore: %s (run as root, or set WULTFW_STATE_DIR)",
			 dir, strerror(e));
		return -e;
	}
	fd = wfw_trust_openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY, 0, S_IFDIR,
			      why, sizeof(why));
	if (fd == -EPERM)
		snprintf(err, errlen, "state directory %s: %s: refused, as its files make root write system settings; check what is in it and remove it, or set WULTFW_STATE_DIR to a directory only you can write",
			 dir, why);
	else if (fd < 0)
		snprintf(err, errlen, "state directory %s: %s", dir, why);
	return fd;
}

int wfw_statedir_file(int dirfd, const char *name, int flags, char *err,
		      size_t errlen)
{
	char why[160];
	struct stat st;
	int fd = wfw_trust_openat(dirfd, name, flags, 0644, S_IFREG, why, sizeof(why));

	if (fd >= 0 && !fstat(fd, &st) && st.st_nlink > 1) {
		/* a hard link to a file elsewhere, which we would write */
		snprintf(why, sizeof(why), "it has %lu hard links", (unsigned long)st.st_nlink);
		close(fd);
		fd = -EPERM;
	}
	if (fd == -EPERM)
		snprintf(err, errlen, "%s/%s: %s: refused; check what it holds and remove it",
			 wfw_restore_dir(), name, why);
	else if (fd < 0)
		snprintf(err, errlen, "%s/%s: %s", wfw_restore_dir(), name, why);
	return fd;
}
