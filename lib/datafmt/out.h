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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wfw_out;

/*
 * Where an out's bytes go instead of a file of its own: a sink's file the
 * core opened (wultfw_file_open()), which buffers, keeps whole rows and
 * counts them. Each op returns what the file's op did; on failure it sets
 * o->err and o->msg.
 */
struct wfw_out_fwd {
	char *(*reserve)(struct wfw_out *o, size_t n);
	int (*commit)(struct wfw_out *o, size_t n, uint64_t rows);
	int (*write)(struct wfw_out *o, const void *p, size_t n);	/* no rows */
	int (*flush)(struct wfw_out *o);	/* to the kernel */
};

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
	const struct wfw_out_fwd *fwd;	/* NULL: fd is the file */
	void *fwd_arg;
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
 * Write to fd (open for writing, at its end; o owns it from here on, even
 * on failure); path names it in messages.
 */
int wfw_out_attach(struct wfw_out *o, int fd, const char *path,
		   size_t bufsize);
/*
 * Hand everything to fwd (see above) instead of a file; name in messages,
 * cap the size writers plan their chunks by (there is no buffer here).
 */
int wfw_out_open_fwd(struct wfw_out *o, const char *name, size_t cap,
		     const struct wfw_out_fwd *fwd, void *arg);
/* Open by either of the two, not closed yet. */
static inline bool wfw_out_is_open(const struct wfw_out *o)
{
	return o->fd >= 0 || o->fwd;
}

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

/* The same, saying they hold `rows` whole rows (a forwarding out needs it). */
int wfw_out_commit_rows(struct wfw_out *o, size_t n, uint64_t rows);

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
