/* SPDX-License-Identifier: MIT */
/* Numbers in CSV fields (see csvnum.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/csvnum.h"

static size_t skip_sign(const char *s, size_t i, size_t n)
{
	return i < n && (s[i] == '-' || s[i] == '+') ? i + 1 : i;
}

static size_t skip_digits(const char *s, size_t i, size_t n)
{
	while (i < n && wfw_is_digit(s[i]))
		i++;
	return i;
}

/* An exponent at s[i] ("e-7"): the index after it, or 0 if malformed. */
static size_t skip_exponent(const char *s, size_t i, size_t n)
{
	size_t d;

	if (i == n || (s[i] != 'e' && s[i] != 'E'))
		return i;
	d = skip_sign(s, i + 1, n);
	i = skip_digits(s, d, n);
	return i > d ? i : 0;
}

/* [+-]digits[.digits][(e|E)[+-]digits], at least one mantissa digit. */
static int plain_decimal(const char *s, size_t n)
{
	size_t m = skip_sign(s, 0, n), i = skip_digits(s, m, n), nd = i - m;

	if (i < n && s[i] == '.') {
		size_t f = i + 1;

		i = skip_digits(s, f, n);
		nd += i - f;
	}
	return nd && skip_exponent(s, i, n) == n;
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
	/*
	 * Any NaN is the plain one: "nan(0xe4b7e)" would otherwise be the
	 * NaN whose bits mean an empty cell (WULTFW_FLOAT_EMPTY_BITS).
	 */
	if (isnan(*out))
		*out = NAN;
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

/* 5^k for k <= 27: every one below 2^63. */
static const uint64_t pow5[28] = {
	1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL,
	390625ULL, 1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL,
	1220703125ULL, 6103515625ULL, 30517578125ULL, 152587890625ULL,
	762939453125ULL, 3814697265625ULL, 19073486328125ULL,
	95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
	11920928955078125ULL, 59604644775390625ULL, 298023223876953125ULL,
	1490116119384765625ULL, 7450580596923828125ULL,
};

/*
 * n / d with its remainder, for n < d * 2^64 (the quotient fits 64 bits):
 * one divq on x86-64, where the compiler would call a 128-bit division
 * routine several times slower.
 */
static inline uint64_t div128_64(unsigned __int128 n, uint64_t d, uint64_t *r)
{
#if defined(__x86_64__) && defined(__GNUC__)
	uint64_t q, rem;

	__asm__("divq %4" : "=a"(q), "=d"(rem)
		: "a"((uint64_t)n), "d"((uint64_t)(n >> 64)), "rm"(d));
	*r = rem;
	return q;
#else
	*r = (uint64_t)(n % d);
	return (uint64_t)(n / d);
#endif
}

/* 2^e for a normal e, exactly. */
static inline double pow2(int e)
{
	uint64_t bits = (uint64_t)(e + 1023) << 52;
	double v;

	memcpy(&v, &bits, sizeof(v));
	return v;
}

/*
 * m / 10^k correctly rounded (to nearest, ties to even), for any 64-bit m
 * and k <= 27: m / 10^k = (m / 5^k) * 2^-k. m is shifted left by t so that
 * the quotient q = (m << t) / 5^k lands in [2^62, 2^64): 63 or 64 bits,
 * enough for the 53 mantissa bits, the rounding bit, and (with the
 * remainder) the sticky bit. The result, at least 2^-141, is normal.
 */
double wfw_div_pow10(uint64_t m, int k)
{
	uint64_t d, q, r, mant;
	int t, len, sticky, rb;

	if (!m)
		return 0.0;
	d = pow5[k];
	t = 63 + (64 - __builtin_clzll(d)) - (64 - __builtin_clzll(m));
	q = div128_64((unsigned __int128)m << t, d, &r);
	len = 64 - __builtin_clzll(q);
	mant = q >> (len - 54);
	sticky = r != 0 || (q & ((1ULL << (len - 54)) - 1)) != 0;
	rb = (int)(mant & 1);
	mant >>= 1;
	if (rb && (sticky || (mant & 1)))
		mant++;
	return (double)mant * pow2(len - 53 - t - k);
}

struct decimal {
	uint64_t m;
	int exp10, nd, neg;
};

/* Mantissa digits from s[i] on, at most 20 in all; the index after them. */
static size_t mantissa(const char *s, size_t i, size_t n, struct decimal *d,
		       int scale)
{
	for (; i < n && wfw_is_digit(s[i]) && d->nd < 20; i++, d->nd++) {
		d->m = d->m * 10 + (uint64_t)(s[i] - '0');
		d->exp10 -= scale;
	}
	return i;
}

/* The exponent at s[i] (after 'e'): adds it to d; the index after it. */
static size_t exponent(const char *s, size_t i, size_t n, struct decimal *d)
{
	int neg = i < n && s[i] == '-', e = 0;
	size_t from = skip_sign(s, i, n);

	for (i = from; i < n && wfw_is_digit(s[i]) && e < 10000; i++)
		e = e * 10 + (s[i] - '0');
	d->exp10 += neg ? -e : e;
	return i > from ? i : 0;
}

/* Split [+-]digits[.digits][e[+-]digits]; false if text is left over. */
static int split_decimal(const char *s, size_t n, struct decimal *d)
{
	size_t i = skip_sign(s, 0, n);

	memset(d, 0, sizeof(*d));
	d->neg = i && s[0] == '-';
	i = mantissa(s, i, n, d, 0);
	if (i < n && s[i] == '.')
		i = mantissa(s, i + 1, n, d, 1);
	if (i < n && (s[i] == 'e' || s[i] == 'E'))
		i = exponent(s, i + 1, n, d);
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
		v = d.exp10 < 0 ? v / wfw_pow10_exact[-d.exp10] : v * wfw_pow10_exact[d.exp10];
	} else if (d.exp10 < 0 && d.exp10 >= -27) {
		v = wfw_div_pow10(d.m, -d.exp10);
	} else {
		return slow_double(s, n, out);
	}
	*out = d.neg ? -v : v;
	return 0;
}

#ifdef __SSE2__
const struct wfw_vconst wfw_vk = {
	.zero = { 0x3030303030303030LL, 0x3030303030303030LL },
	.nine = { 0x0909090909090909LL, 0x0909090909090909LL },
	.quote = { 0x2222222222222222LL, 0x2222222222222222LL },
	.tens = { 0x0a010a010a010a01LL, 0x0a010a010a010a01LL },
	.hundreds = { 0x0001006400010064LL, 0x0001006400010064LL },
	.tenk = { 0x0001271000012710LL, 0x0001271000012710LL },
};
#endif

const uint64_t wfw_keep_bytes[9] = {
	0, 0xff, 0xffff, 0xffffff, 0xffffffffULL, 0xffffffffffULL,
	0xffffffffffffULL, 0xffffffffffffffULL, ~0ULL,
};
