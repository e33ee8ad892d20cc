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

#include "stats/hist.h"
#include "stats/report.h"
#include "stats/statset.h"
#include "stats/stats.h"
#include "stats/table.h"

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

static void gen_flags(double *v)	/* SMICnt-like: mostly 0, some 1, a 2 */
{
	for (size_t i = 0; i < N; i++)
		v[i] = urand() < 0.0625 ? 1 : 0;
	v[N / 2] = 2;
}

/* A step: moments of blocks far from the running mean must not cancel. */
static void gen_step(double *v)
{
	for (size_t i = 0; i < N; i++)
		v[i] = i < N / 3 ? (double)(i % 5) : 1e12 + (double)(i % 3);
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

static void test_flags(void) { run_gen(gen_flags, true); }
static void test_step(void) { run_gen(gen_step, true); }

/*
 * More values in one bucket than a 16-bit counter holds, alternating with
 * another bucket so that they are counted one by one: the folds into the
 * 64-bit counters must keep every count.
 */
static void test_hist_fold(void)
{
	static double v[70001];
	struct wfw_hist h;
	uint64_t n = 0;

	wfw_hist_init(&h);
	for (size_t i = 0; i < 70001; i++)
		v[i] = i % 2 ? 1001.0 : 1000.0;	/* 35001 x 1000, 35000 x 1001 */
	for (int r = 0; r < 5; r++) {
		CU_ASSERT_EQUAL_FATAL(wfw_hist_add_many(&h, v, 70001), 0);
		n += 70001;
	}
	for (int r = 0; r < 1000; r++) {	/* and in small pieces */
		CU_ASSERT_EQUAL_FATAL(wfw_hist_add_many(&h, v, 101), 0);
		n += 101;
	}
	CU_ASSERT_EQUAL(h.count, n);
	/* 5 * 35001 + 1000 * 51 values of 1000, the rest 1001 */
	CU_ASSERT_EQUAL(wfw_hist_rank_value(&h, 5 * 35001 + 1000 * 51 - 1, true),
			1000.0);
	CU_ASSERT_EQUAL(wfw_hist_rank_value(&h, 5 * 35001 + 1000 * 51, true),
			1001.0);
	CU_ASSERT_EQUAL(wfw_hist_rank_value(&h, n - 1, true), 1001.0);
	wfw_hist_free(&h);
}

/* Values written in place (the stage) equal the same values added. */
static void test_stage(void)
{
	struct wfw_acc a, b;
	size_t i = 0;

	wfw_acc_init(&a, 5000, false);
	wfw_acc_init(&b, 5000, false);
	while (i < 20000) {
		size_t c = (i * 13) % WFW_ACC_STAGE_ROOM + 1;
		double *t = wfw_acc_stage(&a);

		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		for (size_t k = 0; k < c; k++)
			t[k] = (urand() - 0.5) * 1e4;
		CU_ASSERT_EQUAL_FATAL(wfw_acc_add_many(&b, t, c), 0);
		CU_ASSERT_EQUAL_FATAL(wfw_acc_staged(&a, c), 0);
		i += c;
	}
	CU_ASSERT_EQUAL(wfw_acc_flush(&a), 0);
	CU_ASSERT_EQUAL(a.n, b.n);
	CU_ASSERT_EQUAL(a.min, b.min);
	CU_ASSERT_EQUAL(a.max, b.max);
	CU_ASSERT_DOUBLE_EQUAL(a.mean, b.mean, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(wfw_acc_stddev(&a), wfw_acc_stddev(&b), 1e-9);
	CU_ASSERT_FALSE(wfw_acc_exact(&a));
	for (size_t k = 0; k < NPCTS; k++)
		CU_ASSERT_EQUAL(wfw_acc_percentile(&a, pcts[k]),
				wfw_acc_percentile(&b, pcts[k]));
	wfw_acc_free(&a);
	wfw_acc_free(&b);
}

/* One array per column (stride 1) gives what the row-major batch gives. */
static void test_statset_columns(void)
{
	static const char *const names[] = { "A", "B" };
	static const struct wultfw_column cols[] = {
		{ "X", "us", WULTFW_COL_INT, 1000, NULL, 0 },
		{ "G", "", WULTFW_COL_ENUM, 0, names, 2 },
		{ "Y", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
	};
	const struct wultfw_schema schema = { 3, cols };
	struct wfw_statset_cfg cfg = { .exact_limit = 300, .exact_memory = 1u << 20,
				       .group_by = "G" };
	enum { ROWS = 3000 };
	static union wultfw_cell rows[ROWS * 3], c0[ROWS], c1[ROWS], c2[ROWS];
	const union wultfw_cell *colp[3] = { c0, c1, c2 };
	struct wultfw_batch b = { rows, 3, ROWS, ROWS, 0 };
	struct wfw_statset r, c;
	char err[200];

	for (size_t i = 0; i < ROWS; i++) {
		c0[i].i = rows[i * 3].i = (int64_t)(urand() * 1e7);
		c1[i].i = rows[i * 3 + 1].i = (int64_t)(urand() * 3) - (i % 50 == 0);
		c2[i].f = rows[i * 3 + 2].f = i % 97 ? urand() * 100 : NAN;
	}
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&r, &schema, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&c, &schema, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(wfw_statset_add(&r, &b), 0);
	CU_ASSERT_EQUAL(wfw_statset_add_cols(&c, colp, 1, ROWS), 0);
	for (size_t m = 0; m < 2; m++) {
		CU_ASSERT_EQUAL(r.nans[m], c.nans[m]);
		for (size_t g = 0; g <= r.ngroups; g++) {
			struct wfw_summary x, y;
			size_t gg = g == r.ngroups ? SIZE_MAX : g;

			CU_ASSERT_EQUAL(wfw_statset_summary(&r, m, gg, pcts, NPCTS, &x), 0);
			CU_ASSERT_EQUAL(wfw_statset_summary(&c, m, gg, pcts, NPCTS, &y), 0);
			CU_ASSERT(x.count > 0 && x.count == y.count);
			CU_ASSERT(x.min == y.min && x.max == y.max && x.mean == y.mean);
			CU_ASSERT_EQUAL(x.stddev, y.stddev);
			CU_ASSERT_EQUAL(memcmp(x.pct, y.pct, NPCTS * sizeof(double)), 0);
		}
	}
	wfw_statset_free(&r);
	wfw_statset_free(&c);
}

/* Summaries of every metric and group of two statsets are the same bits. */
static void same_sets(struct wfw_statset *r, struct wfw_statset *c)
{
	for (size_t m = 0; m < r->nmetrics; m++) {
		CU_ASSERT_EQUAL(r->nans[m], c->nans[m]);
		CU_ASSERT_EQUAL(r->empties[m], c->empties[m]);
		for (size_t g = 0; g <= r->ngroups; g++) {
			struct wfw_summary x, y;
			size_t gg = g == r->ngroups ? SIZE_MAX : g;

			CU_ASSERT_EQUAL(wfw_statset_summary(r, m, gg, pcts, NPCTS, &x), 0);
			CU_ASSERT_EQUAL(wfw_statset_summary(c, m, gg, pcts, NPCTS, &y), 0);
			CU_ASSERT(x.count > 0 && x.count == y.count);
			CU_ASSERT(x.min == y.min && x.max == y.max && x.mean == y.mean);
			CU_ASSERT_EQUAL(x.stddev, y.stddev);
			CU_ASSERT_EQUAL(memcmp(x.pct, y.pct, NPCTS * sizeof(double)), 0);
		}
	}
}

/*
 * Numbers one array per column (wfw_statset_add_nums()) give what rows
 * give, bit for bit: with and without groups, batches of several sizes,
 * empty cells and NaNs, told where NaNs may be or not; and so do they with
 * the sums of the columns without NaNs known (wfw_statset_add_nums_sums()).
 */
static void nums_vs_rows(const char *group_by, size_t batch, bool told)
{
	static const char *const names[] = { "A", "B" };
	static const struct wultfw_column cols[] = {
		{ "X", "us", WULTFW_COL_INT, 1000, NULL, 0 },
		{ "G", "", WULTFW_COL_ENUM, 0, names, 2 },
		{ "Y", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "Z", "", WULTFW_COL_INT, 1, NULL, 0 },
	};
	const struct wultfw_schema schema = { 4, cols };
	struct wfw_statset_cfg cfg = { .exact_limit = 2000, .exact_memory = 1u << 20,
				       .group_by = group_by };
	enum { ROWS = 9000 };
	static union wultfw_cell rows[ROWS * 4], c0[ROWS], c1[ROWS], c2[ROWS], c3[ROWS];
	const union wultfw_cell *colp[4] = { c0, c1, c2, c3 };
	const bool may_nan[4] = { true, false, true, false };
	struct wfw_statset r, c, d;
	struct wfw_run_sums sums[4];
	char err[200];

	for (size_t i = 0; i < ROWS; i++) {
		int64_t x = i % 301 == 7 ? WULTFW_CELL_EMPTY : (int64_t)(urand() * 1e7);

		rows[i * 4].i = x;
		c0[i].f = (double)x;
		if (x == WULTFW_CELL_EMPTY)
			c0[i].i = WULTFW_FLOAT_EMPTY_BITS;
		c1[i].i = rows[i * 4 + 1].i = (int64_t)(urand() * 3) - (i % 50 == 0);
		c2[i].f = rows[i * 4 + 2].f = i % 97 ? urand() * 100 : NAN;
		if (i % 89 == 3)
			c2[i].i = rows[i * 4 + 2].i = WULTFW_FLOAT_EMPTY_BITS;
		rows[i * 4 + 3].i = (int64_t)(urand() * 5);
		c3[i].f = (double)rows[i * 4 + 3].i;
	}
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&r, &schema, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&c, &schema, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&d, &schema, &cfg, err, sizeof(err)), 0);
	for (size_t r0 = 0; r0 < ROWS; r0 += batch) {
		size_t n = ROWS - r0 < batch ? ROWS - r0 : batch;
		struct wultfw_batch b = { rows + r0 * 4, 4, n, n, 0 };
		const union wultfw_cell *at[4];

		for (size_t k = 0; k < 4; k++)
			at[k] = colp[k] + r0;
		CU_ASSERT_EQUAL(wfw_statset_add(&r, &b), 0);
		CU_ASSERT_EQUAL(wfw_statset_add_nums(&c, at, told ? may_nan : NULL, n), 0);
		for (size_t k = 0; k < 4; k++) {
			sums[k] = (struct wfw_run_sums){ INFINITY, -INFINITY, 0, !may_nan[k] };
			sums[k].sum = wfw_min_max_sum(&at[k][0].f, n, &sums[k].lo, &sums[k].hi);
		}
		CU_ASSERT_EQUAL(wfw_statset_add_nums_sums(&d, at, may_nan, sums, n), 0);
	}
	CU_ASSERT(r.empties[0] > 0 && r.nans[1] > 0 && r.empties[1] > 0);
	same_sets(&r, &c);
	same_sets(&r, &d);
	wfw_statset_free(&r);
	wfw_statset_free(&c);
	wfw_statset_free(&d);
}

static void test_statset_nums(void)
{
	static const size_t batches[] = { 1, 255, 1024, 1100, 4096, 9000 };

	for (size_t k = 0; k < sizeof(batches) / sizeof(batches[0]); k++) {
		nums_vs_rows(NULL, batches[k], true);
		nums_vs_rows(NULL, batches[k], false);
		nums_vs_rows("G", batches[k], true);
	}
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

/*
 * Two neighbouring whole numbers per block (flags): counted from the sum,
 * they must rank as the kept values do (buckets narrower than 1: exact).
 */
static void test_two_ints(void)
{
	static const double los[] = { 0, -1, 41, -300 };
	double v[1000];

	for (size_t j = 0; j < sizeof(los) / sizeof(los[0]); j++) {
		struct wfw_acc h, e;

		wfw_acc_init(&h, 0, true);
		wfw_acc_init(&e, 100000, true);
		for (int b = 0; b < 20; b++) {
			for (int i = 0; i < 1000; i++)
				v[i] = los[j] + ((i * 7 + b) % 10 < b % 9 + 1);
			CU_ASSERT_EQUAL(wfw_acc_add_many(&h, v, 1000), 0);
			CU_ASSERT_EQUAL(wfw_acc_add_many(&e, v, 1000), 0);
		}
		CU_ASSERT_FALSE(wfw_acc_exact(&h));
		for (int k = 0; k <= 1000; k++)
			CU_ASSERT_EQUAL(wfw_acc_percentile(&h, k / 10.0),
					wfw_acc_percentile(&e, k / 10.0));
		wfw_acc_free(&h);
		wfw_acc_free(&e);
	}
}

/*
 * The histogram's pass may take the squared deviations for the variance:
 * they must round exactly as the pass over kept values does.
 */
static void test_fused_m2(void)
{
	struct wfw_acc h, e;
	uint64_t seed = 11;
	double v[1003];

	wfw_acc_init(&h, 0, false);
	wfw_acc_init(&e, 1000000, false);
	for (int b = 0; b < 200; b++) {
		for (size_t i = 0; i < 1003; i++)
			v[i] = 1.0 + (double)(wultfw_rand64(&seed) % 99000) / 1000;
		CU_ASSERT_EQUAL(wfw_acc_add_many(&h, v, 1003 - b % 4), 0);
		CU_ASSERT_EQUAL(wfw_acc_add_many(&e, v, 1003 - b % 4), 0);
	}
	CU_ASSERT_FALSE(wfw_acc_exact(&h));
	CU_ASSERT_TRUE(wfw_acc_exact(&e));
	CU_ASSERT_EQUAL(memcmp(&h.m2, &e.m2, sizeof(h.m2)), 0);
	CU_ASSERT_EQUAL(memcmp(&h.mean, &e.mean, sizeof(h.mean)), 0);
	wfw_acc_free(&h);
	wfw_acc_free(&e);
}

/* Every bucket of a and b holds the same count. */
static bool same_buckets(const struct wfw_hist *a, const struct wfw_hist *b)
{
	for (unsigned s = 0; s < WFW_HIST_SLOTS; s++) {
		for (unsigned i = 0; i < WFW_HIST_SUBS; i++) {
			uint64_t x = a->oct[s] ? a->wide[s][i] + a->oct[s][i] : 0;
			uint64_t y = b->oct[s] ? b->wide[s][i] + b->oct[s][i] : 0;

			if (x != y)
				return false;
		}
	}
	return a->count == b->count;
}

/*
 * Blocks counted through their range (the window of side-by-side octaves,
 * widened as blocks reach further; octaves that exist; one by one) land
 * in the buckets counting them one by one does: ranges that move up and
 * down, a block of one huge octave span, negative blocks, enough values
 * for folds.
 */
static void test_range_window(void)
{
	static const double scale[] = { 1, 1e3, 1e-3, 1e6, -5, 1e-30, 1e30, 7 };
	struct wfw_hist r, m;
	double v[1500];

	wfw_hist_init(&r);
	wfw_hist_init(&m);
	for (size_t b = 0; b < 400; b++) {
		size_t n = 1 + (b * 37) % 1500;
		double f = scale[b % 8], lo = INFINITY, hi = -INFINITY;

		for (size_t i = 0; i < n; i++) {
			v[i] = f * (0.5 + urand() * (b % 3 ? 3 : 40));
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
		CU_ASSERT_EQUAL_FATAL(wfw_hist_add_range(&r, v, n, lo, hi, NAN,
							 false, NULL), 0);
		CU_ASSERT_EQUAL_FATAL(wfw_hist_add_many(&m, v, n), 0);
	}
	CU_ASSERT_PTR_NOT_NULL(r.win);
	CU_ASSERT_TRUE(same_buckets(&r, &m));
	wfw_hist_free(&r);
	wfw_hist_free(&m);
}

/*
 * A counter just under the fold's threshold, then hit by nearly every
 * value: it must not overflow before the next fold.
 */
static void test_fold_bound(void)
{
	struct wfw_hist h;
	uint64_t nx = 0;
	double v[1000];

	wfw_hist_init(&h);
	for (size_t b = 0; b < 300; b++) {
		for (size_t i = 0; i < 1000; i++) {
			size_t r = b * 1000 + i;
			bool x = r % 100 < (r < 65535 ? 49 : 99);

			v[i] = x ? 1.0 : 1000.0 + (double)(r % 500);
			nx += x;
		}
		CU_ASSERT_EQUAL_FATAL(wfw_hist_add_many(&h, v, 1000), 0);
	}
	CU_ASSERT_EQUAL(wfw_hist_rank_value(&h, nx - 1, false) < 2.0, true);
	CU_ASSERT_EQUAL(wfw_hist_rank_value(&h, nx, false) > 999.0, true);
	wfw_hist_free(&h);
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

/*
 * Mean of n values base + k * 0.001 added in blocks of 1024, to one
 * accumulator and alternately to two merged after (two threads' parts):
 * their errors against the exact mean of the doubles (long double sum),
 * and a plain running sum's.
 */
static void mean_errors(size_t n, double base, double err[3])
{
	enum { BLK = 1024 };
	struct wfw_acc one, part[2];
	double v[BLK], plain = 0;
	long double exact = 0;

	wfw_acc_init(&one, 0, false);
	wfw_acc_init(&part[0], 0, false);
	wfw_acc_init(&part[1], 0, false);
	for (size_t i = 0; i < n; i += BLK) {
		for (size_t k = 0; k < BLK; k++) {
			v[k] = base + (double)(i + k) * 0.001;
			exact += v[k];
			plain += v[k];
		}
		CU_ASSERT_EQUAL_FATAL(wfw_acc_add_many(&one, v, BLK), 0);
		CU_ASSERT_EQUAL_FATAL(wfw_acc_add_many(&part[i / BLK % 2], v, BLK), 0);
	}
	CU_ASSERT_EQUAL_FATAL(wfw_acc_merge(&part[0], &part[1]), 0);
	CU_ASSERT_EQUAL(part[0].n, n);
	exact /= (long double)n;
	err[0] = (double)fabsl((long double)one.mean - exact);
	err[1] = (double)fabsl((long double)part[0].mean - exact);
	err[2] = (double)fabsl((long double)(plain / (double)n) - exact);
	wfw_acc_free(&one);
	wfw_acc_free(&part[0]);
	wfw_acc_free(&part[1]);
}

/*
 * The mean to print precision (0.001) and far below: 4 Mi values 1e9 +
 * k * 0.001 (a plain running sum is 3.6e-4 off), 16 Mi near 1e11 (block
 * sums added plainly are 3.2e-4 off, a running sum 0.42): blocks summed
 * in short chains, the blocks and the threads' parts by Neumaier's
 * compensated sum.
 */
static void test_mean_compensated(void)
{
	double e[3];

	mean_errors((size_t)4 << 20, 1e9, e);
	CU_ASSERT(e[0] < 1e-6 && e[1] < 1e-6);
	CU_ASSERT(e[2] > 1e-4);	/* what the test would let through */
	mean_errors((size_t)16 << 20, 1e11, e);
	CU_ASSERT(e[0] < 1e-5 && e[1] < 1e-5);
	CU_ASSERT(e[2] > 1e-2);
}

/* One rule of decimals for a statistic over all its rows (calc's table). */
static void test_fmt_decimals(void)
{
	const double counts[] = { 0, 1, 1 }, half[] = { 0, 0.5, 1 };
	const double us[] = { 2.0, 17.862, 5031.815 }, mean_us[] = { 17.8625, 2.0 };
	const double small[] = { 0.0631, 0.0632 }, tiny[] = { 1.2e-5, 3.4e-5 };
	const double nan_only[] = { NAN };
	char b[64];

	CU_ASSERT_EQUAL(wfw_fmt_decimals(0, counts, 3), 0);	/* no ".000" */
	CU_ASSERT_EQUAL(wfw_fmt_decimals(0, half, 3), 3);	/* one 0.5: all 3 */
	CU_ASSERT_EQUAL(wfw_fmt_decimals(3, us, 3), 3);
	CU_ASSERT_EQUAL(wfw_fmt_decimals(3, mean_us, 2), 3);
	CU_ASSERT_EQUAL(wfw_fmt_decimals(0, small, 2), 4);	/* 3 significant */
	CU_ASSERT_EQUAL(wfw_fmt_decimals(6, tiny, 2), 6);	/* the data's own */
	CU_ASSERT_EQUAL(wfw_fmt_decimals(3, tiny, 2), 7);
	CU_ASSERT_EQUAL(wfw_fmt_decimals(0, nan_only, 1), 0);
	wfw_fmt_value(b, sizeof(b), 1e15, 0);
	CU_ASSERT_STRING_EQUAL(b, "1000000000000000");	/* no exponent */
	wfw_fmt_value(b, sizeof(b), -0.0001, 3);
	CU_ASSERT_STRING_EQUAL(b, "0.000");	/* no "-0.000" */
	wfw_fmt_value(b, sizeof(b), -2.5, 3);
	CU_ASSERT_STRING_EQUAL(b, "-2.500");
	wfw_fmt_value(b, sizeof(b), NAN, 3);
	CU_ASSERT_STRING_EQUAL(b, "-");
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

/* The stats sink's table: every column, the last too, with its decimals. */
static void test_report_table_max(void)
{
	static const struct wultfw_column cols[] = {
		{ "N", "", WULTFW_COL_INT, 1, NULL, 0 },
	};
	const struct wultfw_schema schema = { 1, cols };
	struct wfw_statset_cfg cfg = { .exact_limit = 100, .exact_memory = 1u << 20 };
	static union wultfw_cell c0[100];
	const union wultfw_cell *colp[1] = { c0 };
	const double p[] = { 50, 99 };
	double many[WFW_SUMMARY_MAX_PCT];
	struct wfw_statset s;
	char err[200], *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	for (size_t i = 0; i < 100; i++)
		c0[i].i = i % 2;
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&s, &schema, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(wfw_statset_add_cols(&s, colp, 1, 100), 0);
	CU_ASSERT_EQUAL(wfw_report_table(&s, p, 2, f), 0);
	fclose(f);
	/* counts: whole numbers, the max (the last value) too */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, " 1  exact"));
	CU_ASSERT_PTR_NULL(strstr(out, "1.0"));
	free(out);
	/* As many percentiles as a summary holds: every cell within its arrays (ASan). */
	for (size_t i = 0; i < WFW_SUMMARY_MAX_PCT; i++)
		many[i] = 1 + (double)i * 3;
	f = open_memstream(&out, &len);
	CU_ASSERT_EQUAL(wfw_report_table(&s, many, WFW_SUMMARY_MAX_PCT, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "p94  "));
	free(out);
	wfw_statset_free(&s);
}

/* Percentiles a count supports; what a table shows of the rest. */
static void test_pct_supported(void)
{
	const double p[] = { 1, 50, 99, 99.9, 99.999, 100 };
	struct wfw_summary sum = { .count = 1000, .stddev = 2, .npct = 6,
				   .pct = { 1, 2, 3, 4, 5, 6 } };

	CU_ASSERT(wfw_pct_supported(99.9, 1000));	/* 100 - 99.9 is not 0.1 */
	CU_ASSERT(!wfw_pct_supported(99.9, 999));
	CU_ASSERT(wfw_pct_supported(99, 100));
	CU_ASSERT(!wfw_pct_supported(1, 99));		/* the low end alike */
	CU_ASSERT(wfw_pct_supported(50, 2));
	CU_ASSERT(!wfw_pct_supported(50, 1));
	CU_ASSERT(wfw_pct_supported(100, 1));		/* the max */
	CU_ASSERT(!wfw_pct_supported(100, 0));
	wfw_summary_shown(&sum, p);
	CU_ASSERT_EQUAL(sum.pct[3], 4);
	CU_ASSERT(isnan(sum.pct[4]));
	CU_ASSERT_EQUAL(sum.pct[5], 6);
	CU_ASSERT_EQUAL(sum.stddev, 2);
	sum.count = 1;
	wfw_summary_shown(&sum, p);
	CU_ASSERT(isnan(sum.stddev) && isnan(sum.pct[0]) && isnan(sum.pct[1]));
	CU_ASSERT_EQUAL(sum.pct[5], 6);
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
	CU_add_test(s, "two whole numbers counted from the sum", test_two_ints);
	CU_add_test(s, "variance taken on the histogram's pass", test_fused_m2);
	CU_add_test(s, "16-bit counters folded before they overflow", test_fold_bound);
	CU_add_test(s, "counted through the range as one by one", test_range_window);
	CU_add_test(s, "moments far from zero", test_moments_offset);
	CU_add_test(s, "a compensated mean (1e9 + k * 0.001)", test_mean_compensated);
	CU_add_test(s, "decimals of a statistic", test_fmt_decimals);
	CU_add_test(s, "memory bounded", test_memory_bounded);
	CU_add_test(s, "merge", test_merge);
	CU_add_test(s, "empty", test_empty);
	CU_add_test(s, "flags (few whole numbers)", test_flags);
	CU_add_test(s, "moments across a step", test_step);
	CU_add_test(s, "16-bit counters fold", test_hist_fold);
	CU_add_test(s, "stage", test_stage);
	CU_add_test(s, "statset: columns vs rows", test_statset_columns);
	CU_add_test(s, "statset: numbers by column vs rows", test_statset_nums);
	CU_add_test(s, "percentiles a count supports", test_pct_supported);
	CU_add_test(s, "the sink's table: the max's decimals", test_report_table_max);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
