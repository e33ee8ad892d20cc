/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "stats/cstate.h"

/* The kind of name, in listing order. */
enum { K_POLL, K_CNUM, K_OTHER, K_NONE };

/*
 * Kind of `s`; for K_CNUM its digits (leading zeros skipped) in *dig,
 * *ndig of them, and the suffix after them in *suf.
 */
static int kind(const char *s, const char **dig, size_t *ndig, const char **suf)
{
	size_t n = 0;

	if (!strcmp(s, "POLL"))
		return K_POLL;
	if (!strcmp(s, "-"))
		return K_NONE;
	if (s[0] != 'C' || s[1] < '0' || s[1] > '9')
		return K_OTHER;
	for (s++; *s == '0' && s[1] >= '0' && s[1] <= '9'; s++)
		;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	*dig = s;
	*ndig = n;
	*suf = s + n;
	return K_CNUM;
}

/* Numbers of any length compared as numbers: fewer digits is smaller. */
static int cmp_digits(const char *a, size_t na, const char *b, size_t nb)
{
	int d;

	if (na != nb)
		return na < nb ? -1 : 1;
	d = memcmp(a, b, na);
	return (d > 0) - (d < 0);
}

int wfw_cstate_cmp(const char *a, const char *b)
{
	const char *da = NULL, *db = NULL, *sa = NULL, *sb = NULL;
	size_t na = 0, nb = 0;
	int ka = kind(a, &da, &na, &sa), kb = kind(b, &db, &nb, &sb), d;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (ka == K_CNUM) {
		d = cmp_digits(da, na, db, nb);
		if (!d)
			d = strcmp(sa, sb);
		if (d)
			return (d > 0) - (d < 0);
	}
	d = strcmp(a, b);	/* C01 and C1: still an order */
	return (d > 0) - (d < 0);
}
