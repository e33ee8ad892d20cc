/* SPDX-License-Identifier: MIT */
/*
 * Fixed-point text of an integer k with s decimals (k / 10^s) with few
 * branches: the 16 digits of |k| < 10^16 are put eight at a time in a
 * 64-bit word, and where the number starts and where its decimals end are
 * counted from those words. Cell lengths vary from row to row, so a
 * branch per digit mispredicts; counting does not.
 */
#ifndef WFW_CSVFMT_FIXED_H
#define WFW_CSVFMT_FIXED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WFW_FIXED_LIMIT		10000000000000000ULL	/* 10^16 */
#define WFW_FIXED_MAX_SCALE	8
/* Bytes written at the buffer, whatever the length returned. */
#define WFW_FIXED_SPAN		26

#define ASCII_ZEROS		0x3030303030303030ULL

/* The digits are made for little-endian stores. */
#define WFW_FIXED_OK	(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

/* "0000" to "9999" as 4 bytes each (little-endian). */
extern const uint32_t wfw_digits4[10000];

/*
 * The 8 digits of x < 10^8 as ASCII, the first in the lowest byte: two
 * loads from a table of 4-digit groups (40 KiB, in L1 or L2) need fewer
 * operations than making them with multiplies or from digit pairs.
 */
static inline uint64_t wfw_digits8(uint64_t x)
{
	/* x / 10000 for x < 10^8 (checked for all x) in one multiply */
	uint64_t a = (x * 109951163) >> 40, b = x - a * 10000;

	return wfw_digits4[a] | (uint64_t)wfw_digits4[b] << 32;
}

/* Leading '0' digits of the 16 digits hi, lo (at most 15: one stays). */
static inline unsigned lead_zeros16(uint64_t hi, uint64_t lo)
{
	uint64_t xh = hi ^ ASCII_ZEROS, xl = (lo ^ ASCII_ZEROS) | 1ULL << 63;

	return xh ? (unsigned)__builtin_ctzll(xh) >> 3
		  : 8 + ((unsigned)__builtin_ctzll(xl) >> 3);
}

/* Decimals printed of the last s digits of lo: trailing zeros cut, one kept. */
static inline unsigned frac_len(uint64_t lo, unsigned s)
{
	unsigned tz = (unsigned)__builtin_clzll((lo ^ ASCII_ZEROS) | 1) >> 3;
	unsigned n = tz < s ? s - tz : 0;

	return n ? n : 1;
}

/* The text's pieces at buf: '-', the integral digits, '.', the decimals. */
static inline __attribute__((always_inline)) size_t
put_fixed(char *buf, unsigned neg, uint64_t ip0, uint64_t ip1, unsigned ni,
	  uint64_t frac, unsigned nf)
{
	char *o = buf + neg;

	buf[0] = '-';	/* overwritten by the digits when not negative */
	memcpy(o, &ip0, 8);
	memcpy(o + 8, &ip1, 8);
	o[ni] = '.';
	memcpy(o + ni + 1, &frac, 8);
	return neg + ni + (nf ? 1 + nf : 0);
}

/* The decimals of lo's last s digits, or the "0" of an integral float's ".0". */
static inline uint64_t frac_word(uint64_t lo, unsigned s)
{
	return s ? lo >> (64 - 8 * s) : ASCII_ZEROS;
}

/*
 * mag < 10^8, s < 8: eight digits in one word, stored as two words: the
 * integral digits, then '.' and the decimals (at most 7) in one.
 */
static inline __attribute__((always_inline)) size_t
fixed8(char *buf, uint64_t mag, unsigned neg, unsigned s, bool strip)
{
	uint64_t lo = wfw_digits8(mag);
	unsigned lead = (unsigned)__builtin_ctzll((lo ^ ASCII_ZEROS) | 1ULL << 63) >> 3;
	unsigned start = lead < 7 - s ? lead : 7 - s, ni = 8 - s - start;
	unsigned nf = strip ? frac_len(lo, s) : s;
	uint64_t ip = lo >> (8 * start), fw = '.' | frac_word(lo, s) << 8;
	char *o = buf + neg;

	if (neg)
		buf[0] = '-';
	memcpy(o, &ip, 8);
	memcpy(o + ni, &fw, 8);
	return neg + ni + (nf ? 1 + nf : 0);
}

/* mag < 10^16: sixteen digits in two words. */
static inline __attribute__((always_inline)) size_t
fixed16(char *buf, uint64_t mag, unsigned neg, unsigned s, bool strip)
{
	uint64_t hi = wfw_digits8(mag / 100000000), lo = wfw_digits8(mag % 100000000);
	unsigned lead = lead_zeros16(hi, lo);
	unsigned start = lead < 15 - s ? lead : 15 - s;
	unsigned __int128 all = ((unsigned __int128)lo << 64 | hi) >> (8 * start);

	return put_fixed(buf, neg, (uint64_t)all, (uint64_t)(all >> 64), 16 - s - start,
			 frac_word(lo, s), strip ? frac_len(lo, s) : s);
}

/*
 * k / 10^s (|k| < 10^16, s <= 8) as "[-]I.F" into buf, which has
 * WFW_FIXED_SPAN bytes: I without leading zeros ("0" at least), F the s
 * decimals; strip: without trailing zeros but one ("1.5", "100.0"), else
 * all s (s 0: no point). Returns the length. The text is put together in
 * registers and stored in overlapping pieces: building it in memory and
 * loading it back at an offset would stall on store forwarding.
 */
static inline __attribute__((always_inline)) size_t
wfw_fmt_fixed16(char *buf, int64_t k, unsigned s, bool strip)
{
	uint64_t mag = k < 0 ? 0 - (uint64_t)k : (uint64_t)k;

	if (mag < 100000000 && s < 8)
		return fixed8(buf, mag, k < 0, s, strip);
	return fixed16(buf, mag, k < 0, s, strip);
}

#endif /* WFW_CSVFMT_FIXED_H */
