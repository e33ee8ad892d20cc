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
#include <sys/mman.h>
#include <unistd.h>

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

/* ---- long cells: 17 to 25 bytes, up to the end of a page ---- */

#define LPAGE	8192	/* each long-cell file: two pages exactly */
#define LROWS	1024
#define LFLOATS	3	/* columns A, B, C */

static char lpath[512];
static double lwant[LROWS][LFLOATS];
static int64_t lwant_i[LROWS];
static size_t lrows;

/* A [-]digits[.digits] cell of exactly len bytes, len >= 1, into s. */
static void float_text(char *s, int len, uint64_t *seed)
{
	uint64_t v = rnd(seed);
	int i = 0, pt = -1, zeros = v & 4 ? (int)(v >> 4 & 7) : 0;

	if (v & 1 && len >= 2)
		s[i++] = '-';
	if (v & 2 && len - i >= 2)
		pt = i + (int)((v >> 8) % (uint64_t)(len - i));
	for (int z = i; i < len; i++)
		s[i] = i == pt ? '.' : (char)(i - z < zeros ? '0' : '0' + rnd(seed) % 10);
	s[len] = '\0';
}

/*
 * A canonical cell of 3 decimals with nd (4..19) digits, a sign now and
 * then above 4 (fill_row() counts on 5 bytes); its value.
 */
static int64_t int_text(char *s, int nd, uint64_t *seed)
{
	uint64_t v = rnd(seed), m = 1 + v % 8;	/* below INT64_MAX at 19 */
	int neg = nd > 4 && (v >> 8 & 1);

	for (int k = 1; k < nd; k++)
		m = m * 10 + rnd(seed) % 10;
	sprintf(s, "%s%llu.%03llu", neg ? "-" : "", (unsigned long long)(m / 1000),
		(unsigned long long)(m % 1000));
	return neg ? -(int64_t)m : (int64_t)m;
}

/* Names of the text column T: one longer than 16 bytes. */
static const char *const lnames[] = { "C1", "POLL", "C6_ACPI_LONGER_NAME", "C1E" };

/* A row A,B,N,T,C: A B C of len[] bytes, N of nd digits, T lnames[t]. */
static long long_row(FILE *f, const int len[LFLOATS], int nd, int t, bool eol,
		     uint64_t *seed)
{
	char a[32], b[32], c[32], n[32];

	float_text(a, len[0], seed);
	float_text(b, len[1], seed);
	float_text(c, len[2], seed);
	lwant_i[lrows] = int_text(n, nd, seed);
	lwant[lrows][0] = strtod(a, NULL);
	lwant[lrows][1] = strtod(b, NULL);
	lwant[lrows][2] = strtod(c, NULL);
	lrows++;
	return fprintf(f, "%s,%s,%s,%s,%s%s", a, b, n, lnames[t], c, eol ? "\n" : "");
}

/* A row of short names (C1) and N 4 digits whose A B C take `total` bytes. */
static long fill_row(FILE *f, int total, bool eol, uint64_t *seed)
{
	int len[LFLOATS] = { total / 3, (total + 1) / 3, (total + 2) / 3 };

	return long_row(f, len, 4, 0, eol, seed);
}

/*
 * Rows of cells of 1 to 25 bytes, most long, some with N ending at byte
 * 63 to 66 of their row (where a 64-byte scan ends); the last two rows fill
 * the file to LPAGE bytes, the last with long cells and no line end: the
 * page after it is not mapped.
 */
static void write_long(uint64_t seed)
{
	FILE *f = fopen(lpath, "w");
	long size, left;

	CU_ASSERT_FATAL(f != NULL);
	lrows = 0;
	size = fprintf(f, "A,B,N,T,C\n");
	while (LPAGE - size > 200) {
		uint64_t v = rnd(&seed);
		int len[LFLOATS] = { 1 + (int)(v % 25), 1 + (int)(v >> 8 & 0xff) % 25,
				     1 + (int)(v >> 16 & 0xff) % 25 };
		bool edge = v >> 32 & 1;

		if (edge) {	/* A,B,N end at 19 + 44 = 63 and on */
			len[0] = 19 + (int)(v >> 33 & 0xff) % 3;
			len[1] = 21;
		}
		size += long_row(f, len, edge ? 19 : 4 + (int)(v >> 40 & 0xff) % 16,
				 (int)(v >> 48 & 3), true, &seed);
	}
	/* N "d.ddd" and T "C1" with 4 commas: 11 bytes a row, 1 more with LF. */
	while ((left = LPAGE - size) > 173)
		size += fill_row(f, 75, true, &seed);
	size += fill_row(f, (int)(left - 23 - (left - 23 > 78 ? 75 : left - 26)),
			 true, &seed);
	left = LPAGE - size;
	size += fill_row(f, (int)left - 11, false, &seed);
	fclose(f);
	CU_ASSERT_FATAL(size == LPAGE && lrows <= LROWS);
}

/* The long-cell file's columns: A B N T C, N INT with 3 decimals. */
static const int lcol[LFLOATS] = { 0, 1, 4 };

/* Cells of the long-cell file read by read() unlike lwant: how many. */
static size_t long_rows_differ(struct wfw_reader *r, bool texts)
{
	const struct wultfw_schema *s = wfw_reader_schema(r);
	struct wultfw_batch b;
	size_t at = 0, bad = 0;
	long got;

	CU_ASSERT_FATAL(s->ncols == 5 && s->cols[2].type == WULTFW_COL_INT &&
			s->cols[3].type == WULTFW_COL_ENUM);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 5, 37) == 0);
	if (texts)
		CU_ASSERT_FATAL(wfw_reader_row_texts(r, 37) != NULL);
	while ((got = wfw_reader_read(r, &b)) > 0) {
		for (size_t i = 0; i < b.rows && at < lrows; i++, at++) {
			const union wultfw_cell *row = wultfw_row(&b, i);

			for (int k = 0; k < LFLOATS; k++)
				bad += memcmp(&row[lcol[k]].f, &lwant[at][k], sizeof(double)) != 0;
			bad += row[2].i != lwant_i[at];
		}
		b.rows = 0;
	}
	CU_ASSERT_EQUAL(got, 0);
	wfw_batch_free(&b);
	return bad + (at != lrows);
}

/* The same by read_cols of the columns in `want` (bit c). */
static size_t long_cols_differ(struct wfw_reader *r, unsigned want)
{
	bool w[5];
	struct wfw_col_batch b;
	size_t at = 0, bad = 0;
	long got;

	for (int c = 0; c < 5; c++)
		w[c] = want >> c & 1;
	CU_ASSERT_FATAL(wfw_col_batch_alloc(&b, 5, 41, w) == 0);
	b.numbers = true;
	while ((got = wfw_reader_read_cols(r, &b)) > 0) {
		for (size_t i = 0; i < b.rows && at < lrows; i++, at++) {
			for (int k = 0; k < LFLOATS; k++)
				if (b.col[lcol[k]])
					bad += memcmp(&b.col[lcol[k]][i].f, &lwant[at][k],
						      sizeof(double)) != 0;
			if (b.col[2])
				bad += b.col[2][i].f != (double)lwant_i[at];
		}
		b.rows = 0;
	}
	CU_ASSERT_EQUAL(got, 0);
	wfw_col_batch_free(&b);
	return bad + (at != lrows);
}

/* One way of reading the long-cell file: 0 rows, 1 texts, 2.. column sets. */
static size_t long_way_differs(int way)
{
	static const unsigned sets[] = { 0x1f, 0x11, 0x06 };
	struct wfw_reader_opts o = { .one_pass = way > 0 };
	struct wfw_reader *r = NULL;
	char err[512];
	size_t bad;

	if (wfw_reader_open_opts(&r, lpath, &o, err, sizeof(err)))
		printf("\n  %s", err);
	CU_ASSERT_FATAL(r != NULL);
	bad = way < 2 ? long_rows_differ(r, way == 1) : long_cols_differ(r, sets[way - 2]);
	wfw_reader_close(r);
	return bad;
}

/*
 * Cells of 17 to 25 bytes (19 digits and more, signs, leading zeros, a
 * file that ends at a page's end with them) read at every level, every
 * way, as strtod() and the INT column's values say.
 */
static void test_long_cells(void)
{
	snprintf(lpath, sizeof(lpath), "%s/long.csv", tmpdir);
	for (uint64_t seed = 1; seed <= 24; seed++) {
		write_long(seed * 0x9e3779b97f4a7c15ULL);
		for (int lvl = 0; lvl < WFW_CSV_NLEVELS; lvl++) {
			if (!wfw_win_rows_level((enum wfw_csv_level)lvl))
				continue;	/* test_delims64 named it */
			wfw_csv_force_level = lvl;
			for (int way = 0; way < 5; way++) {
				size_t bad = long_way_differs(way);

				CU_ASSERT_EQUAL(bad, 0);
				if (bad)
					printf("\n  long cells, seed %llu, level %s, way %d: %zu differ",
					       (unsigned long long)seed,
					       wfw_csv_level_name((enum wfw_csv_level)lvl), way, bad);
			}
		}
	}
	wfw_csv_force_level = -1;
}

/* ---- the row loop's bound, with a row of long cells at a page's end ---- */

#define BCOLS	14

/*
 * A row of BCOLS long cells (21-byte FLOATs of 19 digits, 24-byte texts
 * not converted) at exactly the lowest place the reader lets the row
 * loop start from (csvwin.h: WIN_CELL_MAX a cell and WIN_ROW_SLACK before
 * the end), the end being a page followed by one that is not readable:
 * every level takes every cell, each way, without a fault.
 */
static void test_row_bound(void)
{
	static const char num[] = "-1234567890.123456789", text[] = "a text of twenty-four by";
	long pg = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct wincol plan[BCOLS];
	union wultfw_cell cells[BCOLS];
	double want = strtod(num, NULL);
	char *row, *q;

	CU_ASSERT_FATAL(map != MAP_FAILED);
	CU_ASSERT_FATAL(mprotect(map + pg, (size_t)pg, PROT_NONE) == 0);
	memset(map, 'x', (size_t)pg);
	row = q = map + pg - (WIN_CELL_MAX * BCOLS + WIN_ROW_SLACK);
	for (int c = 0; c < BCOLS; c++) {
		const char *t = c & 1 ? text : num;

		plan[c] = (struct wincol){ .type = c & 1 ? WIN_SKIP : WULTFW_COL_FLOAT,
					   .off = (uintptr_t)c * sizeof(cells[0]) };
		memcpy(q, t, strlen(t));
		q += strlen(t);
		*q++ = c + 1 < BCOLS ? ',' : '\n';
	}
	for (int lvl = 0; lvl < WFW_CSV_NLEVELS; lvl++) {
		const struct wfw_win_rows *w = wfw_win_rows_level((enum wfw_csv_level)lvl);
		wfw_win_row_fn fn[] = { w ? w->fast : NULL, w ? w->pairs : NULL,
					w ? w->odd : NULL };

		for (int k = 0; w && k < 3; k++) {
			const char *p = row;
			bool odd = false;

			memset(cells, 0, sizeof(cells));
			CU_ASSERT_EQUAL(fn[k](plan, 0, BCOLS, &p, (uintptr_t)cells, &odd), BCOLS);
			CU_ASSERT(p == q - 1);
			for (int c = 0; c < BCOLS; c += 2)
				CU_ASSERT(!memcmp(&cells[c].f, &want, sizeof(want)));
			CU_ASSERT_EQUAL(odd, k == 2);	/* 19 digits print otherwise */
		}
	}
	munmap(map, (size_t)pg * 2);
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
	CU_add_test(s, "long cells at every level as strtod() reads them", test_long_cells);
	CU_add_test(s, "the row loop within its bound, long cells at a page's end",
		    test_row_bound);
	failed = tu_run();
	if (!failed)
		tu_rmtree(tmpdir);
	return failed;
}
