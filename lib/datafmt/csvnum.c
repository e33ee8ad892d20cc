/* SPDX-License-Identifier: MIT */
/* Numbers in CSV fields (see csvnum.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/csvnum.h"

static inline int is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline int field_end(const char *p, const char *end)
{
	return p == end || *p == ',' || *p == '\n' || *p == '\r';
}

/* The magnitude of a sign-less run of at most 19 digits fits int64? */
static int fits_int64(uint64_t mag, int neg)
{
	/* INT64_MIN is WULTFW_CELL_EMPTY, so it is no value. */
	return mag <= (uint64_t)INT64_MAX && !(neg && !mag);
}

const char *wfw_csvnum_scan_canon(const char *s, const char *end, int dec,
				  int64_t *out)
{
	const char *p = s, *digits;
	uint64_t v = 0;
	int neg = 0;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	digits = p;
	while (p < end && is_digit(*p))
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (p == digits || (p - digits > 1 && *digits == '0'))
		return NULL;
	if (dec) {
		const char *frac;

		if (p == end || *p != '.')
			return NULL;
		frac = ++p;
		while (p < end && is_digit(*p) && p - frac < dec)
			v = v * 10 + (uint64_t)(*p++ - '0');
		if (p - frac != dec)
			return NULL;
	}
	if (!field_end(p, end) || (p - digits) - (dec > 0) > 19 ||
	    !fits_int64(v, neg))
		return NULL;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return p;
}

/* [+-]digits[.digits][(e|E)[+-]digits], at least one mantissa digit. */
static int plain_decimal(const char *s, size_t n)
{
	size_t i = 0, nd = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	for (; i < n && is_digit(s[i]); i++)
		nd++;
	if (i < n && s[i] == '.')
		for (i++; i < n && is_digit(s[i]); i++)
			nd++;
	if (!nd)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t ed = 0;

		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		for (; i < n && is_digit(s[i]); i++)
			ed++;
		if (!ed)
			return 0;
	}
	return i == n;
}

/* strtod() over a bounded copy, spaces around allowed; -1: not a number. */
static int slow_double(const char *s, size_t n, double *out)
{
	char small[128], *buf = small, *end;
	int ret;

	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n || memchr(s, '\0', n))
		return -1;
	if (n >= sizeof(small) && !(buf = malloc(n + 1)))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	ret = end == buf + n ? 0 : -1;
	if (buf != small)
		free(buf);
	return ret;
}

int wfw_csvnum_classify(const char *s, size_t n, int *dec)
{
	const char *end = s + n, *dot = memchr(s, '.', n);
	int k = dot ? (int)(end - dot - 1) : 0;
	int64_t v;
	double d;

	if (n && k <= 9 && wfw_csvnum_scan_canon(s, end, k, &v) == end) {
		*dec = k;
		return WFW_NUM_CANON;
	}
	if (plain_decimal(s, n))
		return WFW_NUM_OTHER;
	return slow_double(s, n, &d) ? WFW_NUM_NO : WFW_NUM_OTHER;
}

static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * m / 10^k correctly rounded (to nearest, ties to even), for any 64-bit m
 * and k <= 27: m / 10^k = (m / 5^k) * 2^-k, and m * 2^t / 5^k in 128-bit
 * integers with its remainder gives the 53 mantissa bits, the rounding bit
 * and the sticky bit exactly.
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

struct decimal {
	uint64_t m;
	int exp10, nd, neg;
};

/* Split [+-]digits[.digits][e[+-]digits]; false if text is left over. */
static int split_decimal(const char *s, size_t n, struct decimal *d)
{
	size_t i = 0;

	memset(d, 0, sizeof(*d));
	if (i < n && (s[i] == '-' || s[i] == '+'))
		d->neg = s[i++] == '-';
	for (; i < n && is_digit(s[i]) && d->nd < 20; i++, d->nd++)
		d->m = d->m * 10 + (uint64_t)(s[i] - '0');
	if (i < n && s[i] == '.')
		for (i++; i < n && is_digit(s[i]) && d->nd < 20; i++, d->nd++) {
			d->m = d->m * 10 + (uint64_t)(s[i] - '0');
			d->exp10--;
		}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0, e = 0;

		if (++i < n && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		if (i == n || !is_digit(s[i]))
			return 0;
		for (; i < n && is_digit(s[i]) && e < 10000; i++)
			e = e * 10 + (s[i] - '0');
		d->exp10 += eneg ? -e : e;
	}
	return i == n && d->nd && d->nd <= 19;
}

int wfw_csvnum_parse_double(const char *s, size_t n, double *out)
{
	struct decimal d;
	double v;

	if (!split_decimal(s, n, &d))
		return slow_double(s, n, out);
	if (d.m <= (1ULL << 53) && d.exp10 >= -22 && d.exp10 <= 22) {
		/* Both operands exact: one rounding, hence correct. */
		v = (double)d.m;
		v = d.exp10 < 0 ? v / pow10_exact[-d.exp10] : v * pow10_exact[d.exp10];
	} else if (d.exp10 < 0 && d.exp10 >= -27) {
		v = div_pow10(d.m, -d.exp10);
	} else {
		return slow_double(s, n, out);
	}
	*out = d.neg ? -v : v;
	return 0;
}

const char *wfw_csvnum_scan_double(const char *s, const char *end, double *out)
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
	while (p < end && is_digit(*p))
		m = m * 10 + (uint64_t)(*p++ - '0');
	whole = (int)(p - digits);
	if (p < end && *p == '.') {
		const char *f = ++p;

		while (p < end && is_digit(*p))
			m = m * 10 + (uint64_t)(*p++ - '0');
		frac = (int)(p - f);
	}
	if (!field_end(p, end) || !(whole + frac) || whole + frac > 19)
		return NULL;
	if (m <= (1ULL << 53) && frac <= 22)
		v = (double)m / pow10_exact[frac];	/* exact operands: one rounding */
	else
		v = div_pow10(m, frac);
	*out = neg ? -v : v;
	return p;
}
