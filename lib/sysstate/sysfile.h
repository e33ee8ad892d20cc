/* SPDX-License-Identifier: MIT */
/*
 * Small text files of the running system (sysfs, procfs): a value is the
 * first line of its file. Every path below a sysfs root is built by the
 * caller from the root it was given (tests pass a fake tree; NULL means
 * the machine's own, "/sys").
 */
#ifndef WFW_SYSSTATE_SYSFILE_H
#define WFW_SYSSTATE_SYSFILE_H

#include <stddef.h>
#include <stdint.h>

/* The sysfs root to use: `root`, or "/sys" when NULL. */
const char *wfw_sysfs(const char *root);

/*
 * The first line of `path` without its newline, in buf (cut to len - 1
 * bytes). 0; -ENODATA for an empty file; -errno when it cannot be opened
 * or read. buf is "" on failure.
 */
int wfw_read_line(const char *path, char *buf, size_t len);

/* The same for the first line that is not empty (a log's first message). */
int wfw_read_text_line(const char *path, char *buf, size_t len);

/*
 * The unsigned decimal `path` holds (sysfs counters: "12345\n"). 0,
 * -EINVAL when it is no number, or the error of wfw_read_line().
 */
int wfw_read_u64(const char *path, uint64_t *val);

/*
 * The same from a file kept open, read again from its start: a counter
 * read often costs one pread. 0, -EIO (empty, no number) or -errno.
 */
int wfw_pread_u64(int fd, uint64_t *val);

#endif
