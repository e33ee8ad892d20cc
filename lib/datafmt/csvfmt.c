/* SPDX-License-Identifier: MIT */
/* Row formatting for datapoints.csv (see csvfmt.h for the rules). */
#include "config.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/csvfmt.h"
#include "datafmt/decimal.h"

#define INT_MAX_TEXT	24	/* "-" + 20 digits + "." + slack */
#define FLOAT_MAX_TEXT	32

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal digits of v, written backwards ending at `end`; returns start. */
static inline char *utoa_back(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned i = (unsigned)(v % 100) * 2;

		v /= 100;
		*--end = digit_pairs[i + 1];
		*--end = digit_pairs[i];
	}
	if (v >= 10) {
		*--end = digit_pairs[v * 2 + 1];
		*--end = digit_pairs[v * 2];
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* Exactly n digits of v (v < 10^n), zero-padded, backwards. */
static inline char *utoa_back_fixed(char *end, uint64_t v, unsigned n)
{
	while (n--) {
		*--end = (char)('0' + v % 10);
		v /= 10;
	}
	return end;
}

/*
 * One body per decimal count so the division is by a constant (a multiply)
 * instead of a 64-bit divide: that is most of the csv sink's time.
 */
#define FMT_FIXED(D, DIV)						\
	static size_t fmt_fixed_##D(char *buf, uint64_t mag, int neg)	\
	{								\
		char tmp[INT_MAX_TEXT];					\
		char *end = tmp + sizeof(tmp), *p = end;		\
		size_t n;						\
									\
		if ((D) > 0) {						\
			p = utoa_back_fixed(p, mag % (DIV), (D));	\
			*--p = '.';					\
		}							\
		p = utoa_back(p, mag / (DIV));				\
		if (neg)						\
			*--p = '-';					\
		n = (size_t)(end - p);					\
		memcpy(buf, p, n);					\
		return n;						\
	}
FMT_FIXED(0, 1ULL)
FMT_FIXED(1, 10ULL)
FMT_FIXED(2, 100ULL)
FMT_FIXED(3, 1000ULL)
FMT_FIXED(4, 10000ULL)
FMT_FIXED(5, 100000ULL)
FMT_FIXED(6, 1000000ULL)
FMT_FIXED(7, 10000000ULL)
FMT_FIXED(8, 100000000ULL)
FMT_FIXED(9, 1000000000ULL)

size_t wfw_csv_fmt_int(char *buf, int64_t raw, uint64_t divisor,
		       unsigned decimals)
{
	int neg = raw < 0;
	/* Magnitude in unsigned arithmetic: INT64_MIN has no positive twin. */
	uint64_t mag = neg ? (uint64_t)0 - (uint64_t)raw : (uint64_t)raw;

	(void)divisor;	/* implied by decimals; kept for readability */
	switch (decimals) {
	case 0: return fmt_fixed_0(buf, mag, neg);
	case 1: return fmt_fixed_1(buf, mag, neg);
	case 2: return fmt_fixed_2(buf, mag, neg);
	case 3: return fmt_fixed_3(buf, mag, neg);
	case 4: return fmt_fixed_4(buf, mag, neg);
	case 5: return fmt_fixed_5(buf, mag, neg);
	case 6: return fmt_fixed_6(buf, mag, neg);
	case 7: return fmt_fixed_7(buf, mag, neg);
	case 8: return fmt_fixed_8(buf, mag, neg);
	default: return fmt_fixed_9(buf, mag, neg);
	}
}

/*
 * Fast path for 1e-4 <= |v| < 1e15, where %g prints plain decimals and v is
 * an exact fixed-point number I + F / 2^72 (I < 2^50; v >= 2^-14 has no
 * bits below 2^-66). Generating digits from that with 128-bit integers is
 * exact, so rounding to 15/16/17 digits gives what "%.15g" etc. give,
 * at a tenth of the cost. Returns 0 when v is outside the range.
 */

#define SIG_MAX 17

/* d[0..p) rounded to nearest-even from d[p..n) and sticky; carries into x. */
static int round_digits(unsigned char *d, int p, int n, int sticky, int *x)
{
	int up, rest = sticky;

	for (int k = p + 1; k < n; k++)
		rest |= d[k];
	up = d[p] > 5 || (d[p] == 5 && (rest || (d[p - 1] & 1)));
	for (int k = p - 1; up && k >= 0; k--) {
		if (++d[k] < 10)
			up = 0;
		else
			d[k] = 0;
	}
	if (up) {	/* 999.. -> 1000.. */
		memmove(d + 1, d, (size_t)p - 1);
		d[0] = 1;
		(*x)++;
	}
	return p;
}

static size_t fmt_float_fast(char *buf, double v)
{
	double a = fabs(v);
	unsigned char all[SIG_MAX + 3], d[SIG_MAX + 3];
	unsigned __int128 f;
	const unsigned __int128 mask = ((unsigned __int128)1 << 72) - 1;
	uint64_t ip, bits, mant, frac;
	int n = 0, x, xr = 0, sticky, p, e2;
	char *o = buf;

	if (!(a >= 1e-4 && a < 1e15))
		return 0;
	/* a = mant * 2^e2 with -66 <= e2 <= -3 in this range */
	memcpy(&bits, &a, sizeof(bits));
	mant = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	e2 = (int)(bits >> 52) - 1075;
	if (-e2 >= 64) {
		ip = 0;
		frac = mant;
	} else {
		ip = mant >> -e2;
		frac = mant & ((1ULL << -e2) - 1);
	}
	f = (unsigned __int128)frac << (72 + e2);	/* fraction * 2^72, exact */
	if (ip) {
		char tmp[24], *e = tmp + sizeof(tmp), *q = utoa_back(e, ip);

		x = (int)(e - q) - 1;
		while (q < e)
			all[n++] = (unsigned char)(*q++ - '0');
	} else {
		x = -1;
		for (;;) {	/* skip leading zeros: at most four */
			f *= 10;
			if (f >> 72)
				break;
			x--;
		}
		all[n++] = (unsigned char)(f >> 72);
		f &= mask;
	}
	while (n < SIG_MAX + 1) {	/* two digits per step */
		unsigned pair;

		f *= 100;
		pair = (unsigned)(f >> 72);
		f &= mask;
		all[n++] = (unsigned char)(pair / 10);
		all[n++] = (unsigned char)(pair % 10);
	}
	sticky = f != 0;

	/* Shortest of 15, 16, 17 significant digits that reads back as v. */
	for (p = 15; p <= SIG_MAX; p++) {
		uint64_t m = 0;
		int e10;

		xr = x;
		memcpy(d, all, sizeof(all));
		round_digits(d, p, n, sticky, &xr);
		if (xr >= 15)
			return 0;	/* rounded up to 1e15: %g would use an exponent */
		if (p == SIG_MAX)
			break;		/* 17 digits always read back */
		for (int k = 0; k < p; k++)
			m = m * 10 + d[k];
		e10 = xr - (p - 1);	/* value = m * 10^e10, -19 <= e10 <= 0 */
		if (m <= (1ULL << 53)) {
			/* exact operands, one rounding: what strtod returns */
			if ((double)m / wfw_pow10_exact[-e10] == a)
				break;
		} else {
			char t[40];

			snprintf(t, sizeof(t), "%llue%d", (unsigned long long)m, e10);
			if (strtod(t, NULL) == a)
				break;
		}
	}
	x = xr;
	while (p > 1 && d[p - 1] == 0)	/* strip trailing zeros */
		p--;
	if (v < 0)
		*o++ = '-';
	if (x >= 0) {
		for (int k = 0; k <= x; k++)
			*o++ = (char)('0' + (k < p ? d[k] : 0));
		*o++ = '.';
		if (p > x + 1)
			for (int k = x + 1; k < p; k++)
				*o++ = (char)('0' + d[k]);
		else
			*o++ = '0';	/* integral: "100.0" like Python */
	} else {
		*o++ = '0';
		*o++ = '.';
		for (int k = -1; k > x; k--)
			*o++ = '0';
		for (int k = 0; k < p; k++)
			*o++ = (char)('0' + d[k]);
	}
	return (size_t)(o - buf);
}

/*
 * Short decimals (what a CSV with a few decimals held, e.g. 12.345): when v
 * is the double nearest k / 10^s for some s <= 9 and k < 10^15, "%.15g"
 * prints exactly that decimal (15 digits always read back), and the
 * digits come from the integer k. The smallest such s has no trailing
 * zero. Returns 0 for any other v.
 */
static size_t fmt_short_decimal(char *buf, double v)
{
	double a = fabs(v);
	char digits[24];
	char *o = buf;
	int64_t k;

	if (!(a >= 1e-4 && a < 1e15))
		return 0;
	for (unsigned s = 0; s <= WFW_DEC_MAX_SCALE; s++) {
		int n = 0;

		if (a * wfw_pow10_exact[s] >= 1e15)
			return 0;
		if (!wfw_dec_exact(a, s, &k))
			continue;
		for (uint64_t m = (uint64_t)k; m || n <= (int)s; m /= 10)
			digits[n++] = (char)('0' + m % 10);
		if (v < 0)
			*o++ = '-';
		while (n > (int)s)
			*o++ = digits[--n];
		*o++ = '.';
		if (!s)
			*o++ = '0';	/* integral: "100.0" like Python */
		while (n)
			*o++ = digits[--n];
		return (size_t)(o - buf);
	}
	return 0;
}

size_t wfw_csv_fmt_float(char *buf, double v)
{
	size_t fast = fmt_short_decimal(buf, v);

	if (!fast)
		fast = fmt_float_fast(buf, v);

	return fast ? fast : wfw_csv_fmt_float_slow(buf, v);
}

size_t wfw_csv_fmt_float_slow(char *buf, double v)
{
	int n;

	if (isnan(v)) {
		memcpy(buf, "nan", 3);
		return 3;
	}
	if (isinf(v)) {
		if (v < 0) {
			memcpy(buf, "-inf", 4);
			return 4;
		}
		memcpy(buf, "inf", 3);
		return 3;
	}
	/* Shortest precision that reads back to the same double. */
	n = snprintf(buf, FLOAT_MAX_TEXT, "%.15g", v);
	if (strtod(buf, NULL) != v) {
		n = snprintf(buf, FLOAT_MAX_TEXT, "%.16g", v);
		if (strtod(buf, NULL) != v)
			n = snprintf(buf, FLOAT_MAX_TEXT, "%.17g", v);
	}
	if (!memchr(buf, '.', (size_t)n) && !memchr(buf, 'e', (size_t)n)) {
		buf[n++] = '.';	/* integral: "0.0" as wult/Python shows it */
		buf[n++] = '0';
	}
	return (size_t)n;
}

int wfw_csv_needs_quote(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return 1;
	return 0;
}

/* s as one CSV field: libcsv quotes it when needed. */
static char *field_text(const char *s, size_t *len)
{
	size_t n = strlen(s), q;
	char *out;

	if (!wfw_csv_needs_quote(s, n)) {
		*len = n;
		return strdup(s);
	}
	q = csv_write(NULL, 0, s, n);
	out = malloc(q + 1);
	if (!out)
		return NULL;
	csv_write(out, q, s, n);
	out[q] = '\0';
	*len = q;
	return out;
}

void wfw_csvfmt_free(struct wfw_csvfmt *f)
{
	if (f->enum_text && f->schema) {
		for (size_t c = 0; c < f->schema->ncols; c++) {
			if (!f->enum_text[c])
				continue;
			for (size_t i = 0; i < f->schema->cols[c].n_enum; i++)
				free(f->enum_text[c][i]);
			free(f->enum_text[c]);
			free(f->enum_len[c]);
		}
	}
	free(f->enum_text);
	free(f->enum_len);
	free(f->header);
	free(f->decimals);
	free(f->divisor);
	memset(f, 0, sizeof(*f));
}

int wfw_csvfmt_init(struct wfw_csvfmt *f, const struct wultfw_schema *s,
		    char *err, size_t errlen)
{
	size_t ncols = s->ncols, hlen = 0, hcap = 64;

	memset(f, 0, sizeof(*f));
	f->schema = s;
	if (!ncols) {
		snprintf(err, errlen, "the schema has no columns");
		return -EINVAL;
	}
	f->decimals = calloc(ncols, sizeof(*f->decimals));
	f->divisor = calloc(ncols, sizeof(*f->divisor));
	f->enum_text = calloc(ncols, sizeof(*f->enum_text));
	f->enum_len = calloc(ncols, sizeof(*f->enum_len));
	f->header = malloc(hcap);
	if (!f->decimals || !f->divisor || !f->enum_text || !f->enum_len ||
	    !f->header)
		goto nomem;

	f->row_max = ncols;	/* commas and the newline */
	for (size_t c = 0; c < ncols; c++) {
		const struct wultfw_column *col = &s->cols[c];
		size_t nlen;
		char *name = field_text(col->name ? col->name : "", &nlen);

		if (!name)
			goto nomem;
		if (hlen + nlen + 2 > hcap) {
			char *nh;

			hcap = (hlen + nlen + 2) * 2;
			nh = realloc(f->header, hcap);
			if (!nh) {
				free(name);
				goto nomem;
			}
			f->header = nh;
		}
		memcpy(f->header + hlen, name, nlen);
		hlen += nlen;
		f->header[hlen++] = c + 1 < ncols ? ',' : '\n';
		free(name);

		switch (col->type) {
		case WULTFW_COL_INT: {
			uint64_t d = col->divisor ? col->divisor : 1;
			unsigned dec = 0;

			f->divisor[c] = d;
			while (d % 10 == 0) {
				d /= 10;
				dec++;
			}
			if (d != 1 || dec > 9) {
				snprintf(err, errlen,
					 "column %s: divisor %u is not a power of ten up to 10^9",
					 col->name, (unsigned)col->divisor);
				wfw_csvfmt_free(f);
				return -EINVAL;
			}
			f->decimals[c] = dec;
			f->row_max += INT_MAX_TEXT;
			break;
		}
		case WULTFW_COL_FLOAT:
			f->row_max += FLOAT_MAX_TEXT;
			break;
		case WULTFW_COL_ENUM: {
			size_t longest = 0;

			f->enum_text[c] = calloc(col->n_enum + 1, sizeof(char *));
			f->enum_len[c] = calloc(col->n_enum + 1, sizeof(size_t));
			if (!f->enum_text[c] || !f->enum_len[c])
				goto nomem;
			for (size_t i = 0; i < col->n_enum; i++) {
				f->enum_text[c][i] = field_text(
					col->enum_names[i] ? col->enum_names[i] : "",
					&f->enum_len[c][i]);
				if (!f->enum_text[c][i])
					goto nomem;
				if (f->enum_len[c][i] > longest)
					longest = f->enum_len[c][i];
			}
			f->row_max += longest;
			break;
		}
		default:
			snprintf(err, errlen, "column %s: unknown type %d",
				 col->name, (int)col->type);
			wfw_csvfmt_free(f);
			return -EINVAL;
		}
	}
	f->header_len = hlen;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	wfw_csvfmt_free(f);
	return -ENOMEM;
}

size_t wfw_csvfmt_row(const struct wfw_csvfmt *f, char *buf,
		      const union wultfw_cell *row)
{
	const struct wultfw_schema *s = f->schema;
	char *p = buf;

	for (size_t c = 0; c < s->ncols; c++) {
		const struct wultfw_column *col = &s->cols[c];

		if (c)
			*p++ = ',';
		switch (col->type) {
		case WULTFW_COL_INT:
			if (row[c].i != WULTFW_CELL_EMPTY)
				p += wfw_csv_fmt_int(p, row[c].i,
						     f->divisor[c],
						     f->decimals[c]);
			break;
		case WULTFW_COL_FLOAT:
			p += wfw_csv_fmt_float(p, row[c].f);
			break;
		case WULTFW_COL_ENUM: {
			int64_t i = row[c].i;

			if (i >= 0 && (uint64_t)i < col->n_enum) {
				memcpy(p, f->enum_text[c][i],
				       f->enum_len[c][i]);
				p += f->enum_len[c][i];
			}
			break;
		}
		}
	}
	*p++ = '\n';
	return (size_t)(p - buf);
}
