/* SPDX-License-Identifier: MIT */
/*
 * lib/stats/hist.c on its own: the one-walk rank lookup against a
 * reference computed from the sorted values, and the 8-bit counters'
 * carries into the wide ones, through every counting path.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "stats/hist.h"

static uint64_t rng = 987654321;

static uint64_t next64(void)	/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double urand(void)	/* uniform in [0, 1) */
{
	return (double)(next64() >> 11) / 9007199254740992.0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The middle of x's bucket, from its bits (see hist.h), signed like x. */
static double ref_bucket_value(double x)
{
	int shift = 52 - WFW_HIST_SUB_BITS;
	uint64_t u, key;
	double lo, hi, m;

	memcpy(&u, &x, sizeof(u));
	key = (u & ~(1ULL << 63)) >> shift;
	if (!key)
		return 0.0;
	u = key << shift;
	memcpy(&lo, &u, sizeof(lo));
	u = (key + 1) << shift;
	memcpy(&hi, &u, sizeof(hi));
	m = lo + (hi - lo) / 2;
	return signbit(x) ? -m : m;
}

/* Random values over a few octaves of either sign, with zeros and repeats. */
static void gen(double *v, size_t n, int emin, int espan, bool neg)
{
	for (size_t i = 0; i < n; i++) {
		double u = urand();

		if (u < 0.02)
			v[i] = 0.0;
		else if (u < 0.2 && i)
			v[i] = v[i - 1];
		else
			v[i] = ldexp(1 + urand(), emin + (int)(urand() * espan)) *
			       (neg && urand() < 0.4 ? -1 : 1);
	}
}

/* n ranks in [0, count), ascending, with repeats and both ends. */
static void pick_ranks(uint64_t *k, size_t n, uint64_t count)
{
	for (size_t i = 0; i < n; i++)
		k[i] = i == 0 ? 0 : i == 1 ? count - 1 : next64() % count;
	for (size_t i = 1; i < n; i++) {	/* insertion sort */
		uint64_t x = k[i];
		size_t j = i;

		for (; j && k[j - 1] > x; j--)
			k[j] = k[j - 1];
		k[j] = x;
	}
}

/*
 * One walk for many ranks gives what the sorted values' buckets say, as
 * does the lookup of each rank alone.
 */
static void test_rank_values(void)
{
	enum { MAXN = 60000, NK = 40 };
	static double v[MAXN];
	uint64_t k[NK + 1];
	double out[NK + 1];

	for (int round = 0; round < 200; round++) {
		size_t n = 1 + next64() % MAXN;
		struct wfw_hist h;

		wfw_hist_init(&h);
		gen(v, n, -20 + (int)(next64() % 40), 1 + (int)(next64() % 12),
		    round % 2);
		CU_ASSERT_EQUAL_FATAL(wfw_hist_add_many(&h, v, n), 0);
		qsort(v, n, sizeof(v[0]), cmp);
		pick_ranks(k, NK, n);
		k[NK] = n;	/* past the end: NaN */
		wfw_hist_rank_values(&h, k, NK + 1, false, out);
		for (size_t i = 0; i < NK; i++) {
			double want = ref_bucket_value(v[k[i]]);

			if (out[i] != want)
				printf("\n  round %d rank %llu of %zu: got %.17g want %.17g\n",
				       round, (unsigned long long)k[i], n, out[i], want);
			CU_ASSERT_EQUAL(out[i], want);
			CU_ASSERT_EQUAL(wfw_hist_rank_value(&h, k[i], false), want);
		}
		CU_ASSERT(isnan(out[NK]));
		wfw_hist_free(&h);
	}
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("hist", NULL, NULL);
	CU_add_test(s, "ranks in one walk as from the sorted values", test_rank_values);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
