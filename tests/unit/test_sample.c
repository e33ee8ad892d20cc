/* SPDX-License-Identifier: MIT */
/* Report sampling: reservoir uniformity and merging, the top-k heap. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/reduce.h"
#include "report/sample.h"
#include "testutil.h"

#define NITEMS 1000
#define CAP 100
#define TRIALS 2000

/* One sample of CAP of NITEMS: which items it holds. */
static void sample_once(uint64_t seed, unsigned *held)
{
	struct wfw_reservoir r;
	unsigned slot_item[CAP];

	wfw_reservoir_init(&r, CAP, seed);
	for (unsigned i = 0; i < NITEMS; i++) {
		size_t s = wfw_reservoir_take(&r);

		if (s != SIZE_MAX) {
			CU_ASSERT(s < CAP);
			CU_ASSERT(i >= CAP || s == i);	/* filled in order first */
			slot_item[s] = i;
		}
	}
	for (unsigned s = 0; s < CAP; s++)
		held[slot_item[s]]++;
}

/* Every item is kept with probability CAP / NITEMS: 200 of 2000 times. */
static void test_reservoir_uniform(void)
{
	static unsigned held[NITEMS];
	unsigned lo = TRIALS, hi = 0, first = 0, last = 0;

	for (unsigned t = 0; t < TRIALS; t++)
		sample_once(t + 1, held);
	for (unsigned i = 0; i < NITEMS; i++) {
		lo = held[i] < lo ? held[i] : lo;
		hi = held[i] > hi ? held[i] : hi;
	}
	for (unsigned i = 0; i < 100; i++) {
		first += held[i];
		last += held[NITEMS - 1 - i];
	}
	/* Binomial(2000, 0.1): sd 13.4; 1000 items stay within 5 sd. */
	CU_ASSERT(lo >= 200 - 67);
	CU_ASSERT(hi <= 200 + 67);
	/* The first and last hundred alike: sum 20000, sd 134. */
	CU_ASSERT(abs((int)first - 20000) < 670);
	CU_ASSERT(abs((int)last - 20000) < 670);
}

/* Skipping what take() would pass over gives the same sample. */
static void test_reservoir_skip(void)
{
	struct wfw_reservoir a, b;
	size_t sa[50000], sb[50000];
	uint64_t i = 0;

	wfw_reservoir_init(&a, 1000, 42);
	wfw_reservoir_init(&b, 1000, 42);
	for (size_t k = 0; k < 50000; k++)
		sa[k] = wfw_reservoir_take(&a);
	while (i < 50000) {
		uint64_t n = wfw_reservoir_skip(&b, 50000 - i);

		for (uint64_t k = 0; k < n; k++)
			sb[i + k] = SIZE_MAX;
		wfw_reservoir_skipped(&b, n);
		i += n;
		if (i < 50000)
			sb[i++] = wfw_reservoir_take(&b);
	}
	CU_ASSERT_EQUAL(memcmp(sa, sb, sizeof(sa)), 0);
	/* Far fewer taken than offered: about cap * (1 + ln(n / cap)). */
	size_t taken = 0;

	for (size_t k = 0; k < 50000; k++)
		taken += sa[k] != SIZE_MAX;
	CU_ASSERT(taken > 1000 + 2000 && taken < 1000 + 6000);
}

/* Filling in runs of any length is taking one item after the other. */
static void test_reservoir_fill(void)
{
	struct wfw_reservoir a, b;
	size_t sa[5000], sb[5000];
	size_t i = 0, run = 1;

	wfw_reservoir_init(&a, 1000, 7);
	wfw_reservoir_init(&b, 1000, 7);
	for (size_t k = 0; k < 5000; k++)
		sa[k] = wfw_reservoir_take(&a);
	while (i < 5000) {
		size_t n = wfw_reservoir_fill(&b, run), want = 5000 - i;

		CU_ASSERT(n <= run);
		for (size_t k = 0; k < n; k++)
			sb[i + k] = i + k;
		i += n;
		if (n < run && i < 5000)	/* full: one by one from here */
			sb[i++] = wfw_reservoir_take(&b);
		run = run * 3 + 1 < want ? run * 3 + 1 : want;
	}
	CU_ASSERT_EQUAL(memcmp(sa, sb, sizeof(sa)), 0);
	CU_ASSERT_EQUAL(wfw_reservoir_fill(&b, 10), 0);
}

/*
 * One sequential sample of m of n: ascending, distinct, m of them; counts
 * each item chosen into held[], the first chosen into first[].
 */
static void seq_once(uint64_t seed, uint64_t n, uint64_t m, unsigned *held,
		     unsigned *first)
{
	struct wfw_seqsample q;
	uint64_t k = 0, last = 0;

	wfw_seqsample_init(&q, seed, n, m);
	first[q.next < n ? q.next : n]++;
	for (; q.next != UINT64_MAX; wfw_seqsample_advance(&q), k++) {
		CU_ASSERT(q.next < n);
		CU_ASSERT(!k || q.next > last);
		last = q.next;
		held[q.next < n ? q.next : 0]++;
	}
	CU_ASSERT_EQUAL(k, m);
}

/*
 * Every item is chosen m/n of the time (chi-square over the items, far
 * beyond what a biased gap law gives), and the first chosen one follows
 * the exact law P(first >= s) = prod_{i<s} (n - m - i) / (n - i).
 */
static void seq_check(uint64_t n, uint64_t m, unsigned trials)
{
	static unsigned held[4000], first[4001];
	double e = (double)trials * (double)m / (double)n, chi = 0, ge = 1;
	unsigned at_least = trials;

	memset(held, 0, sizeof(held));
	memset(first, 0, sizeof(first));
	for (unsigned t = 0; t < trials; t++)
		seq_once(1000 + t, n, m, held, first);
	for (uint64_t i = 0; i < n; i++)
		chi += (held[i] - e) * (held[i] - e) / e;
	/* n - 1 degrees of freedom: mean n - 1, sd sqrt(2 (n - 1)) */
	CU_ASSERT(chi < (double)n + 5 * sqrt(2.0 * (double)n));
	for (uint64_t s = 0; s < n - m && s < 200; s++) {
		double sd = sqrt((double)trials * ge * (1 - ge)) + 1;

		CU_ASSERT(fabs(at_least - trials * ge) < 5 * sd);
		at_least -= first[s];
		ge *= (double)(n - m - s) / (double)(n - s);
	}
}

/*
 * The first gap against its exact law P(S = s) = m/n prod_{i<s} (n - m -
 * i) / (n - 1 - i), chi-square over s: with m/n = 1/15 method D takes
 * some 5% of its gaps by its exact test, which this sees.
 */
static void seq_first_gap(uint64_t n, uint64_t m, unsigned trials)
{
	static unsigned count[1001];
	double ge = 1, chi = 0, dof = 0;	/* ge: P(S >= s) */
	unsigned rest = trials;
	struct wfw_seqsample q;

	memset(count, 0, sizeof(count));
	for (unsigned t = 0; t < trials; t++) {
		wfw_seqsample_init(&q, 77 + t, n, m);
		count[q.next <= 1000 ? q.next : 1000]++;
	}
	for (uint64_t s = 0; s <= n - m; s++) {
		double e = trials * ge * (double)m / (double)(n - s);

		if (e < 20)
			break;
		chi += (count[s] - e) * (count[s] - e) / e;
		dof++;
		rest -= count[s];
		ge -= e / trials;
	}
	chi += (rest - trials * ge) * (rest - trials * ge) / (trials * ge);
	CU_ASSERT(chi < dof + 5 * sqrt(2 * dof));
}

static void test_seqsample(void)
{
	seq_first_gap(300, 20, 400000);
	seq_check(4000, 40, 20000);	/* method D */
	seq_check(400, 2, 200000);	/* D, often by its exact test */
	seq_check(1000, 70, 5000);	/* D, then A once dense */
	seq_check(100, 50, 5000);	/* method A */
	seq_check(50, 50, 100);		/* all of them */
	seq_check(3000, 1, 30000);	/* one */
}

/* The merge takes from each part in proportion to its items. */
static void test_split(void)
{
	uint64_t rng = 9, sum = 0;

	for (unsigned t = 0; t < 1000; t++) {
		size_t k = wfw_reservoir_split(&rng, 3000, 1000, 400);

		CU_ASSERT(k <= 400);
		sum += k;
	}
	/* Hypergeometric mean 300, sd 8.2: the mean of 1000 within 1. */
	CU_ASSERT(sum > 299000 && sum < 301000);
	/* Fewer items than the sample: all of both. */
	CU_ASSERT_EQUAL(wfw_reservoir_split(&rng, 30, 50, 400), 30);
	CU_ASSERT_EQUAL(wfw_reservoir_split(&rng, 0, 5000, 400), 0);
	CU_ASSERT_EQUAL(wfw_reservoir_split(&rng, 5000, 0, 400), 400);
}

/* Choosing k of n one by one: exactly k, each item equally often. */
static void test_pick(void)
{
	unsigned count[50] = { 0 };
	uint64_t rng = 1;

	for (unsigned t = 0; t < 4000; t++) {
		size_t need = 10, left = 50, k = 0;

		for (size_t i = 0; i < 50; i++)
			if (wfw_pick_next(&rng, &need, &left)) {
				count[i]++;
				k++;
			}
		CU_ASSERT_EQUAL(k, 10);
		CU_ASSERT_EQUAL(left, 0);
	}
	/* Binomial(4000, 0.2): 800, sd 25; 50 items within 5 sd. */
	for (size_t i = 0; i < 50; i++)
		CU_ASSERT(count[i] > 800 - 125 && count[i] < 800 + 125);
}

/* Shrinking a full sample: still uniform over every item offered. */
static void test_shrink(void)
{
	static unsigned held[NITEMS];
	unsigned lo = TRIALS, hi = 0;

	for (unsigned t = 0; t < TRIALS; t++) {
		struct wfw_reservoir r;
		unsigned item[4 * CAP], i = 0;
		size_t need, left, j = 0;

		wfw_reservoir_init(&r, 4 * CAP, t + 7);
		for (; i < NITEMS / 2; i++) {
			size_t s = wfw_reservoir_take(&r);

			if (s != SIZE_MAX)
				item[s] = i;
		}
		need = wfw_reservoir_shrink(&r, CAP);
		CU_ASSERT_EQUAL(need, CAP);
		left = 4 * CAP;
		for (size_t s = 0; s < 4 * CAP; s++)
			if (wfw_pick_next(&r.rng, &need, &left))
				item[j++] = item[s];
		for (; i < NITEMS; i++) {
			size_t s = wfw_reservoir_take(&r);

			if (s != SIZE_MAX)
				item[s] = i;
		}
		for (size_t s = 0; s < CAP; s++)
			held[item[s]]++;
	}
	for (unsigned i = 0; i < NITEMS; i++) {
		lo = held[i] < lo ? held[i] : lo;
		hi = held[i] > hi ? held[i] : hi;
	}
	CU_ASSERT(lo >= 200 - 67);
	CU_ASSERT(hi <= 200 + 67);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

/* The k largest keys with their rows; NaNs never kept. */
static void test_topk(void)
{
	enum { N = 20000, K = 500 };
	static float v[N], sorted[N], kept[K];
	struct wfw_topk t;
	size_t nn = 0;

	srand(11);
	for (size_t i = 0; i < N; i++)
		v[i] = i % 97 == 3 ? NAN : (float)(rand() % 100000);
	CU_ASSERT_EQUAL_FATAL(wfw_topk_init(&t, K, 2), 0);
	for (size_t i = 0; i < N; i++) {
		float row[2] = { v[i], (float)i };

		wfw_topk_add(&t, v[i], row, (int32_t)(i % 7));
		if (!isnan(v[i]))
			sorted[nn++] = v[i];
	}
	qsort(sorted, nn, sizeof(*sorted), cmp_float);
	CU_ASSERT_EQUAL(t.n, K);
	for (size_t i = 0; i < K; i++) {
		uint32_t s = t.slot[i];
		size_t row = (size_t)t.rows[s * 2 + 1];

		kept[i] = t.key[i];
		CU_ASSERT_EQUAL(t.rows[s * 2], t.key[i]);	/* its own row */
		CU_ASSERT_EQUAL(v[row], t.key[i]);
		CU_ASSERT_EQUAL(t.group[s], (int32_t)(row % 7));
	}
	qsort(kept, K, sizeof(*kept), cmp_float);
	CU_ASSERT_EQUAL(memcmp(kept, sorted + nn - K, sizeof(kept)), 0);
	CU_ASSERT_EQUAL(wfw_topk_min(&t), sorted[nn - K]);
	wfw_topk_free(&t);
}

/* A CCDF from a sample of the bulk and the exact top. */
static void test_ccdf_parts(void)
{
	static float all[10000], x1[6000], x2[6000];
	double p1[6000], p2[6000];
	size_t k1, k2;

	for (size_t i = 0; i < 10000; i++)
		all[i] = (float)i;
	/* The whole as its own "sample": the same as wfw_reduce_ccdf. */
	k1 = wfw_reduce_ccdf(all, 10000, 100, x1, p1, 6000);
	k2 = wfw_reduce_ccdf_parts(all, 9900, 9900, all + 9900, 100, 100, x2, p2, 6000);
	CU_ASSERT_EQUAL(k1, k2);
	CU_ASSERT_EQUAL(memcmp(x1, x2, k1 * sizeof(*x1)), 0);
	CU_ASSERT_EQUAL(memcmp(p1, p2, k1 * sizeof(*p1)), 0);
	/* Every 10th of the bulk as a sample: the tail still exact. */
	static float low[990];

	for (size_t i = 0; i < 990; i++)
		low[i] = (float)(i * 10);
	k2 = wfw_reduce_ccdf_parts(low, 990, 9900, all + 9900, 100, 100, x2, p2, 6000);
	CU_ASSERT(k2 >= 100);
	for (size_t i = 0; i < 100; i++) {
		CU_ASSERT_EQUAL(x2[k2 - 100 + i], (float)(9900 + i));
		CU_ASSERT_DOUBLE_EQUAL(p2[k2 - 100 + i], (100.0 - i) / 10000, 1e-12);
	}
	/* Below, within the sample's spacing of the exact rank. */
	for (size_t i = 0; i + 100 < k2; i++)
		CU_ASSERT(fabs(x2[i] - (1 - p2[i]) * 10000) <= 11);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("sample", NULL, NULL);
	CU_add_test(s, "reservoir: every item equally likely", test_reservoir_uniform);
	CU_add_test(s, "reservoir: skipping is taking nothing", test_reservoir_skip);
	CU_add_test(s, "reservoir: filling in runs is taking", test_reservoir_fill);
	CU_add_test(s, "sequential sample: uniform, in order", test_seqsample);
	CU_add_test(s, "merging samples: split by counts", test_split);
	CU_add_test(s, "picking k of n", test_pick);
	CU_add_test(s, "reservoir: shrinking stays uniform", test_shrink);
	CU_add_test(s, "top k with rows", test_topk);
	CU_add_test(s, "ccdf of sample and top", test_ccdf_parts);
	return tu_run();
}
