/* SPDX-License-Identifier: MIT */
/*
 * attrib-threads.csv's lines into thread names (threads.h): each line
 * checked, the good ones kept by pid, a bad one refusing the file or
 * counted as the mode says.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/threads.h"
#include "explain/threads_csv.h"

#define REFUSE_MAX_THREADS 65536

/*
 * What is wrong, the same words for the report and calc, in the order
 * of enum xp_why from XP_NUL; a long field's bound is added.
 */
static const char *const words[XP_NWHY - XP_NUL] = {
	"a NUL byte", "a field longer than", "a quote never closed",
	"text after a closing quote", "more than two fields (PID,Comm)",
	"one field where PID,Comm are two",
	"a pid that is no whole number from 0 to 2147483647",
	"more than 65536 threads", "not the header PID,Comm",
};

static void say(char *err, size_t errlen, const char *path, unsigned long line,
		enum xp_why w, enum wfw_xp_threads_mode mode, size_t max_field)
{
	snprintf(err, errlen, "%s:%lu: %s", path, line, words[w - XP_NUL]);
	if (w == XP_LONG)
		snprintf(err + strlen(err), errlen - strlen(err), " %zu bytes", max_field);
	/* calc goes on without the file */
	if (w == XP_HEADER && mode == WFW_XP_THREADS_SKIP)
		snprintf(err + strlen(err), errlen - strlen(err), ": threads are shown by pid");
}

/* A pid: decimal digits, 0 to INT32_MAX. */
static bool pid_of(const char *s, int64_t *pid)
{
	int64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (*s - '0');
		if (v > INT32_MAX)
			return false;
	}
	*pid = v;
	return true;
}

static int add(struct wfw_xp_threads *t, int64_t pid, const char *comm)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		int64_t *p = realloc(t->pid, cap * sizeof(*p));
		char **c = p ? realloc(t->comm, cap * sizeof(*c)) : NULL;

		if (p)
			t->pid = p;
		if (!c)
			return -ENOMEM;
		t->comm = c;
		t->cap = cap;
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
static int settle(struct wfw_xp_threads *t)
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
	t->n = t->cap = k;
	return 0;
}

/* A line's pid checked and the thread kept; what is wrong into r->why. */
static int take(struct wfw_xp_threads *t, struct xp_rec *r,
		enum wfw_xp_threads_mode mode)
{
	int64_t pid;

	if (!r->why && !pid_of(r->f[0], &pid))
		r->why = XP_PID;
	if (!r->why && mode == WFW_XP_THREADS_REFUSE && t->n == REFUSE_MAX_THREADS)
		r->why = XP_MANY;
	if (r->why == XP_PID || r->why == XP_MANY)
		r->why_line = r->line;
	return r->why ? 0 : add(t, pid, r->f[1]);
}

/* The header: 0, or what is wrong with it (r->why, r->why_line). */
static bool header_ok(struct xp_rec *r)
{
	if (!r->why && (strcmp(r->f[0], "PID") || strcmp(r->f[1], "Comm"))) {
		r->why = XP_HEADER;
		r->why_line = 1;
	}
	return !r->why;
}

/* The lines after the header; a bad one stops REFUSE, SKIP counts them. */
static int lines(struct wfw_xp_threads *t, struct xp_csv *c,
		 enum wfw_xp_threads_mode mode, const char *path, char *err, size_t errlen)
{
	unsigned long bad = 0, first = 0;
	enum xp_why why = XP_OK;
	struct xp_rec r;

	while (c->at < c->len) {
		xp_csv_record(c, &r);
		if (mode == WFW_XP_THREADS_SKIP && r.empty)
			continue;
		if (take(t, &r, mode))
			return -ENOMEM;
		if (r.why && mode == WFW_XP_THREADS_REFUSE) {
			say(err, errlen, path, r.why_line, r.why, mode, c->max_field);
			return -EINVAL;
		}
		if (r.why && !bad++) {
			first = r.line;
			why = r.why;
		}
	}
	if (bad) {
		say(err, errlen, path, first, why, mode, c->max_field);
		snprintf(err + strlen(err), errlen - strlen(err),
			 "; %lu such line%s left out, %s threads shown by pid",
			 bad, bad == 1 ? "" : "s", bad == 1 ? "its" : "their");
	}
	return 0;
}

int wfw_xp_threads_parse(struct wfw_xp_threads *t, const char *text, size_t len,
			 enum wfw_xp_threads_mode mode, const char *path,
			 char *err, size_t errlen)
{
	struct xp_csv c = { .s = text, .len = len, .line = 1,
			    .max_field = mode == WFW_XP_THREADS_SKIP ? 64 : XP_FIELD_MAX };
	struct xp_rec r;
	int ret;

	memset(t, 0, sizeof(*t));
	*err = '\0';
	xp_csv_record(&c, &r);
	if (!header_ok(&r)) {
		/* calc: the whole file by pid, whatever is wrong with its header */
		if (mode == WFW_XP_THREADS_SKIP) {
			r.why = XP_HEADER;
			r.why_line = 1;
		}
		say(err, errlen, path, r.why_line, r.why, mode, c.max_field);
		return mode == WFW_XP_THREADS_SKIP ? 0 : -EINVAL;
	}
	ret = lines(t, &c, mode, path, err, errlen);
	if (!ret)
		ret = settle(t);
	if (ret)
		wfw_xp_threads_free(t);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
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
