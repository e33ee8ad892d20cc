/* SPDX-License-Identifier: MIT */
/*
 * A buffered output file that only ever holds whole records.
 *
 * Callers append whole records (a CSV row, a binary record); the buffer
 * goes to the kernel in large writes. If a write fails (ENOSPC, EIO, ...)
 * the file is truncated back to the last record boundary the kernel took
 * (found with the `whole` callback, else the end of the last complete
 * write), so a full disk leaves a valid file. After a failure every call
 * returns the same error.
 */
#ifndef WFW_OUT_H
#define WFW_OUT_H

#include <stddef.h>
#include <stdint.h>

struct wfw_out {
	int fd;
	char *path;
	char *buf;
	size_t len;		/* bytes buffered */
	size_t cap;
	uint64_t good_off;	/* file offset after the last whole write */
	int err;		/* sticky negative errno, 0 while healthy */
	/*
	 * Optional: length of the longest prefix of p[0..n) made of whole
	 * records, so a failed write keeps the records that did reach the
	 * disk. Without it the file is cut back to the last full write.
	 */
	size_t (*whole)(void *arg, const char *p, size_t n);
	void *whole_arg;
	char msg[512];		/* why err happened, naming the file */
};

/* The usual buffer of a writer (csvwrite.c, binwrite.c). */
#define WFW_OUT_BUF (1u << 20)

/* Flags for wfw_out_open(). */
#define WFW_OUT_EXCL	1	/* fail with -EEXIST instead of truncating */

/* Create `path` (mode 0644). On failure msg says why. */
int wfw_out_open(struct wfw_out *o, const char *path, size_t bufsize,
		 int flags);

/*
 * Space for a record of up to n bytes (n <= cap), flushing first when the
 * buffer lacks room. NULL on a write error (o->err, o->msg).
 */
char *wfw_out_reserve(struct wfw_out *o, size_t n);

/* Account n bytes written into the space wfw_out_reserve() returned. */
static inline void wfw_out_commit(struct wfw_out *o, size_t n)
{
	o->len += n;
}

/* Append n bytes of whole records; large blocks bypass the buffer. */
int wfw_out_write(struct wfw_out *o, const void *p, size_t n);

/* Hand everything buffered to the kernel. */
int wfw_out_flush(struct wfw_out *o);

/* Flush, fsync-free close, free. Returns the first error seen. */
int wfw_out_close(struct wfw_out *o);

/* A batch whose width is not the schema's: -EINVAL, o->msg says so. */
int wfw_out_bad_batch(struct wfw_out *o, size_t got, size_t want);

/* Test hook: write(2) replacement, NULL for the real one. */
extern long (*wfw_out_write_hook)(int fd, const void *p, size_t n);

/*
 * How many times `c` occurs in the file before good_off: after a failed
 * write, the whole records a CSV kept (c = newline, minus the header).
 * Returns -1 when the file cannot be read.
 */
long long wfw_out_count_kept(const struct wfw_out *o, char c);

#endif /* WFW_OUT_H */
