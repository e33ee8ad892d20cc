/* SPDX-License-Identifier: MIT */
/*
 * lib/datafmt/csvfmt_blk.c, csvfmt_cols.c: CSV rows formatted straight
 * from a binary block's chunks print exactly what the snprintf-based
 * reference prints for the decoded cells (floats), what the integer
 * formatter prints (INT), and what the row formatter prints for the
 * whole row: scaled decimals at every scale 0..9, negative values, k
 * near 10^15, values below 1e-4, empty cells, NaN and infinities; short
 * non-negative chunks (loops that test no cell), constant columns
 * (chunks of width 0), an enum name longer than a slot (row by row).
 * Fixed-point text of any integer equals printf's.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/binblock.h"
#include "datafmt/csvfmt.h"
#include "datafmt/csvfmt_blk.h"
#include "datafmt/csvfmt_fixed.h"

#define ROWS	150	/* more than two tiles */

static const char *const states[] = { "C1", "C6", "a,b" };
static const struct wultfw_column cols[] = {
	{ "Dec", "", WULTFW_COL_FLOAT, 0, NULL, 0 },		/* scaled decimals */
	{ "Lat", "us", WULTFW_COL_INT, 1000, NULL, 0 },		/* with empty cells */
	{ "Cnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "State", "", WULTFW_COL_ENUM, 0, states, 3 },
	{ "Nano", "s", WULTFW_COL_INT, 1000000000, NULL, 0 },	/* 9 decimals */
	{ "Raw", "", WULTFW_COL_FLOAT, 0, NULL, 0 },		/* not decimals */
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))
static const struct wultfw_schema schema = { NCOLS, cols };

/* k for a scaled decimal: edges of the fast path and random ones. */
static int64_t dec_k(uint64_t r, unsigned s)
{
	static const int64_t edges[] = {
		0, 1, 9, 10, 100, 999999999999999LL, 1000000000000000LL,
		1000000000000001LL, 999999999999990LL, 123456789012345LL,
		99999999, 100000000, 100000001, 12340000,
	};
	int64_t k;

	switch (r % 6) {
	case 0:
		k = edges[(r >> 8) % (sizeof(edges) / sizeof(edges[0]))];
		break;
	case 1:	/* around 1e-4 */
		k = s >= 4 ? (int64_t)wfw_pow10_int[s - 4] + (int64_t)((r >> 8) % 3) - 1 : 1;
		break;
	case 2:	/* trailing zeros to strip */
		k = (int64_t)((r >> 8) % 100000) * (int64_t)wfw_pow10_int[(r >> 40) % 4];
		break;
	default: /* any length up to 15 digits */
		k = (int64_t)((r >> 8) % wfw_pow10_int[1 + (r >> 56) % 15]);
		break;
	}
	return (r >> 63) ? -k : k;
}

static int64_t int_cell(uint64_t r)
{
	int64_t v = (int64_t)((r >> 8) % wfw_pow10_int[1 + (r >> 56) % 18]);

	if (r % 11 == 0)
		return WULTFW_CELL_EMPTY;
	return (r >> 63) ? -v : v;
}

static double raw_cell(uint64_t r)
{
	static const union wultfw_cell empty = { .i = WULTFW_FLOAT_EMPTY_BITS };

	switch (r % 7) {
	case 0: return NAN;
	case 1: return empty.f;
	case 2: return (r & 256) ? INFINITY : -INFINITY;
	case 3: return ldexp((double)(r >> 11), -(int)((r >> 3) % 90));
	default: return (double)(r % 100000) / 7.0;
	}
}

/* Column-major cells of one block; column 0 at scale s exactly. */
static void fill(union wultfw_cell *v, unsigned s, uint64_t *state, int enum_empty)
{
	for (size_t r = 0; r < ROWS; r++) {
		uint64_t x = wultfw_rand64(state);

		v[0 * ROWS + r].f = (double)dec_k(x, s) / pow(10, s);
		v[1 * ROWS + r].i = int_cell(wultfw_rand64(state));
		v[2 * ROWS + r].i = (int64_t)(x % 2000) - 1000;
		v[3 * ROWS + r].i = enum_empty && r % 3 == 0 ? -1 : (int64_t)(x % 3);
		v[4 * ROWS + r].i = int_cell(wultfw_rand64(state));
		v[5 * ROWS + r].f = raw_cell(wultfw_rand64(state));
	}
	v[0].f = 1 / pow(10, s);	/* the scale is s, not less */
	v[1 * ROWS + 2].i = WULTFW_CELL_EMPTY;	/* FOR_EMPTY */
	if (s)
		v[1].f = (s & 1 ? -3.0 : 3.0) / pow(10, s);
}

/*
 * The same with short, non-negative numbers (chunks of at most 3 bytes,
 * as most chunks of a measurement are): the formatter's loops that test
 * no cell. Column 0's k is at least 10^(s-4), so it never needs an
 * exponent, and has every digit count up to 8.
 */
static void fill_small(union wultfw_cell *v, unsigned s, uint64_t *state, int i)
{
	const int64_t lo = s > 4 ? (int64_t)wfw_pow10_int[s - 4] : 0;

	fill(v, s, state, 0);
	for (size_t r = 0; r < ROWS; r++) {
		uint64_t x = wultfw_rand64(state);
		int64_t k = lo + (int64_t)((x >> 8) % wfw_pow10_int[1 + (x >> 56) % 7]);

		if (x % 5 == 0)	/* trailing zeros to strip */
			k = lo + (int64_t)((x >> 8) % 1000) * (int64_t)wfw_pow10_int[(x >> 40) % 5];
		v[0 * ROWS + r].f = (double)k / pow(10, s);
		v[1 * ROWS + r].i = (int64_t)((x >> 20) % 16000000);
		v[2 * ROWS + r].i = (int64_t)(x % 2000);
	}
	if (i % 4 == 0)	/* a constant column: chunks of width 0 */
		for (size_t r = 0; r < ROWS; r++)
			v[2 * ROWS + r].i = 7;
	v[0].f = (double)(lo + 1) / pow(10, s);	/* the scale is s, not less */
}

/* The text the reference formatters give for one cell. */
static size_t ref_cell(const struct wultfw_column *col, union wultfw_cell c, char *out)
{
	switch (col->type) {
	case WULTFW_COL_FLOAT:
		return c.i == WULTFW_FLOAT_EMPTY_BITS ? 0 : wfw_csv_fmt_float_slow(out, c.f);
	case WULTFW_COL_INT:
		return c.i == WULTFW_CELL_EMPTY ? 0 :
		       wfw_csv_fmt_int(out, c.i, col->divisor,
				       col->divisor == 1 ? 0 : col->divisor == 1000 ? 3 : 9);
	default:
		return c.i < 0 ? 0 : (size_t)sprintf(out, "%s", c.i == 2 ? "\"a,b\"" : states[c.i]);
	}
}

/* The rows by the reference formatters; returns the length. */
static size_t ref_rows(const union wultfw_cell *rows, size_t n, char *out)
{
	char *p = out;

	for (size_t r = 0; r < n; r++) {
		for (size_t c = 0; c < NCOLS; c++) {
			p += ref_cell(&cols[c], rows[r * NCOLS + c], p);
			*p++ = c + 1 < NCOLS ? ',' : '\n';
		}
	}
	return (size_t)(p - out);
}

/*
 * Some rows of the block picked (a selection, every third row left out,
 * across tiles): the same text as the row formatter's for those rows.
 * rows: the block's decoded rows from row `first`. 0 when they agree.
 */
static int check_pick(struct wfw_csvfmt *f, struct wfw_csvfmt_blk *fb,
		      const struct wfw_blk_col *bc, const union wultfw_cell *rows,
		      size_t first, size_t n)
{
	static union wultfw_cell sub[ROWS * NCOLS];
	static char want[1 << 16], got[1 << 16];
	uint32_t pick[ROWS];
	size_t k = 0, a, b;

	for (size_t r = 0; r < n; r++) {
		if ((r * 7 + first) % 3 == 0)
			continue;
		pick[k] = (uint32_t)(first + r);
		memcpy(&sub[k++ * NCOLS], &rows[r * NCOLS], NCOLS * sizeof(*rows));
	}
	a = wfw_csvfmt_rows(f, want, sub, k);
	b = wfw_csvfmt_blk_pick(fb, bc, NULL, pick, k, got);
	if (a == b && !memcmp(want, got, a))
		return 0;
	printf("\npicked rows:\nwant %.*s\ngot  %.*s", (int)a, want, (int)b, got);
	return 1;
}

/* Encode one block, parse it, format it both ways; 0 when all agree. */
static int check_block(struct wfw_csvfmt *f, struct wfw_csvfmt_blk *fb,
		       const union wultfw_cell *v, unsigned s, bool small)
{
	static unsigned char blk[1 << 16];
	static union wultfw_cell rows[ROWS * NCOLS];
	static char want[1 << 16], got[1 << 16], ref[1 << 16];
	struct wfw_blk_col bc[NCOLS];
	struct wfw_blk_hdr h;
	char err[256];
	size_t len = wfw_blk_encode(&schema, v, ROWS, ROWS, blk), a, b, c;
	size_t first = s % 3, n = ROWS - first;	/* also from inside the block */

	CU_ASSERT_FATAL(len + WFW_BLK_SLACK <= sizeof(blk));
	CU_ASSERT_FATAL(wfw_blk_hdr_parse(blk, NCOLS, ROWS, &h) == 0);
	CU_ASSERT_FATAL(wfw_blk_parse(&schema, blk + WFW_BLK_HDR_LEN, h.len, h.rows,
				      bc, err, sizeof(err)) == 0);
	/* The float column is stored as scaled decimals at scale s. */
	CU_ASSERT_EQUAL(bc[0].enc, WFW_ENC_DEC);
	CU_ASSERT_EQUAL(bc[0].scale, s);
	CU_ASSERT_EQUAL(bc[1].enc, small ? WFW_ENC_FOR : WFW_ENC_FOR_EMPTY);
	wfw_blk_decode(bc, NCOLS, first, n, rows);
	a = ref_rows(rows, n, want);
	b = wfw_csvfmt_blk_rows(fb, bc, NULL, first, n, got);
	c = wfw_csvfmt_rows(f, ref, rows, n);
	if (a == b && b == c && !memcmp(want, got, a) && !memcmp(ref, got, a))
		return check_pick(f, fb, bc, rows, first, n);
	printf("\nscale %u:\nwant %.*s\ngot  %.*s\nrows %.*s", s, (int)a, want,
	       (int)b, got, (int)c, ref);
	return 1;
}

/*
 * 300 random blocks at every scale through the block formatter against the
 * row formatter: small, the loops for short non-negative chunks.
 */
static void blocks_match(uint64_t state, bool small)
{
	static union wultfw_cell v[ROWS * NCOLS];
	struct wfw_csvfmt f;
	struct wfw_csvfmt_blk fb;
	char err[256];
	int bad = 0;

	CU_ASSERT_FATAL(wfw_csvfmt_init(&f, &schema, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(wfw_csvfmt_blk_init(&fb, &f) == 0);
	for (unsigned s = 0; s <= 9; s++) {
		for (int i = 0; i < 300 && bad < 3; i++) {
			if (small)
				fill_small(v, s, &state, i);
			else
				fill(v, s, &state, i & 1);
			bad += check_block(&f, &fb, v, s, small);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	wfw_csvfmt_blk_free(&fb);
	wfw_csvfmt_free(&f);
}

static void test_blk_rows_match(void)
{
	blocks_match(2026, false);
}

static void test_blk_rows_small(void)
{
	blocks_match(14, true);
}

/* Selected columns (filter --metrics): output column j is input map[j]. */
static void test_blk_rows_map(void)
{
	static const size_t map[] = { 5, 0, 3 };
	static const struct wultfw_column out_cols[] = { cols[5], cols[0], cols[3] };
	static const struct wultfw_schema out = { 3, out_cols };
	static union wultfw_cell v[ROWS * NCOLS], rows[ROWS * NCOLS], proj[ROWS * 3];
	static unsigned char blk[1 << 16];
	static char want[1 << 15], got[1 << 15];
	struct wfw_blk_col bc[NCOLS];
	struct wfw_blk_hdr h;
	struct wfw_csvfmt f;
	struct wfw_csvfmt_blk fb;
	uint64_t state = 7;
	char err[256];
	size_t a, b;

	fill(v, 3, &state, 1);
	wfw_blk_encode(&schema, v, ROWS, ROWS, blk);
	CU_ASSERT_FATAL(wfw_blk_hdr_parse(blk, NCOLS, ROWS, &h) == 0);
	CU_ASSERT_FATAL(wfw_blk_parse(&schema, blk + WFW_BLK_HDR_LEN, h.len, h.rows,
				      bc, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(wfw_csvfmt_init(&f, &out, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(wfw_csvfmt_blk_init(&fb, &f) == 0);
	wfw_blk_decode(bc, NCOLS, 0, ROWS, rows);
	for (size_t r = 0; r < ROWS; r++)
		for (size_t j = 0; j < 3; j++)
			proj[r * 3 + j] = rows[r * NCOLS + map[j]];
	a = wfw_csvfmt_rows(&f, want, proj, ROWS);
	b = wfw_csvfmt_blk_rows(&fb, bc, map, 0, ROWS, got);
	CU_ASSERT_EQUAL(a, b);
	CU_ASSERT(a == b && !memcmp(want, got, a));
	wfw_csvfmt_blk_free(&fb);
	wfw_csvfmt_free(&f);
}

/* An enum name longer than a slot: the block is printed row by row. */
static void test_blk_rows_long_name(void)
{
	static const char *const names[] = { "C1", "a C-state name longer than a slot" };
	static const struct wultfw_column lcols[] = {
		{ "Dec", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "State", "", WULTFW_COL_ENUM, 0, names, 2 },
		{ "Cnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	};
	static const struct wultfw_schema ls = { 3, lcols };
	static union wultfw_cell v[ROWS * 3], rows[ROWS * 3];
	static unsigned char blk[1 << 16];
	static char want[1 << 15], got[1 << 15];
	struct wfw_blk_col bc[3];
	struct wfw_blk_hdr h;
	struct wfw_csvfmt f;
	struct wfw_csvfmt_blk fb;
	uint64_t state = 30;
	char err[256];
	size_t a, b;

	for (size_t r = 0; r < ROWS; r++) {
		uint64_t x = wultfw_rand64(&state);

		v[r].f = (double)dec_k(x, 3) / 1000;
		v[ROWS + r].i = (int64_t)(x % 3) - 1;
		v[2 * ROWS + r].i = (int64_t)(x >> 40) - 5000;
	}
	wfw_blk_encode(&ls, v, ROWS, ROWS, blk);
	CU_ASSERT_FATAL(wfw_blk_hdr_parse(blk, 3, ROWS, &h) == 0);
	CU_ASSERT_FATAL(wfw_blk_parse(&ls, blk + WFW_BLK_HDR_LEN, h.len, h.rows,
				      bc, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(wfw_csvfmt_init(&f, &ls, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(wfw_csvfmt_blk_init(&fb, &f) == 0);
	wfw_blk_decode(bc, 3, 0, ROWS, rows);
	a = wfw_csvfmt_rows(&f, want, rows, ROWS);
	b = wfw_csvfmt_blk_rows(&fb, bc, NULL, 0, ROWS, got);
	CU_ASSERT(a == b && !memcmp(want, got, a));
	CU_ASSERT(memmem(got, b, names[1], strlen(names[1])) != NULL);
	wfw_csvfmt_blk_free(&fb);
	wfw_csvfmt_free(&f);
}

/* raw / 10^d by printf, the way csvfmt.h defines INT text. */
static size_t printf_int(char *out, int64_t raw, unsigned d)
{
	uint64_t mag = raw < 0 ? 0 - (uint64_t)raw : (uint64_t)raw;
	const char *sign = raw < 0 ? "-" : "";

	if (!d)
		return (size_t)sprintf(out, "%s%llu", sign, (unsigned long long)mag);
	return (size_t)sprintf(out, "%s%llu.%0*llu", sign, (unsigned long long)(mag / wfw_pow10_int[d]),
			       (int)d, (unsigned long long)(mag % wfw_pow10_int[d]));
}

/* Fixed-point text (INT cells of a block) equals printf's. */
static void test_fmt_int_matches(void)
{
	static const int64_t edges[] = {
		0, 1, -1, 9, 10, 99999999, 100000000, -100000000,
		9999999999999999LL, 10000000000000000LL, -9999999999999999LL,
		-10000000000000000LL, INT64_MAX, INT64_MIN, INT64_MIN + 1,
	};
	uint64_t state = 99;
	char a[48], b[48];
	int bad = 0;

	for (int i = 0; i < 400000 && bad < 5; i++) {
		uint64_t r = wultfw_rand64(&state);
		unsigned d = (unsigned)(r % 10);
		int64_t raw = i < 15 * 10 ? edges[i / 10] : (int64_t)((r >> 8) % wfw_pow10_int[(r >> 56) % 19]);

		if (i < 150)
			d = (unsigned)(i % 10);
		else if (r >> 63)
			raw = -raw;
		if (raw <= -(int64_t)WFW_FIXED_LIMIT || raw >= (int64_t)WFW_FIXED_LIMIT ||
		    d > WFW_FIXED_MAX_SCALE)
			continue;
		a[wfw_fmt_fixed16(a, raw, d, false)] = '\0';
		b[printf_int(b, raw, d)] = '\0';
		if (strcmp(a, b)) {
			bad++;
			printf("\n  %lld / 10^%u: %s, printf %s", (long long)raw, d, a, b);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("csvfmt_blk", NULL, NULL);
	CU_add_test(s, "block rows equal the reference at every scale", test_blk_rows_match);
	CU_add_test(s, "block rows of short non-negative numbers", test_blk_rows_small);
	CU_add_test(s, "block rows of selected columns", test_blk_rows_map);
	CU_add_test(s, "block rows with an enum name longer than a slot", test_blk_rows_long_name);
	CU_add_test(s, "fixed-point text equals printf's", test_fmt_int_matches);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
