/* SPDX-License-Identifier: MIT */
/*
 * lib/stats/statset.c with groups: every accumulator gets the blocks its
 * own stage makes, whatever the size of the calls, so the moments are the
 * same bits as the reference's, which adds those blocks itself: a group's
 * kept values of a call, 256 rows at a time, a block once more than 768
 * are waiting, the rest at the call's end.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "stats/cstate.h"
#include "stats/statset.h"
#include "stats/stats.h"

static uint64_t rng = 4242;

static double urand(void)	/* uniform in [0, 1) */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;
}

enum { NCOLS = 3, NG = 4, NM = 2, ROWS = 40000, CHUNK = 256 };

static const char *const names[] = { "A", "B", "C" };
static const struct wultfw_column cols[NCOLS] = {
	{ "X", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "G", "", WULTFW_COL_ENUM, 0, names, 3 },
	{ "Y", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
};
static union wultfw_cell cells[ROWS * NCOLS];

/* Row r's group: runs of one group, and stretches of random ones. */
static int64_t row_group(size_t r)
{
	if ((r / 3000) % 3 == 1)
		return (int64_t)((r / 3000) % NG) - 1;	/* -1: no state */
	return (int64_t)(urand() * NG) - 1;
}

static void fill(void)
{
	for (size_t r = 0; r < ROWS; r++) {
		union wultfw_cell *c = cells + r * NCOLS;

		c[0].i = r % 211 == 5 ? WULTFW_CELL_EMPTY : (int64_t)(urand() * 1e7);
		c[1].i = row_group(r);
		c[2].f = r % 97 == 1 ? NAN : 50 + urand() * 1e4;
	}
}

/* Metric m's value of row r as the statset keeps it; false: left out. */
static bool kept(size_t m, size_t r, double *v)
{
	const union wultfw_cell *c = cells + r * NCOLS;

	if (m == 0) {
		*v = (double)c[0].i;
		return c[0].i != WULTFW_CELL_EMPTY;
	}
	*v = c[2].f;
	return !isnan(*v);
}

static size_t group_of(size_t r)
{
	int64_t e = cells[r * NCOLS + 1].i;

	return e < 0 ? NG - 1 : (size_t)e;
}

/* Rows [r0, r0 + n) of one call into the reference accumulators. */
static void ref_call(struct wfw_acc *ref, size_t r0, size_t n)
{
	static double stage[NM][NG][1024];
	size_t ns[NM][NG] = { { 0 } };

	for (size_t c = r0; c < r0 + n; c += CHUNK) {
		size_t end = c + CHUNK < r0 + n ? c + CHUNK : r0 + n;

		for (size_t r = c; r < end; r++)
			for (size_t m = 0; m < NM; m++)
				if (kept(m, r, &stage[m][group_of(r)][ns[m][group_of(r)]]))
					ns[m][group_of(r)]++;
		for (size_t m = 0; m < NM; m++)
			for (size_t g = 0; g < NG; g++)
				if (ns[m][g] > 768) {
					wfw_acc_add_many(&ref[m * NG + g], stage[m][g], ns[m][g]);
					ns[m][g] = 0;
				}
	}
	for (size_t m = 0; m < NM; m++)
		for (size_t g = 0; g < NG; g++)
			if (ns[m][g])
				wfw_acc_add_many(&ref[m * NG + g], stage[m][g], ns[m][g]);
}

static void same_acc(struct wfw_acc *a, struct wfw_acc *b)
{
	static const double p[] = { 1, 50, 99.9 };
	double x[3], y[3];

	CU_ASSERT_EQUAL(a->n, b->n);
	CU_ASSERT(a->min == b->min && a->max == b->max);
	CU_ASSERT(a->sum == b->sum && a->sumc == b->sumc);
	CU_ASSERT(a->mean == b->mean && a->m2 == b->m2);
	CU_ASSERT_EQUAL(wfw_acc_percentiles(a, p, 3, x), 0);
	CU_ASSERT_EQUAL(wfw_acc_percentiles(b, p, 3, y), 0);
	CU_ASSERT_EQUAL(memcmp(x, y, sizeof(x)), 0);
}

/* Calls of `batch` rows (random sizes up to 2 * batch when vary). */
static void run(size_t batch, bool vary)
{
	const struct wultfw_schema schema = { NCOLS, cols };
	struct wfw_statset_cfg cfg = { .exact_limit = 3000, .exact_memory = 1u << 20,
				       .group_by = "G" };
	struct wfw_acc ref[NM * NG];
	struct wfw_statset s;
	char err[200];

	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&s, &schema, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(s.ngroups, NG);
	for (size_t i = 0; i < NM * NG; i++)
		wfw_acc_init(&ref[i], s.exact_limit, i < NG);
	for (size_t r0 = 0, n; r0 < ROWS; r0 += n) {
		struct wultfw_batch b;

		n = vary ? 1 + (size_t)(urand() * 2 * batch) : batch;
		n = n < ROWS - r0 ? n : ROWS - r0;
		b = (struct wultfw_batch){ cells + r0 * NCOLS, NCOLS, n, n, 0 };
		CU_ASSERT_EQUAL_FATAL(wfw_statset_add(&s, &b), 0);
		ref_call(ref, r0, n);
	}
	for (size_t i = 0; i < NM * NG; i++) {
		CU_ASSERT(ref[i].n > 0 && !wfw_acc_exact(&ref[i]));
		same_acc(&s.acc[i], &ref[i]);
		wfw_acc_free(&ref[i]);
	}
	CU_ASSERT(s.empties[0] > 0 && s.nans[1] > 0);
	wfw_statset_free(&s);
}

static void test_group_blocks(void)
{
	fill();
	run(1024, false);
	run(1000, true);
	run(300, true);
	run(4096, false);
	run(1, false);
}

static int cmp_names(const void *a, const void *b)
{
	return wfw_cstate_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* C-states by depth (numbers as numbers, then the suffix), others after. */
static void test_cstate_order(void)
{
	static const char *const want[] = {
		"POLL", "C1", "C1E", "C1_ACPI", "C2", "C3", "C6", "C6S", "C8",
		"C10", "C10S", "C100", "ACPI", "C", "CX", "FOO", "c1", "-",
	};
	enum { N = sizeof(want) / sizeof(want[0]) };
	const char *v[N];

	for (size_t k = 0; k < 20; k++) {
		memcpy(v, want, sizeof(v));
		for (size_t i = N - 1; i > 0; i--) {	/* shuffled */
			size_t j = (size_t)(urand() * (double)(i + 1));
			const char *t = v[i];

			v[i] = v[j];
			v[j] = t;
		}
		qsort(v, N, sizeof(v[0]), cmp_names);
		for (size_t i = 0; i < N; i++)
			CU_ASSERT_STRING_EQUAL(v[i], want[i]);
	}
	CU_ASSERT(wfw_cstate_cmp("C01", "C1") != 0);
	CU_ASSERT(wfw_cstate_cmp("C01", "C1") == -wfw_cstate_cmp("C1", "C01"));
	CU_ASSERT(wfw_cstate_cmp("C1", "C1") == 0);
}

/* A statset lists its groups by depth, not in the file's order of names. */
static void test_group_listing(void)
{
	static const char *const gnames[] = { "C6", "C1E", "POLL", "C10", "C1" };
	static const char *const want[] = { "POLL", "C1", "C1E", "C6", "C10", "-" };
	const struct wultfw_column gcols[2] = {
		{ "X", "us", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "ReqCState", "", WULTFW_COL_ENUM, 0, gnames, 5 },
	};
	const struct wultfw_schema sch = { .ncols = 2, .cols = gcols };
	struct wfw_statset_cfg cfg = { .exact_limit = 100, .exact_memory = 1 << 20,
				       .group_by = "ReqCState" };
	struct wfw_statset s;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&s, &sch, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(s.ngroups, 6);
	for (size_t i = 0; i < 6; i++)
		CU_ASSERT_STRING_EQUAL(wfw_statset_group_name(&s, wfw_statset_group_at(&s, i)),
				       want[i]);
	wfw_statset_free(&s);
}

/*
 * Feed `rows` (group per row in grp[]) in calls of about `batch` rows;
 * the kept values' room never exceeds the metric's budget by more than a
 * value per group. Returns the
 * groups' exactness as a bit mask once summarized.
 */
static unsigned pool_run(const int64_t *grp, size_t rows, size_t batch,
			 size_t ncodes, const char *const *gnames, bool late)
{
	/* late: names as a one-pass reader learns them, when rows have them */
	struct wultfw_column pc[2] = {
		{ "X", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "G", "", WULTFW_COL_ENUM, 0, gnames, late ? 0 : ncodes },
	};
	const struct wultfw_schema sch = { .ncols = 2, .cols = pc };
	struct wfw_statset_cfg cfg = { .exact_limit = 1000000,
				       .exact_memory = 8 * 20000, .group_by = "G" };
	union wultfw_cell *c = malloc(2 * rows * sizeof(*c));
	struct wfw_statset s;
	struct wfw_summary sum;
	unsigned exact = 0;
	char err[128];

	CU_ASSERT_FATAL(c != NULL);
	for (size_t r = 0; r < rows; r++) {
		c[2 * r].f = (double)(r % 997);
		c[2 * r + 1].i = grp[r];
	}
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&s, &sch, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(s.budget, 20000);
	for (size_t r0 = 0, n; r0 < rows; r0 += n) {
		struct wultfw_batch b;
		size_t kept = 0;

		n = 1 + (size_t)(urand() * 2 * batch);
		n = n < rows - r0 ? n : rows - r0;
		for (size_t r = r0; late && r < r0 + n; r++)
			if ((size_t)grp[r] >= pc[1].n_enum)
				pc[1].n_enum = (size_t)grp[r] + 1;
		b = (struct wultfw_batch){ c + 2 * r0, 2, n, n, 0 };
		CU_ASSERT_EQUAL_FATAL(wfw_statset_add(&s, &b), 0);
		for (size_t g = 0; g < s.gcap; g++)
			kept += s.acc[g].cap;
		/* room is made at most once per nacc values past the budget */
		CU_ASSERT(kept <= s.budget + s.pool[0].nacc && s.pool[0].held == kept);
	}
	for (size_t g = 0; g < s.ngroups; g++) {
		CU_ASSERT_EQUAL(wfw_statset_summary(&s, 0, g, NULL, 0, &sum), 0);
		exact |= (unsigned)sum.exact << g;
	}
	wfw_statset_free(&s);
	free(c);
	return exact;
}

/*
 * A metric's groups share its room for exact values: which groups stay
 * exact depends on their final counts only (not on the order of the rows,
 * nor on names no row has), and the room held stays within the budget.
 */
static void test_pool(void)
{
	static const char *const gn[] = { "C6", "C1", "POLL", "C1E", "C10", "C3" };
	static const size_t cnt[] = { 30000, 9000, 4000, 900, 100, 0 };
	enum { PROWS = 44000 };
	int64_t *grp = malloc(PROWS * sizeof(*grp)), t;
	unsigned first = 0, e;
	size_t r = 0;

	CU_ASSERT_FATAL(grp != NULL);
	for (size_t g = 0; g < 6; g++)
		for (size_t k = 0; k < cnt[g]; k++)
			grp[r++] = (int64_t)g;
	/* 20000 values: 5000 to the small groups, 7500 each for C6 and C1. */
	/* Shuffled, in calls of several sizes, with a name no row has, and
	 * with the names coming as the rows do (a one-pass CSV reader). */
	for (int run = 0; run < 6; run++) {
		for (size_t i = PROWS - 1; run && i > 0; i--) {	/* shuffled */
			size_t j = (size_t)(urand() * (double)(i + 1));

			t = grp[i];
			grp[i] = grp[j];
			grp[j] = t;
		}
		e = pool_run(grp, PROWS, run % 2 ? 300 : 5000, run < 3 ? 5 : 6, gn,
			     run == 2 || run == 5);
		if (!run)
			first = e;
		CU_ASSERT_EQUAL(e & 0x1f, first & 0x1f);
	}
	/* Over the share: C6 and C1; exact: POLL, C1E, C10. */
	CU_ASSERT_EQUAL(first & 0x1f, 0x1c);
	free(grp);
}

/*
 * A few groups (C-states) keep their stages between calls, so no call
 * grows them again; many groups hold none between calls.
 */
static size_t staged_after_call(size_t nnames)
{
	static const char *many[40];
	static char txt[40][8];
	struct wultfw_column sc[2] = {
		{ "V", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "G", "", WULTFW_COL_ENUM, 0, many, nnames },
	};
	const struct wultfw_schema sch = { 2, sc };
	struct wfw_statset_cfg cfg = { .exact_limit = 100, .exact_memory = 1u << 20,
				       .group_by = "G" };
	union wultfw_cell c[2 * 400];
	struct wfw_statset s;
	struct wultfw_batch b = { c, 2, 400, 400, 0 };
	size_t with = 0;
	char err[128];

	for (size_t g = 0; g < 40; g++) {
		snprintf(txt[g], sizeof(txt[g]), "S%zu", g);
		many[g] = txt[g];
	}
	for (size_t r = 0; r < 400; r++) {
		c[2 * r].f = (double)r;
		c[2 * r + 1].i = (int64_t)(r % nnames);
	}
	CU_ASSERT_EQUAL_FATAL(wfw_statset_init(&s, &sch, &cfg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_statset_add(&s, &b), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_statset_add(&s, &b), 0);
	for (size_t g = 0; g < s.gcap; g++) {
		CU_ASSERT_EQUAL(s.acc[g].nstage, 0);	/* flushed all the same */
		with += s.acc[g].stage != NULL;
	}
	CU_ASSERT_EQUAL(wfw_statset_group_count(&s, 0), 800 / nnames);
	wfw_statset_free(&s);
	return with;
}

static void test_kept_stages(void)
{
	CU_ASSERT_EQUAL(staged_after_call(4), 4);
	CU_ASSERT_EQUAL(staged_after_call(40), 0);
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("statset groups", NULL, NULL);
	CU_add_test(s, "blocks as each accumulator's stage makes them", test_group_blocks);
	CU_add_test(s, "C-states ordered by depth", test_cstate_order);
	CU_add_test(s, "groups listed by depth", test_group_listing);
	CU_add_test(s, "a metric's groups share its room for exact values", test_pool);
	CU_add_test(s, "a few groups keep their stages, many hold none", test_kept_stages);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
