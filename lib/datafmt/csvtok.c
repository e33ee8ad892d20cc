/* SPDX-License-Identifier: MIT */
/* Records and fields of a mapped CSV file (see csvtok.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "datafmt/csvtok.h"
#include "datafmt/reader_impl.h"

#define rfail wfw_reader_fail

int wfw_csvtok_map(struct wfw_csvtok *t, struct wfw_reader *base,
		   uint64_t size)
{
	void *m;

	if (size > SIZE_MAX)
		return rfail(base, -EFBIG, "%s: too large to map", base->path);
	m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, base->fd, 0);
	if (m == MAP_FAILED)
		return rfail(base, -errno, "%s: cannot map: %s", base->path,
			     strerror(errno));
	madvise(m, (size_t)size, MADV_SEQUENTIAL);
	t->map = m;
	t->size = (size_t)size;
	t->line = 1;
	if (size >= 3 && !memcmp(t->map, "\xef\xbb\xbf", 3))
		t->pos = 3;	/* UTF-8 byte order mark */
	return 0;
}

void wfw_csvtok_free(struct wfw_csvtok *t)
{
	if (t->map)
		munmap((void *)t->map, t->size);
	free(t->f);
	free(t->scratch);
	memset(t, 0, sizeof(*t));
}

int wfw_csvtok_too_long(struct wfw_csvtok *t, struct wfw_reader *base,
			uint64_t line)
{
	(void)t;
	return rfail(base, -E2BIG, "%s:%llu: the line is longer than %u bytes (the limit): not a result file?",
		     base->path, (unsigned long long)line, WFW_CSV_MAX_LINE);
}

static inline bool delim(char c)
{
	return c == ',' || c == '\n' || c == '\r';
}

static int no_quotes_here(struct wfw_reader *base)
{
	return rfail(base, -EAGAIN, "%s: a quote in a part of the file read in parallel",
		     base->path);
}

/* Remember why a field could not be had; NULL for the caller. */
static const char *failed(struct wfw_csvtok *t, int err)
{
	t->err = err;
	return NULL;
}

/* Append s[0..n) to the scratch buffer; the record bound keeps it small. */
static char *to_scratch(struct wfw_csvtok *t, size_t n)
{
	if (!t->scratch) {
		t->scratch = malloc(WFW_CSV_MAX_LINE + 1);
		if (!t->scratch)
			return NULL;
		t->scap = WFW_CSV_MAX_LINE + 1;
	}
	if (n > t->scap - t->slen)
		return NULL;
	t->slen += n;
	return t->scratch + t->slen - n;
}

/* The quoted field whose opening quote is at p. */
static const char *quoted(struct wfw_csvtok *t, struct wfw_reader *base,
			  const char *p, struct wfw_csv_field *f)
{
	const char *start = ++p, *lim = t->limit;
	uint64_t line = t->line;
	bool esc = false;

	for (;; p++) {
		if (p >= lim && lim < t->map + t->size)
			return failed(t, wfw_csvtok_too_long(t, base, line));
		if (p >= lim)
			return failed(t, rfail(base, -EINVAL, "%s:%llu: a quoted field is never closed",
					       base->path, (unsigned long long)line));
		if (*p == '"' && p + 1 < lim && p[1] == '"') {
			esc = true;
			p++;
		} else if (*p == '"') {
			break;
		}
		t->line += *p == '\n';
	}
	f->s = start;
	f->n = (size_t)(p - start);
	if (esc) {	/* "" -> " */
		char *d = to_scratch(t, f->n);

		if (!d)
			return failed(t, wfw_csvtok_too_long(t, base, line));
		f->s = d;
		for (const char *q = start; q < p; q++) {
			*d++ = *q;
			q += *q == '"';
		}
		f->n = (size_t)(d - f->s);
	}
	p++;
	if (p < t->map + t->size && !delim(*p))
		return failed(t, rfail(base, -EINVAL, "%s:%llu: text after the closing quote of a field",
				       base->path, (unsigned long long)t->line));
	return p;
}

const char *wfw_csvtok_field(struct wfw_csvtok *t, struct wfw_reader *base,
			     const char *p, struct wfw_csv_field *f)
{
	const char *start = p, *lim = t->limit;
	bool quote = false;

	if (p < lim && *p == '"')
		return t->no_quotes ? failed(t, no_quotes_here(base)) : quoted(t, base, p, f);
	while (p < lim && !delim(*p))
		quote |= *p++ == '"';
	if (p == lim && lim < t->map + t->size)
		return failed(t, wfw_csvtok_too_long(t, base, t->line));
	if (quote && t->no_quotes)
		return failed(t, no_quotes_here(base));
	f->s = start;
	f->n = (size_t)(p - start);
	return p;
}

size_t wfw_csvtok_count_rest(const struct wfw_csvtok *t, const char *p)
{
	size_t n = 0;

	for (; p < t->limit && *p != '\n' && *p != '\r'; p++)
		n += *p == ',';
	return n;
}

static int grow_fields(struct wfw_csvtok *t)
{
	size_t cap = t->fcap ? 2 * t->fcap : 64;
	struct wfw_csv_field *f = realloc(t->f, cap * sizeof(*f));

	if (!f)
		return -ENOMEM;
	t->f = f;
	t->fcap = cap;
	return 0;
}

long wfw_csvtok_record(struct wfw_csvtok *t, struct wfw_reader *base)
{
	const char *p = t->map + t->pos, *end = t->map + t->size;
	struct wfw_csv_field spare;
	size_t nf = 0;

	for (;;) {
		struct wfw_csv_field *f = &spare;

		/*
		 * Fields past the most a header may have are counted, not
		 * kept: a megabyte of commas needs no 16 MB of them.
		 */
		if (nf <= WFW_CSV_MAX_COLS) {
			if (nf == t->fcap && grow_fields(t))
				return rfail(base, -ENOMEM, "%s: out of memory", base->path);
			f = &t->f[nf];
		}
		p = wfw_csvtok_field(t, base, p, f);
		if (!p)
			return t->err;
		nf++;
		if (!wfw_csvtok_comma(&p, end))
			break;
	}
	wfw_csvtok_end_record(t, &p);
	t->pos = (size_t)(p - t->map);
	return (long)nf;
}

/* Control bytes in the header: a binary or foreign file, not CSV. */
static bool binary_header(const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		unsigned char ch = (unsigned char)s[k];

		if ((ch < 0x20 && ch != '\t' && ch != '\r' && ch != '\n') || ch == 0x7f)
			return true;
	}
	return false;
}

static int header_checks(struct wfw_csvtok *t, struct wfw_reader *base,
			 size_t from, long nf, uint64_t line)
{
	if (binary_header(t->map + from, t->pos - from))
		return rfail(base, -EINVAL, "%s:%llu: binary data in the header line: neither a CSV file nor a wultfw binary file",
			     base->path, (unsigned long long)line);
	if (nf > WFW_CSV_MAX_COLS)
		return rfail(base, -E2BIG, "%s:%llu: %ld columns, more than %d (the limit)",
			     base->path, (unsigned long long)line, nf, WFW_CSV_MAX_COLS);
	for (long c = 0; c < nf; c++) {
		char shown[WFW_CSV_SHOWN];

		if (t->f[c].n <= WFW_CSV_MAX_NAME)
			continue;
		wfw_csv_show(shown, sizeof(shown), t->f[c].s, t->f[c].n);
		return rfail(base, -E2BIG, "%s:%llu: column %ld: the name is longer than %d bytes (the limit): %s",
			     base->path, (unsigned long long)line, c + 1,
			     WFW_CSV_MAX_NAME, shown);
	}
	return 0;
}

long wfw_csvtok_header(struct wfw_csvtok *t, struct wfw_reader *base)
{
	size_t from = t->pos;
	uint64_t line = t->line;
	long nf = wfw_csvtok_record(t, base);
	int ret;

	if (nf < 0)
		return nf;
	ret = header_checks(t, base, from, nf, line);
	return ret ? ret : nf;
}

void wfw_csv_show(char *buf, size_t len, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t k = 0, shown = n > 40 ? 40 : n;
	char *p = buf;

	if (!len)
		return;
	for (; k < shown && (size_t)(p - buf) + 5 < len; k++) {
		unsigned char ch = (unsigned char)s[k];

		if (ch < 0x20 || ch == 0x7f) {
			*p++ = '\\';
			*p++ = 'x';
			*p++ = hex[ch >> 4];
			*p++ = hex[ch & 15];
		} else {
			*p++ = (char)ch;
		}
	}
	*p = '\0';
	if (k < n)
		snprintf(p, len - (size_t)(p - buf), "... (%zu bytes)", n);
}
