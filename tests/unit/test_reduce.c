/* SPDX-License-Identifier: MIT */
/* Report downsampling: counts preserved, no tail point lost. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/reduce.h"
#include "testutil.h"

#define N 200000

static float xs[N], ys[N];

/* A fixed pseudo-random long-tailed sample. */
static void make_data(void)
{
	srand(3);
	for (size_t i = 0; i < N; i++) {
		double u = (rand() + 1.0) / (RAND_MAX + 2.0);

		xs[i] = (float)(rand() % 1000);
		ys[i] = (float)(10 - 3 * log(u));	/* exponential tail */
	}
}

static void test_scatter_small_is_exact(void)
{
	struct wfw_wpoint *p;
	size_t n;

	CU_ASSERT_EQUAL(wfw_reduce_scatter(xs, ys, 1000, 5000, 0, 100, &p, &n), 0);
	CU_ASSERT_EQUAL(n, 1000);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(p[i].weight, 1);
		CU_ASSERT_EQUAL(p[i].x, xs[i]);
		CU_ASSERT_EQUAL(p[i].y, ys[i]);
	}
	free(p);
}

static void test_scatter_keeps_tail_and_counts(void)
{
	struct wfw_wpoint *p;
	size_t n, tail = 0, found = 0;
	uint64_t sum = 0;
	double ytail = 10 - 3 * log(0.01);	/* about p99 */

	CU_ASSERT_EQUAL(wfw_reduce_scatter(xs, ys, N, 10000, ytail, 150, &p, &n), 0);
	CU_ASSERT(n < N / 5);
	for (size_t i = 0; i < n; i++)
		sum += p[i].weight;
	CU_ASSERT_EQUAL(sum, N);
	/* Every datapoint above ytail is there as itself, weight 1. */
	for (size_t i = 0; i < N; i++) {
		if (ys[i] <= ytail)
			continue;
		tail++;
		for (size_t k = 0; k < n; k++) {
			if (p[k].weight == 1 && p[k].x == xs[i] && p[k].y == ys[i]) {
				found++;
				break;
			}
		}
	}
	CU_ASSERT(tail > N / 200);
	CU_ASSERT_EQUAL(found, tail);
	/* Cells stand for points below the tail only. */
	for (size_t k = 0; k < n; k++)
		if (p[k].weight > 1)
			CU_ASSERT(p[k].y <= ytail);
	free(p);
}

/*
 * Issue 29: a y of -inf with every point a "tail" point (-inf is not
 * above -inf) wrote through the NULL grid; NaN and infinities cast to a
 * cell index. Points a plot cannot place are left out, dense or not.
 */
static void test_scatter_non_finite(void)
{
	const float x[] = { 1, 2, NAN, 4, INFINITY, 6, 7, 8 };
	const float y[] = { -INFINITY, 2, 3, INFINITY, 5, NAN, 7, -8 };
	struct wfw_wpoint *p;
	uint64_t sum = 0;
	size_t n;

	for (size_t budget = 0; budget <= 8; budget += 8) {
		CU_ASSERT_EQUAL_FATAL(wfw_reduce_scatter(x, y, 8, budget, 0, 4, &p, &n), 0);
		for (size_t i = 0; i < n; i++) {
			CU_ASSERT(isfinite(p[i].x) && isfinite(p[i].y));
			sum += p[i].weight;
		}
		CU_ASSERT_EQUAL(sum, 3);	/* (2, 2), (7, 7), (8, -8) */
		sum = 0;
		free(p);
	}
	CU_ASSERT_EQUAL_FATAL(wfw_reduce_scatter(x, y, 1, 5, -INFINITY, 4, &p, &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	free(p);
}

static void test_histogram_counts(void)
{
	uint64_t counts[65], sum = 0;
	struct wfw_bins b;
	float v[5] = { 1, 2, NAN, 3, 9 };
	float lo = ys[0], hi = ys[0];

	for (size_t i = 1; i < N; i++) {
		lo = ys[i] < lo ? ys[i] : lo;
		hi = ys[i] > hi ? ys[i] : hi;
	}
	/* the maximum nearer than twice p99.9's distance: bins to it */
	wfw_reduce_bins(lo, (lo + hi) / 2 + 1, hi, 2, 64, &b);
	CU_ASSERT_EQUAL(b.hi, hi);
	wfw_reduce_histogram_at(ys, N, &b, counts);
	for (int i = 0; i < 64; i++)
		sum += counts[i];
	CU_ASSERT_EQUAL(counts[64], 0);	/* none over */
	CU_ASSERT_EQUAL(sum, N);
	CU_ASSERT(counts[0] >= 1 && counts[63] >= 1);	/* min and max */
	wfw_reduce_bins(1, 9, 9, 2, 4, &b);
	wfw_reduce_histogram_at(v, 5, &b, counts);
	CU_ASSERT_EQUAL(counts[4], 0);
	CU_ASSERT_DOUBLE_EQUAL(b.lo, 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(b.width, 2, 1e-9);
	CU_ASSERT_EQUAL(counts[0], 2);	/* 1, 2 */
	CU_ASSERT_EQUAL(counts[1], 1);	/* 3 */
	CU_ASSERT_EQUAL(counts[2], 0);
	CU_ASSERT_EQUAL(counts[3], 1);	/* 9; NaN not counted */
	/* all values alike: one bin holds them */
	wfw_reduce_bins(5, 5, 5, 2, 4, &b);
	CU_ASSERT_EQUAL(b.hi, 5);
	CU_ASSERT_EQUAL(b.width, 1);
}

/*
 * A bulk of 10 000 values in [10, 20) and 7 far outliers (an SMI of
 * 500 us among wakeups of 10 us): equal bins over [min, max] put the
 * whole bulk in one bin of 64. Bins up to twice p99.9's distance from
 * the minimum spread it over about half of them, and count exactly the
 * outliers above the last bin.
 */
static void test_histogram_over(void)
{
	static float v[10007];
	uint64_t counts[65], sum = 0;
	size_t used = 0;
	struct wfw_bins b;

	for (size_t i = 0; i < 10000; i++)
		v[i] = 10.0f + (float)(i % 1000) / 100.0f;
	for (size_t i = 0; i < 7; i++)
		v[10000 + i] = 500.0f + (float)i;
	/* p99.9 of these (numpy's linear interpolation): 19.99 */
	wfw_reduce_bins(10, 19.99, 506, 2, 64, &b);
	CU_ASSERT_EQUAL(b.lo, 10);
	CU_ASSERT_EQUAL(b.hi, 29.98f);
	CU_ASSERT_DOUBLE_EQUAL(b.width, (29.98f - 10) / 64, 1e-12);
	wfw_reduce_histogram_at(v, 10007, &b, counts);
	CU_ASSERT_EQUAL(counts[64], 7);
	for (int i = 0; i < 64; i++) {
		sum += counts[i];
		used += counts[i] > 0;
	}
	CU_ASSERT_EQUAL(sum, 10000);
	CU_ASSERT(used >= 32);
	CU_ASSERT_EQUAL(counts[0], 320);	/* [10, 10.3122): 10.00 .. 10.31 */
	/* the old bins: over [min, max], one bin holds the bulk */
	wfw_reduce_bins(10, 506, 506, 2, 64, &b);
	wfw_reduce_histogram_at(v, 10007, &b, counts);
	CU_ASSERT_EQUAL(counts[64], 0);
	CU_ASSERT_EQUAL(counts[0] + counts[1], 10000);
}

/* Parts binned in the whole's bins (per C-state) add up to the whole. */
static void test_histogram_parts(void)
{
	static float part[2][N];
	uint64_t whole[65], a[65], b[65];
	size_t n[2] = { 0, 0 };
	struct wfw_bins bins;

	for (size_t i = 0; i < N; i++)
		part[i % 3 == 0][n[i % 3 == 0]++] = ys[i];
	/* p99.9 of an exponential of mean 3 after 10: 10 + 3 ln 1000 */
	wfw_reduce_bins(10, 10 + 3 * log(1000), 60, 1.5, 64, &bins);
	wfw_reduce_histogram_at(ys, N, &bins, whole);
	CU_ASSERT(whole[64] > 0 && whole[64] < N / 1000);
	wfw_reduce_histogram_at(part[0], n[0], &bins, a);
	wfw_reduce_histogram_at(part[1], n[1], &bins, b);
	for (int i = 0; i <= 64; i++)
		CU_ASSERT_EQUAL(a[i] + b[i], whole[i]);
}

/* Values outside the bins, infinities and NaNs: no index out of them. */
static void test_histogram_extremes(void)
{
	float v[6] = { -INFINITY, -1e30f, 0.5f, 1e30f, INFINITY, NAN };
	uint64_t counts[5];
	struct wfw_bins b;

	wfw_reduce_bins(0, 1, 2, 2, 4, &b);
	wfw_reduce_histogram_at(v, 6, &b, counts);
	CU_ASSERT_EQUAL(counts[0], 2);	/* below lo: the first bin */
	CU_ASSERT_EQUAL(counts[1], 1);
	CU_ASSERT_EQUAL(counts[4], 2);	/* over */
	wfw_reduce_bins(-INFINITY, 1, INFINITY, 2, 4, &b);
	wfw_reduce_histogram_at(v, 6, &b, counts);
	CU_ASSERT_EQUAL(counts[0] + counts[1] + counts[2] + counts[3] + counts[4], 5);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

static void test_ccdf(void)
{
	static float sorted[N], x[4000];
	static double c[4000];
	size_t k;

	for (size_t i = 0; i < N; i++)
		sorted[i] = ys[i];
	qsort(sorted, N, sizeof(float), cmp_float);
	k = wfw_reduce_ccdf(sorted, N, 500, x, c, 4000);
	CU_ASSERT(k > 500 && k < 1500);
	CU_ASSERT_EQUAL(x[0], sorted[0]);
	CU_ASSERT_DOUBLE_EQUAL(c[0], 1, 1e-12);
	/* the 500 largest values, each with its exact share */
	for (size_t i = 0; i < 500; i++) {
		CU_ASSERT_EQUAL(x[k - 500 + i], sorted[N - 500 + i]);
		CU_ASSERT_DOUBLE_EQUAL(c[k - 500 + i], (500.0 - i) / N, 1e-12);
	}
	for (size_t i = 1; i < k; i++) {
		CU_ASSERT(x[i] >= x[i - 1]);
		CU_ASSERT(c[i] < c[i - 1]);
	}
	/* fewer values than the tail: all of them */
	CU_ASSERT_EQUAL(wfw_reduce_ccdf(sorted, 10, 500, x, c, 4000), 10);
	CU_ASSERT_DOUBLE_EQUAL(c[9], 0.1, 1e-12);
}

/* The radix sort against qsort: negatives, zeros of both signs, inf. */
static void test_sort_floats(void)
{
	static float a[N + 6], b[N + 6];
	size_t n = N + 6;

	for (size_t i = 0; i < N; i++)
		a[i] = (i % 3 ? 1 : -1) * ys[i] * (i % 7 ? 1.0f : 1e-30f);
	a[N] = 0.0f;
	a[N + 1] = -0.0f;
	a[N + 2] = INFINITY;
	a[N + 3] = -INFINITY;
	a[N + 4] = -1e38f;
	a[N + 5] = 1e-45f;		/* a denormal */
	memcpy(b, a, sizeof(a));
	qsort(b, n, sizeof(float), cmp_float);
	CU_ASSERT_EQUAL_FATAL(wfw_sort_floats(a, n), 0);
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])	/* -0.0 == 0.0, their order is free */
			CU_FAIL_FATAL("wfw_sort_floats disagrees with qsort");
	for (size_t i = 1; i < n; i++)
		CU_ASSERT(a[i - 1] <= a[i]);
	CU_ASSERT_EQUAL(wfw_sort_floats(a, 0), 0);
	CU_ASSERT_EQUAL(wfw_sort_floats(a, 1), 0);
}

int main(void)
{
	CU_pSuite s;

	make_data();
	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("reduce", NULL, NULL);
	CU_add_test(s, "small scatter kept whole", test_scatter_small_is_exact);
	CU_add_test(s, "scatter: tail kept, counts preserved", test_scatter_keeps_tail_and_counts);
	CU_add_test(s, "scatter: NaN and infinities left out", test_scatter_non_finite);
	CU_add_test(s, "histogram counts", test_histogram_counts);
	CU_add_test(s, "histogram: far outliers over the bins", test_histogram_over);
	CU_add_test(s, "histograms of parts", test_histogram_parts);
	CU_add_test(s, "histogram: infinities and NaNs", test_histogram_extremes);
	CU_add_test(s, "ccdf tail and shares", test_ccdf);
	CU_add_test(s, "radix sort of floats", test_sort_floats);
	return tu_run();
}
