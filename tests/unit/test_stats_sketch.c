/* SPDX-License-Identifier: MIT */
/*
 * lib/stats/sketch.c: every percentile of synthetic distributions within
 * the stated relative error (WFW_HIST_REL_ERROR) of the exact one, merging
 * two parts like counting them whole, and the few bytes a small group costs.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

#include "stats/hist.h"
#include "stats/sketch.h"

#define N 20000

static uint64_t rng = 123456789;

static uint64_t next64(void)	/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double urand(void)	/* uniform in (0, 1) */
{
	return ((double)(next64() >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* numpy's "linear" percentile of sorted v[0..n). */
static double exact_pct(const double *v, size_t n, double p)
{
	double h = (double)(n - 1) * (p / 100.0);
	size_t r = (size_t)h;

	if (r + 1 >= n)
		return v[n - 1];
	return v[r] + (h - (double)r) * (v[r + 1] - v[r]);
}

static const double pcts[] = { 0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };

/* Every percentile of v (one sign) within the bound; v gets sorted. */
static void check(double *v, size_t n, bool integers)
{
	struct wfw_sketch k;

	wfw_sketch_init(&k);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL_FATAL(wfw_sketch_add(&k, v[i]), 0);
	qsort(v, n, sizeof(*v), cmp);
	CU_ASSERT_EQUAL(k.count, n);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		double want = exact_pct(v, n, pcts[i]);
		double got = wfw_sketch_pct(&k, pcts[i], integers);
		double slack = fabs(want) * (WFW_HIST_REL_ERROR + 1e-12);

		if (!(fabs(got - want) <= slack))
			fprintf(stderr, "p%g: %.17g, exact %.17g\n", pcts[i], got, want);
		CU_ASSERT(fabs(got - want) <= slack);
	}
	wfw_sketch_free(&k);
}

static void test_distributions(void)
{
	static double v[N];

	for (size_t i = 0; i < N; i++)	/* uniform */
		v[i] = 1 + 999 * urand();
	check(v, N, false);
	for (size_t i = 0; i < N; i++)	/* exponential, a long tail */
		v[i] = -50 * log(urand());
	check(v, N, false);
	for (size_t i = 0; i < N; i++)	/* log-normal over many octaves */
		v[i] = exp(3 * sqrt(-2 * log(urand())) * cos(6.283185307179586 * urand()));
	check(v, N, false);
	for (size_t i = 0; i < N; i++)	/* negative latencies' differences */
		v[i] = -(0.001 + 1e4 * urand() * urand());
	check(v, N, false);
	for (size_t i = 0; i < N; i++)	/* raw ns: under 512 exact */
		v[i] = (double)(next64() % 100000);
	check(v, N, true);
	for (size_t i = 0; i < 3; i++)	/* a group of three */
		v[i] = 10.0 * (double)(i + 1);
	check(v, 3, false);
}

static void test_small_ints_exact(void)
{
	struct wfw_sketch k;

	wfw_sketch_init(&k);
	for (int i = 0; i < 500; i++)
		CU_ASSERT_EQUAL_FATAL(wfw_sketch_add(&k, (double)(i % 50)), 0);
	for (uint64_t r = 0; r < 500; r++)
		CU_ASSERT_EQUAL(wfw_sketch_rank(&k, r, true), (double)(r / 10));
	wfw_sketch_free(&k);
}

static void test_merge(void)
{
	struct wfw_sketch a, b, all;

	wfw_sketch_init(&a);
	wfw_sketch_init(&b);
	wfw_sketch_init(&all);
	for (int i = 0; i < 5000; i++) {
		double x = (urand() - 0.3) * 1e3;

		CU_ASSERT_EQUAL_FATAL(wfw_sketch_add(i % 3 ? &a : &b, x), 0);
		CU_ASSERT_EQUAL_FATAL(wfw_sketch_add(&all, x), 0);
	}
	CU_ASSERT_EQUAL_FATAL(wfw_sketch_merge(&a, &b), 0);
	CU_ASSERT_EQUAL(a.count, all.count);
	CU_ASSERT_EQUAL(a.n, all.n);
	CU_ASSERT_EQUAL(a.min, all.min);
	CU_ASSERT_EQUAL(a.max, all.max);
	for (uint32_t i = 0; i < a.n && i < all.n; i++)
		CU_ASSERT_EQUAL(a.e[i], all.e[i]);
	wfw_sketch_free(&a);
	wfw_sketch_free(&b);
	wfw_sketch_free(&all);
}

static void test_small_and_empty(void)
{
	struct wfw_sketch k;

	wfw_sketch_init(&k);
	CU_ASSERT(isnan(wfw_sketch_pct(&k, 50, false)));
	CU_ASSERT(isnan(wfw_sketch_rank(&k, 0, false)));
	CU_ASSERT_EQUAL(wfw_sketch_add(&k, 0.0), 0);
	CU_ASSERT_EQUAL(wfw_sketch_add(&k, -0.0), 0);
	CU_ASSERT_EQUAL(wfw_sketch_add(&k, 7.25), 0);
	CU_ASSERT_EQUAL(wfw_sketch_pct(&k, 50, false), 0.0);
	CU_ASSERT_EQUAL(wfw_sketch_pct(&k, 100, false), 7.25);
	CU_ASSERT(wfw_sketch_bytes(&k) <= 32);	/* not the histogram's 70 KiB */
	wfw_sketch_free(&k);
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("sketch", NULL, NULL);
	CU_add_test(s, "percentiles within the stated bound", test_distributions);
	CU_add_test(s, "small whole numbers exact", test_small_ints_exact);
	CU_add_test(s, "merging parts counts like the whole", test_merge);
	CU_add_test(s, "empty, zeros, a few values", test_small_and_empty);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
