/* SPDX-License-Identifier: MIT */
/*
 * Opening a file only when it lies below a directory, however its path is
 * spelled: what a later wultfw writes back from a state file
 * (core/restore_leftover.c), and what a plugin asks the core to write back
 * (wultfw_remember()), must stay below the sysfs root in force, through
 * ".." and symbolic links alike.
 */
#ifndef WFW_SYSSTATE_BENEATH_H
#define WFW_SYSSTATE_BENEATH_H

/*
 * The part of `path` after `root` and its slashes, when path is spelled
 * below root ("/sys/x/y" below "/sys" or "/sys/": "x/y"); NULL when it is
 * not, or names root itself. Looks at the spelling only.
 */
const char *wfw_beneath_rel(const char *root, const char *path);

/*
 * Open `path` with `flags` (O_PATH only checks) when it is spelled below
 * `root` and every step of resolving it, each symbolic link and "..",
 * stays below root; the file must be a regular one. Never follows a
 * "magic" link (/proc/PID/fd/N). Returns an fd (close-on-exec), or
 * -EXDEV when path is not or does not stay below root, -EINVAL when it is
 * no regular file, or the -errno of opening it (-ENOENT: it is gone).
 * Opening is one step with the check (openat2 RESOLVE_BENEATH); kernels
 * before 5.6 get wfw_open_beneath_compat().
 */
int wfw_open_beneath(const char *root, const char *path, int flags);

/*
 * The same with realpath(): the file a path resolves to now, opened
 * without following a last link. Someone who can rename directories below
 * root between the two could still move it out; below /sys only root
 * can. Exposed for the tests.
 */
int wfw_open_beneath_compat(const char *root, const char *path, int flags);

#endif
