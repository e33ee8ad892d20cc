/* SPDX-License-Identifier: MIT */
/*
 * Writing a whole file atomically: into a temporary file beside it,
 * flushed to disk (fsync), then renamed over it, so a crash, a signal or a
 * full disk leaves the old file or the new one, never half of one. Used
 * for info.yml, logs/ and stats.json.
 */
#ifndef WFW_ATOMIC_H
#define WFW_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write `path` with what `emit` prints to f (it returns 0 or a negative
 * errno). Returns 0 or a negative errno; the temporary file is removed on
 * failure.
 */
int wfw_atomic_write(const char *path, int (*emit)(FILE *f, void *arg),
		     void *arg);

/* The same for `len` bytes of text. */
int wfw_atomic_write_text(const char *path, const char *text, size_t len);

#endif /* WFW_ATOMIC_H */
