/* SPDX-License-Identifier: MIT */
/*
 * The state directory of restore.h and cpulock.h ($WULTFW_STATE_DIR, else
 * /run/wultfw), as root may use it: the directory and each file in it
 * opened without following a symbolic link and checked on the opened fd
 * (lib/trust: owned by root or us, writable by no one else), files only
 * relative to the checked directory's fd. Anything else is refused: a
 * state file makes root write files, a lock file is truncated by root.
 */
#ifndef WFW_STATEDIR_H
#define WFW_STATEDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The state directory, opened and checked: its fd (close it), or -ENOENT
 * when it does not exist and !create, or another -errno with err a whole
 * sentence saying what is wrong and what to do (-EPERM: refused).
 */
int wfw_statedir_open(bool create, char *err, size_t errlen);

/*
 * NAME in it (dirfd from wfw_statedir_open()) opened with flags (O_CREAT:
 * mode 0644) and checked: a regular file with one link, trusted. Its fd,
 * or -errno with err a sentence naming DIR/NAME (-EPERM: refused).
 */
int wfw_statedir_file(int dirfd, const char *name, int flags, char *err,
		      size_t errlen);

#endif
