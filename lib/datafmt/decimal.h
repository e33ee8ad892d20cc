/* SPDX-License-Identifier: MIT */
/*
 * Doubles that are short decimals (12.345 as read from a CSV with three
 * decimals): the test that a double is exactly the one nearest k / 10^s,
 * shared by the binary format (which stores such floats as integers) and
 * the CSV formatter (which prints them from the integer).
 */
#ifndef WFW_DECIMAL_H
#define WFW_DECIMAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define WFW_DEC_MAX_SCALE	9

/* 10^0 .. 10^22: every power of ten a double holds exactly. */
static const double wfw_pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* 10^0 .. 10^19: every power of ten a uint64_t holds. */
static const uint64_t wfw_pow10_int[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

/*
 * x rounded to the nearest integer, for |x| < 2^51: adding 1.5 * 2^52
 * leaves no fraction bits, so the FPU rounds (to nearest, the default
 * mode) without a call into libm. C compilers keep (x + s) - s as written
 * unless told to reassociate (-ffast-math, never used here).
 */
static inline double wfw_round_small(double x)
{
	const double shift = 6755399441055744.0;	/* 1.5 * 2^52 */

	return (x + shift) - shift;
}

/*
 * Is v, bit for bit, the double nearest k / 10^scale for an integer k with
 * |k| < 2^51? Then *k is set. -0.0, NaN and infinities never are.
 */
static inline int wfw_dec_exact(double v, unsigned scale, int64_t *k)
{
	double x = v * wfw_pow10_exact[scale], r = wfw_round_small(x), back;

	if (!(fabs(x) < 2251799813685248.0))	/* 2^51; false for NaN */
		return 0;
	/* A cheap test first; the division decides. */
	if (fabs(x - r) > fabs(x) * 1e-12)
		return 0;
	back = r / wfw_pow10_exact[scale];
	if (memcmp(&back, &v, sizeof(v)))
		return 0;
	*k = (int64_t)r;
	return 1;
}

#endif /* WFW_DECIMAL_H */
