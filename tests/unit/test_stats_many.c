/* SPDX-License-Identifier: MIT */
/*
 * lib/stats/statset.c with many groups: names learned as rows come (the
 * slots grow past their room several times), parts merged by name, small
 * groups kept exact past the room for kept values, a large one estimated
 * and said to be.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "stats/statset.h"
#include "stats/stats.h"
#include "testutil.h"

enum { NG = 5000, ROWS = 60000, BIG = 4000 };

static char *gnames[NG];
static int64_t grp[ROWS];
static union wultfw_cell cells[ROWS * 2];
static uint64_t want_n[NG + 1];
static double want_max[NG + 1];

/* Group of row r: scattered (r * 7919 % NG); every 13th row has none. */
static void fill(void)
{
	for (size_t g = 0; g < NG; g++) {
		char b[16];

		snprintf(b, sizeof(b), "g%zu", g);
		gnames[g] = strdup(b);
	}
	for (size_t r = 0; r < ROWS; r++) {
		size_t g = r % 13 == 3 ? NG : (r * 7919) % NG;

		grp[r] = g == NG ? -1 : (int64_t)g;
		cells[2 * r].f = (double)(r % 1000) + (double)g;
		cells[2 * r + 1].i = grp[r];
		want_n[g]++;
		if (cells[2 * r].f > want_max[g])
			want_max[g] = cells[2 * r].f;
	}
}

static const struct wfw_statset_cfg cfg = { .exact_limit = 1000000,
					    .exact_memory = 8 * 20000,
					    .group_by = "G" };

/* Rows [r0, r1) in batches of 1000, names known as rows have them. */
static void feed(struct wfw_statset *s, struct wultfw_column *pc, size_t r0,
		 size_t r1)
{
	for (size_t b0 = r0; b0 < r1; b0 += 1000) {
		size_t n = r1 - b0 < 1000 ? r1 - b0 : 1000;
		struct wultfw_batch b = { cells + 2 * b0, 2, n, n, 0 };

		for (size_t r = b0; r < b0 + n; r++)
			if (grp[r] >= 0 && (size_t)grp[r] >= pc[1].n_enum)
				pc[1].n_enum = (size_t)grp[r] + 1;
		CU_ASSERT_EQUAL_FATAL(wfw_statset_add(s, &b), 0);
	}
}

/* Each group's count and max as the rows have them, "-" last. */
static void check_groups(struct wfw_statset *s)
{
	struct wfw_summary sum;
	size_t seen = 0;

	CU_ASSERT_EQUAL(s->ngroups, NG + 1);
	for (size_t g = 0; g < NG; g++) {
		size_t k = wfw_statset_group_find(s, gnames[g]);

		CU_ASSERT_FATAL(k != SIZE_MAX);
		CU_ASSERT_EQUAL(wfw_statset_group_count(s, k), want_n[g]);
		CU_ASSERT_EQUAL(wfw_statset_summary(s, 0, k, NULL, 0, &sum), 0);
		CU_ASSERT_EQUAL(sum.max, want_max[g]);
		/* 12 values each: exact, though all of them pass the room */
		CU_ASSERT(sum.exact);
		seen += sum.count;
	}
	CU_ASSERT_STRING_EQUAL(wfw_statset_group_name(s, wfw_statset_group_at(s, NG)), "-");
	CU_ASSERT_EQUAL(wfw_statset_group_count(s, NG), want_n[NG]);
	CU_ASSERT_EQUAL(seen + want_n[NG], ROWS);
}

/* Names learned in batches: the slots double past their room. */
static void test_grow(void)
{
	struct wultfw_column pc[2] = {
		{ "X", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "G", "", WULTFW_COL_ENUM, 0, (const char *const *)gnames, 0 },
	};
	const struct wultfw_schema sch = { .ncols = 2, .cols = pc };
	struct wfw_statset s;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&s, &sch, &cfg, err, sizeof(err)), 0);
	feed(&s, pc, 0, ROWS);
	CU_ASSERT(s.gcap >= NG + 1 && s.gcap <= 2 * (NG + 1));
	/* more values than the room (20000): none of 12 values left exact */
	CU_ASSERT(s.pool[0].held <= s.budget + s.pool[0].nacc + ROWS);
	check_groups(&s);
	wfw_statset_free(&s);
}

/* Two parts, each naming its groups in its own order, merged by name. */
static void test_merge(void)
{
	struct wultfw_column pa[2] = {
		{ "X", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "G", "", WULTFW_COL_ENUM, 0, (const char *const *)gnames, 0 },
	}, pb[2];
	const struct wultfw_schema sa = { .ncols = 2, .cols = pa }, sb = { .ncols = 2, .cols = pb };
	struct wfw_statset a, b;
	char err[128];

	memcpy(pb, pa, sizeof(pa));
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&a, &sa, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&b, &sb, &cfg, err, sizeof(err)), 0);
	feed(&a, pa, 0, ROWS / 3);	/* a names fewer groups than b */
	feed(&b, pb, ROWS / 3, ROWS);
	CU_ASSERT_EQUAL(wfw_statset_merge(&a, &b), 0);
	wfw_statset_free(&b);
	check_groups(&a);
	wfw_statset_free(&a);
}

/* One group past the room and past 1024 values: estimated, and said so. */
static void test_big_group(void)
{
	static const char *const two[] = { "big", "small" };
	struct wultfw_column pc[2] = {
		{ "X", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "G", "", WULTFW_COL_ENUM, 0, two, 2 },
	};
	const struct wultfw_schema sch = { .ncols = 2, .cols = pc };
	struct wfw_statset_cfg c = cfg;
	union wultfw_cell *v = calloc(2 * BIG, sizeof(*v));
	struct wfw_summary sum;
	struct wfw_statset s;
	struct wultfw_batch b = { v, 2, BIG, BIG, 0 };
	char err[128];

	CU_ASSERT_FATAL(v != NULL);
	c.exact_memory = 8 * 1000;	/* room for 1000 values */
	for (size_t r = 0; r < BIG; r++) {
		v[2 * r].f = (double)r;
		v[2 * r + 1].i = r % 8 == 0;	/* "small": 500 values */
	}
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&s, &sch, &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(wfw_statset_add(&s, &b), 0);
	CU_ASSERT_EQUAL(wfw_statset_summary(&s, 0, 0, NULL, 0, &sum), 0);
	CU_ASSERT(!sum.exact && sum.count == BIG - BIG / 8);
	CU_ASSERT_EQUAL(wfw_statset_summary(&s, 0, 1, NULL, 0, &sum), 0);
	CU_ASSERT(sum.exact && sum.count == BIG / 8);
	wfw_statset_free(&s);
	free(v);
}

int main(void)
{
	CU_pSuite s;
	int ret;

	fill();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("statset, many groups", NULL, NULL);
	CU_add_test(s, "names as rows come: slots grow, counts stay", test_grow);
	CU_add_test(s, "parts merged by name", test_merge);
	CU_add_test(s, "a large group past the room is estimated", test_big_group);
	ret = tu_run();
	for (size_t g = 0; g < NG; g++)
		free(gnames[g]);
	return ret;
}
