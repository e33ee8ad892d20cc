/* SPDX-License-Identifier: MIT */
/*
 * An accumulator whose pool hands out sketches (lib/stats/acc_sketch.c):
 * the same percentiles, bit for bit, as one with a histogram (the same
 * buckets), whether it left exact mode for a sketch, turned its histogram
 * into one, was merged into another or scaled; in less memory.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

#include "stats/acc_sketch.h"
#include "stats/stats.h"
#include "testutil.h"

#define N 20000
#define LIMIT 100

static const double pcts[] = { 0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };
#define NP (sizeof(pcts) / sizeof(pcts[0]))

static double vals[N];

/* Latency-like values of both signs, some repeated (lcg: repeatable). */
static void fill(void)
{
	uint64_t s = 42;

	for (size_t i = 0; i < N; i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		vals[i] = exp((double)(s >> 40) / (double)(1 << 24) * 8.0) - 20.0;
		if (i % 7 == 0)
			vals[i] = 3.0;
	}
}

static void same_pcts(struct wfw_acc *a, struct wfw_acc *b)
{
	double x[NP], y[NP];

	CU_ASSERT_EQUAL_FATAL(wfw_acc_percentiles(a, pcts, NP, x), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_acc_percentiles(b, pcts, NP, y), 0);
	for (size_t i = 0; i < NP; i++)
		CU_ASSERT_EQUAL(x[i], y[i]);
	CU_ASSERT_EQUAL(a->n, b->n);
	CU_ASSERT_EQUAL(a->mean, b->mean);
	CU_ASSERT_EQUAL(a->m2, b->m2);
}

static void test_pool_hands_out_sketch(void)
{
	struct wfw_acc h, k;
	struct wfw_acc_pool ph = { 0 }, pk = { 0 };

	wfw_acc_init(&h, LIMIT, false);
	wfw_acc_init(&k, LIMIT, false);
	wfw_acc_pool_init(&ph, 1 << 20, LIMIT, &h, 1);
	wfw_acc_pool_init(&pk, 1 << 20, LIMIT, &k, 1);
	pk.sketch = true;
	for (size_t i = 0; i < N; i += 1000) {
		CU_ASSERT_EQUAL(wfw_acc_add_many(&h, vals + i, 1000), 0);
		CU_ASSERT_EQUAL(wfw_acc_add_many(&k, vals + i, 1000), 0);
	}
	CU_ASSERT(h.hist && !h.sketch);
	CU_ASSERT(k.sketch);
	same_pcts(&h, &k);
	CU_ASSERT(wfw_acc_bytes(&k) < wfw_acc_bytes(&h));
	wfw_acc_free(&h);
	wfw_acc_free(&k);
}

static void test_hist_becomes_sketch(void)
{
	struct wfw_acc h, k;

	wfw_acc_init(&h, LIMIT, false);
	wfw_acc_init(&k, LIMIT, false);
	CU_ASSERT_EQUAL(wfw_acc_add_many(&h, vals, N), 0);
	CU_ASSERT_EQUAL(wfw_acc_add_many(&k, vals, N), 0);
	CU_ASSERT_EQUAL(wfw_acc_to_sketch(&k), 0);
	CU_ASSERT(k.sketch && !h.sketch);
	same_pcts(&h, &k);
	/* scaled (a column turned FLOAT): still the histogram's estimates */
	CU_ASSERT_EQUAL(wfw_acc_scale(&h, 1, 1000, false), 0);
	CU_ASSERT_EQUAL(wfw_acc_scale(&k, 1, 1000, false), 0);
	same_pcts(&h, &k);
	wfw_acc_free(&h);
	wfw_acc_free(&k);
}

/* Exact, histogram and sketch parts merged: as the histogram's merge. */
static void test_merge(void)
{
	struct wfw_acc part[3], all_h, all_k;

	for (int i = 0; i < 3; i++) {
		wfw_acc_init(&part[i], i ? LIMIT : N, false);
		CU_ASSERT_EQUAL(wfw_acc_add_many(&part[i], vals + i * (N / 3), N / 3), 0);
	}
	wfw_acc_init(&all_h, LIMIT, false);
	wfw_acc_init(&all_k, LIMIT, false);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(wfw_acc_merge(&all_h, &part[i]), 0);
	CU_ASSERT_EQUAL(wfw_acc_to_sketch(&part[2]), 0);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(wfw_acc_merge(&all_k, &part[i]), 0);
	CU_ASSERT(all_k.sketch && !all_h.sketch);
	same_pcts(&all_h, &all_k);
	for (int i = 0; i < 3; i++)
		wfw_acc_free(&part[i]);
	wfw_acc_free(&all_h);
	wfw_acc_free(&all_k);
}

int main(void)
{
	CU_pSuite s;

	fill();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("acc_sketch", NULL, NULL);
	CU_add_test(s, "a pool's sketch: the histogram's percentiles", test_pool_hands_out_sketch);
	CU_add_test(s, "a histogram turned sketch, scaled too", test_hist_becomes_sketch);
	CU_add_test(s, "exact, histogram and sketch parts merged", test_merge);
	return tu_run();
}
