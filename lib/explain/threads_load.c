/* SPDX-License-Identifier: MIT */
/*
 * attrib-threads.csv from its file (threads.h): a regular file of
 * bounded size read whole without blocking (a FIFO in its place is
 * said, never waited on), then its lines taken as the mode says.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explain/threads.h"

#define REFUSE_MAX_BYTES ((size_t)1 << 20)
#define SKIP_MAX_BYTES ((size_t)16 << 20)

/*
 * The file, at most max bytes of it as its size said when opened, into
 * *text: 0; -errno (open, fstat, read), -ENODEV for no
 * regular file, -EFBIG for one over max, or -ENOMEM.
 */
static int slurp(const char *path, size_t max, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t n = 1;
	size_t got = 0;
	int ret = 0;

	*text = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -ENODEV;
	else if ((size_t)st.st_size > max)
		ret = -EFBIG;
	else if (!(*text = malloc((size_t)st.st_size + 1)))
		ret = -ENOMEM;
	/* What it said, and not what it grew to since. */
	while (!ret && got < (size_t)st.st_size && n > 0) {
		n = read(fd, *text + got, (size_t)st.st_size - got);
		got += n > 0 ? (size_t)n : 0;
	}
	if (!ret && n < 0)
		ret = -errno;
	close(fd);
	if (ret) {
		free(*text);
		*text = NULL;
	}
	*len = got;
	return ret;
}

int wfw_xp_threads_load(struct wfw_xp_threads *t, const char *path,
			char *err, size_t errlen)
{
	char *text;
	size_t len;
	int ret = slurp(path, REFUSE_MAX_BYTES, &text, &len);

	memset(t, 0, sizeof(*t));
	if (ret == -ENODEV || ret == -EFBIG) {
		snprintf(err, errlen, "%s: not a regular file of at most 1 MiB", path);
		return -EINVAL;
	}
	if (ret) {
		snprintf(err, errlen, "%s: %s", path,
			 ret == -ENOMEM ? "out of memory" : strerror(-ret));
		return ret;
	}
	ret = wfw_xp_threads_parse(t, text, len, WFW_XP_THREADS_REFUSE, path, err, errlen);
	free(text);
	return ret;
}

int wfw_xp_threads_beside(struct wfw_xp_threads *t, const char *datafile,
			  char *path, size_t pathlen, bool *found,
			  char *err, size_t errlen)
{
	const char *slash = strrchr(datafile, '/');
	char *text;
	size_t len;
	int ret;

	memset(t, 0, sizeof(*t));
	*err = '\0';
	snprintf(path, pathlen, "%.*s%s", slash ? (int)(slash - datafile + 1) : 0,
		 datafile, WFW_XP_THREADS_FILE);
	ret = slurp(path, SKIP_MAX_BYTES, &text, &len);
	*found = ret != -ENOENT;
	if (ret == -ENOMEM)
		return ret;
	if (ret && ret != -ENOENT)
		snprintf(err, errlen, "%s: %s: threads are shown by pid", path,
			 ret == -ENODEV ? "not a regular file" :
			 ret == -EFBIG ? "larger than 16 MiB, the limit" : strerror(-ret));
	if (ret)
		return 0;
	ret = wfw_xp_threads_parse(t, text, len, WFW_XP_THREADS_SKIP, path, err, errlen);
	free(text);
	return ret;
}
