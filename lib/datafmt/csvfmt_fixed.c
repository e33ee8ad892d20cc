/* SPDX-License-Identifier: MIT */
/* The digit table of csvfmt_fixed.h, made by the compiler. */
#include "config.h"

#include "datafmt/csvfmt_fixed.h"

/* "dddd" of i as a little-endian word: the first digit in the lowest byte. */
#define D4(i)	((uint32_t)('0' + (i) / 1000) | (uint32_t)('0' + (i) / 100 % 10) << 8 | \
		 (uint32_t)('0' + (i) / 10 % 10) << 16 | (uint32_t)('0' + (i) % 10) << 24)
#define T1(b)	D4(b), D4(b + 1), D4(b + 2), D4(b + 3), D4(b + 4), \
		D4(b + 5), D4(b + 6), D4(b + 7), D4(b + 8), D4(b + 9)
#define T2(b)	T1(b), T1(b + 10), T1(b + 20), T1(b + 30), T1(b + 40), \
		T1(b + 50), T1(b + 60), T1(b + 70), T1(b + 80), T1(b + 90)
#define T3(b)	T2(b), T2(b + 100), T2(b + 200), T2(b + 300), T2(b + 400), \
		T2(b + 500), T2(b + 600), T2(b + 700), T2(b + 800), T2(b + 900)

const uint32_t wfw_digits4[10000] = {
	T3(0), T3(1000), T3(2000), T3(3000), T3(4000),
	T3(5000), T3(6000), T3(7000), T3(8000), T3(9000),
};
