/* SPDX-License-Identifier: MIT */
/*
 * lib/stats: percentiles against exact sorted quantiles (below and above the
 * exact limit, on random and adversarial data), mean and standard
 * deviation, bounded memory.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "stats/stats.h"

static const double pcts[] = { 0, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99,
			       99.999, 100 };
#define NPCTS (sizeof(pcts) / sizeof(pcts[0]))

static uint64_t rng = 12345;

static double urand(void)	/* uniform in (0, 1) */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Reference: sort a copy, interpolate like numpy/pandas "linear". */
static double ref_pct(const double *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p / 100.0;
	size_t k = (size_t)floor(h);

	if (k + 1 >= n)
		return sorted[n - 1];
	return sorted[k] + (h - (double)k) * (sorted[k + 1] - sorted[k]);
}

/*
 * Feed v[] in chunks of odd size (exercising the block merge), compare
 * every percentile with the sorted reference within rel (0: exactly, up
 * to rounding), and mean/stddev with a long double two-pass reference.
 */
static void check(const double *v, size_t n, size_t limit, bool ints,
		  double rel, bool want_exact)
{
	struct wfw_acc a;
	double *s = malloc(n * sizeof(*s));
	long double sum = 0, sq = 0, mean;
	size_t i = 0;

	CU_ASSERT_FATAL(s != NULL);
	wfw_acc_init(&a, limit, ints);
	while (i < n) {
		size_t c = (i * 7 + 1) % 1000 + 1;

		if (c > n - i)
			c = n - i;
		CU_ASSERT_EQUAL_FATAL(wfw_acc_add_many(&a, v + i, c), 0);
		i += c;
	}
	CU_ASSERT_EQUAL(a.n, n);
	CU_ASSERT_EQUAL(wfw_acc_exact(&a), want_exact);
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp);
	CU_ASSERT_EQUAL(a.min, s[0]);
	CU_ASSERT_EQUAL(a.max, s[n - 1]);
	for (i = 0; i < NPCTS; i++) {
		double ref = ref_pct(s, n, pcts[i]);
		double got = wfw_acc_percentile(&a, pcts[i]);
		double tol = fabs(ref) * (rel ? rel : 1e-12) + 1e-12;

		if (!(fabs(got - ref) <= tol))
			printf("\n  p%g: got %.17g want %.17g (rel %.3g)\n",
			       pcts[i], got, ref, fabs(got - ref) / fabs(ref));
		CU_ASSERT(fabs(got - ref) <= tol);
	}
	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	CU_ASSERT(fabs(a.mean - (double)mean) <= 1e-9 * fabsl(mean) + 1e-12);
	if (n > 1) {
		double sd = sqrt((double)(sq / (n - 1)));

		CU_ASSERT(fabs(wfw_acc_stddev(&a) - sd) <= 1e-9 * sd + 1e-12);
	}
	wfw_acc_free(&a);
	free(s);
}

#define N 200000

/* Each generator fills v[N]; ints: whole numbers like raw nanoseconds. */
static void gen_uniform(double *v)
{
	for (size_t i = 0; i < N; i++)
		v[i] = floor(1000 + urand() * 4000000);	/* 1 us - 4 ms in ns */
}

static void gen_constant(double *v)
{
	for (size_t i = 0; i < N; i++)
		v[i] = 14123;
}

static void gen_two_spikes(double *v)
{
	for (size_t i = 0; i < N; i++)
		v[i] = urand() < 0.999 ? 15000 : 9600000;	/* 15 us, 9.6 ms */
}

static void gen_heavy_tail(double *v)	/* Pareto, alpha 1.1 */
{
	for (size_t i = 0; i < N; i++)
		v[i] = floor(10000.0 / pow(urand(), 1 / 1.1));
}

static void gen_float_mixed(double *v)	/* signed, fractional, with zeros */
{
	for (size_t i = 0; i < N; i++) {
		double u = urand();

		v[i] = u < 0.01 ? 0.0 : (u - 0.3) * 1e3 * urand();
	}
}

static void run_gen(void (*gen)(double *), bool ints)
{
	double *v = malloc(N * sizeof(*v));

	CU_ASSERT_FATAL(v != NULL);
	gen(v);
	check(v, N, N, ints, 0, true);		/* all kept: exact */
	check(v, N, N / 10, ints, WFW_HIST_REL_ERROR, false);
	check(v, N, 0, ints, WFW_HIST_REL_ERROR, false);
	free(v);
}

static void test_uniform(void) { run_gen(gen_uniform, true); }
static void test_constant(void) { run_gen(gen_constant, true); }
static void test_two_spikes(void) { run_gen(gen_two_spikes, true); }
static void test_heavy_tail(void) { run_gen(gen_heavy_tail, true); }

static void test_float_mixed(void)
{
	double *v = malloc(N * sizeof(*v));
	double got, ref;
	struct wfw_acc a;
	double *s;

	CU_ASSERT_FATAL(v != NULL);
	gen_float_mixed(v);
	check(v, N, N, false, 0, true);
	/*
	 * Mixed signs: the bound holds per order statistic, so check ranks
	 * (p such that h is whole) rather than interpolations across zero.
	 */
	wfw_acc_init(&a, 10, false);
	CU_ASSERT_EQUAL(wfw_acc_add_many(&a, v, N), 0);
	s = malloc(N * sizeof(*s));
	CU_ASSERT_FATAL(s != NULL);
	memcpy(s, v, N * sizeof(*s));
	qsort(s, N, sizeof(*s), cmp);
	for (size_t k = 1; k < N - 1; k += 9973) {
		double p = 100.0 * (double)k / (N - 1);

		ref = s[k];
		got = wfw_acc_percentile(&a, p);
		CU_ASSERT(fabs(got - ref) <= fabs(ref) * WFW_HIST_REL_ERROR
			  + 1e-6);
	}
	wfw_acc_free(&a);
	free(s);
	free(v);
}

/* A bucket narrower than 1 holds one integer: small ints come out exact. */
static void test_small_ints_exact(void)
{
	struct wfw_acc h, e;

	wfw_acc_init(&h, 0, true);
	wfw_acc_init(&e, 100000, true);
	for (int i = 0; i < 1000; i++) {
		CU_ASSERT_EQUAL(wfw_acc_add(&h, (double)(i % 300)), 0);
		CU_ASSERT_EQUAL(wfw_acc_add(&e, (double)(i % 300)), 0);
	}
	CU_ASSERT_FALSE(wfw_acc_exact(&h));
	CU_ASSERT_TRUE(wfw_acc_exact(&e));
	for (int k = 1; k < 999; k += 7) {
		double p = 100.0 * k / 999;

		CU_ASSERT_EQUAL(wfw_acc_percentile(&h, p),
				wfw_acc_percentile(&e, p));
	}
	/* 0..99 four times, 100..299 three times: rank 499 and 500 are 133 */
	CU_ASSERT_EQUAL(wfw_acc_percentile(&h, 50), 133.0);
	wfw_acc_free(&h);
	wfw_acc_free(&e);
}

/* Mean of values far from zero: the naive sum of squares would cancel. */
static void test_moments_offset(void)
{
	struct wfw_acc a;

	wfw_acc_init(&a, 0, false);
	for (int i = 0; i < 1000000; i++)
		CU_ASSERT_EQUAL_FATAL(wfw_acc_add(&a, 1e9 + (i % 2 ? 1 : -1)),
				      0);
	CU_ASSERT(fabs(a.mean - 1e9) < 1e-6);
	CU_ASSERT(fabs(wfw_acc_stddev(&a) - sqrt(1000000.0 / 999999)) < 1e-6);
	wfw_acc_free(&a);
}

/* Memory depends on the range of values, not their number. */
static void test_memory_bounded(void)
{
	struct wfw_acc a;
	double buf[4096];
	size_t before;

	wfw_acc_init(&a, 1000, true);
	for (int r = 0; r < 100; r++) {
		for (size_t i = 0; i < 4096; i++)
			buf[i] = floor(2048 + urand() * 1e7);
		CU_ASSERT_EQUAL_FATAL(wfw_acc_add_many(&a, buf, 4096), 0);
	}
	before = wfw_acc_bytes(&a);
	for (int r = 0; r < 1000; r++) {
		for (size_t i = 0; i < 4096; i++)
			buf[i] = floor(2048 + urand() * 1e7);
		CU_ASSERT_EQUAL_FATAL(wfw_acc_add_many(&a, buf, 4096), 0);
	}
	CU_ASSERT_EQUAL(wfw_acc_bytes(&a), before);
	/* 2 us .. 10 ms spans 13 octaves of 4 KiB plus the index. */
	CU_ASSERT(before < 200 * 1024);
	CU_ASSERT_EQUAL(a.n, 1100 * 4096);
	wfw_acc_free(&a);
}

/* Merging two accumulators equals accumulating everything in one. */
static void test_merge(void)
{
	struct wfw_acc a, b, all, m;
	double v;

	wfw_acc_init(&a, 100, true);
	wfw_acc_init(&b, 100, true);
	wfw_acc_init(&all, 1000, true);
	wfw_acc_init(&m, 1000, true);
	for (int i = 0; i < 150; i++) {
		v = floor(urand() * 1e6);
		wfw_acc_add(i % 3 ? &a : &b, v);
		wfw_acc_add(&all, v);
	}
	CU_ASSERT_TRUE(wfw_acc_exact(&a));	/* 100 values: at the limit */
	CU_ASSERT_EQUAL(wfw_acc_merge(&m, &a), 0);
	CU_ASSERT_EQUAL(wfw_acc_merge(&m, &b), 0);
	CU_ASSERT_EQUAL(m.n, 150);
	CU_ASSERT_TRUE(wfw_acc_exact(&m));
	CU_ASSERT_DOUBLE_EQUAL(m.mean, all.mean, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(wfw_acc_stddev(&m), wfw_acc_stddev(&all), 1e-6);
	for (size_t i = 0; i < NPCTS; i++)
		CU_ASSERT_EQUAL(wfw_acc_percentile(&m, pcts[i]),
				wfw_acc_percentile(&all, pcts[i]));
	wfw_acc_free(&a);
	wfw_acc_free(&b);
	wfw_acc_free(&all);
	wfw_acc_free(&m);
}

static void test_empty(void)
{
	struct wfw_acc a;

	wfw_acc_init(&a, 10, true);
	CU_ASSERT(isnan(wfw_acc_percentile(&a, 50)));
	CU_ASSERT_EQUAL(wfw_acc_stddev(&a), 0.0);
	wfw_acc_free(&a);
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("stats", NULL, NULL);
	CU_add_test(s, "uniform", test_uniform);
	CU_add_test(s, "constant", test_constant);
	CU_add_test(s, "two spikes", test_two_spikes);
	CU_add_test(s, "heavy tail", test_heavy_tail);
	CU_add_test(s, "float, mixed signs", test_float_mixed);
	CU_add_test(s, "small integers exact", test_small_ints_exact);
	CU_add_test(s, "moments far from zero", test_moments_offset);
	CU_add_test(s, "memory bounded", test_memory_bounded);
	CU_add_test(s, "merge", test_merge);
	CU_add_test(s, "empty", test_empty);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
