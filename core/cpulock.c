/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cpulock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include "statedir.h"

/* The pid the holder wrote into fd's file, or 0. */
static pid_t holder(int fd)
{
	char buf[32] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (pid_t)strtol(buf, NULL, 10);
}

int wfw_cpulock_take(int cpu, pid_t *other, char *err, size_t errlen)
{
	char name[32], pid[32];
	int dirfd, fd, len;

	*other = 0;
	dirfd = wfw_statedir_open(true, err, errlen);
	if (dirfd < 0)
		return dirfd;
	snprintf(name, sizeof(name), "cpu%d.lock", cpu);
	/* Not truncated on open: a file not ours is refused untouched. */
	fd = wfw_statedir_file(dirfd, name, O_RDWR | O_CREAT, err, errlen);
	close(dirfd);
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno == EWOULDBLOCK ? -EBUSY : -errno;

		*other = holder(fd);
		close(fd);
		return e;
	}
	len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)len, 0) != len) {
		/* the lock holds without its pid: others are told "another" */
	}
	return fd;
}

void wfw_cpulock_release(int fd)
{
	if (fd >= 0)
		close(fd);	/* the lock goes with it; the file stays for the next */
}
