/* SPDX-License-Identifier: MIT */
/*
 * lib/stats/grouptab.c: the flag of a member (CPU, SUT) whose p99.9
 * stands out against the others', the group's reference, the text.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "stats/grouptab.h"

static void add(struct wfw_grouptab *t, const char *label, const char *state, double p999)
{
	struct wfw_grouptab_row r = { .count = 1000, .median = p999 / 4, .p99 = p999 / 2,
				      .p999 = p999, .max = p999 * 2 };

	snprintf(r.label, sizeof(r.label), "%s", label);
	snprintf(r.state, sizeof(r.state), "%s", state);
	CU_ASSERT_EQUAL(wfw_grouptab_add(t, &r), 0);
}

/* Three CPUs in C1: the others' median is the middle of two. */
static void test_flag(void)
{
	struct wfw_grouptab t = { .rule = &wfw_grouptab_cpus };

	add(&t, "0", "C1", 10);
	add(&t, "1", "C1", 14);
	add(&t, "2", "C1", 24.1);	/* > 2 x (10 + 14) / 2 */
	add(&t, "0", "POLL", 5);
	add(&t, "1", "POLL", 10);	/* 2 x 5: not more */
	wfw_grouptab_flag(&t);
	CU_ASSERT_FALSE(t.row[0].flagged);
	CU_ASSERT_FALSE(t.row[1].flagged);
	CU_ASSERT_TRUE(t.row[2].flagged);
	CU_ASSERT_DOUBLE_EQUAL(t.row[2].others, 12, 1e-12);
	CU_ASSERT_FALSE(t.row[4].flagged);
	CU_ASSERT_DOUBLE_EQUAL(t.row[4].others, 5, 1e-12);
	wfw_grouptab_free(&t);
}

/* One CPU in a state, or others without a p99.9: nothing to compare. */
static void test_alone(void)
{
	struct wfw_grouptab t = { .rule = &wfw_grouptab_cpus };

	add(&t, "0", "C6", 100);
	add(&t, "1", "C1", 1);
	add(&t, "2", "C1", NAN);
	wfw_grouptab_flag(&t);
	CU_ASSERT_FALSE(t.row[0].flagged);
	CU_ASSERT_TRUE(isnan(t.row[0].others));
	CU_ASSERT_FALSE(t.row[1].flagged);
	CU_ASSERT_TRUE(isnan(t.row[1].others));
	wfw_grouptab_free(&t);
}

/*
 * Five SUTs, one with a tail ten times the others': flagged alone, though
 * it pulls the median of all up (the others' median is what it is held to).
 */
static void test_fleet(void)
{
	struct wfw_grouptab t = { .rule = &wfw_grouptab_suts };
	struct wfw_grouptab_row ref;

	add(&t, "a", "C1", 20);
	add(&t, "b", "C1", 22);
	add(&t, "c", "C1", 200);
	add(&t, "d", "C1", 21);
	add(&t, "e", "C1", 19);
	wfw_grouptab_flag(&t);
	for (size_t i = 0; i < t.n; i++)
		CU_ASSERT_EQUAL(t.row[i].flagged, i == 2);
	CU_ASSERT_DOUBLE_EQUAL(t.row[2].others, 20.5, 1e-12);
	CU_ASSERT_TRUE(wfw_grouptab_reference(&t, "C1", &ref));
	CU_ASSERT_DOUBLE_EQUAL(ref.p999, 21, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ref.max, 42, 1e-12);
	CU_ASSERT_EQUAL(ref.count, 1000);
	CU_ASSERT_FALSE(wfw_grouptab_reference(&t, "C6", &ref));
	ref.count = 5000;
	snprintf(ref.state, sizeof(ref.state), "C1");
	CU_ASSERT_EQUAL(wfw_grouptab_add_pooled(&t, &ref), 0);
	CU_ASSERT_PTR_NOT_NULL(wfw_grouptab_pooled(&t, "C1"));
	CU_ASSERT_PTR_NULL(wfw_grouptab_pooled(&t, "all"));
	wfw_grouptab_free(&t);
}

/* The C-states as first seen, "all" last whatever the rows' order. */
static void test_states(void)
{
	struct wfw_grouptab t = { .rule = &wfw_grouptab_suts };
	const char *v[8];

	add(&t, "a", "C1", 1);
	add(&t, "a", "all", 1);
	add(&t, "b", "C6", 1);
	add(&t, "b", "C1", 1);
	CU_ASSERT_EQUAL(wfw_grouptab_states(&t, v, 8), 3);
	CU_ASSERT_STRING_EQUAL(v[0], "C1");
	CU_ASSERT_STRING_EQUAL(v[1], "C6");
	CU_ASSERT_STRING_EQUAL(v[2], "all");
	wfw_grouptab_free(&t);
}

/* Below the floor a SUT is not flagged, however many times the others. */
static void test_floor(void)
{
	struct wfw_grouptab t = { .rule = &wfw_grouptab_suts };

	add(&t, "a", "POLL", 0.2);
	add(&t, "b", "POLL", 0.3);
	add(&t, "c", "POLL", 0.9);	/* 3.6x, under 1 */
	add(&t, "d", "POLL", 0.25);
	wfw_grouptab_flag(&t);
	for (size_t i = 0; i < t.n; i++)
		CU_ASSERT_FALSE(t.row[i].flagged);
	wfw_grouptab_free(&t);
}

/* The text: the flag word in the flag column, the rules as stated. */
static void test_print(void)
{
	struct wfw_grouptab t = { .rule = &wfw_grouptab_suts, .metric = "WakeLatency",
				  .unit = "us" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	add(&t, "long-sut-name", "C1", 20);
	add(&t, "b", "C1", 80);
	add(&t, "c", "C1", 21);
	wfw_grouptab_flag(&t);
	wfw_grouptab_print(&t, f, false);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "SUT           C-state"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " flag\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\nb             C1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "OUTLIER (3.9x the others' 20.500)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\nmedian        C1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "other SUTs in that C-state and above 1 us; 1 row flagged."));
	free(buf);
	t.rule = &wfw_grouptab_cpus;
	CU_ASSERT_STRING_EQUAL(wfw_grouptab_rule_text(&t), "a CPU is flagged in a C-state when its p99.9 is more than 2 times the median p99.9 of the other CPUs in that C-state");
	wfw_grouptab_free(&t);
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("grouptab", NULL, NULL);
	CU_add_test(s, "a p99.9 over 2x the others' median is flagged", test_flag);
	CU_add_test(s, "no other CPU: no flag", test_alone);
	CU_add_test(s, "a fleet: the one bad SUT flagged, the reference", test_fleet);
	CU_add_test(s, "a fleet: nothing flagged under the floor", test_floor);
	CU_add_test(s, "the text", test_print);
	CU_add_test(s, "C-states in order, all last", test_states);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
