/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datafmt/infoyml.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int __attribute__((format(printf, 3, 4)))
fail(struct wfw_infoyml *y, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(y->err, sizeof(y->err), fmt, ap);
	va_end(ap);
	return ret;
}

/* The value being built: the last key's, which indented lines continue. */
struct val {
	char *s;
	size_t len, cap;
};

/* Append s[0..n) (cut at a NUL, as a C string is) to v; doubling room. */
static int put(struct val *v, const char *s, size_t n)
{
	const char *nul = memchr(s, '\0', n);

	n = nul ? (size_t)(nul - s) : n;
	if (v->len + n + 1 > v->cap) {
		size_t cap = 2 * v->cap > v->len + n + 1 ? 2 * v->cap : v->len + n + 1;
		char *p = realloc(v->s, cap);

		if (!p)
			return -ENOMEM;
		v->s = p;
		v->cap = cap;
	}
	memcpy(v->s + v->len, s, n);
	v->len += n;
	v->s[v->len] = '\0';
	return 0;
}

/* The value built so far becomes the last key's (shrunk to fit). */
static void settle(struct wfw_infoyml *y, struct val *v)
{
	char *s;

	if (!v->s)
		return;
	s = realloc(v->s, v->len + 1);
	y->vals[y->n - 1] = s ? s : v->s;
	*v = (struct val){ 0 };
}

/* A new key from the line's text before the colon; its value follows. */
static int add_key(struct wfw_infoyml *y, size_t *cap, const char *line,
		   size_t klen)
{
	if (y->n == WFW_INFOYML_MAX_KEYS)
		return fail(y, -E2BIG, "more than %d keys, the limit (an info.yml has a few dozen)",
			    WFW_INFOYML_MAX_KEYS);
	if (y->n == *cap) {
		size_t c = *cap ? 2 * *cap : 32;
		char **k = realloc(y->keys, c * sizeof(*k));
		char **v = k ? realloc(y->vals, c * sizeof(*v)) : NULL;

		if (k)
			y->keys = k;
		if (!v)
			return -ENOMEM;
		y->vals = v;
		*cap = c;
	}
	y->keys[y->n] = strndup(line, klen);
	y->vals[y->n] = NULL;
	if (!y->keys[y->n])
		return -ENOMEM;
	y->n++;
	return 0;
}

/* One line (no newline): a key, a continuation of the last one, or nothing. */
static int parse_line(struct wfw_infoyml *y, struct val *v, size_t *cap,
		      const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	size_t at;
	int ret;

	if (len && (line[0] == ' ' || line[0] == '-')) {
		if (!y->n)
			return 0;
		ret = put(v, "\n", 1);
		return ret ? ret : put(v, line, len);
	}
	if (!len || line[0] == '#' || !colon)
		return 0;
	settle(y, v);
	ret = add_key(y, cap, line, (size_t)(colon - line));
	if (ret)
		return ret;
	at = (size_t)(colon - line) + 1;
	at += at < len && line[at] == ' ';
	return put(v, line + at, len - at);
}

int wfw_infoyml_parse(struct wfw_infoyml *y, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	struct val v = { 0 };
	size_t cap = 0;
	int ret = 0;

	memset(y, 0, sizeof(*y));
	if (len > WFW_INFOYML_MAX)
		return fail(y, -EFBIG, "larger than %d bytes, the limit (an info.yml is a few KB)",
			    WFW_INFOYML_MAX);
	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		ret = parse_line(y, &v, &cap, p, n && p[n - 1] == '\r' ? n - 1 : n);
		p += n + (nl != NULL);
	}
	if (y->n && !y->vals[y->n - 1] && !ret)
		settle(y, &v);
	free(v.s);
	for (size_t i = 0; i < y->n && !ret; i++)
		if (!y->vals[i] && !(y->vals[i] = strdup("")))
			ret = -ENOMEM;
	if (ret) {
		char err[sizeof(y->err)];

		memcpy(err, y->err, sizeof(err));
		wfw_infoyml_free(y);
		memcpy(y->err, err, sizeof(err));
	}
	return ret;
}

/*
 * The whole file, a regular one of at most WFW_INFOYML_MAX bytes: a FIFO
 * would block, /dev/zero never end, a 100 MB line take 100 MB.
 */
static int slurp(struct wfw_infoyml *y, int fd, const char *path, char **text,
		 size_t *len)
{
	struct stat st;
	size_t got = 0;
	ssize_t n = 1;

	if (fstat(fd, &st))
		return fail(y, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(y, -EINVAL, "%s: not a regular file", path);
	if (st.st_size > WFW_INFOYML_MAX)
		return fail(y, -EFBIG, "%s: larger than %d bytes, the limit (an info.yml is a few KB)",
			    path, WFW_INFOYML_MAX);
	*text = malloc((size_t)st.st_size + 1);
	if (!*text)
		return -ENOMEM;
	/* One byte more than it said: a file that grew is read as it was. */
	while (got < (size_t)st.st_size + 1 && n > 0) {
		n = read(fd, *text + got, (size_t)st.st_size + 1 - got);
		got += n > 0 ? (size_t)n : 0;
	}
	if (n < 0)
		return fail(y, -errno, "%s: %s", path, strerror(errno));
	*len = got > (size_t)st.st_size ? (size_t)st.st_size : got;
	return 0;
}

static int read_path(struct wfw_infoyml *y, const char *path, int flags)
{
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	memset(y, 0, sizeof(*y));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags);
	if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW))
		return fail(y, -EINVAL, "%s: a symbolic link, not followed (root would show whatever file it names): copy the file in its place",
			    path);
	if (fd < 0)
		return errno == ENOENT ? 0 : fail(y, -errno, "%s: %s", path, strerror(errno));
	ret = slurp(y, fd, path, &text, &len);
	close(fd);
	if (!ret) {
		ret = wfw_infoyml_parse(y, text, len);
		if (ret && ret != -ENOMEM) {
			char why[sizeof(y->err)];

			memcpy(why, y->err, sizeof(why));
			snprintf(y->err, sizeof(y->err), "%s: %s", path, why);
		}
	}
	free(text);
	return ret;
}

int wfw_infoyml_read_path(struct wfw_infoyml *y, const char *path)
{
	return read_path(y, path, 0);
}

/* The info.yml beside a data file is read unasked: a link is not followed. */
int wfw_infoyml_read(struct wfw_infoyml *y, const char *datafile)
{
	const char *slash = strrchr(datafile, '/');
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%.*sinfo.yml",
		 slash ? (int)(slash - datafile + 1) : 0, datafile);
	return read_path(y, path, O_NOFOLLOW);
}

char *wfw_infoyml_value(const struct wfw_infoyml *y, size_t i)
{
	const char *v = y->vals[i];
	size_t len = strlen(v);
	char *out, *o;

	if (len < 2 || (v[0] != '\'' && v[0] != '"') || v[len - 1] != v[0])
		return strdup(v);
	out = o = malloc(len);
	if (!out)
		return NULL;
	/* 'it''s' -> it's; "..." taken as is */
	for (size_t k = 1; k < len - 1; k++) {
		*o++ = v[k];
		if (v[0] == '\'' && v[k] == '\'' && v[k + 1] == '\'')
			k++;
	}
	*o = '\0';
	return out;
}

char *wfw_infoyml_get(const struct wfw_infoyml *y, const char *key)
{
	for (size_t i = 0; i < y->n; i++)
		if (!strcmp(y->keys[i], key))
			return wfw_infoyml_value(y, i);
	return NULL;
}

void wfw_infoyml_free(struct wfw_infoyml *y)
{
	for (size_t i = 0; i < y->n; i++) {
		free(y->keys[i]);
		free(y->vals[i]);
	}
	free(y->keys);
	free(y->vals);
	memset(y, 0, sizeof(*y));
}
