/* SPDX-License-Identifier: MIT */
/* calc --explain: the thread names of attrib-threads.csv (explain_threads.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explain_threads.h"

/* A record's fields, decoded, and why it is bad ("" when not). */
struct rec {
	char f[2][XTHREADS_MAX_COMM + 1];
	size_t nf;
	const char *why;
};

struct cur {
	const char *s;
	size_t len, at;
	unsigned long line;	/* of the record's start */
	unsigned long next_line;
};

static void put(struct rec *r, size_t *n, char c)
{
	if (r->nf < 2 && *n < XTHREADS_MAX_COMM)
		r->f[r->nf][(*n)++] = c;
	else if (r->nf < 2 && !r->why)
		r->why = "a field longer than 64 bytes";
}

/* One field from c->at; true when the record goes on after it. */
static bool field(struct cur *c, struct rec *r)
{
	bool quoted = c->at < c->len && c->s[c->at] == '"';
	size_t n = 0;

	c->at += quoted;
	while (c->at < c->len) {
		char ch = c->s[c->at++];

		if (!ch && !r->why)
			r->why = "a NUL byte";
		if (quoted && ch == '"' && c->at < c->len && c->s[c->at] == '"') {
			c->at++;
		} else if (quoted && ch == '"') {
			quoted = false;
			if (c->at < c->len && !strchr(",\r\n", c->s[c->at]) && !r->why)
				r->why = "text after a closing quote";
			continue;
		} else if (!quoted && (ch == ',' || ch == '\n')) {
			if (r->nf < 2)
				r->f[r->nf][n - (n && ch == '\n' && r->f[r->nf][n - 1] == '\r')] = '\0';
			r->nf++;
			c->next_line += ch == '\n';
			return ch == ',';
		}
		c->next_line += ch == '\n';
		put(r, &n, ch);
	}
	if (quoted && !r->why)
		r->why = "a quote never closed";
	if (r->nf < 2)
		r->f[r->nf][n - (n && r->f[r->nf][n - 1] == '\r')] = '\0';
	r->nf++;
	return false;
}

static void record(struct cur *c, struct rec *r)
{
	memset(r, 0, sizeof(*r));
	c->line = c->next_line;
	while (field(c, r))
		;
	if (!r->why && r->nf > 2)
		r->why = "more than 2 fields";
}

/* A pid: decimal digits, 0 to INT_MAX. */
static bool pid_of(const char *s, int64_t *pid)
{
	int64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return false;
	}
	*pid = v;
	return true;
}

static int add(struct xthreads *t, size_t *cap, int64_t pid, const char *comm)
{
	if (t->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		int64_t *p = realloc(t->pid, nc * sizeof(*p));
		char **c;

		if (!p)
			return -ENOMEM;
		t->pid = p;
		c = realloc(t->comm, nc * sizeof(*c));
		if (!c)
			return -ENOMEM;
		t->comm = c;
		*cap = nc;
	}
	t->comm[t->n] = strdup(comm);
	if (!t->comm[t->n])
		return -ENOMEM;
	t->pid[t->n++] = pid;
	return 0;
}

struct ent {
	int64_t pid;
	size_t i;	/* its line's place in the file */
};

/* By pid, then in file order: the first line of a pid is the one kept. */
static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Sorted by pid, each pid once. */
static int settle(struct xthreads *t)
{
	size_t m = t->n ? t->n : 1, k = 0;
	struct ent *e = malloc(m * sizeof(*e));
	char **comm = malloc(m * sizeof(*comm));

	if (!e || !comm) {
		free(e);
		free(comm);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->n; i++)
		e[i] = (struct ent){ t->pid[i], i };
	if (t->n > 1)	/* qsort() takes no NULL, even for nothing */
		qsort(e, t->n, sizeof(*e), cmp_ent);
	for (size_t i = 0; i < t->n; i++) {
		if (k && t->pid[k - 1] == e[i].pid) {
			free(t->comm[e[i].i]);
			continue;
		}
		t->pid[k] = e[i].pid;	/* k <= i, and e holds the pids */
		comm[k++] = t->comm[e[i].i];
	}
	free(e);
	free(t->comm);
	t->comm = comm;
	t->n = k;
	return 0;
}

static void say(struct xthreads *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct xthreads *t, const char *fmt, ...)
{
	size_t at = (size_t)snprintf(t->err, sizeof(t->err), "%s", t->path);
	va_list ap;

	va_start(ap, fmt);
	if (at < sizeof(t->err))
		vsnprintf(t->err + at, sizeof(t->err) - at, fmt, ap);
	va_end(ap);
}

int xthreads_parse(struct xthreads *t, const char *text, size_t len)
{
	struct cur c = { .s = text, .len = len, .next_line = 1 };
	unsigned long bad = 0, first = 0;
	const char *why = NULL;
	size_t cap = 0;
	struct rec r;
	int64_t pid;

	record(&c, &r);
	if (r.why || r.nf != 2 || strcmp(r.f[0], "PID") || strcmp(r.f[1], "Comm")) {
		say(t, ":1: not the header PID,Comm: threads are shown by pid");
		return 0;
	}
	while (c.at < c.len) {
		record(&c, &r);
		if (r.nf == 1 && !r.f[0][0] && !r.why)
			continue;	/* an empty line */
		if (!r.why && r.nf < 2)
			r.why = "one field, not PID,Comm";
		if (!r.why && !pid_of(r.f[0], &pid))
			r.why = "a pid that is no whole number from 0 to 2147483647";
		if (!r.why && add(t, &cap, pid, r.f[1]))
			return -ENOMEM;
		if (r.why && !bad++) {
			first = c.line;
			why = r.why;
		}
	}
	if (bad)
		say(t, ":%lu: %s; %lu such line%s left out, %s threads shown by pid",
		    first, why, bad, bad == 1 ? "" : "s", bad == 1 ? "its" : "their");
	return settle(t);
}

/* A regular file of at most XTHREADS_MAX_BYTES, whole: a FIFO never blocks. */
static int slurp(struct xthreads *t, char **text, size_t *len)
{
	int fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t n = 1;
	size_t got = 0;

	*text = NULL;
	if (fd < 0) {
		if (errno != ENOENT)
			say(t, ": %s: threads are shown by pid", strerror(errno));
		t->found = errno != ENOENT;
		return 0;
	}
	t->found = true;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > XTHREADS_MAX_BYTES) {
		say(t, ": %s: threads are shown by pid", fstat(fd, &st) ? strerror(errno) :
		    !S_ISREG(st.st_mode) ? "not a regular file" : "larger than 16 MiB, the limit");
		close(fd);
		return 0;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		close(fd);
		return -ENOMEM;
	}
	/* What it said, and not what it grew to since. */
	while (got < (size_t)st.st_size && n > 0) {
		n = read(fd, *text + got, (size_t)st.st_size - got);
		got += n > 0 ? (size_t)n : 0;
	}
	if (n < 0)
		say(t, ": %s: threads are shown by pid", strerror(errno));
	close(fd);
	*len = got;
	return 0;
}

int xthreads_load(struct xthreads *t, const char *datafile)
{
	const char *slash = strrchr(datafile, '/');
	char *text;
	size_t len = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%.*s%s",
		 slash ? (int)(slash - datafile + 1) : 0, datafile, XTHREADS_FILE);
	ret = slurp(t, &text, &len);
	if (!ret && text && !t->err[0])
		ret = xthreads_parse(t, text, len);
	free(text);
	return ret;
}

const char *xthreads_comm(const struct xthreads *t, int64_t pid)
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

void xthreads_free(struct xthreads *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->comm[i]);
	free(t->comm);
	free(t->pid);
	t->comm = NULL;
	t->pid = NULL;
	t->n = 0;
}

void xthreads_escape(char *buf, size_t len, const char *s)
{
	size_t at = 0;

	for (; *s && len; s++) {
		unsigned char ch = (unsigned char)*s;
		char one[5];
		int w;

		if (ch == '\\')
			w = snprintf(one, sizeof(one), "\\\\");
		else if (ch >= 0x20 && ch < 0x7f)
			w = snprintf(one, sizeof(one), "%c", ch);
		else
			w = snprintf(one, sizeof(one), "\\x%02x", ch);
		if (at + (size_t)w >= len)
			break;
		memcpy(buf + at, one, (size_t)w);
		at += (size_t)w;
	}
	if (len)
		buf[at] = '\0';
}
