/* SPDX-License-Identifier: MIT */
/*
 * Splitting a mapped CSV file into records and fields, with the bounds
 * hostile files need: a record is at most WFW_CSV_MAX_LINE bytes, a header
 * at most WFW_CSV_MAX_COLS columns with names of at most WFW_CSV_MAX_NAME
 * bytes, and error messages show fields through wfw_csv_show() so they stay
 * whole and printable whatever the field holds.
 */
#ifndef WFW_CSVTOK_H
#define WFW_CSVTOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "datafmt/enumtab.h"

struct wfw_reader;

#define WFW_CSV_MAX_LINE	(1u << 20)
#define WFW_CSV_MAX_NAME	1024
#define WFW_CSV_MAX_COLS	4096
/* Room for a field as messages show it: 40 bytes, escaped, and its size. */
#define WFW_CSV_SHOWN		200

struct wfw_csv_field {
	const char *s;
	size_t n;
};

struct wfw_csvtok {
	const char *map;
	size_t size;
	size_t pos;		/* next record */
	uint64_t line;		/* line number at pos */
	const char *limit;	/* a record must end before this */
	bool no_quotes;		/* a quote is an error (-EAGAIN) */
	struct wfw_csv_field *f;	/* fields of the last record */
	size_t fcap;
	char *scratch;		/* unescaped quoted fields of one record */
	size_t scap, slen;
	int err;		/* why wfw_csvtok_field() returned NULL */
};

/* Map base->fd (size bytes) read-only. */
int wfw_csvtok_map(struct wfw_csvtok *t, struct wfw_reader *base,
		   uint64_t size);
void wfw_csvtok_free(struct wfw_csvtok *t);

/* Skip blank lines; true if a record starts at t->pos before `stop`. */
static inline bool wfw_csvtok_next_row(struct wfw_csvtok *t, size_t stop)
{
	const char *m = t->map;

	while (t->pos < stop) {
		if (m[t->pos] == '\n') {
			t->pos++;
			t->line++;
		} else if (m[t->pos] == '\r' && t->pos + 1 < t->size &&
			   m[t->pos + 1] == '\n') {
			t->pos += 2;
			t->line++;
		} else {
			t->limit = t->size - t->pos > WFW_CSV_MAX_LINE ?
				m + t->pos + WFW_CSV_MAX_LINE + 1 : m + t->size;
			t->slen = 0;
			return true;
		}
	}
	return false;
}

/*
 * Split the record at t->pos into t->f; its field count, or -errno. Only
 * the first WFW_CSV_MAX_COLS + 1 fields are kept in t->f.
 */
long wfw_csvtok_record(struct wfw_csvtok *t, struct wfw_reader *base);
/* The same for the header line, with the header's own checks. */
long wfw_csvtok_header(struct wfw_csvtok *t, struct wfw_reader *base);

/*
 * One field at p (quoted or not) into *f; returns the position after it
 * (a delimiter or the end), or NULL with base's error set. Quoted fields
 * with "" live in t->scratch until the next record.
 */
const char *wfw_csvtok_field(struct wfw_csvtok *t, struct wfw_reader *base,
			     const char *p, struct wfw_csv_field *f);

/* Step over the ',' at *p; false at the end of the record. */
static inline bool wfw_csvtok_comma(const char **p, const char *end)
{
	if (*p < end && **p == ',') {
		(*p)++;
		return true;
	}
	return false;
}
/* Step over the record's end at *p (CRLF, LF, end of file); -1: more fields. */
static inline int wfw_csvtok_end_record(struct wfw_csvtok *t, const char **p)
{
	const char *q = *p, *end = t->map + t->size;

	if (q < end && *q == ',')
		return -1;
	if (q < end && *q == '\r')
		q++;
	if (q < end && *q == '\n')
		q++;
	t->line++;
	*p = q;
	return 0;
}
/* Fields left from p to the end of the record (for an error message). */
size_t wfw_csvtok_count_rest(const struct wfw_csvtok *t, const char *p);

int wfw_csvtok_too_long(struct wfw_csvtok *t, struct wfw_reader *base,
			uint64_t line);

/* s[0..n) for a message: control bytes escaped, cut at 40 bytes + size. */
void wfw_csv_show(char *buf, size_t len, const char *s, size_t n);

#endif
