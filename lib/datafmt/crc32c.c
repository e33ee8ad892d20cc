/* SPDX-License-Identifier: MIT */
/* CRC-32C: SSE 4.2 instruction when present, slicing-by-8 table otherwise. */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "datafmt/crc32c.h"

#define CRC32C_POLY 0x82F63B78u

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* table[k][b]: the CRC of byte b followed by k zero bytes. */
static void table_init(void)
{
	for (uint32_t b = 0; b < 256; b++) {
		uint32_t c = b;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? CRC32C_POLY ^ (c >> 1) : c >> 1;
		table[0][b] = c;
	}
	for (uint32_t b = 0; b < 256; b++)
		for (int k = 1; k < 8; k++)
			table[k][b] = (table[k - 1][b] >> 8) ^
				      table[0][table[k - 1][b] & 0xff];
}

static uint64_t load_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

uint32_t wfw_crc32c_table(uint32_t crc, const void *p, size_t n)
{
	const unsigned char *b = p;

	pthread_once(&table_once, table_init);
	crc = ~crc;
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t v = load_le64(b) ^ crc;

		crc = table[7][v & 0xff] ^ table[6][(v >> 8) & 0xff] ^
		      table[5][(v >> 16) & 0xff] ^ table[4][(v >> 24) & 0xff] ^
		      table[3][(v >> 32) & 0xff] ^ table[2][(v >> 40) & 0xff] ^
		      table[1][(v >> 48) & 0xff] ^ table[0][v >> 56];
	}
	while (n--)
		crc = table[0][(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <nmmintrin.h>

/*
 * The crc32 instruction takes 3 cycles but can start one a cycle: three
 * streams of STRIPE bytes each run side by side, then are joined. The CRC
 * register after more bytes is the register times x^(8 * bytes) mod P
 * plus the CRC of those bytes alone, so joining is a multiplication by the
 * constant x^(8 * STRIPE), done with 4 tables of 256 (stripe[][]).
 */
#define STRIPE 2048
static uint32_t stripe[4][256];

/* c * x^bits mod P, reflected: a shift right per bit, reduced. */
static uint32_t shift_bits(uint32_t c, size_t bits)
{
	while (bits--)
		c = (c & 1) ? CRC32C_POLY ^ (c >> 1) : c >> 1;
	return c;
}

/*
 * stripe[k][b]: byte b at byte k of the register, times x^(8 * STRIPE).
 * Linear in the bits: bit j (x^(31 - j), reflected) maps to the image of
 * x^0 shifted by 31 - j more bits.
 */
static void stripe_init(void)
{
	uint32_t one = shift_bits(0x80000000u, 8 * STRIPE), img[32];

	for (unsigned j = 0; j < 32; j++)
		img[j] = shift_bits(one, 31 - j);
	for (unsigned k = 0; k < 4; k++)
		for (uint32_t b = 0; b < 256; b++) {
			uint32_t v = 0;

			for (unsigned j = 0; j < 8; j++)
				v ^= (b >> j & 1) ? img[8 * k + j] : 0;
			stripe[k][b] = v;
		}
}

static inline uint32_t past_stripe(uint32_t c)
{
	return stripe[0][c & 0xff] ^ stripe[1][(c >> 8) & 0xff] ^
	       stripe[2][(c >> 16) & 0xff] ^ stripe[3][c >> 24];
}

__attribute__((target("sse4.2")))
static uint64_t crc_run(uint64_t c, const unsigned char *b, size_t n)
{
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t v;

		memcpy(&v, b, 8);	/* the instruction takes it little-endian */
		c = _mm_crc32_u64(c, v);
	}
	while (n--)
		c = _mm_crc32_u8((uint32_t)c, *b++);
	return c;
}

__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t c = ~crc;

	for (; n >= 3 * STRIPE; n -= 3 * STRIPE, b += 3 * STRIPE) {
		uint64_t c1 = 0, c2 = 0;

		for (size_t i = 0; i < STRIPE; i += 8) {
			uint64_t v0, v1, v2;

			memcpy(&v0, b + i, 8);
			memcpy(&v1, b + STRIPE + i, 8);
			memcpy(&v2, b + 2 * STRIPE + i, 8);
			c = _mm_crc32_u64(c, v0);
			c1 = _mm_crc32_u64(c1, v1);
			c2 = _mm_crc32_u64(c2, v2);
		}
		c = past_stripe(past_stripe((uint32_t)c) ^ (uint32_t)c1) ^ (uint32_t)c2;
	}
	return ~(uint32_t)crc_run(c, b, n);
}

static uint32_t (*crc32c_impl)(uint32_t, const void *, size_t);
static pthread_once_t impl_once = PTHREAD_ONCE_INIT;

static void impl_pick(void)
{
	stripe_init();
	crc32c_impl = __builtin_cpu_supports("sse4.2") ? crc32c_sse42
						       : wfw_crc32c_table;
}

uint32_t wfw_crc32c(uint32_t crc, const void *p, size_t n)
{
	pthread_once(&impl_once, impl_pick);
	return crc32c_impl(crc, p, n);
}
#else
uint32_t wfw_crc32c(uint32_t crc, const void *p, size_t n)
{
	return wfw_crc32c_table(crc, p, n);
}
#endif
