/* SPDX-License-Identifier: MIT */
/* The progress line's time left: the nearer of the two limits, never up. */
#include "config.h"

#include <stdint.h>

#include "progress.h"
#include "testutil.h"

#define S 1000000000ULL

static double left(uint64_t max_dp, uint64_t max_time_ns, double elapsed,
		   uint64_t dp)
{
	struct wfw_progress p = { .max_datapoints = max_dp, .max_time_ns = max_time_ns };

	return wfw_progress_left(&p, elapsed, dp);
}

/* 4 s limit, 10000 datapoints at 140/s: the time limit ends it. */
static void test_time_limit_reached(void)
{
	CU_ASSERT_DOUBLE_EQUAL(left(10000, 4 * S, 2.0, 280), 2.0, 1e-9);
	/* Past the limit (the last read): 0, not the count's 69 s. */
	CU_ASSERT_DOUBLE_EQUAL(left(10000, 4 * S, 4.1, 574), 0.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(left(0, 4 * S, 9.0, 0), 0.0, 1e-9);
}

/* Over the whole run the estimate never goes up at a steady rate. */
static void test_never_goes_up(void)
{
	double prev = 1e30, l, t;

	for (t = 0.25; t < 6; t += 0.25) {
		l = left(10000, 4 * S, t, (uint64_t)(t * 140));
		CU_ASSERT(l <= prev);
		CU_ASSERT(l >= 0);
		prev = l;
	}
}

/* The count's estimate when it is the nearer one; none without limits. */
static void test_count_limit(void)
{
	CU_ASSERT_DOUBLE_EQUAL(left(1000, 60 * S, 1.0, 100), 9.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(left(1000, 0, 1.0, 100), 9.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(left(1000, 0, 1.0, 1000), 0.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(left(1000, 0, 1.0, 1200), 0.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(left(1000, 0, 1.0, 0), -1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(left(0, 0, 1.0, 10), -1.0, 1e-9);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("progress", NULL, NULL);
	CU_add_test(s, "time limit reached", test_time_limit_reached);
	CU_add_test(s, "never goes up", test_never_goes_up);
	CU_add_test(s, "count limit", test_count_limit);
	return tu_run();
}
