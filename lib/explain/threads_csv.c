/* SPDX-License-Identifier: MIT */
/* attrib-threads.csv a record at a time (threads_csv.h). */
#include "config.h"

#include <string.h>

#include "explain/threads_csv.h"

static void why(const struct xp_csv *c, struct xp_rec *r, enum xp_why w)
{
	if (r->why)
		return;
	r->why = w;
	r->why_line = c->line;
}

/* What may follow a closing quote: a field's or a line's end. */
static bool field_end(const struct xp_csv *c)
{
	const char *p = c->s + c->at, *end = c->s + c->len;

	return p == end || *p == ',' || *p == '\n' ||
	       (*p == '\r' && (p + 1 == end || p[1] == '\n'));
}

/* One byte of the field being read: kept while it fits. */
static void put(const struct xp_csv *c, struct xp_rec *r, size_t *n, char ch)
{
	if (r->nf >= 2)
		return;
	if (*n == c->max_field) {
		why(c, r, XP_LONG);
		return;
	}
	r->f[r->nf][(*n)++] = ch;
}

/* One field from c->at; true when the record goes on after it. */
static bool field(struct xp_csv *c, struct xp_rec *r)
{
	bool quoted = c->at < c->len && c->s[c->at] == '"';
	size_t n = 0;

	if (r->nf == 2)
		why(c, r, XP_MORE_FIELDS);
	c->at += quoted;
	while (c->at < c->len) {
		char ch = c->s[c->at++];

		if (quoted && ch == '"' && c->at < c->len && c->s[c->at] == '"') {
			c->at++;	/* "" is one quote */
		} else if (quoted && ch == '"') {
			quoted = false;
			if (!field_end(c))
				why(c, r, XP_AFTER_QUOTE);
			continue;
		} else if (!quoted && ch == '\r' && (c->at == c->len || c->s[c->at] == '\n')) {
			continue;	/* CRLF, or a CR at the file's end */
		} else if (!quoted && (ch == ',' || ch == '\n')) {
			r->nf++;
			if (ch == ',')
				return true;
			if (r->nf == 1)
				why(c, r, XP_ONE_FIELD);
			c->line++;
			return false;
		}
		if (!ch)
			why(c, r, XP_NUL);
		c->line += ch == '\n';
		put(c, r, &n, ch);
	}
	if (quoted)
		why(c, r, XP_UNCLOSED);
	if (++r->nf == 1)
		why(c, r, XP_ONE_FIELD);
	return false;
}

void xp_csv_record(struct xp_csv *c, struct xp_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->line = c->line;
	while (field(c, r))
		;
	r->empty = r->nf == 1 && !r->f[0][0] && r->why == XP_ONE_FIELD;
}
