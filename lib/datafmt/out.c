/* SPDX-License-Identifier: MIT */
/* Buffered whole-record output with truncate-back on write errors. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafmt/out.h"

long (*wfw_out_write_hook)(int fd, const void *p, size_t n);

static void out_fail(struct wfw_out *o, int err, const char *what)
{
	o->err = err;
	snprintf(o->msg, sizeof(o->msg), "%s: %s: %s", o->path, what,
		 strerror(-err));
}

/* o's name and buffer, no file yet. */
static int out_init(struct wfw_out *o, const char *path, size_t bufsize)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = strdup(path);
	o->cap = bufsize ? bufsize : 1 << 20;
	o->buf = malloc(o->cap);
	if (!o->path || !o->buf) {
		snprintf(o->msg, sizeof(o->msg), "%s: out of memory", path);
		o->err = -ENOMEM;
	}
	return o->err;
}

int wfw_out_open(struct wfw_out *o, const char *path, size_t bufsize,
		 int flags)
{
	int oflags = O_WRONLY | O_CREAT | O_CLOEXEC;

	if (out_init(o, path, bufsize))
		return o->err;
	oflags |= (flags & WFW_OUT_EXCL) ? O_EXCL : O_TRUNC;
	o->fd = open(path, oflags, 0644);
	if (o->fd < 0) {
		out_fail(o, -errno,
			 errno == EEXIST ? "already exists, not overwriting it"
					 : "cannot create");
		return o->err;
	}
	return 0;
}

int wfw_out_attach(struct wfw_out *o, int fd, const char *path,
		   size_t bufsize)
{
	int ret = out_init(o, path, bufsize);

	o->fd = fd;
	return ret;
}

int wfw_out_open_fwd(struct wfw_out *o, const char *name, size_t cap,
		     const struct wfw_out_fwd *fwd, void *arg)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->cap = cap;
	o->fwd = fwd;
	o->fwd_arg = arg;
	o->path = strdup(name);
	if (!o->path) {
		snprintf(o->msg, sizeof(o->msg), "%s: out of memory", name);
		o->err = -ENOMEM;
	}
	return o->err;
}

/*
 * Write n bytes fully at the current offset. On failure cut the file back
 * to good_off so it ends after a whole record.
 */
static int out_put(struct wfw_out *o, const char *p, size_t n)
{
	size_t done = 0;

	while (done < n) {
		long w = wfw_out_write_hook
			? wfw_out_write_hook(o->fd, p + done, n - done)
			: (long)write(o->fd, p + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? -errno : -EIO;

			/* Keep what reached the disk up to its last whole record. */
			if (o->whole)
				o->good_off += o->whole(o->whole_arg, p, done);
			/* Best effort (fails on /dev/full); keep the first error. */
			if (ftruncate(o->fd, (off_t)o->good_off) == 0)
				(void)lseek(o->fd, (off_t)o->good_off, SEEK_SET);
			out_fail(o, e, "write failed, file cut back to its last whole record");
			return e;
		}
		done += (size_t)w;
	}
	o->good_off += n;
	return 0;
}

int wfw_out_flush(struct wfw_out *o)
{
	int ret;

	if (o->err)
		return o->err;
	if (o->fwd)
		return o->fwd->flush(o);
	if (!o->len)
		return 0;
	ret = out_put(o, o->buf, o->len);
	o->len = 0;
	return ret;
}

char *wfw_out_reserve(struct wfw_out *o, size_t n)
{
	if (o->err)
		return NULL;
	if (o->fwd)
		return o->fwd->reserve(o, n);
	if (o->cap - o->len < n && wfw_out_flush(o))
		return NULL;
	return o->buf + o->len;
}

int wfw_out_commit_rows(struct wfw_out *o, size_t n, uint64_t rows)
{
	if (o->fwd)
		return o->err ? o->err : o->fwd->commit(o, n, rows);
	wfw_out_commit(o, n);
	return 0;
}

int wfw_out_write(struct wfw_out *o, const void *p, size_t n)
{
	if (o->err)
		return o->err;
	if (!n)		/* p may be NULL: a chunk that kept no row */
		return 0;
	if (o->fwd)
		return o->fwd->write(o, p, n);
	/*
	 * A big block goes to the kernel from where it is, even when it
	 * would fit: copying convert's formatted batches (some 650 KB each)
	 * into the buffer cost 6% of its instructions, a few more writes
	 * nothing.
	 */
	if (n >= o->cap / 8) {
		if (wfw_out_flush(o))
			return o->err;
		return out_put(o, p, n);
	}
	if (o->cap - o->len < n && wfw_out_flush(o))
		return o->err;
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	return 0;
}

int wfw_out_close(struct wfw_out *o)
{
	int ret = 0;

	if (o->fwd) {	/* the file is its owner's to close */
		ret = wfw_out_flush(o);
		o->fwd = NULL;
	}
	if (o->fd >= 0) {
		ret = wfw_out_flush(o);
		if (close(o->fd) && !ret) {
			out_fail(o, -errno, "close failed");
			ret = o->err;
		}
		o->fd = -1;
	}
	free(o->buf);
	o->buf = NULL;
	free(o->path);
	o->path = NULL;
	return ret ? ret : o->err;
}

int wfw_out_bad_batch(struct wfw_out *o, size_t got, size_t want)
{
	snprintf(o->msg, sizeof(o->msg),
		 "%s: batch has %zu columns, the schema %zu", o->path, got, want);
	return -EINVAL;
}

long long wfw_out_count_kept(const struct wfw_out *o, char c)
{
	char buf[65536];
	uint64_t off = 0;
	long long n = 0;
	int fd = o->path ? open(o->path, O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0)
		return -1;
	while (off < o->good_off) {
		size_t want = o->good_off - off < sizeof(buf) ?
			      (size_t)(o->good_off - off) : sizeof(buf);
		ssize_t got = pread(fd, buf, want, (off_t)off);

		if (got <= 0) {
			n = -1;
			break;
		}
		for (ssize_t i = 0; i < got; i++)
			n += buf[i] == c;
		off += (uint64_t)got;
	}
	close(fd);
	return n;
}
