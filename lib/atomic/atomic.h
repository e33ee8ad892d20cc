/* SPDX-License-Identifier: MIT */
/*
 * Writing a whole file atomically: into a temporary file beside it,
 * flushed to disk (fsync), then renamed over it, so a crash, a signal or a
 * full disk leaves the old file or the new one, never half of one. Used
 * for the state file of settings to restore (core/restore.c); sinks' whole
 * files go the same way (core/sinkfile.c).
 */
#ifndef WFW_ATOMIC_H
#define WFW_ATOMIC_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Write `path` with what `emit` prints to f (it returns 0 or a negative
 * errno). Returns 0 or a negative errno; the temporary file is removed on
 * failure. The file is created 0644 less the umask, never through a
 * symbolic link.
 */
int wfw_atomic_write(const char *path, int (*emit)(FILE *f, void *arg),
		     void *arg);

/* The same for `len` bytes of text. */
int wfw_atomic_write_text(const char *path, const char *text, size_t len);

/*
 * The same for NAME in the directory dirfd, made with `mode` (not the
 * umask's): the temporary file is created afresh (O_EXCL, O_NOFOLLOW), so
 * nothing already there is written through.
 */
int wfw_atomic_write_text_at(int dirfd, const char *name, const char *text,
			     size_t len, mode_t mode);

/* DIR/.NAME.tmp for DIR/NAME: hidden, and on the same file system. */
void wfw_atomic_temp_name(const char *path, char *tmp, size_t len);

/*
 * The directory holding `path` (relative to dirfd, or AT_FDCWD) to the
 * disk, so a file created or renamed there survives a power cut. Best
 * effort: the file's own data syncs still hold.
 */
void wfw_sync_dir_at(int dirfd, const char *path);

#endif /* WFW_ATOMIC_H */
