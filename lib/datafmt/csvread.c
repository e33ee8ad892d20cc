/* SPDX-License-Identifier: MIT */
/*
 * The CSV reader (rules in reader.h). It maps the file and scans it twice:
 * pass one validates every line and infers the column types, pass two
 * converts rows on demand.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "datafmt/reader_impl.h"
#include "datafmt/wultunits.h"

#define rfail wfw_reader_fail

/* Give mapped pages back every this many bytes: keeps RSS flat on huge files. */
#define DROP_CHUNK	(64u << 20)

enum { COL_UNDECIDED, COL_NUMERIC, COL_ENUM };

/* Names of one ENUM column with a small open-addressing hash index. */
struct enum_tab {
	char **names;
	size_t n, cap;
	uint32_t *slots;	/* index + 1, 0 = free */
	size_t nslots;		/* power of two */
};

struct colstate {
	int kind;
	int int_ok;		/* every value so far canonical with `dec` decimals */
	int dec;		/* -1: no value yet */
	uint64_t first_empty;	/* line of the first empty value, 0: none */
	uint64_t first_text;	/* ENUM: line of its first value */
	struct enum_tab et;
};

struct csv_reader {
	struct wfw_reader base;
	const char *map;
	size_t size;
	size_t data_off;	/* first byte after the header line */
	size_t pos;		/* next record (pass two) */
	uint64_t data_line;	/* line number at data_off */
	uint64_t line;		/* line number at pos */
	size_t dropped;		/* map bytes already given back */
	struct wultfw_column *cols;
	struct colstate *cs;
	char **colnames;
	const char **f;		/* fields of the current record */
	size_t *fl;
	size_t *foff;		/* offset in scratch, or SIZE_MAX */
	size_t fcap;
	char *scratch;
	size_t scap;
};

static struct csv_reader *to_csv(struct wfw_reader *r)
{
	return (struct csv_reader *)r;	/* base is the first member */
}

/* ---- enum tables ---- */

static uint32_t hash_str(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Index of name s[0..n) or -1. */
static long enum_find(const struct enum_tab *t, const char *s, size_t n)
{
	if (!t->nslots)
		return -1;
	for (size_t i = hash_str(s, n) & (t->nslots - 1);; i = (i + 1) & (t->nslots - 1)) {
		uint32_t v = t->slots[i];

		if (!v)
			return -1;
		/* strnlen first: a cell with a NUL byte must not read past a shorter name */
		if (strnlen(t->names[v - 1], n + 1) == n && !memcmp(t->names[v - 1], s, n))
			return v - 1;
	}
}

static int enum_rehash(struct enum_tab *t, size_t nslots)
{
	uint32_t *slots = calloc(nslots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t k = 0; k < t->n; k++) {
		size_t i = hash_str(t->names[k], strlen(t->names[k])) & (nslots - 1);

		while (slots[i])
			i = (i + 1) & (nslots - 1);
		slots[i] = (uint32_t)k + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

static long enum_add(struct enum_tab *t, const char *s, size_t n)
{
	long i = enum_find(t, s, n);
	char *copy;

	if (i >= 0)
		return i;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 8;
		char **names = realloc(t->names, cap * sizeof(char *));

		if (!names)
			return -ENOMEM;
		t->names = names;
		t->cap = cap;
	}
	copy = malloc(n + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, n);
	copy[n] = '\0';
	t->names[t->n++] = copy;
	if (2 * t->n > t->nslots) {	/* keep the table at most half full */
		if (enum_rehash(t, t->nslots ? 2 * t->nslots : 16))
			return -ENOMEM;
	} else {
		size_t j = hash_str(s, n) & (t->nslots - 1);

		while (t->slots[j])
			j = (j + 1) & (t->nslots - 1);
		t->slots[j] = (uint32_t)t->n;
	}
	return (long)t->n - 1;
}

static void enum_free(struct enum_tab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->slots);
}

/* ---- numbers ---- */

enum { NUM_NO, NUM_OTHER, NUM_CANON };

/* [+-]digits[.digits][(e|E)[+-]digits], at least one mantissa digit. */
static int plain_decimal(const char *s, size_t n)
{
	size_t i = 0, nd = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		nd++;
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			nd++;
	if (!nd)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t ed = 0;

		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			ed++;
		if (!ed)
			return 0;
	}
	return i == n;
}

/*
 * Is s[0..n) a number? NUM_CANON: a plain decimal the csv sink would write
 * for an INT column (*dec = fractional digits, fits 64 bits); NUM_OTHER:
 * anything else strtod() reads completely.
 */
static int classify(const char *s, size_t n, int *dec)
{
	size_t i = 0, digits = 0, frac = 0;
	int nonzero = 0;
	char buf[128];
	char *end;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0' && !(i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
		i++;
		digits = 1;
	} else if (i < n && s[i] >= '1' && s[i] <= '9') {
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			nonzero = 1;
			i++;
			digits++;
		}
	}
	if (digits && i < n && s[i] == '.' && i + 1 < n) {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			nonzero |= s[i] != '0';
			i++;
			frac++;
		}
	}
	if (digits && i == n && (frac || s[n - 1] != '.') &&
	    digits + frac <= 19 && frac <= 9 && !(s[0] == '-' && !nonzero)) {
		/* 19 digits fit in uint64; the scaled value must fit int64. */
		uint64_t mag = 0;

		for (size_t k = s[0] == '-'; k < n; k++)
			if (s[k] != '.')
				mag = mag * 10 + (uint64_t)(s[k] - '0');
		if (mag <= (uint64_t)INT64_MAX + (s[0] == '-')) {
			*dec = (int)frac;
			return NUM_CANON;
		}
	}
	if (plain_decimal(s, n))
		return NUM_OTHER;	/* the common case, without strtod */
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n || n >= sizeof(buf))
		return NUM_NO;
	memcpy(buf, s, n);
	buf[n] = '\0';
	strtod(buf, &end);
	return end == buf + n ? NUM_OTHER : NUM_NO;
}

/* A canonical decimal as an integer scaled by its decimals. */
static int64_t parse_canon(const char *s, size_t n)
{
	uint64_t v = 0;
	int neg = n && s[0] == '-';

	for (size_t i = neg; i < n; i++)
		if (s[i] != '.')
			v = v * 10 + (uint64_t)(s[i] - '0');
	/* Negate in unsigned arithmetic: -2^63 has no positive twin. */
	return neg ? (int64_t)(0 - v) : (int64_t)v;
}

static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * m / 10^k correctly rounded (round to nearest, ties to even), for any
 * 64-bit m and k <= 27: m / 10^k = (m / 5^k) * 2^-k, and m * 2^t / 5^k is
 * computed in 128-bit integers with its remainder, which gives the 53
 * mantissa bits, the rounding bit and the sticky bit exactly.
 */
static double div_pow10(uint64_t m, int k)
{
	unsigned __int128 n, q, r, d = 1;
	uint64_t mant;
	int t, len, sticky, rb;

	if (!m)
		return 0.0;
	for (int j = 0; j < k; j++)
		d *= 5;
	t = 127 - (64 - __builtin_clzll(m));	/* m << t < 2^127 */
	n = (unsigned __int128)m << t;
	q = n / d;
	r = n % d;
	/* q >= 2^126 / 5^27 > 2^63: plenty of bits */
	len = (q >> 64) ? 128 - __builtin_clzll((uint64_t)(q >> 64))
			: 64 - __builtin_clzll((uint64_t)q);
	mant = (uint64_t)(q >> (len - 54));
	sticky = r != 0 || (q & (((unsigned __int128)1 << (len - 54)) - 1)) != 0;
	rb = (int)(mant & 1);
	mant >>= 1;
	if (rb && (sticky || (mant & 1)))
		mant++;
	return ldexp((double)mant, len - 53 - t - k);
}

/*
 * Decimal text to double. Fast path (mantissa <= 2^53, |exp10| <= 22):
 * one exact multiply or divide, hence correctly rounded; else strtod().
 */
static double parse_double(const char *s, size_t n)
{
	uint64_t m = 0;
	int neg = 0, exp10 = 0, nd = 0;
	size_t i = 0;
	char buf[128];

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, nd++)
		m = m * 10 + (uint64_t)(s[i] - '0');
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
			m = m * 10 + (uint64_t)(s[i] - '0');
			exp10--;
		}
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0, e = 0;

		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		for (; i < n && s[i] >= '0' && s[i] <= '9' && e < 10000; i++)
			e = e * 10 + (s[i] - '0');
		exp10 += eneg ? -e : e;
	}
	if (i == n && nd && nd <= 19 && m <= (1ULL << 53) &&
	    exp10 >= -22 && exp10 <= 22) {
		double d = (double)m;

		d = exp10 < 0 ? d / pow10_exact[-exp10] : d * pow10_exact[exp10];
		return neg ? -d : d;
	}
	/* 17-19 digit mantissas (wult's 4.1797981021053525): exact division. */
	if (i == n && nd && nd <= 19 && exp10 < 0 && exp10 >= -27) {
		double d = div_pow10(m, -exp10);

		return neg ? -d : d;
	}
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

/* ---- CSV tokenizer ---- */

static int grow_fields(struct csv_reader *r)
{
	size_t cap = r->fcap ? 2 * r->fcap : 64;
	const char **f = realloc(r->f, cap * sizeof(*f));
	size_t *fl, *foff;

	if (!f)
		return -ENOMEM;
	r->f = f;
	fl = realloc(r->fl, cap * sizeof(*fl));
	if (!fl)
		return -ENOMEM;
	r->fl = fl;
	foff = realloc(r->foff, cap * sizeof(*foff));
	if (!foff)
		return -ENOMEM;
	r->foff = foff;
	r->fcap = cap;
	return 0;
}

/*
 * Split the record at *pos into r->f/r->fl (quoted fields unescaped) and
 * move *pos and *line past it. Returns the field count, or a negative
 * errno with r->base.err set.
 */
static long tok_record(struct csv_reader *r, size_t *pos, uint64_t *line)
{
	const char *base = r->map, *p = base + *pos, *end = base + r->size;
	uint64_t start_line = *line, nl = 0;
	size_t nf = 0, slen = 0;

	for (;;) {
		const char *start;
		size_t len;
		int esc = 0;

		if (nf == r->fcap && grow_fields(r))
			return rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path);
		if (p < end && *p == '"') {
			start = ++p;
			for (;;) {
				if (p >= end)
					return rfail(&r->base, -EINVAL, "%s:%llu: a quoted field is never closed",
						     r->base.path, (unsigned long long)start_line);
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						esc = 1;
						p += 2;
						continue;
					}
					break;
				}
				nl += *p == '\n';
				p++;
			}
			len = (size_t)(p - start);
			p++;
			if (p < end && *p != ',' && *p != '\n' && *p != '\r')
				return rfail(&r->base, -EINVAL, "%s:%llu: text after the closing quote of field %zu",
					     r->base.path, (unsigned long long)(start_line + nl), nf + 1);
		} else {
			start = p;
			while (p < end && *p != ',' && *p != '\n' && *p != '\r')
				p++;
			len = (size_t)(p - start);
		}
		r->foff[nf] = SIZE_MAX;
		if (esc) {	/* "" -> " into scratch; pointers fixed below */
			if (slen + len > r->scap) {
				size_t cap = 2 * (slen + len) + 64;
				char *sc = realloc(r->scratch, cap);

				if (!sc)
					return rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path);
				r->scratch = sc;
				r->scap = cap;
			}
			r->foff[nf] = slen;
			for (size_t k = 0; k < len; k++) {
				r->scratch[slen++] = start[k];
				if (start[k] == '"')
					k++;
			}
			len = slen - r->foff[nf];
		}
		r->f[nf] = start;
		r->fl[nf] = len;
		nf++;
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == '\r')
			p++;
		if (p < end && *p == '\n')
			p++;
		break;
	}
	for (size_t k = 0; k < nf; k++)
		if (r->foff[k] != SIZE_MAX)
			r->f[k] = r->scratch + r->foff[k];
	*pos = (size_t)(p - base);
	*line = start_line + nl + 1;
	return (long)nf;
}

/* Skip empty lines at *pos; false at the end of the file. */
static int skip_blank(const struct csv_reader *r, size_t *pos, uint64_t *line)
{
	while (*pos < r->size) {
		char c = r->map[*pos];

		if (c == '\n') {
			(*pos)++;
			(*line)++;
		} else if (c == '\r' && *pos + 1 < r->size && r->map[*pos + 1] == '\n') {
			*pos += 2;
			(*line)++;
		} else {
			return 1;
		}
	}
	return 0;
}

/* Give back mapped pages below pos (they stay in the page cache). */
static void drop_pages(struct csv_reader *r, size_t pos)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t upto = pos & ~(page - 1);

	if (upto - r->dropped < DROP_CHUNK)
		return;
	madvise((void *)(r->map + r->dropped), upto - r->dropped, MADV_DONTNEED);
	r->dropped = upto;
}

/* ---- CSV pass one: validate and infer ---- */

static int csv_note_value(struct csv_reader *r, size_t c, const char *s,
			  size_t n, uint64_t line)
{
	struct colstate *cs = &r->cs[c];
	const char *name = r->colnames[c];
	int num, dec = 0;

	if (!n) {
		if (cs->kind == COL_NUMERIC)
			return rfail(&r->base, -EINVAL, "%s:%llu: column %s: empty value in a numeric column",
				     r->base.path, (unsigned long long)line, name);
		if (!cs->first_empty)
			cs->first_empty = line;
		return 0;
	}
	num = classify(s, n, &dec);
	if (cs->kind == COL_ENUM) {
		if (num != NUM_NO)
			return rfail(&r->base, -EINVAL, "%s:%llu: column %s: '%s' is not a number (line %llu holds the number '%.*s')",
				     r->base.path, (unsigned long long)cs->first_text, name,
				     cs->et.names[0], (unsigned long long)line,
				     (int)(n > 40 ? 40 : n), s);
		return enum_add(&cs->et, s, n) < 0
			? rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path) : 0;
	}
	if (cs->kind == COL_UNDECIDED) {
		if (num == NUM_NO) {
			cs->kind = COL_ENUM;
			cs->first_text = line;
			return enum_add(&cs->et, s, n) < 0
				? rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path) : 0;
		}
		if (cs->first_empty)
			return rfail(&r->base, -EINVAL, "%s:%llu: column %s: empty value in a numeric column",
				     r->base.path, (unsigned long long)cs->first_empty, name);
		cs->kind = COL_NUMERIC;
		cs->int_ok = 1;
		cs->dec = -1;
	}
	if (num == NUM_NO)
		return rfail(&r->base, -EINVAL, "%s:%llu: column %s: '%.*s' is not a number",
			     r->base.path, (unsigned long long)line, name,
			     (int)(n > 40 ? 40 : n), s);
	if (num == NUM_OTHER)
		cs->int_ok = 0;
	else if (cs->dec < 0)
		cs->dec = dec;
	else if (cs->dec != dec)
		cs->int_ok = 0;
	return 0;
}

static int csv_scan(struct csv_reader *r)
{
	size_t pos = 0;
	uint64_t line = 1, hdr_line;
	long nf;
	int ret;

	if (r->size >= 3 && !memcmp(r->map, "\xef\xbb\xbf", 3))
		pos = 3;	/* UTF-8 byte order mark */
	if (!skip_blank(r, &pos, &line))
		return rfail(&r->base, -EINVAL, "%s: empty file: expected a header line of column names",
			     r->base.path);
	hdr_line = line;
	{
		size_t hstart = pos;

		nf = tok_record(r, &pos, &line);
		if (nf < 0)
			return (int)nf;
		/* Control bytes in the header: a binary or foreign file, not CSV. */
		for (size_t k = hstart; k < pos; k++) {
			unsigned char ch = (unsigned char)r->map[k];

			if ((ch < 0x20 && ch != '\t' && ch != '\r' && ch != '\n') ||
			    ch == 0x7f)
				return rfail(&r->base, -EINVAL, "%s:%llu: binary data in the header line: neither a CSV file nor a wultfw binary file",
					     r->base.path, (unsigned long long)hdr_line);
		}
	}
	r->base.schema.ncols = (size_t)nf;
	r->cols = calloc((size_t)nf, sizeof(*r->cols));
	r->cs = calloc((size_t)nf, sizeof(*r->cs));
	r->colnames = calloc((size_t)nf, sizeof(char *));
	if (!r->cols || !r->cs || !r->colnames)
		return rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path);
	for (long c = 0; c < nf; c++) {
		if (!r->fl[c])
			return rfail(&r->base, -EINVAL, "%s:%llu: column %ld of the header has no name",
				     r->base.path, (unsigned long long)hdr_line, c + 1);
		r->colnames[c] = strndup(r->f[c], r->fl[c]);
		if (!r->colnames[c])
			return rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path);
	}
	r->data_off = pos;
	r->data_line = line;

	while (skip_blank(r, &pos, &line)) {
		uint64_t rec_line = line;

		nf = tok_record(r, &pos, &line);
		if (nf < 0)
			return (int)nf;
		if ((size_t)nf != r->base.schema.ncols)
			return rfail(&r->base, -EINVAL, "%s:%llu: %ld fields, the header has %zu columns",
				     r->base.path, (unsigned long long)rec_line, nf,
				     r->base.schema.ncols);
		for (long c = 0; c < nf; c++) {
			ret = csv_note_value(r, (size_t)c, r->f[c], r->fl[c], rec_line);
			if (ret)
				return ret;
		}
		r->base.rows++;
		drop_pages(r, pos);
	}

	for (size_t c = 0; c < r->base.schema.ncols; c++) {
		struct colstate *cs = &r->cs[c];
		struct wultfw_column *col = &r->cols[c];

		col->name = r->colnames[c];
		col->unit = wfw_wult_unit(col->name);
		if (cs->kind == COL_NUMERIC && cs->int_ok && cs->dec >= 0) {
			uint32_t d = 1;

			for (int k = 0; k < cs->dec; k++)
				d *= 10;
			col->type = WULTFW_COL_INT;
			col->divisor = d;
		} else if (cs->kind == COL_NUMERIC || !r->base.rows) {
			col->type = WULTFW_COL_FLOAT;
		} else {	/* text, or every value empty */
			col->type = WULTFW_COL_ENUM;
			col->enum_names = (const char *const *)cs->et.names;
			col->n_enum = cs->et.n;
		}
	}
	r->base.schema.cols = r->cols;
	r->pos = r->data_off;
	r->line = r->data_line;
	r->dropped = 0;
	return 0;
}

static long csv_read_rows(struct csv_reader *r, struct wultfw_batch *b)
{
	long got = 0;

	while (b->rows < b->capacity && skip_blank(r, &r->pos, &r->line)) {
		uint64_t rec_line = r->line;
		union wultfw_cell *row = wultfw_row(b, b->rows);
		long nf = tok_record(r, &r->pos, &r->line);

		if (nf < 0)
			return nf;
		if ((size_t)nf != r->base.schema.ncols)	/* file changed since open */
			return rfail(&r->base, -EINVAL, "%s:%llu: %ld fields, the header has %zu columns",
				     r->base.path, (unsigned long long)rec_line, nf,
				     r->base.schema.ncols);
		for (size_t c = 0; c < r->base.schema.ncols; c++) {
			const struct wultfw_column *col = &r->cols[c];
			const char *s = r->f[c];
			size_t n = r->fl[c];

			switch (col->type) {
			case WULTFW_COL_INT:
				row[c].i = parse_canon(s, n);
				break;
			case WULTFW_COL_FLOAT:
				row[c].f = parse_double(s, n);
				break;
			case WULTFW_COL_ENUM:
				row[c].i = n ? enum_find(&r->cs[c].et, s, n) : -1;
				break;
			}
		}
		b->rows++;
		got++;
		r->base.rows_done++;
		drop_pages(r, r->pos);
	}
	return got;
}

/* ---- the reader ops ---- */

static struct wfw_reader *csv_alloc(void)
{
	struct csv_reader *r = calloc(1, sizeof(*r));

	return r ? &r->base : NULL;
}

static int csv_open(struct wfw_reader *base, uint64_t size)
{
	struct csv_reader *r = to_csv(base);

	r->size = (size_t)size;
	if (!r->size)
		return rfail(base, -EINVAL, "%s: empty file: expected a header line of column names",
			     base->path);
	r->map = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, base->fd, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return rfail(base, -errno, "%s: cannot map: %s", base->path, strerror(errno));
	}
	madvise((void *)r->map, r->size, MADV_SEQUENTIAL);
	return csv_scan(r);
}

static long csv_read(struct wfw_reader *base, struct wultfw_batch *b)
{
	return csv_read_rows(to_csv(base), b);
}

static void csv_free(struct wfw_reader *base)
{
	struct csv_reader *r = to_csv(base);

	if (r->map)
		munmap((void *)r->map, r->size);
	if (r->cs)
		for (size_t c = 0; c < base->schema.ncols; c++)
			enum_free(&r->cs[c].et);
	if (r->colnames)
		for (size_t c = 0; c < base->schema.ncols; c++)
			free(r->colnames[c]);
	free(r->colnames);
	free(r->cs);
	free(r->cols);
	free(r->f);
	free(r->fl);
	free(r->foff);
	free(r->scratch);
	free(r);
}

const struct wfw_reader_ops wfw_csv_reader_ops = {
	.fmt = WFW_FMT_CSV,
	.alloc = csv_alloc,
	.open = csv_open,
	.read = csv_read,
	.free = csv_free,
};
