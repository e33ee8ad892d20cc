/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cpulock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "restore_file.h"

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

int wfw_cpulock_take(int cpu, pid_t *other)
{
	char path[4096], pid[32];
	int fd, len;

	*other = 0;
	mkdir(wfw_restore_dir(), 0755);	/* as the restore files' */
	snprintf(path, sizeof(path), "%s/cpu%d.lock", wfw_restore_dir(), cpu);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? -EBUSY : -errno;

		*other = holder(fd);
		close(fd);
		return err;
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
