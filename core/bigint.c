/* SPDX-License-Identifier: MIT */
/*
 * Whole numbers too large for libconfig 1.5's int. Its scanner turns a
 * literal without an L into an int by atoi(): 5000000000 becomes
 * 705032704 and cpu = 4294967297 becomes CPU 1, silently. The parsed
 * tree no longer tells, so the file's text is scanned once more.
 */
#include "config.h"

#include "bigint.h"
#include "openreg.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scan {
	const char *p, *end;
	int line;
	char key[64];		/* the last name seen: the key a value is for */
};

static bool name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '*';
}

/* Past a comment or a string at s->p, counting lines; false if neither. */
static bool skip_text(struct scan *s)
{
	const char *p = s->p, *stop;

	if (*p == '#' || (*p == '/' && p + 1 < s->end && p[1] == '/')) {
		stop = memchr(p, '\n', (size_t)(s->end - p));
		s->p = stop ? stop : s->end;
		return true;
	}
	if (*p == '/' && p + 1 < s->end && p[1] == '*') {
		for (p += 2; p + 1 < s->end && !(p[0] == '*' && p[1] == '/'); p++)
			s->line += *p == '\n';
		s->p = p + 1 < s->end ? p + 2 : s->end;
		return true;
	}
	if (*p != '"')
		return false;
	for (p++; p < s->end && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < s->end)
			p++;
		s->line += *p == '\n';
	}
	s->p = p < s->end ? p + 1 : s->end;
	return true;
}

/* A number at s->p: an error if it is an int that does not fit in one. */
static void check_number(struct scan *s, const char *file,
			 struct wfw_cfgerr *errs)
{
	const char *start = s->p, *p = s->p;
	bool hex = false, fits;
	char text[64];
	bool huge;

	if (*p == '-' || *p == '+')
		p++;
	if (p[0] == '0' && p + 1 < s->end && (p[1] == 'x' || p[1] == 'X')) {
		hex = true;
		for (p += 2; p < s->end && isxdigit((unsigned char)*p); p++)
			;
	} else {
		for (; p < s->end && isdigit((unsigned char)*p); p++)
			;
	}
	s->p = p;
	/* A float, or an L: libconfig keeps those whole. */
	if (p < s->end && (*p == '.' || *p == 'e' || *p == 'E' || *p == 'L'))
		return;
	snprintf(text, sizeof(text), "%.*s", (int)(p - start), start);
	errno = 0;
	if (hex) {
		unsigned long long v = strtoull(text, NULL, 16);

		fits = !errno && v <= UINT_MAX;
	} else {
		long long v = strtoll(text, NULL, 10);

		fits = !errno && v >= INT_MIN && v <= INT_MAX;
	}
	huge = errno == ERANGE || p - start >= (ptrdiff_t)sizeof(text);
	if (huge)
		wfw_cfgerr_add(errs, file, s->line, s->key[0] ? s->key : NULL,
			       "%s is beyond any whole number (64 bits at most, with an L): give a smaller one",
			       text);
	else if (!fits)
		wfw_cfgerr_add(errs, file, s->line, s->key[0] ? s->key : NULL,
			       "%s does not fit in a whole number without an L (-2147483648 to 2147483647): write %sL where a key takes a 64-bit number, else a smaller one",
			       text, text);
}

size_t wfw_cfg_bigints(const char *text, size_t len, const char *file,
		       struct wfw_cfgerr *errs)
{
	struct scan s = { .p = text, .end = text + len, .line = 1 };
	size_t before = errs->n;

	while (s.p < s.end) {
		unsigned char c = (unsigned char)*s.p;

		if (skip_text(&s))
			continue;
		if (isalpha(c) || c == '_' || c == '*' || c == '@') {
			const char *n = s.p;

			while (++s.p < s.end && name_char((unsigned char)*s.p))
				;
			if (c != '@')
				snprintf(s.key, sizeof(s.key), "%.*s", (int)(s.p - n), n);
		} else if (isdigit(c) || ((c == '-' || c == '+') && s.p + 1 < s.end &&
					  isdigit((unsigned char)s.p[1]))) {
			check_number(&s, file, errs);
		} else {
			s.line += c == '\n';
			s.p++;
		}
	}
	return errs->n - before;
}

size_t wfw_cfg_bigints_file(const char *path, struct wfw_cfgerr *errs)
{
	/* A pipe gave its text to libconfig already: nothing to read again. */
	int fd = wfw_open_regular(path);
	char *buf;
	ssize_t got = 0;
	size_t n = 0;

	if (fd < 0)
		return 0;
	buf = malloc(WFW_CFG_MAX_SCAN);
	if (buf)
		got = read(fd, buf, WFW_CFG_MAX_SCAN);
	close(fd);
	if (got > 0)
		n = wfw_cfg_bigints(buf, (size_t)got, path, errs);
	free(buf);
	return n;
}
