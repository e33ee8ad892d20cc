/* SPDX-License-Identifier: MIT */
/*
 * The live table's figures (core/livestats.c): buckets within 12.5% of
 * their values, p99 so far from them, min/mean/max exact, a consistent
 * copy through the sequence counter; and one row as drawn.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "livestats.h"
#include "livetab.h"
#include "testutil.h"

/* Every value lands in a bucket whose top is at most 12.5% above it. */
static void test_buckets(void)
{
	for (int64_t v = 0; v < 5000000; v += v < 100 ? 1 : v / 7) {
		unsigned b = wfw_live_bucket(v);
		int64_t top = wfw_live_bucket_top(b);

		CU_ASSERT_FATAL(b < WFW_LIVE_BUCKETS);
		CU_ASSERT(top >= v);
		CU_ASSERT((double)top <= (double)v * 1.125 + 1);
		CU_ASSERT(b == 0 || wfw_live_bucket_top(b - 1) < v);
	}
	CU_ASSERT(wfw_live_bucket(INT64_MAX) < WFW_LIVE_BUCKETS);
	CU_ASSERT(wfw_live_bucket(-5) == 0);
}

static const struct wultfw_column cols[] = {
	{ "Seq", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ NULL },
};

/* 1000 datapoints, WakeLatency 1..1000 us: p99 near 990 us. */
static void test_figures(void)
{
	static struct wfw_live l, copy;
	union wultfw_cell cells[2 * 1000];
	struct wultfw_batch b = { .cells = cells, .ncols = 2, .capacity = 1000 };
	struct wultfw_schema s = { 2, cols };
	int64_t p99;

	CU_ASSERT_EQUAL(wfw_live_metric(&s, NULL), 1);
	for (size_t i = 0; i < 1000; i++) {
		cells[2 * i].i = (int64_t)i;
		cells[2 * i + 1].i = (int64_t)(i + 1) * 1000;	/* ns: divisor 1000 */
	}
	b.rows = 1000;
	wfw_live_add(&l, &b, 1, wfw_live_ns_per_raw(&cols[1]), 1000, 3);
	CU_ASSERT_FATAL(wfw_live_read(&l, &copy));
	CU_ASSERT_EQUAL(copy.n, 1000);
	CU_ASSERT_EQUAL(copy.datapoints, 1000);
	CU_ASSERT_EQUAL(copy.discarded, 3);
	CU_ASSERT_EQUAL(copy.min, 1000);
	CU_ASSERT_EQUAL(copy.max, 1000000);
	CU_ASSERT_EQUAL(copy.last, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(copy.sum / copy.n, 500500, 1e-6);
	p99 = wfw_live_quantile(&copy, 0.99);
	CU_ASSERT(p99 >= 990000 && p99 <= 990000 * 1.125);
	CU_ASSERT_EQUAL(wfw_live_quantile(&copy, 1.0), 1000000);
	CU_ASSERT_EQUAL(copy.seq % 2, 0);
}

/* A writer between its increments: no copy. */
static void test_busy_writer(void)
{
	static struct wfw_live l, copy;

	l.seq = 3;
	CU_ASSERT_FALSE(wfw_live_read(&l, &copy));
}

static void test_row(void)
{
	static struct wfw_live l;
	char buf[256];

	l.datapoints = 7;
	wfw_livetab_row(&l, 3, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "    3           7          -          -          -          -          -");
	l.n = 2;
	l.last = 2500;
	l.min = 1500;
	l.max = 2500;
	l.sum = 4000;
	l.hist[wfw_live_bucket(1500)]++;
	l.hist[wfw_live_bucket(2500)]++;
	wfw_livetab_row(&l, 3, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "    3           7      2.500      1.500      2.000      2.500      2.500");
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("livestats", NULL, NULL);
	CU_add_test(s, "buckets", test_buckets);
	CU_add_test(s, "figures", test_figures);
	CU_add_test(s, "busy writer", test_busy_writer);
	CU_add_test(s, "row", test_row);
	return tu_run();
}
