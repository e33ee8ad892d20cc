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

/* Counts around the 8-bit counters' wrap, and many times past it. */
static const uint64_t wraps[] = { 1, 255, 256, 257, 511, 512, 513, 767,
				  65535, 65536, 65537, 100000 };
#define NW (sizeof(wraps) / sizeof(wraps[0]))

static uint64_t bucket_count(const struct wfw_hist *h, double x)
{
	uint64_t u, key;

	memcpy(&u, &x, sizeof(u));
	key = u >> (52 - WFW_HIST_SUB_BITS);
	if (!h->oct[key >> WFW_HIST_SUB_BITS])
		return 0;
	return h->wide[key >> WFW_HIST_SUB_BITS][key & (WFW_HIST_SUBS - 1)] +
	       h->oct[key >> WFW_HIST_SUB_BITS][key & (WFW_HIST_SUBS - 1)];
}

/* wraps[j] copies of x[j], shuffled; returns how many. */
static size_t wrap_values(double *v, const double *x)
{
	size_t n = 0;

	for (size_t j = 0; j < NW; j++)
		for (uint64_t c = 0; c < wraps[j]; c++)
			v[n++] = x[j];
	for (size_t i = n - 1; i > 0; i--) {
		size_t r = next64() % (i + 1);
		double t = v[i];

		v[i] = v[r];
		v[r] = t;
	}
	return n;
}

enum path { BY_ONE, WINDOW, WINDOW_SQ, KNOWN_OCTAVES };

/* v[0..n) into h in blocks of random size, counted the way `path` says. */
static void add_blocks(struct wfw_hist *h, const double *v, size_t n,
		       enum path path)
{
	for (size_t i = 0, b; i < n; i += b) {
		double lo = INFINITY, hi = -INFINITY;
		struct wfw_hist_sq sq = { .mean = 1 };
		int ret;

		b = 1 + next64() % 3000;
		b = b < n - i ? b : n - i;
		for (size_t j = i; j < i + b; j++) {
			lo = v[j] < lo ? v[j] : lo;
			hi = v[j] > hi ? v[j] : hi;
		}
		if (path == KNOWN_OCTAVES)	/* too wide for the window */
			hi = ldexp(1.0, 80);
		if (path == BY_ONE)
			ret = wfw_hist_add_many(h, v + i, b);
		else
			ret = wfw_hist_add_range(h, v + i, b, lo, hi, NAN, false,
						 path == WINDOW_SQ ? &sq : NULL);
		CU_ASSERT_EQUAL_FATAL(ret, 0);
	}
}

/* Every count exact whichever way the values were counted. */
static void test_carry_exact(void)
{
	static double v[300000];
	double x[NW];

	for (enum path path = BY_ONE; path <= KNOWN_OCTAVES; path++) {
		struct wfw_hist h;
		size_t n;

		wfw_hist_init(&h);
		for (size_t j = 0; j < NW; j++)	/* one bucket each, 3 octaves */
			x[j] = ldexp(1 + (double)j / 16, (int)(j % 3));
		n = wrap_values(v, x);
		/* every octave to 2^80 exists (other buckets) */
		if (path == KNOWN_OCTAVES)
			for (int e = 0; e <= 80; e++)
				CU_ASSERT_EQUAL_FATAL(wfw_hist_add(&h, ldexp(1.96875, e)), 0);
		add_blocks(&h, v, n, path);
		CU_ASSERT(path != WINDOW || h.win != NULL);
		CU_ASSERT(path != KNOWN_OCTAVES || h.win == NULL);
		for (size_t j = 0; j < NW; j++)
			CU_ASSERT_EQUAL(bucket_count(&h, x[j]), wraps[j]);
		CU_ASSERT_EQUAL(h.count, n + (path == KNOWN_OCTAVES ? 81 : 0));
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
	CU_add_test(s, "8-bit counters carry exactly on every path", test_carry_exact);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
