/* SPDX-License-Identifier: MIT */
/*
 * Numbers in CSV fields, for the CSV reader: recognising the plain
 * decimals the csv sink writes for INT columns, and decimal text to a
 * correctly rounded double (a fast exact path for the common case, exact
 * 128-bit division for 17-19 digit mantissas, strtod() for the rest).
 */
#ifndef WFW_CSVNUM_H
#define WFW_CSVNUM_H

#include <stddef.h>
#include <stdint.h>

enum { WFW_NUM_NO, WFW_NUM_OTHER, WFW_NUM_CANON };

/*
 * Is s[0..n) a number? WFW_NUM_CANON: a plain decimal the csv sink would
 * write for an INT column (*dec = its fractional digits, at most 9; the
 * scaled value fits 64 bits and is not WULTFW_CELL_EMPTY); WFW_NUM_OTHER:
 * anything else strtod() reads completely ("nan" and "inf" included).
 */
int wfw_csvnum_classify(const char *s, size_t n, int *dec);

/* s[0..n) as a double, correctly rounded; -1 when it is not a number. */
int wfw_csvnum_parse_double(const char *s, size_t n, double *out);

/* ---- the fast paths, inline: they run for every cell ---- */

extern const double wfw_pow10_exact[23];
/* m / 10^k correctly rounded, k <= 27. */
double wfw_div_pow10(uint64_t m, int k);

static inline int wfw_is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline int wfw_field_end(const char *p, const char *end)
{
	return p == end || *p == ',' || *p == '\n' || *p == '\r';
}

/* The magnitude of a sign-less run of at most 19 digits fits int64? */
static inline int wfw_fits_int64(uint64_t mag, int neg)
{
	/* INT64_MIN is WULTFW_CELL_EMPTY, so it is no value. */
	return mag <= (uint64_t)INT64_MAX && !(neg && !mag);
}

/* Digits at p (at most `max`) onto *v; returns the first non-digit. */
/* At most `max` digits at p onto *v; the first non-digit. */
static inline const char *wfw_digits(const char *p, const char *end, size_t max,
				     uint64_t *v)
{
	const char *stop = (size_t)(end - p) > max ? p + max : end;

	while (p < stop && wfw_is_digit(*p))
		*v = *v * 10 + (uint64_t)(*p++ - '0');
	return p;
}

/* "0" or digits without a leading zero. */
static inline int wfw_canon_whole(const char *from, const char *to)
{
	return to > from && (to - from == 1 || *from != '0');
}

/*
 * Parse a canonical decimal with exactly `dec` fractional digits starting
 * at s and ending at a field end (',', CR, LF or `end`). Returns the end
 * of the number, or NULL when the field is anything else.
 */
static inline const char *wfw_csvnum_scan_canon(const char *s, const char *end, int dec,
				  int64_t *out)
{
	int neg = s < end && *s == '-';
	const char *whole = s + neg, *p;
	uint64_t v = 0;

	/* At most 19 digits: they fit uint64 without wrapping. */
	p = wfw_digits(whole, end, 20, &v);
	if (!wfw_canon_whole(whole, p) || p - whole > 19 - dec)
		return NULL;
	if (dec) {
		const char *frac;

		if (p == end || *p != '.')
			return NULL;
		frac = ++p;
		p = wfw_digits(frac, end, (size_t)dec, &v);
		if (p - frac != dec)
			return NULL;
	}
	if (!wfw_field_end(p, end) || !wfw_fits_int64(v, neg))
		return NULL;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return p;
}

/*
 * The fast path for FLOAT fields: [-]digits[.digits] (at most 19 digits)
 * at s up to a field end, correctly rounded into *out. Returns the end of
 * the number, or NULL for anything else (then use parse_double).
 */
static inline const char *wfw_csvnum_scan_double(const char *s, const char *end, double *out)
{
	const char *p = s, *digits;
	uint64_t m = 0;
	int neg = 0, whole, frac = 0;
	double v;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	digits = p;
	p = wfw_digits(p, end, 20, &m);
	whole = (int)(p - digits);
	if (p < end && *p == '.') {
		const char *f = ++p;

		p = wfw_digits(p, end, 20, &m);
		frac = (int)(p - f);
	}
	if (!wfw_field_end(p, end) || !(whole + frac) || whole + frac > 19)
		return NULL;
	if (m <= (1ULL << 53) && frac <= 22)
		v = (double)m / wfw_pow10_exact[frac];	/* exact operands: one rounding */
	else
		v = wfw_div_pow10(m, frac);
	*out = neg ? -v : v;
	return p;
}
#endif
