/* SPDX-License-Identifier: MIT */
/* lib/stats/cputab.c: the flag of a CPU whose p99.9 stands out. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "stats/cputab.h"

static void add(struct wfw_cputab *t, unsigned cpu, const char *state, double p999)
{
	struct wfw_cputab_row r = { .cpu = cpu, .count = 1000, .p999 = p999 };

	snprintf(r.state, sizeof(r.state), "%s", state);
	CU_ASSERT_EQUAL(wfw_cputab_add(t, &r), 0);
}

/* Three CPUs in C1: the others' median is the middle of two. */
static void test_flag(void)
{
	struct wfw_cputab t = { 0 };

	add(&t, 0, "C1", 10);
	add(&t, 1, "C1", 14);
	add(&t, 2, "C1", 24.1);	/* > 2 x (10 + 14) / 2 */
	add(&t, 0, "POLL", 5);
	add(&t, 1, "POLL", 10);	/* 2 x 5: not more */
	wfw_cputab_flag(&t);
	CU_ASSERT_FALSE(t.row[0].flagged);
	CU_ASSERT_FALSE(t.row[1].flagged);
	CU_ASSERT_TRUE(t.row[2].flagged);
	CU_ASSERT_DOUBLE_EQUAL(t.row[2].others, 12, 1e-12);
	CU_ASSERT_FALSE(t.row[4].flagged);
	CU_ASSERT_DOUBLE_EQUAL(t.row[4].others, 5, 1e-12);
	wfw_cputab_free(&t);
}

/* One CPU in a state, or others without a p99.9: nothing to compare. */
static void test_alone(void)
{
	struct wfw_cputab t = { 0 };

	add(&t, 0, "C6", 100);
	add(&t, 1, "C1", 1);
	add(&t, 2, "C1", NAN);
	wfw_cputab_flag(&t);
	CU_ASSERT_FALSE(t.row[0].flagged);
	CU_ASSERT_TRUE(isnan(t.row[0].others));
	CU_ASSERT_FALSE(t.row[1].flagged);
	CU_ASSERT_TRUE(isnan(t.row[1].others));
	wfw_cputab_free(&t);
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("cputab", NULL, NULL);
	CU_add_test(s, "a p99.9 over 2x the others' median is flagged", test_flag);
	CU_add_test(s, "no other CPU: no flag", test_alone);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
