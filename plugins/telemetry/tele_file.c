/* SPDX-License-Identifier: MIT */
/* telemetry: what the procfs/sysfs providers share (paths, numbers, lists). */
#include "config.h"

#include "tele_provider.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tele_set_path(struct tele_counter *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(c->path, sizeof(c->path), fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= sizeof(c->path) ? -ENAMETOOLONG : 0;
}

int tele_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	return (int)n;
}

int tele_read_u64_path(const char *path, uint64_t *v)
{
	char buf[64], *end;
	int ret = tele_read_small(path, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	/* Empty or not a number: a file we do not understand, not a zero. */
	if (end == buf || errno || (*end && *end != '\n'))
		return -EBADMSG;
	return 0;
}

int tele_read_path_counter(struct tele_counter *c, uint64_t gen,
			   uint64_t *raw)
{
	(void)gen;
	return tele_read_u64_path(c->path, raw);
}

void tele_close_nothing(struct tele_counter *c)
{
	(void)c;
}

int tele_snap_read(struct tele_snap *s, uint64_t gen)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	if (s->gen == gen && s->buf)
		return s->err;
	s->gen = gen;
	fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return s->err = -errno;
	for (;;) {
		if (len + 4096 > s->cap) {
			char *nb = realloc(s->buf, s->cap + 65536);

			if (!nb) {
				close(fd);
				return s->err = -ENOMEM;
			}
			s->buf = nb;
			s->cap += 65536;
		}
		n = read(fd, s->buf + len, s->cap - len - 1);
		if (n < 0) {
			s->err = -errno;
			close(fd);
			return s->err;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	s->buf[len] = '\0';
	return s->err = 0;
}

static int tele_not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int tele_list_dir(const char *dir, char ***names)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, tele_not_hidden, versionsort), i;

	if (n < 0)
		return -errno;
	*names = calloc((size_t)n + 1, sizeof(char *));
	for (i = 0; i < n; i++) {
		if (*names)
			(*names)[i] = strdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	if (!*names)
		return -ENOMEM;
	if (!n) {		/* callers free only what they got names in */
		free(*names);
		*names = NULL;
	}
	for (i = 0; i < n; i++)
		if (!(*names)[i]) {
			tele_free_names(*names, n);
			return -ENOMEM;
		}
	return n;
}

void tele_free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int tele_split(char *s, char **parts, int max)
{
	int n = 0;

	while (n < max - 1) {
		char *colon = strchr(s, ':');

		parts[n++] = s;
		if (!colon)
			return n;
		*colon = '\0';
		s = colon + 1;
	}
	parts[n++] = s;
	return n;
}
