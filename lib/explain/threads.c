/* SPDX-License-Identifier: MIT */
/*
 * attrib-threads.csv: the names of the threads CausePID holds (PID,Comm).
 * A comm is whatever the measured system's threads called themselves
 * (commas, quotes, line breaks, markup): read as CSV quotes it, bounded,
 * and a bad file is refused whole with the line that is wrong.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explain/explain.h"

#define THREADS_MAX_BYTES ((size_t)1 << 20)
#define THREADS_MAX 65536
#define COMM_MAX 255

struct cursor {
	const char *p, *end, *path;
	unsigned long line;
	char *err;
	size_t errlen;
};

static int bad(struct cursor *c, const char *why)
{
	snprintf(c->err, c->errlen, "%s:%lu: %s", c->path, c->line, why);
	return -EINVAL;
}

/* One field into out (COMM_MAX + 1 bytes), quoted or not; at its end. */
static int field(struct cursor *c, char *out)
{
	size_t n = 0;
	bool quoted = c->p < c->end && *c->p == '"';

	c->p += quoted;
	while (c->p < c->end) {
		char ch = *c->p;

		if (quoted && ch == '"' && (c->p + 1 == c->end || c->p[1] != '"')) {
			c->p++;
			quoted = false;
			break;
		}
		if (!quoted && (ch == ',' || ch == '\n' || ch == '\r'))
			break;
		if (!ch)
			return bad(c, "a NUL byte");
		c->line += ch == '\n';
		c->p += 1 + (quoted && ch == '"');	/* "" is one quote */
		if (n == COMM_MAX)
			return bad(c, "a field longer than 255 bytes");
		out[n++] = ch;
	}
	out[n] = '\0';
	if (quoted)
		return bad(c, "a quote never closed");
	if (c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r')
		return bad(c, "text after a closing quote");
	return 0;
}

/* The end of a row: CRLF or LF (or the file's end). */
static int row_end(struct cursor *c)
{
	if (c->p < c->end && *c->p == '\r')
		c->p++;
	if (c->p < c->end && *c->p != '\n')
		return bad(c, "more than two fields (PID,Comm)");
	c->p += c->p < c->end;
	c->line++;
	return 0;
}

/* "PID,Comm" fields into pid, comm. */
static int row(struct cursor *c, char *pid, char *comm)
{
	int ret = field(c, pid);

	if (ret)
		return ret;
	if (c->p == c->end || *c->p != ',')
		return bad(c, "one field where PID,Comm are two");
	c->p++;
	ret = field(c, comm);
	return ret ? ret : row_end(c);
}

/* Room for one more thread. */
static int grow(struct wfw_xp_threads *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	int64_t *pid;
	char **comm;

	if (t->n < t->cap)
		return 0;
	pid = realloc(t->pid, cap * sizeof(*pid));
	if (pid)
		t->pid = pid;
	comm = pid ? realloc(t->comm, cap * sizeof(*comm)) : NULL;
	if (!comm)
		return -ENOMEM;
	t->comm = comm;
	t->cap = cap;
	return 0;
}

static int add(struct wfw_xp_threads *t, struct cursor *c, const char *pid,
	       const char *comm)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(pid, &end, 10);
	if (!*pid || *end || errno || v < 0 || v > INT32_MAX)
		return bad(c, "PID is not a number from 0 to 2147483647");
	if (t->n == THREADS_MAX)
		return bad(c, "more than 65536 threads");
	if (grow(t))
		return -ENOMEM;
	t->comm[t->n] = strdup(comm);
	if (!t->comm[t->n])
		return -ENOMEM;
	t->pid[t->n++] = v;
	return 0;
}

/* The rows of buf[0..n) after its header. */
static int parse(struct wfw_xp_threads *t, struct cursor *c)
{
	char pid[COMM_MAX + 1], comm[COMM_MAX + 1];
	int ret = row(c, pid, comm);

	if (!ret && (strcmp(pid, "PID") || strcmp(comm, "Comm"))) {
		c->line--;
		return bad(c, "the header is not PID,Comm");
	}
	while (!ret && c->p < c->end) {
		unsigned long first = c->line, next;

		ret = row(c, pid, comm);
		if (ret)
			break;
		next = c->line;
		c->line = first;	/* a bad PID: the row's first line */
		ret = add(t, c, pid, comm);
		c->line = next;
	}
	return ret;
}

/* By pid, then as listed: the first line of a pid is kept. */
static int cmp_at(const void *a, const void *b, void *arg)
{
	const int64_t *pid = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (pid[i] != pid[j])
		return pid[i] < pid[j] ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int sort_threads(struct wfw_xp_threads *t)
{
	size_t *at = malloc((t->n ? t->n : 1) * sizeof(*at)), k = 0;
	int64_t *pid = malloc((t->n ? t->n : 1) * sizeof(*pid));
	char **comm = malloc((t->n ? t->n : 1) * sizeof(*comm));

	if (!at || !pid || !comm) {
		free(at); free(pid); free(comm);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->n; i++)
		at[i] = i;
	qsort_r(at, t->n, sizeof(*at), cmp_at, t->pid);
	for (size_t i = 0; i < t->n; i++) {
		if (k && pid[k - 1] == t->pid[at[i]]) {
			free(t->comm[at[i]]);
			continue;
		}
		pid[k] = t->pid[at[i]];
		comm[k++] = t->comm[at[i]];
	}
	free(at);
	free(t->pid);
	free(t->comm);
	t->pid = pid;
	t->comm = comm;
	t->n = k;
	t->cap = t->n;
	return 0;
}

/* The whole file (a regular one, at most THREADS_MAX_BYTES) into *buf. */
static int slurp(const char *path, char **buf, size_t *n, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	ssize_t got = 0;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > THREADS_MAX_BYTES) {
		snprintf(err, errlen, "%s: not a regular file of at most 1 MiB", path);
		close(fd);
		return -EINVAL;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (*buf)
		got = read(fd, *buf, (size_t)st.st_size);
	close(fd);
	if (!*buf || got < 0) {
		snprintf(err, errlen, "%s: %s", path, *buf ? strerror(errno) : "out of memory");
		return *buf ? -EIO : -ENOMEM;
	}
	*n = (size_t)got;
	return 0;
}

int wfw_xp_threads_load(struct wfw_xp_threads *t, const char *path,
			char *err, size_t errlen)
{
	struct cursor c = { .path = path, .line = 1, .err = err, .errlen = errlen };
	char *buf = NULL;
	size_t n = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = slurp(path, &buf, &n, err, errlen);
	if (ret)
		return ret;
	c.p = buf;
	c.end = buf + n;
	ret = parse(t, &c);
	if (!ret)
		ret = sort_threads(t);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	if (ret)
		wfw_xp_threads_free(t);
	free(buf);
	return ret;
}

const char *wfw_xp_comm(const struct wfw_xp_threads *t, int64_t pid)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->pid[mid] == pid)
			return t->comm[mid];
		if (t->pid[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void wfw_xp_threads_free(struct wfw_xp_threads *t)
{
	for (size_t i = 0; t->comm && i < t->n; i++)
		free(t->comm[i]);
	free(t->pid);
	free(t->comm);
	memset(t, 0, sizeof(*t));
}
