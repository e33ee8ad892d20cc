/* SPDX-License-Identifier: MIT */
/*
 * The CSV reader's read_cols (calc's way of reading): cells straight into
 * column arrays, INT cells as doubles, the columns not asked for only
 * delimited. Checked against read() of the same file on every path: the
 * window path (two cells at a time against one), long cells (17 to 25
 * bytes, 19 digits and more, signs, leading zeros) and quoted ones,
 * empty cells, a change of type; at every SIMD level.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/csvnum.h"
#include "datafmt/csvwin.h"
#include "datafmt/reader.h"
#include "testutil.h"

#define ROWS	3000
#define NCOLS	6

static char tmpdir[] = "/tmp/wfw-test-csvcols-XXXXXX";
static char path[512];

/*
 * Columns: INT with 3 decimals (some empty), FLOAT (a long one now and
 * then), text, INT counter, a text quoted with commas now and then, INT
 * with 1 decimal.
 * bad_row >= 0: column 5 holds a word there (after the learning rows).
 */
static void write_csv(const char *p, int bad_row)
{
	FILE *f = fopen(p, "w");

	CU_ASSERT_FATAL(f != NULL);
	fputs("WakeLatency,LDist,ReqCState,SMICnt,Note,CC0%\n", f);
	for (int i = 0; i < ROWS; i++) {
		if (i % 17 == 3)
			fputs(",", f);
		else if (i % 31 == 9)	/* 19 digits: 20 or 21 bytes */
			fprintf(f, "%s%d%015d.%03d,", i & 1 ? "-" : "", i % 9 + 1, i, i % 1000);
		else
			fprintf(f, "%d.%03d,", i, i % 1000);
		if (i % 29 == 5)
			fprintf(f, "%d.12345678901234567,", i);
		else if (i % 29 == 6)	/* leading zeros, 21 bytes */
			fprintf(f, "-%07d.123456789012,", i);
		else if (i % 29 == 7)	/* 20 digits and more: strtod() */
			fprintf(f, "%d.%s,", i, i & 1 ? "1234567890123456789" : "12345678901234567890123");
		else
			fprintf(f, "%d.%d,", i * 7, i % 10);
		fprintf(f, "%s,%d,", i % 3 ? "C1" : "POLL", i % 5);
		if (i % 13 == 1)
			fputs("\"a, \"\"quoted\"\", note\",", f);
		else if (i % 13 == 7)
			fputs("\"x,y\",", f);	/* short: the window path's */
		else if (i % 13 == 3)	/* 24 and 25 bytes */
			fputs(i & 1 ? "a note twenty-four bytes," : "a note of twenty-five by\",", f);
		else
			fputs("plain,", f);
		if (i == bad_row)
			fputs("oops\n", f);
		else
			fprintf(f, "-%d.5\n", i % 100);
	}
	fclose(f);
}

static struct wfw_reader *open_csv(bool one_pass)
{
	struct wfw_reader_opts o = { .one_pass = one_pass };
	struct wfw_reader *r;
	char err[512];

	CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &o, err, sizeof(err)) == 0);
	return r;
}

/*
 * Every row by read(), as calc's doubles (INT raw, empty the empty NaN),
 * one cell at a time: read_cols takes two at a time where it can.
 */
static double *read_rows(void)
{
	struct wfw_reader *r;
	const struct wultfw_schema *s;
	double *v = malloc(sizeof(*v) * ROWS * NCOLS);
	struct wultfw_batch b;
	size_t at = 0;
	long n;

	wfw_csv_no_pairs = true;
	r = open_csv(false);
	wfw_csv_no_pairs = false;
	s = wfw_reader_schema(r);
	CU_ASSERT_FATAL(v != NULL && s->ncols == NCOLS);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, 100) == 0);
	while ((n = wfw_reader_read(r, &b)) > 0) {
		for (size_t i = 0; i < b.rows; i++)
			for (size_t c = 0; c < NCOLS; c++) {
				union wultfw_cell x = wultfw_row(&b, i)[c];

				if (s->cols[c].type == WULTFW_COL_INT)
					x.f = x.i == WULTFW_CELL_EMPTY ? NAN : (double)x.i;
				else if (s->cols[c].type == WULTFW_COL_ENUM)
					x.f = (double)x.i;
				v[at++] = x.f;
			}
		b.rows = 0;
	}
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(at, ROWS * NCOLS);
	wfw_batch_free(&b);
	wfw_reader_close(r);
	return v;
}

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/*
 * read_cols of the columns in want (bit c) into `got`, as numbers; the
 * reader's last result.
 */
static long read_cols(struct wfw_reader *r, unsigned want, double *got, size_t batch)
{
	const struct wultfw_schema *s = wfw_reader_schema(r);
	bool w[NCOLS];
	struct wfw_col_batch b;
	size_t at = 0;
	long n;

	for (size_t c = 0; c < NCOLS; c++)
		w[c] = want >> c & 1;
	CU_ASSERT_FATAL(wfw_col_batch_alloc(&b, NCOLS, batch, w) == 0);
	b.numbers = true;
	while ((n = wfw_reader_read_cols(r, &b)) > 0) {
		for (size_t i = 0; i < b.rows; i++, at++)
			for (size_t c = 0; c < NCOLS; c++) {
				if (!b.col[c])
					continue;
				got[at * NCOLS + c] = s->cols[c].type == WULTFW_COL_ENUM
					? (double)b.col[c][i].i : b.col[c][i].f;
			}
		b.rows = 0;
	}
	wfw_col_batch_free(&b);
	return n < 0 ? n : (long)at;
}

/* Each subset of columns, whole and in one pass, against read(). */
static void cols_like_rows(const double *want)
{
	double *got = malloc(sizeof(*got) * ROWS * NCOLS);

	CU_ASSERT_FATAL(got != NULL);
	for (unsigned set = 1; set < 1u << NCOLS; set += 5) {
		for (int one = 0; one < 2; one++) {
			struct wfw_reader *r = open_csv(one);
			bool ok = true;

			CU_ASSERT_TRUE(wfw_reader_direct_cols(r));
			CU_ASSERT_FALSE(wfw_reader_native_cols(r));
			CU_ASSERT_EQUAL(read_cols(r, set, got, 64 + set), ROWS);
			for (size_t k = 0; k < ROWS * NCOLS; k++)
				if (set >> (k % NCOLS) & 1)
					ok &= same(got[k], want[k]);
			CU_ASSERT(ok);
			if (!ok)
				printf("\n  columns 0x%x, one pass %d differ", set, one);
			wfw_reader_close(r);
		}
	}
	free(got);
}

/*
 * At every SIMD level (csvwin.h): read() one cell at a time the same as
 * the portable level, bit for bit, and read_cols as read().
 */
static void test_cols_like_rows(void)
{
	double *ref;

	write_csv(path, -1);
	wfw_csv_force_level = WFW_CSV_SCALAR;
	ref = read_rows();
	for (int lvl = 0; lvl < WFW_CSV_NLEVELS; lvl++) {
		double *want;

		if (!wfw_win_rows_level((enum wfw_csv_level)lvl)) {
			printf("\n  SKIP level %s: this CPU or build lacks it",
			       wfw_csv_level_name((enum wfw_csv_level)lvl));
			continue;
		}
		wfw_csv_force_level = lvl;
		want = read_rows();
		CU_ASSERT(memcmp(want, ref, sizeof(*ref) * ROWS * NCOLS) == 0);
		cols_like_rows(want);
		free(want);
	}
	wfw_csv_force_level = -1;
	free(ref);
}

/*
 * A word in a FLOAT column after the learning rows: read() and read_cols of
 * that column fail naming it; read_cols of the other columns read on.
 */
static void test_cols_not_asked(void)
{
	double *got = malloc(sizeof(*got) * ROWS * NCOLS);
	struct wfw_reader *r;

	CU_ASSERT_FATAL(got != NULL);
	write_csv(path, 2000);
	r = open_csv(true);
	CU_ASSERT(read_cols(r, 0x1f, got, 100) == ROWS);
	wfw_reader_close(r);
	r = open_csv(true);
	CU_ASSERT(read_cols(r, 0x21, got, 100) < 0);
	TU_ASSERT_CONTAINS(wfw_reader_error(r), "'oops' is not a number");
	wfw_reader_close(r);
	free(got);
}

/* read_cols, then read() of the same reader: every column again. */
static void test_cols_then_rows(void)
{
	struct wfw_reader *r;
	struct wultfw_batch b;
	double got[100 * NCOLS];
	long n;

	write_csv(path, -1);
	r = open_csv(true);
	{
		bool w[NCOLS] = { true };
		struct wfw_col_batch cb;

		CU_ASSERT_FATAL(wfw_col_batch_alloc(&cb, NCOLS, 100, w) == 0);
		cb.numbers = true;
		CU_ASSERT_EQUAL(wfw_reader_read_cols(r, &cb), 100);
		CU_ASSERT_EQUAL(cb.col[0][99].f, 99099.0);
		wfw_col_batch_free(&cb);
	}
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, 100) == 0);
	n = wfw_reader_read(r, &b);
	CU_ASSERT_EQUAL(n, 100);
	/* row 100: 100.100,700.0,C1,0,plain,-0.5 */
	CU_ASSERT_EQUAL(wultfw_row(&b, 0)[0].i, 100100);
	CU_ASSERT_EQUAL(wultfw_row(&b, 0)[1].f, 700.0);
	CU_ASSERT_EQUAL(wultfw_row(&b, 0)[5].i, -5);	/* INT, 1 decimal */
	wfw_batch_free(&b);
	wfw_reader_close(r);
	(void)got;
}

int main(void)
{
	CU_pSuite s;
	int failed;

	if (!mkdtemp(tmpdir))
		return 1;
	snprintf(path, sizeof(path), "%s/datapoints.csv", tmpdir);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("csvcols", NULL, NULL);
	CU_add_test(s, "read_cols agrees with read() on every path", test_cols_like_rows);
	CU_add_test(s, "columns not asked for are only delimited", test_cols_not_asked);
	CU_add_test(s, "read() after read_cols reads every column", test_cols_then_rows);
	failed = tu_run();
	if (!failed)
		tu_rmtree(tmpdir);
	return failed;
}
