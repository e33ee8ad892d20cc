/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "openreg.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int wfw_open_regular(const char *path)
{
	/* O_NONBLOCK: the FIFO's open returns, for fstat to tell what it is. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

FILE *wfw_fopen_regular(const char *path)
{
	int fd = wfw_open_regular(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}
