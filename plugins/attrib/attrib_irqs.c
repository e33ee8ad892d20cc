/* SPDX-License-Identifier: MIT */
/*
 * /proc/interrupts -> IRQ names (attrib_irqs.h). A numbered line is
 *   " 24:  <one count per CPU>  <chip> <hwirq>-<type>  name[, name...]"
 * and the kernel puts at least two spaces before the handler names and
 * never two inside them, so the names are what follows the last run of
 * two blanks (the last field if there is none).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib_irqs.h"

static const char *const attrib_vec_names[ATTRIB_NVEC] = {
	[ATTRIB_VEC_LOC] = "LOC", [ATTRIB_VEC_CAL] = "CAL",
	[ATTRIB_VEC_RES] = "RES", [ATTRIB_VEC_IWI] = "IWI",
};

const char *attrib_vec_name(unsigned int vec)
{
	return vec < ATTRIB_NVEC ? attrib_vec_names[vec] : NULL;
}

struct attrib_irq_line {
	struct attrib_irq irq;
	size_t line;		/* for keeping the first of duplicates */
};

static void attrib_odd(struct attrib_irqtab *t, const char *path,
		       size_t line, const char *why)
{
	if (!t->odd++)
		snprintf(t->first_odd, sizeof(t->first_odd), "%s:%zu: %s",
			 path, line, why);
}

/* Columns in the header line: one "CPUn" per online CPU. */
static int attrib_ncpus(const char *s)
{
	int n = 0;

	while ((s = strstr(s, "CPU"))) {
		n++;
		s += 3;
	}
	return n;
}

/* Skip n whitespace-separated decimal fields; NULL if there are fewer. */
static const char *attrib_skip_counts(const char *s, int n)
{
	while (n-- > 0) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!isdigit((unsigned char)*s))
			return NULL;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return s;
}

/*
 * Does the text [s, end) end in the trigger column ("5-edge",
 * "524289-fasteoi"; arm64's "Level", "Edge")? Then the line has no
 * handler names after it.
 */
static bool attrib_ends_in_type(const char *s, const char *end)
{
	const char *tok = end, *p;

	while (tok > s && !isblank((unsigned char)tok[-1]))
		tok--;
	if ((end - tok == 5 && !strncmp(tok, "Level", 5)) ||
	    (end - tok == 4 && !strncmp(tok, "Edge", 4)))
		return true;
	for (p = tok; p < end && isdigit((unsigned char)*p); p++)
		;
	if (p == tok || p >= end || *p != '-' || p + 1 == end)
		return false;
	for (p++; p < end && isalpha((unsigned char)*p); p++)
		;
	return p == end;
}

/* The handler names at the end of rest, made printable, into out. */
static void attrib_names(const char *rest, char *out, size_t len)
{
	const char *end = rest + strlen(rest), *p, *start = NULL;
	size_t i, n;

	while (end > rest && isspace((unsigned char)end[-1]))
		end--;
	if (attrib_ends_in_type(rest, end)) {
		out[0] = '\0';		/* an IRQ without handler */
		return;
	}
	for (p = rest; p + 1 < end; p++)
		if (isblank((unsigned char)p[0]) && isblank((unsigned char)p[1]))
			start = p;
	if (!start) {		/* no two blanks: the last field */
		start = end;
		while (start > rest && !isblank((unsigned char)start[-1]))
			start--;
	}
	while (start < end && isblank((unsigned char)*start))
		start++;
	n = (size_t)(end - start) < len - 1 ? (size_t)(end - start) : len - 1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)start[i];

		out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[n] = '\0';
}

static int attrib_add(struct attrib_irq_line **v, size_t *n, size_t *cap,
		      const struct attrib_irq_line *x)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct attrib_irq_line *p = reallocarray(*v, c, sizeof(**v));

		if (!p)
			return -ENOMEM;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = *x;
	return 0;
}

/* One line after the header: a numbered IRQ into v, a vector row into t. */
static int attrib_line(struct attrib_irqtab *t, const char *path,
		       size_t lineno, char *s, int ncpus,
		       struct attrib_irq_line **v, size_t *n, size_t *cap)
{
	struct attrib_irq_line x = { .line = lineno };
	char *colon, *end;
	unsigned long irq;
	const char *rest;
	unsigned int i;

	while (*s == ' ' || *s == '\t')
		s++;
	colon = strchr(s, ':');
	if (!colon || colon == s || memchr(s, ' ', (size_t)(colon - s))) {
		attrib_odd(t, path, lineno, "no \"LABEL:\" at its start");
		return 0;
	}
	*colon = '\0';
	if (!isdigit((unsigned char)*s)) {
		for (i = 0; i < ATTRIB_NVEC; i++)
			if (!strcmp(s, attrib_vec_names[i]))
				t->vec[i] = true;
		return 0;	/* NMI, SPU, ERR, ...: not a handler we name */
	}
	errno = 0;
	irq = strtoul(s, &end, 10);
	if (*end || errno || irq > INT_MAX) {
		attrib_odd(t, path, lineno, "IRQ number not a number up to INT_MAX");
		return 0;
	}
	rest = attrib_skip_counts(colon + 1, ncpus);
	if (!rest) {
		attrib_odd(t, path, lineno, "fewer counts than the header has CPUs");
		return 0;
	}
	if (*n >= ATTRIB_IRQ_MAX) {
		attrib_odd(t, path, lineno, "more numbered IRQs than "
			   "ATTRIB_IRQ_MAX");
		return 0;
	}
	x.irq.irq = (unsigned int)irq;
	attrib_names(rest, x.irq.name, sizeof(x.irq.name));
	return attrib_add(v, n, cap, &x);
}

static int attrib_cmp(const void *a, const void *b)
{
	const struct attrib_irq_line *x = a, *y = b;

	if (x->irq.irq != y->irq.irq)
		return x->irq.irq < y->irq.irq ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Sort v by number, keep the first line of each, move into t. */
static int attrib_table(struct attrib_irqtab *t, const char *path,
			struct attrib_irq_line *v, size_t n)
{
	size_t i;

	if (n)	/* qsort() takes no NULL, even for nothing */
		qsort(v, n, sizeof(*v), attrib_cmp);
	t->irq = calloc(n ? n : 1, sizeof(*t->irq));
	if (!t->irq)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (t->n && t->irq[t->n - 1].irq == v[i].irq.irq) {
			attrib_odd(t, path, v[i].line, "an IRQ number seen before");
			continue;
		}
		t->irq[t->n++] = v[i].irq;
	}
	return 0;
}

/*
 * One line into buf, without its newline, a NUL byte made '?': 1, or 0
 * at the end. A line of size bytes or more is read to its end and
 * *too_long set.
 */
static int attrib_getline(FILE *f, char *buf, size_t size, bool *too_long)
{
	size_t l = 0;
	int c;

	*too_long = false;
	while ((c = getc_unlocked(f)) != EOF && c != '\n') {
		if (l + 1 < size)
			buf[l++] = c ? (char)c : '?';
		else
			*too_long = true;
	}
	buf[l] = '\0';
	return c != EOF || l || *too_long;
}

int attrib_irqtab_read(struct attrib_irqtab *t, const char *path, char *why,
		       size_t len)
{
	struct attrib_irq_line *v = NULL;
	size_t n = 0, cap = 0, lineno = 0;
	char *buf;
	bool too_long;
	int ncpus = -1, err = 0;
	FILE *f;

	memset(t, 0, sizeof(*t));
	path = path ? path : "/proc/interrupts";
	f = fopen(path, "re");
	if (!f) {
		err = -errno;
		snprintf(why, len, "cannot open %s: %s", path, strerror(errno));
		return err;
	}
	buf = malloc(ATTRIB_IRQ_LINE_MAX);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	while (!err && attrib_getline(f, buf, ATTRIB_IRQ_LINE_MAX, &too_long)) {
		lineno++;
		if (too_long) {
			attrib_odd(t, path, lineno, "longer than ATTRIB_IRQ_LINE_MAX");
			continue;
		}
		if (ncpus < 0) {
			ncpus = attrib_ncpus(buf);
			if (!ncpus) {
				snprintf(why, len, "%s:%zu: not the header of "
					 "/proc/interrupts (no CPU0 CPU1 ...)",
					 path, lineno);
				err = -EINVAL;
			}
			continue;
		}
		err = attrib_line(t, path, lineno, buf, ncpus, &v, &n, &cap);
	}
	if (!err && ferror(f)) {
		err = -EIO;
		snprintf(why, len, "%s:%zu: read error", path, lineno + 1);
	} else if (!err && ncpus < 0) {
		err = -EINVAL;
		snprintf(why, len, "%s: empty, not /proc/interrupts", path);
	}
	if (!err)
		err = attrib_table(t, path, v, n);
	if (err == -ENOMEM)
		snprintf(why, len, "%s: out of memory", path);
	free(v);
	free(buf);
	fclose(f);
	if (err)
		attrib_irqtab_free(t);
	return err;
}

void attrib_irqtab_free(struct attrib_irqtab *t)
{
	free(t->irq);
	t->irq = NULL;
	t->n = 0;
}

const char *attrib_irqtab_name(const struct attrib_irqtab *t,
			       unsigned int irq)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->irq[mid].irq == irq)
			return t->irq[mid].name;
		if (t->irq[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
