/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "report/jsnum.h"
#include "datafmt/decimal.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

typedef unsigned __int128 u128;

/* "%.7g": seven significant digits. */
#define DIGITS 7
#define D_LOW 1000000u		/* 10^(DIGITS - 1) */
#define D_HIGH 10000000u	/* 10^DIGITS */

/*
 * |v| = m * 2^e exactly, m < 2^24, when v is a float in [2^-37, 2^50):
 * there 10^(DIGITS - 1 - k) and 2^|e| keep every product below 2^128.
 */
static bool float_parts(double v, uint32_t *m, int *e)
{
	float f = (float)v;
	uint32_t b, be;

	if ((double)f != v)
		return false;
	memcpy(&b, &f, sizeof(b));
	be = (b >> 23) & 0xff;
	*m = (b & 0x7fffff) | 0x800000;
	*e = (int)be - 150;
	return be && *e >= -60 && *e <= 26;
}

/*
 * m 2^e 10^p = q + f, 0 <= f < 1: q, and *half = f against 1/2 (-1, 0,
 * 1). The common case (a float with a fraction, few decimals) in 64 bits.
 */
static uint64_t scale(uint32_t m, int e, int p, int *half)
{
	u128 num, den, q, rem;

	if (e < 0 && e > -64 && p >= 0 && p <= 12) {	/* m 10^12 < 2^64 */
		uint64_t n64 = (uint64_t)m * wfw_pow10_int[p];
		uint64_t r64 = n64 & ((1ull << -e) - 1), h = 1ull << (-e - 1);

		*half = r64 > h ? 1 : r64 == h ? 0 : -1;
		return n64 >> -e;
	}
	num = (u128)m * (p >= 0 ? wfw_pow10_int[p] : 1);
	den = p >= 0 ? 1 : wfw_pow10_int[-p];
	if (e >= 0)
		num <<= e;
	else
		den <<= -e;
	q = num / den;
	rem = num - q * den;
	*half = 2 * rem > den ? 1 : 2 * rem == den ? 0 : -1;
	return q < D_HIGH * 10ull ? (uint64_t)q : D_HIGH * 10ull;
}

/*
 * |v| * 10^(DIGITS - 1 - k) rounded to an integer (ties to even, as
 * printf), where k is the decimal exponent of |v|: d has DIGITS digits.
 */
static uint32_t scaled_digits(uint32_t m, int e, int *k)
{
	uint64_t q;
	int half;

	*k = (int)floor((e + 23) * 0.30102999566398120);
	for (;;) {
		q = scale(m, e, DIGITS - 1 - *k, &half);
		if (q < D_LOW)
			(*k)--;
		else if (q >= D_HIGH)
			(*k)++;
		else
			break;
	}
	if (half > 0 || (half == 0 && (q & 1)))
		q++;
	if (q == D_HIGH) {
		q = D_LOW;
		(*k)++;
	}
	return (uint32_t)q;
}

/* The DIGITS digits of d, without trailing zeros (one at least); how many. */
static int strip_digits(uint32_t d, char *dig)
{
	int n = DIGITS;

	for (int i = DIGITS - 1; i >= 0; i--) {
		dig[i] = (char)('0' + d % 10);
		d /= 10;
	}
	while (n > 1 && dig[n - 1] == '0')
		n--;
	return n;
}

/* d.ddde+XX */
static size_t put_exp(char *b, const char *dig, int n, int k)
{
	size_t at = 0;
	unsigned x = (unsigned)(k < 0 ? -k : k);

	b[at++] = dig[0];
	if (n > 1) {
		b[at++] = '.';
		memcpy(b + at, dig + 1, (size_t)n - 1);
		at += (size_t)n - 1;
	}
	b[at++] = 'e';
	b[at++] = k < 0 ? '-' : '+';
	if (x >= 100)
		b[at++] = (char)('0' + x / 100);
	b[at++] = (char)('0' + x / 10 % 10);
	b[at++] = (char)('0' + x % 10);
	return at;
}

/* ddd.ddd or 0.000ddd */
static size_t put_fixed(char *b, const char *dig, int n, int k)
{
	size_t at = 0;

	if (k < 0) {
		memcpy(b, "0.", 2);
		memset(b + 2, '0', (size_t)(-k - 1));
		at = 2 + (size_t)(-k - 1);
		memcpy(b + at, dig, (size_t)n);
		return at + (size_t)n;
	}
	for (int i = 0; i <= k; i++)
		b[at++] = i < n ? dig[i] : '0';
	if (n > k + 1) {
		b[at++] = '.';
		memcpy(b + at, dig + k + 1, (size_t)(n - k - 1));
		at += (size_t)(n - k - 1);
	}
	return at;
}

size_t wfw_js_g7(char *buf, double v)
{
	char dig[DIGITS];
	uint32_t m;
	int e, k, n;
	size_t at = 0;

	if (!isfinite(v)) {
		memcpy(buf, "null", 5);
		return 4;
	}
	if (v == 0 || !float_parts(fabs(v), &m, &e))
		return (size_t)snprintf(buf, WFW_JS_NUM_MAX, "%.7g", v);
	if (v < 0)
		buf[at++] = '-';
	n = strip_digits(scaled_digits(m, e, &k), dig);
	/* %g: fixed for exponents -4 to DIGITS - 1, else exponential */
	if (k < -4 || k >= DIGITS)
		at += put_exp(buf + at, dig, n, k);
	else
		at += put_fixed(buf + at, dig, n, k);
	buf[at] = '\0';
	return at;
}

size_t wfw_js_u64(char *buf, uint64_t v)
{
	char tmp[24];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

void wfw_jsout_flush(struct wfw_jsout *o)
{
	if (o->n)
		fwrite(o->buf, 1, o->n, o->f);
	o->n = 0;
}
