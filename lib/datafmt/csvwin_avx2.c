/* SPDX-License-Identifier: MIT */
/*
 * The window path with AVX2: the 64 bytes after a row's start are split
 * into delimiter bits 32 bytes a compare, in half the instructions of
 * SSE2's 16. Built on x86-64 by GCC or clang (function attributes, no
 * -mavx2 for the whole build); csvwin.c runs it only on a CPU with AVX2.
 */
#include "config.h"

#include "datafmt/csvwin.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define WIN_TARGET	__attribute__((target("avx2")))

/* Bytes of x that are ',', CR or LF, as 0xff. */
static inline __attribute__((always_inline)) WIN_TARGET __m256i
delims32(__m256i x)
{
	__m256i s = _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(',')),
				    _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n')));

	return _mm256_or_si256(s, _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\r')));
}

/* wfw_delims64() 32 bytes at a time. */
static inline __attribute__((always_inline)) WIN_TARGET uint64_t
delims64_avx2(const char *p)
{
	__m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
	__m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
	uint32_t a = (uint32_t)_mm256_movemask_epi8(delims32(lo));
	uint32_t b = (uint32_t)_mm256_movemask_epi8(delims32(hi));

	return (uint64_t)b << 32 | a;
}

#define WIN_DELIMS64(p)	delims64_avx2(p)
#include "datafmt/csvwin_row.h"

static WIN_TARGET uint64_t scan(const char *p)
{
	return delims64_avx2(p);
}

WFW_WIN_ROWS(wfw_win_rows_avx2, "avx2", scan);
#endif
