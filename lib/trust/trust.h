/* SPDX-License-Identifier: MIT */
/*
 * Files root acts on that someone else could have put there: the state
 * directory and its files (core/statedir.c), the CPU locks, files the
 * environment names. Trusted is what root or the effective user owns and
 * nobody else can write; it is checked on the opened file (fstat), never
 * on a path that could change between the check and the open.
 */
#ifndef WFW_TRUST_H
#define WFW_TRUST_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * st of type `type` (S_IFDIR, S_IFREG), owned by root or the effective
 * user, writable by neither group nor others? 0, or -EPERM with why
 * ("owned by uid 65534, not by root", "writable by others (mode
 * 0777)", "not a directory").
 */
int wfw_trust_stat(const struct stat *st, mode_t type, char *why,
		   size_t len);

/*
 * Open `path` (relative to dirfd, or AT_FDCWD) with flags, O_NOFOLLOW and
 * O_CLOEXEC added (a FIFO does not block it), and check the opened file
 * with wfw_trust_stat(). Its fd, or -EPERM with why (a symbolic link
 * says so), or the -errno of the open (why: its strerror()).
 */
int wfw_trust_openat(int dirfd, const char *path, int flags, mode_t mode,
		     mode_t type, char *why, size_t len);

#endif
