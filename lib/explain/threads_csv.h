/* SPDX-License-Identifier: MIT */
/*
 * attrib-threads.csv a record at a time (threads.c): two fields decoded
 * as CSV quotes them (RFC 4180, CRLF or LF), each bounded, and the first
 * thing wrong with the record with the line it is on. Private to
 * lib/explain.
 */
#ifndef WFW_XP_THREADS_CSV_H
#define WFW_XP_THREADS_CSV_H

#include <stdbool.h>
#include <stddef.h>

#define XP_FIELD_MAX 255

enum xp_why {
	XP_OK,
	XP_NUL,			/* a NUL byte */
	XP_LONG,		/* a field over the limit */
	XP_UNCLOSED,		/* a quote never closed */
	XP_AFTER_QUOTE,		/* text after a closing quote */
	XP_MORE_FIELDS,		/* a third field */
	XP_ONE_FIELD,		/* one field */
	XP_PID,			/* (the caller's) a pid that is no number */
	XP_MANY,		/* (the caller's) too many threads */
	XP_HEADER,		/* (the caller's) not PID,Comm */
	XP_NWHY
};

struct xp_csv {
	const char *s;
	size_t len, at;
	unsigned long line;	/* of s[at], from 1 */
	size_t max_field;	/* at most XP_FIELD_MAX */
};

struct xp_rec {
	char f[2][XP_FIELD_MAX + 1];
	size_t nf;		/* fields seen, more than 2 counted */
	bool empty;		/* an empty line */
	enum xp_why why;	/* the first thing wrong */
	unsigned long line;	/* where the record starts */
	unsigned long why_line;	/* where `why` was seen */
};

/* The record at c->at (which is before c->len), c->at past it. */
void xp_csv_record(struct xp_csv *c, struct xp_rec *r);

#endif
