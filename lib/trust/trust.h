/* SPDX-License-Identifier: MIT */
/*
 * Files root acts on that someone else could have put there: the state
 * directory and its files (core/statedir.c), the CPU locks, files the
 * environment names, plugin files and the directories above them
 * (core/plugintrust.c). Trusted is what root or the effective user owns and
 * nobody else can write; it is checked on the opened file (fstat), never
 * on a path that could change between the check and the open.
 */
#ifndef WFW_TRUST_H
#define WFW_TRUST_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Relaxations of the rule, for plugin paths (plugintrust.c says why). */
enum wfw_trust_flags {
	/* group write is allowed when the group is root's (gid 0) */
	WFW_TRUST_ROOT_GROUP = 1 << 0,
	/* others may write a sticky directory (only owners rename entries) */
	WFW_TRUST_STICKY = 1 << 1,
	/* owners of the running binary or a directory above it are trusted */
	WFW_TRUST_BINARY_OWNER = 1 << 2,
};

/* What wfw_trust_check() found wrong, in the order it looks. */
enum wfw_trust_fault {
	WFW_TRUST_OK = 0,
	WFW_TRUST_BAD_TYPE,	/* not of the type asked for */
	WFW_TRUST_BAD_OWNER,	/* owned by a user not trusted */
	WFW_TRUST_BAD_WRITERS,	/* someone else can write it */
};

/* st of type `type` (S_IFDIR, S_IFREG) trusted under flags? */
enum wfw_trust_fault wfw_trust_check(const struct stat *st, mode_t type,
				     unsigned int flags);

/*
 * wfw_trust_check() with no relaxation: 0, or -EPERM with why ("owned by
 * uid 65534, not by root", "writable by others (mode 0777)", "not a
 * directory").
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
