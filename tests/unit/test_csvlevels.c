/* SPDX-License-Identifier: MIT */
/*
 * The CSV reader's SIMD levels (csvwin.h) against each other: each
 * level's 64-byte delimiter scan against a byte loop, and a file of
 * wult-like rows with every kind of odd cell read at each level, one cell
 * at a time, two at a time, column by column and with row texts, the
 * same as the portable level bit for bit. A level the CPU lacks is
 * skipped with a line naming it.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/csvnum.h"
#include "datafmt/csvwin.h"
#include "datafmt/reader.h"
#include "testutil.h"

#define ROWS	4000
#define NCOLS	14
#define BATCH	50

static char tmpdir[] = "/tmp/wfw-test-csvlevels-XXXXXX";
static char path[512];

/* A small deterministic generator: the same file on every run. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static bool have(int lvl)
{
	if (wfw_win_rows_level((enum wfw_csv_level)lvl))
		return true;
	printf("\n  SKIP level %s: this CPU or build lacks it",
	       wfw_csv_level_name((enum wfw_csv_level)lvl));
	return false;
}

/* Bytes a CSV scan must tell apart, delimiters often. */
static char scan_byte(uint64_t *s)
{
	static const char pick[] = ",,,\n\r\"0123456789.-aZ";
	uint64_t v = rnd(s);

	return v & 1 ? pick[(v >> 8) % (sizeof(pick) - 1)] : (char)(v >> 16);
}

static void test_delims64(void)
{
	char buf[64 + 64];
	uint64_t s = 88172645463325252ULL;

	for (int lvl = 0; lvl < WFW_CSV_NLEVELS; lvl++) {
		const struct wfw_win_rows *w = wfw_win_rows_level((enum wfw_csv_level)lvl);
		bool ok = true;

		if (!have(lvl))
			continue;
		for (int k = 0; k < 20000; k++) {
			uint64_t want = 0;
			int off = k % 64;	/* unaligned starts too */

			for (size_t i = 0; i < sizeof(buf); i++)
				buf[i] = scan_byte(&s);
			for (int i = 0; i < 64; i++)
				want |= (uint64_t)(buf[off + i] == ',' || buf[off + i] == '\n' ||
						   buf[off + i] == '\r') << i;
			ok &= w->delims64(buf + off) == want;
		}
		CU_ASSERT(ok);
		if (!ok)
			printf("\n  level %s: delimiters differ", w->name);
	}
}

/* One cell of a wult-like column: mostly d+.ddd, now and then odd. */
static void cell(FILE *f, int c, uint64_t *s)
{
	uint64_t v = rnd(s), odd = v % 23;

	if (c == 5 && odd) {	/* text: a name, or empty */
		fputs((const char *[]){ "POLL", "C1", "C1E", "C6" }[v >> 40 & 3], f);
		return;
	}
	switch (odd) {
	case 0: return;	/* empty */
	case 1: fprintf(f, "%llu.%llu", (unsigned long long)(v >> 20),
			(unsigned long long)(v >> 40)); return;	/* long */
	case 2: fputs("\"1.5\"", f); return;	/* quoted */
	case 3: fprintf(f, "-%u.%03u", (unsigned)(v >> 32) % 9999, (unsigned)(v >> 20) % 1000); return;
	case 4: fprintf(f, "0%u.5", (unsigned)(v >> 32) % 99); return;	/* leading zero */
	case 5: fprintf(f, "%u", (unsigned)(v >> 32) % 100000); return;
	case 6: fputs(v >> 40 & 1 ? "nan" : "1e3", f); return;
	default: fprintf(f, "%u.%03u", (unsigned)(v >> 32) % 99999, (unsigned)(v >> 20) % 1000);
	}
}

/* Rows of 14 cells, some lines ending in CRLF, a blank line now and then. */
static void write_csv(void)
{
	FILE *f = fopen(path, "w");
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	CU_ASSERT_FATAL(f != NULL);
	fputs("WakeLatency,SilentTime,IntrLatency,IntrOff,LDist,ReqCState,CC0%,"
	      "CC1Derived%,CC1%,CC6%,PC2%,PC6%,SMICnt,NMICnt\n", f);
	for (int i = 0; i < ROWS; i++) {
		for (int c = 0; c < NCOLS; c++) {
			if (c)
				fputc(',', f);
			cell(f, c, &s);
		}
		fputs(rnd(&s) % 7 ? "\n" : "\r\n", f);
		if (!(rnd(&s) % 97))
			fputc('\n', f);
	}
	fclose(f);
}

/* Every cell read, as its bits; `cols`: read_cols of all columns. */
static uint64_t *read_all(bool one_pass, bool cols, bool texts, size_t *n)
{
	struct wfw_reader_opts o = { .one_pass = one_pass };
	uint64_t *v = malloc(sizeof(*v) * ROWS * NCOLS);
	struct wfw_reader *r = NULL;
	char err[512];
	long got;

	*n = 0;
	CU_ASSERT_FATAL(v != NULL);
	if (wfw_reader_open_opts(&r, path, &o, err, sizeof(err)))
		printf("\n  %s", err);
	CU_ASSERT_FATAL(r != NULL);
	if (cols) {
		struct wfw_col_batch b;

		CU_ASSERT_FATAL(wfw_col_batch_alloc(&b, NCOLS, BATCH, NULL) == 0);
		b.numbers = true;
		while ((got = wfw_reader_read_cols(r, &b)) > 0) {
			for (size_t i = 0; i < b.rows; i++)
				for (size_t c = 0; c < NCOLS; c++)
					v[(*n)++] = (uint64_t)b.col[c][i].i;
			b.rows = 0;
		}
		wfw_col_batch_free(&b);
	} else {
		struct wultfw_batch b;

		CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, BATCH) == 0);
		if (texts)
			CU_ASSERT_FATAL(wfw_reader_row_texts(r, BATCH) != NULL);
		while ((got = wfw_reader_read(r, &b)) > 0) {
			for (size_t i = 0; i < b.rows; i++)
				for (size_t c = 0; c < NCOLS; c++)
					v[(*n)++] = (uint64_t)wultfw_row(&b, i)[c].i;
			b.rows = 0;
		}
		wfw_batch_free(&b);
	}
	CU_ASSERT_EQUAL(got, 0);
	wfw_reader_close(r);
	return v;
}

/* The ways of reading: {one pass, column by column, row texts, no pairs}. */
static const bool ways[][4] = {
	{ false, false, false, true }, { false, false, false, false },
	{ true, false, false, false }, { true, true, false, false },
	{ true, true, false, true }, { false, false, true, false },
};
#define NWAYS	(sizeof(ways) / sizeof(ways[0]))

static void test_levels_agree(void)
{
	uint64_t *ref[NWAYS];
	size_t nref[NWAYS];

	write_csv();
	for (int lvl = 0; lvl < WFW_CSV_NLEVELS; lvl++) {
		if (lvl != WFW_CSV_SCALAR && !have(lvl))
			continue;
		wfw_csv_force_level = lvl;
		for (size_t k = 0; k < NWAYS; k++) {
			size_t n;
			uint64_t *v;

			wfw_csv_no_pairs = ways[k][3];
			v = read_all(ways[k][0], ways[k][1], ways[k][2], &n);
			wfw_csv_no_pairs = false;
			CU_ASSERT(n > ROWS * NCOLS / 2);
			if (lvl == WFW_CSV_SCALAR) {
				ref[k] = v;
				nref[k] = n;
				continue;
			}
			CU_ASSERT_EQUAL(n, nref[k]);
			CU_ASSERT(n == nref[k] && !memcmp(v, ref[k], n * sizeof(*v)));
			if (n != nref[k] || memcmp(v, ref[k], n * sizeof(*v)))
				printf("\n  level %s, way %zu differs from scalar",
				       wfw_csv_level_name((enum wfw_csv_level)lvl), k);
			free(v);
		}
	}
	wfw_csv_force_level = -1;
	for (size_t k = 0; k < NWAYS; k++)
		free(ref[k]);
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
	s = CU_add_suite("csvlevels", NULL, NULL);
	CU_add_test(s, "each level's delimiter scan", test_delims64);
	CU_add_test(s, "every level reads cells as the portable one, bit for bit",
		    test_levels_agree);
	failed = tu_run();
	if (!failed)
		tu_rmtree(tmpdir);
	return failed;
}
