/* SPDX-License-Identifier: MIT */
/*
 * Opening a result file (reader.h): the file is checked, its format picked
 * by content, and the format's reader (csvread.c, binread.c) reads its
 * schema. A directory is an experiment of several CPUs (readcpu.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafmt/binfmt.h"
#include "datafmt/percpu.h"
#include "datafmt/reader_impl.h"

/* Binary if it starts like the magic, even when cut inside it. */
static const struct wfw_reader_ops *pick_format(int fd, off_t size)
{
	unsigned char magic[4] = { 0 };
	size_t n = size < 4 ? (size_t)size : 4;

	if (size > 0 && pread(fd, magic, n, 0) == (ssize_t)n &&
	    !memcmp(magic, WFW_BIN_MAGIC, n))
		return &wfw_bin_reader_ops;
	return &wfw_csv_reader_ops;
}

static int open_checked(const char *path, struct stat *st, char *err,
			size_t errlen)
{
	/* O_NONBLOCK: a FIFO must not hang us before the type check. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -errno;
	}
	if (fstat(fd, st)) {
		int ret = -errno;

		snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int wfw_reader_open(struct wfw_reader **rp, const char *path, char *err,
		    size_t errlen)
{
	static const struct wfw_reader_opts whole = { 0 };

	return wfw_reader_open_opts(rp, path, &whole, err, errlen);
}

int wfw_reader_open_opts(struct wfw_reader **rp, const char *path,
			 const struct wfw_reader_opts *opts, char *err,
			 size_t errlen)
{
	const struct wfw_reader_ops *ops;
	struct wfw_reader *r;
	struct stat st;
	int fd, ret;

	*rp = NULL;
	if (wfw_percpu_is_dir(path))
		return wfw_percpu_reader_open(rp, path, opts, err, errlen);
	fd = open_checked(path, &st, err, errlen);
	if (fd < 0)
		return fd;
	ops = pick_format(fd, st.st_size);
	if (opts->nparts > 1 && !ops->parts) {
		snprintf(err, errlen, "%s: this format is read whole, not in parts", path);
		close(fd);
		return -EOPNOTSUPP;
	}
	r = ops->alloc();
	if (!r || !(r->path = strdup(path))) {
		if (r)
			ops->free(r);
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r->ops = ops;
	r->fd = fd;
	r->opts = *opts;
	ret = ops->open(r, (uint64_t)st.st_size);
	if (ret) {
		snprintf(err, errlen, "%s", r->err);
		wfw_reader_close(r);
		return ret;
	}
	*rp = r;
	return 0;
}
