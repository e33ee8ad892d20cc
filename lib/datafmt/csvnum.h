/* SPDX-License-Identifier: MIT */
/*
 * Numbers in CSV fields, for the CSV reader: recognising the plain
 * decimals the csv sink writes for INT columns, and decimal text to a
 * correctly rounded double (a fast exact path for the common case, exact
 * 128-bit division for 17-19 digit mantissas, strtod() for the rest).
 */
#ifndef WFW_CSVNUM_H
#define WFW_CSVNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "datafmt/decimal.h"
#include "datafmt/le.h"

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

/*
 * ---- the window fast paths: p[0..WFW_CSV_WIN) must be readable ----
 * A field of at most 16 bytes is classified 16 bytes at a time (SSE2 on
 * x86-64, a byte loop elsewhere) and its digits converted 8 at a time in
 * a 64-bit word. Whatever they do not take goes to the paths above.
 */
#define WFW_CSV_WIN	32

/* The low n bytes of a word set, n <= 8. */
extern const uint64_t wfw_keep_bytes[9];

static inline int wfw_field_delim(char c)
{
	return c == ',' || c == '\n' || c == '\r';
}

#ifdef __SSE2__
/*
 * The cell loops' vector constants, read from memory (csvnum.c): in a
 * function built for AVX2, GCC 12 makes each _mm_set1_*() from a general
 * register again at every use, three instructions where a load is none.
 */
struct wfw_vconst {
	__m128i zero, nine, quote;	/* '0', 9, '"' in every byte */
	__m128i tens, hundreds, tenk;	/* wfw_pair_div()'s multipliers */
};
extern const struct wfw_vconst wfw_vk __attribute__((visibility("hidden")));
#endif

/* Bit i set when p[i] is a decimal digit, i < 16. */
static inline unsigned wfw_digits16(const char *p)
{
#ifdef __SSE2__
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i t = _mm_sub_epi8(x, wfw_vk.zero);
	__m128i d = _mm_cmpeq_epi8(_mm_min_epu8(t, wfw_vk.nine), t);

	return (unsigned)_mm_movemask_epi8(d);
#else
	unsigned m = 0;

	for (int i = 0; i < 16; i++)
		m |= (unsigned)wfw_is_digit(p[i]) << i;
	return m;
#endif
}

/*
 * The 1 <= n <= 8 ASCII digits in the low bytes of w (first digit lowest)
 * as a number. The digits are moved to the top, zeros below them, then
 * neighbours are combined in parallel: pairs (x10), quads (x100), the two
 * halves (x10000), each step one multiplication of the whole word.
 */
static inline uint64_t wfw_swar_digits(uint64_t w, int n)
{
	w = (w & 0x0f0f0f0f0f0f0f0fULL) << (8 * (8 - n));
	w = (w * (10 * 256 + 1)) >> 8;
	w = ((w & 0x00ff00ff00ff00ffULL) * (100 * 65536 + 1)) >> 16;
	return ((w & 0x0000ffff0000ffffULL) * (10000ULL * (1ULL << 32) + 1)) >> 32;
}

struct wfw_dec16 {
	uint64_t m;		/* the digits, the point left out */
	int whole, frac;	/* digits before and after the point */
	int neg, point;
};

/*
 * The digits of d at p (the sign skipped), the point left out. Up to 8 in
 * all: the bytes before the point from one load, those after it from a
 * load one byte further on, so they close up. More: 8 at a time (no
 * point), or each side alone (at most 8 each).
 */
static inline __attribute__((always_inline)) int
wfw_dec16_value(const char *p, struct wfw_dec16 *d)
{
	const unsigned char *u = (const unsigned char *)p;
	int nd = d->whole + d->frac;
	uint64_t w, keep;

	if (nd <= 8) {
		keep = wfw_keep_bytes[d->whole];
		w = (wfw_get64(u) & keep) | (wfw_get64(u + 1) & ~keep);
		d->m = nd ? wfw_swar_digits(w, nd) : 0;
		return 0;
	}
	if (!d->frac) {	/* 9-16 digits, no point */
		d->m = wfw_swar_digits(wfw_get64(u), nd - 8) * 100000000 +
		       wfw_swar_digits(wfw_get64(u + nd - 8), 8);
		return 0;
	}
	if (d->whole > 8 || d->frac > 8 || !d->whole)
		return -1;
	d->m = wfw_swar_digits(wfw_get64(u), d->whole) * wfw_pow10_int[d->frac] +
	       wfw_swar_digits(wfw_get64(u + d->whole + 1), d->frac);
	return 0;
}

/*
 * The decimal [-]digits[.digits] that fills p[0..len), len <= 16, with at
 * most 8 digits in all or on each side, into d; -1 for anything else.
 * The field's end is known, so nothing here waits for the field before.
 */
static inline __attribute__((always_inline)) int
wfw_dec_len(const char *p, int len, struct wfw_dec16 *d)
{
	unsigned neg = len && *p == '-';
	unsigned field = ((1u << len) - 1) & ~neg;
	unsigned other = field & ~wfw_digits16(p);	/* non-digits after a sign */
	int at = __builtin_ctz(other | 1u << len);

	if ((other & (other - 1)) || (other && p[at] != '.'))
		return -1;	/* two of them, or one that is not the point */
	d->neg = (int)neg;
	d->point = other != 0;
	d->whole = at - (int)neg;
	d->frac = other ? len - at - 1 : 0;
	return wfw_dec16_value(p + neg, d);
}

/*
 * wfw_csvnum_scan_canon() of the field p[0..len), len <= 16; -1: use that.
 * The column's `dec` says where the point must be, so the digit mask is
 * checked against the one layout a canonical value can have.
 */
static inline __attribute__((always_inline)) int
wfw_len_canon(const char *p, int len, int dec, int64_t *out)
{
	unsigned neg = len && *p == '-', want;
	int at = dec ? len - dec - 1 : len;	/* the point, or the end */
	struct wfw_dec16 d = { .neg = (int)neg, .whole = at - (int)neg, .frac = dec };

	if (d.whole < 1)
		return -1;
	want = ((1u << len) - 1) & ~neg & ~(1u << at);
	if ((wfw_digits16(p) & ((1u << len) - 1)) != want ||
	    (dec && p[at] != '.') || (d.whole > 1 && p[neg] == '0') ||
	    wfw_dec16_value(p + neg, &d) || (neg && !d.m))
		return -1;
	*out = neg ? -(int64_t)d.m : (int64_t)d.m;
	return 0;
}

/* The magnitude of d, correctly rounded. */
static inline __attribute__((always_inline)) double
wfw_dec16_abs(const struct wfw_dec16 *d)
{
	if (d->m <= (1ULL << 53))
		return (double)d->m / wfw_pow10_exact[d->frac];	/* one rounding */
	return wfw_div_pow10(d->m, d->frac);
}

/* wfw_csvnum_scan_double() of the field p[0..len), len <= 16; -1: use that. */
static inline __attribute__((always_inline)) int
wfw_len_double(const char *p, int len, double *out)
{
	struct wfw_dec16 d;
	double v;

	if (wfw_dec_len(p, len, &d) || !(d.whole + d.frac))
		return -1;
	v = wfw_dec16_abs(&d);
	*out = d.neg ? -v : v;
	return 0;
}

/*
 * Would the csv formatter (csvfmt.h) print the decimal d, p[0..len), of
 * magnitude v otherwise? Not when it is [-]W.F, W "0" or without a
 * leading zero, F of 1 to 9 digits not ending in 0, at most 15 digits in
 * all, at least 1e-4. Such a decimal's double is printed as that decimal:
 * 15 digits read back, %.15g drops only trailing zeros and has no
 * exponent from 1e-4 to 1e15.
 */
static inline __attribute__((always_inline)) bool
wfw_dec_odd(const char *p, int len, const struct wfw_dec16 *d, double v)
{
	return !d->point || !d->frac || d->frac > 9 || !d->whole ||
	       d->whole + d->frac > 15 || p[len - 1] == '0' ||
	       (d->whole > 1 && p[d->neg] == '0') || !(v >= 1e-4);
}

/* wfw_len_double(), and *odd set when wfw_dec_odd() says so. */
static inline __attribute__((always_inline)) int
wfw_len_double_odd(const char *p, int len, double *out, bool *odd)
{
	struct wfw_dec16 d;
	double v;

	if (wfw_dec_len(p, len, &d) || !(d.whole + d.frac))
		return -1;
	v = wfw_dec16_abs(&d);
	*out = d.neg ? -v : v;
	if (wfw_dec_odd(p, len, &d, v))
		*odd = 1;
	return 0;
}

/*
 * ---- long cells: 17 to WFW_CELL_LONG bytes ----
 * wult writes its latencies with 16-17 significant digits
 * ("3280.9343441907167"): too long for the 16-byte masks above. These
 * take such a cell from a 32-bit digit mask (two 16-byte loads) and its
 * digits 8 at a time, with the grammar and the arithmetic of the scans
 * above: the same cells taken, the same values. Up to 19 digits (the
 * mantissa fits 64 bits); more are left to strtod().
 */
#define WFW_CELL_LONG	24

/* Bit i set when p[i] is a decimal digit, i < 32 (p[0..32) readable). */
static inline uint32_t wfw_digits32(const char *p)
{
	return wfw_digits16(p) | (uint32_t)wfw_digits16(p + 16) << 16;
}

/*
 * The n <= 24 digits at u as a number (n <= 19: it fits): the first n % 8
 * alone, then 8 at a time. Reads u[0..n) and at most 7 bytes past a run
 * shorter than 8.
 */
static inline __attribute__((always_inline)) uint64_t
wfw_digit_run(const unsigned char *u, int n)
{
	int k = n & 7;
	uint64_t v = k ? wfw_swar_digits(wfw_get64(u), k) : 0;

	for (u += k, n -= k; n > 0; n -= 8, u += 8)
		v = v * 100000000 + wfw_swar_digits(wfw_get64(u), 8);
	return v;
}

/*
 * wfw_dec_len() of a cell p[0..len), 16 < len <= WFW_CELL_LONG, with
 * p[0..32) readable: [-]digits[.digits], at most 19 digits in all, as
 * wfw_csvnum_scan_double() takes it; -1 for anything else.
 */
static inline __attribute__((always_inline)) int
wfw_dec_long(const char *p, int len, struct wfw_dec16 *d)
{
	const unsigned char *u = (const unsigned char *)p;
	uint32_t neg = *p == '-';
	uint32_t other = ((1u << len) - 1) & ~neg & ~wfw_digits32(p);
	int at = __builtin_ctz(other | 1u << len);	/* the point, or the end */

	if ((other & (other - 1)) || (other && p[at] != '.'))
		return -1;
	d->neg = (int)neg;
	d->point = other != 0;
	d->whole = at - (int)neg;
	d->frac = other ? len - at - 1 : 0;
	if (d->whole + d->frac > 19)
		return -1;
	d->m = wfw_digit_run(u + neg, d->whole) * wfw_pow10_int[d->frac] +
	       wfw_digit_run(u + at + 1, d->frac);
	return 0;
}

/* wfw_len_double() of a long cell; -1: use wfw_csvnum_scan_double(). */
static inline __attribute__((always_inline)) int
wfw_long_double(const char *p, int len, double *out)
{
	struct wfw_dec16 d;
	double v;

	if (wfw_dec_long(p, len, &d))
		return -1;
	v = wfw_dec16_abs(&d);
	*out = d.neg ? -v : v;
	return 0;
}

/* wfw_len_double_odd() of a long cell. */
static inline __attribute__((always_inline)) int
wfw_long_double_odd(const char *p, int len, double *out, bool *odd)
{
	struct wfw_dec16 d;
	double v;

	if (wfw_dec_long(p, len, &d))
		return -1;
	v = wfw_dec16_abs(&d);
	*out = d.neg ? -v : v;
	if (wfw_dec_odd(p, len, &d, v))
		*odd = 1;
	return 0;
}

/*
 * wfw_len_canon() of a long cell: the one layout of a canonical decimal
 * with `dec` fractional digits, at most 19 digits, its value within
 * int64 (wfw_csvnum_scan_canon()); -1: use that.
 */
static inline __attribute__((always_inline)) int
wfw_long_canon(const char *p, int len, int dec, int64_t *out)
{
	const unsigned char *u = (const unsigned char *)p;
	uint32_t neg = *p == '-', field = (1u << len) - 1;
	int at = dec ? len - dec - 1 : len;	/* the point, or the end */
	int whole = at - (int)neg;
	uint64_t m;

	if (whole < 1 || whole + dec > 19 ||
	    (wfw_digits32(p) & field) != (field & ~neg & ~(1u << at)) ||
	    (dec && p[at] != '.') || (whole > 1 && p[neg] == '0'))
		return -1;
	m = wfw_digit_run(u + neg, whole) * wfw_pow10_int[dec] +
	    wfw_digit_run(u + at + 1, dec);
	if (!wfw_fits_int64(m, (int)neg))
		return -1;
	*out = neg ? -(int64_t)m : (int64_t)m;
	return 0;
}

/*
 * ---- two cells at a time: the common wult cell, d+.ddd ----
 * A cell of a column whose values have `dec` fractional digits (at most 8
 * digits in all, no sign) has one layout, checked against its digit mask
 * in one compare. The digits of two such cells are folded side by side in
 * one 128-bit register and both divided by their 10^dec in one division:
 * the same integers, and the same correctly rounded doubles (each lane of
 * a packed division is an IEEE division of exact operands), as the
 * per-cell path. Anything else is left to wfw_len_double().
 */

/* A column's layout for wfw_fixed_word(), worked out once: wfw_fixed(). */
struct wfw_fixed {
	int dot;	/* bytes from the point to the end: dec + 1, or 0 */
	unsigned pt;	/* 1: there is a point */
	unsigned maxw;	/* digits before the point: 1 to maxw (0: never) */
	bool canon;	/* no leading zero either (INT columns) */
};

/* `dec` fractional digits; `canon`: as an INT column wants. */
static inline struct wfw_fixed wfw_fixed(int dec, bool canon)
{
	return (struct wfw_fixed){ .dot = dec ? dec + 1 : 0, .pt = dec != 0,
				   .maxw = dec <= 8 ? (unsigned)(8 - dec) : 0,
				   .canon = canon };
}

/*
 * The digits of p[0..len) (the point closed up, the last digit in the top
 * byte, zeros below the first) when it is [0-9]+ with `dec` more after a
 * point, at most 8 digits, as fx says (wfw_fixed()). 0, or -1: not that
 * layout. p[0..16) must be readable.
 */
static inline __attribute__((always_inline)) int
wfw_fixed_word(const char *p, size_t len, const struct wfw_fixed *fx, uint64_t *w)
{
	const unsigned char *u = (const unsigned char *)p;
	int at = (int)len - fx->dot;	/* the point, or the end */
	unsigned field;
	uint64_t keep;

	/* 1 to maxw digits before the point: len <= 9 from here on. */
	if ((unsigned)(at - 1) >= fx->maxw)
		return -1;
	field = (1u << len) - 1;
	if ((wfw_digits16(p) & field) != (field & ~(fx->pt << at)) ||
	    (fx->pt && p[at] != '.') || (fx->canon && at > 1 && *p == '0'))
		return -1;
	keep = wfw_keep_bytes[at];
	*w = (wfw_get64(u) & keep) | (wfw_get64(u + 1) & ~keep);
	*w = (*w & 0x0f0f0f0f0f0f0f0fULL) << (8 * (8 - len + fx->pt));
	return 0;
}

/*
 * Tests and fuzzers set this to read with the one-cell path alone, to
 * check the two-cell one against it (csvread.c reads it whenever it plans
 * the columns: on opening, on a change of type or of the columns asked for).
 */
extern bool wfw_csv_no_pairs;

/*
 * The numbers of two wfw_fixed_word() words, divided by da and db (powers
 * of ten, or 1): a = ma / da, b = mb / db, each correctly rounded.
 */
static inline __attribute__((always_inline)) void
wfw_pair_div(uint64_t wa, uint64_t wb, double da, double db, double *a, double *b)
{
#ifdef __SSE2__
	__m128i x = _mm_set_epi64x((long long)wb, (long long)wa);
	__m128d v;

	/* Digit pairs in 16-bit lanes (the first the low byte): 10 d0 + d1. */
	x = _mm_srli_epi16(_mm_mullo_epi16(x, wfw_vk.tens), 8);
	/* Pairs of pairs in 32-bit lanes: 100 p0 + p1. */
	x = _mm_madd_epi16(x, wfw_vk.hundreds);
	/* Each word's two halves (below 10^4: they pack to 16 bits exactly). */
	x = _mm_madd_epi16(_mm_packs_epi32(x, x), wfw_vk.tenk);
	v = _mm_div_pd(_mm_cvtepi32_pd(x), _mm_set_pd(db, da));
	_mm_storel_pd(a, v);
	_mm_storeh_pd(b, v);
#else
	*a = (double)wfw_swar_digits(wa, 8) / da;
	*b = (double)wfw_swar_digits(wb, 8) / db;
#endif
}

/* Bit i set when p[i] is ',', CR or LF, i < 64 (p[0..64) readable). */
static inline uint64_t wfw_delims64(const char *p)
{
	uint64_t m = 0;

	for (int k = 0; k < 64; k += 16) {
#ifdef __SSE2__
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + k));
		__m128i s = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(',')),
					 _mm_cmpeq_epi8(x, _mm_set1_epi8('\n')));

		s = _mm_or_si128(s, _mm_cmpeq_epi8(x, _mm_set1_epi8('\r')));
		m |= (uint64_t)(unsigned)_mm_movemask_epi8(s) << k;
#else
		for (int i = 0; i < 16; i++)
			m |= (uint64_t)wfw_field_delim(p[k + i]) << (k + i);
#endif
	}
	return m;
}

/* True when p[0..n) holds a quote, n <= 16 (p[0..16) readable). */
static inline int wfw_quote16(const char *p, int n)
{
#ifdef __SSE2__
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (_mm_movemask_epi8(_mm_cmpeq_epi8(x, wfw_vk.quote)) &
		((1 << n) - 1)) != 0;
#else
	return memchr(p, '"', (size_t)n) != NULL;
#endif
}

/* True when p[0..n) holds a quote, n <= 32 (p[0..32) readable). */
static inline int wfw_quote32(const char *p, int n)
{
	return wfw_quote16(p, n < 16 ? n : 16) || (n > 16 && wfw_quote16(p + 16, n - 16));
}

#endif
