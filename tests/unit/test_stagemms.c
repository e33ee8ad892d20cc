/* SPDX-License-Identifier: MIT */
/*
 * lib/stats/stagemms.c: a stage filled in pieces of every size, through
 * an order or in a row, gives wfw_min_max_sum()'s extremes and sum of the
 * whole stage bit for bit (the moments calc prints depend on it), and
 * flushing through wfw_acc_flush_known() leaves an accumulator as
 * wfw_acc_flush() does; INT cells made numbers in place (calc
 * --include of a binary file) give the same numbers and sums; a column
 * with any value statistics leave out is told from one without.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "stats/stagemms.h"
#include "stats/stats.h"

#define STAGE 1024

static uint64_t rng = 123456789;

static uint64_t next64(void)	/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Values whose sum rounds differently in another order; zeros of both signs. */
static double value(void)
{
	switch (next64() % 8) {
	case 0:
		return 0.0;
	case 1:
		return -0.0;
	case 2:
		return (double)(next64() % 1000);
	default:
		return ((double)(int64_t)(next64() >> 11) - 0x1p52) * 0x1p-20 *
			(double)(1 + next64() % 1000000);
	}
}

static bool same_bits(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

/* One stage of `fill` values in pieces of 1..maxpiece, every other through an order. */
static void one_stage(size_t fill, size_t maxpiece)
{
	static union wultfw_cell col[4 * STAGE];
	static uint32_t order[STAGE];
	static double stage[STAGE], ref[STAGE];
	struct wfw_stage_mms g;
	double lo = INFINITY, hi = -INFINITY, l2, h2, sum, want;
	size_t at = 0;

	for (size_t i = 0; i < 4 * STAGE; i++)
		col[i].f = value();
	wfw_stage_mms_start(&g);
	for (int piece = 0; at < fill; piece++) {
		size_t k = 1 + next64() % maxpiece;

		k = k < fill - at ? k : fill - at;
		for (size_t i = 0; i < k; i++) {
			order[i] = (uint32_t)(next64() % (4 * STAGE));
			ref[at + i] = piece & 1 ? col[order[i]].f : col[at + i].f;
		}
		wfw_stage_mms_gather(&g, stage, piece & 1 ? col : col + at,
				     piece & 1 ? order : NULL, k);
		at += k;
	}
	CU_ASSERT_EQUAL(g.size, fill);
	CU_ASSERT(!memcmp(stage, ref, fill * sizeof(*ref)));
	want = wfw_min_max_sum(ref, fill, &lo, &hi);
	sum = wfw_stage_mms_end(&g, stage, &l2, &h2);
	CU_ASSERT(same_bits(sum, want));
	CU_ASSERT(same_bits(l2, lo));
	CU_ASSERT(same_bits(h2, hi));
}

static void test_pieces(void)
{
	for (size_t fill = 1; fill <= 40; fill++)
		for (size_t maxpiece = 1; maxpiece <= 9; maxpiece++)
			one_stage(fill, maxpiece);
	for (int i = 0; i < 200; i++)
		one_stage(1 + next64() % STAGE, 1 + next64() % 300);
}

/* Flushing with the stage's sums known equals flushing it plain. */
static void test_flush_known(void)
{
	struct wfw_acc a, b;
	double lo, hi, sum;

	wfw_acc_init(&a, 100, false);
	wfw_acc_init(&b, 100, false);
	for (int round = 0; round < 3; round++) {
		double *ta = wfw_acc_stage_n(&a, 77), *tb = wfw_acc_stage_n(&b, 77);

		CU_ASSERT_FATAL(ta && tb);
		for (int i = 0; i < 77; i++)
			ta[i] = tb[i] = (double)(next64() % 100000) / 7.0;
		wfw_acc_staged(&a, 77);
		wfw_acc_staged(&b, 77);
		lo = INFINITY;
		hi = -INFINITY;
		sum = wfw_min_max_sum(b.stage, b.nstage, &lo, &hi);
		CU_ASSERT_EQUAL(wfw_acc_flush(&a), 0);
		CU_ASSERT_EQUAL(wfw_acc_flush_known(&b, lo, hi, sum), 0);
		CU_ASSERT_EQUAL(a.n, b.n);
		CU_ASSERT(same_bits(a.mean, b.mean) && same_bits(a.m2, b.m2));
		CU_ASSERT(same_bits(a.min, b.min) && same_bits(a.max, b.max));
	}
	CU_ASSERT_EQUAL(wfw_acc_flush_known(&b, 0, 0, 0), 0);	/* nothing staged */
	CU_ASSERT_EQUAL(b.n, a.n);
	wfw_acc_free(&a);
	wfw_acc_free(&b);
}

/* One INT column, some rows kept (or all), maybe an empty cell among them. */
static void one_int_column(size_t n, bool all, bool with_empty)
{
	static union wultfw_cell col[STAGE], orig[STAGE];
	static uint32_t keep[STAGE];
	static double want[STAGE];
	struct wfw_run_sums s = { 0 };
	double lo = INFINITY, hi = -INFINITY, sum;
	size_t k = 0;
	bool empty = false;

	for (size_t i = 0; i < n; i++) {
		orig[i].i = (int64_t)(next64() % 2000001) - 1000000;
		if (with_empty && next64() % 16 == 0)
			orig[i].i = WULTFW_CELL_EMPTY;
		/* near the empty value, but not it: a number */
		if (next64() % 64 == 0)
			orig[i].i = WULTFW_CELL_EMPTY + 1;
		col[i] = orig[i];
		if (all || next64() % 3)
			keep[k++] = (uint32_t)i;
	}
	for (size_t i = 0; i < k; i++) {
		int64_t v = orig[keep[i]].i;

		empty |= v == WULTFW_CELL_EMPTY;
		want[i] = (double)v;
	}
	CU_ASSERT_EQUAL(wfw_int_nums_sums(col, all ? NULL : keep, k, &s), !empty);
	for (size_t i = 0; i < k; i++) {
		bool e = orig[keep[i]].i == WULTFW_CELL_EMPTY;

		CU_ASSERT(e ? col[i].i == WULTFW_FLOAT_EMPTY_BITS : same_bits(col[i].f, want[i]));
	}
	if (empty)
		return;
	sum = wfw_min_max_sum(want, k, &lo, &hi);
	CU_ASSERT(s.ok);
	CU_ASSERT(same_bits(s.sum, sum) && same_bits(s.lo, lo) && same_bits(s.hi, hi));
}

static void test_int_nums(void)
{
	for (size_t n = 0; n <= 24; n++)
		for (int e = 0; e < 2; e++) {
			one_int_column(n, true, e);
			one_int_column(n, false, e);
		}
	for (int i = 0; i < 100; i++)
		one_int_column(1 + next64() % STAGE, i & 1, i & 2);
}

/*
 * wfw_nums_all_ok() is wfw_value_ok() of every cell: each value statistics
 * leave out, alone at every place of every length up to 11 (both vector
 * chains and the tail), among values they take, the edges included.
 */
static void test_all_ok(void)
{
	const union wultfw_cell empty = { .i = WULTFW_FLOAT_EMPTY_BITS };
	const double good[] = { 0.0, -0.0, 1e-310, -1e-310, WFW_VALUE_MAX, -WFW_VALUE_MAX,
				1.5, -123456.789 };
	const double bad[] = { NAN, -NAN, empty.f, INFINITY, -INFINITY,
			       nextafter(WFW_VALUE_MAX, INFINITY),
			       -nextafter(WFW_VALUE_MAX, INFINITY), 1e300 };
	union wultfw_cell col[11] = { { 0 } };

	for (size_t n = 0; n <= 11; n++) {
		for (size_t i = 0; i < n; i++)
			col[i].f = good[(i + n) % 8];
		CU_ASSERT(wfw_nums_all_ok(col, n));
		for (size_t at = 0; at < n; at++) {
			for (size_t b = 0; b < 8; b++) {
				col[at].f = bad[b];
				CU_ASSERT(!wfw_nums_all_ok(col, n));
			}
			col[at].f = good[(at + n) % 8];
		}
	}
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("stagemms", NULL, NULL);
	CU_add_test(s, "pieces give wfw_min_max_sum() bit for bit", test_pieces);
	CU_add_test(s, "flush with known sums equals flush", test_flush_known);
	CU_add_test(s, "INT cells to numbers in place, with their sums", test_int_nums);
	CU_add_test(s, "all numbers statistics take: each one left out found", test_all_ok);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
