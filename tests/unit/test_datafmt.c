/* SPDX-License-Identifier: MIT */
/*
 * lib/datafmt: value formatting, CSV quoting and header, round trip through
 * libcsv's parser, whole-record output on write errors, the CSV reader on
 * wult-format and bad files.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafmt/csvfmt.h"
#include "datafmt/csvnum.h"
#include "datafmt/enumtab.h"
#include "datafmt/out.h"
#include "datafmt/reader.h"
#include "datafmt/writer.h"
#include "testutil.h"

static char tmpdir[] = "/tmp/wfw-test-datafmt-XXXXXX";

static const char *tpath(const char *name)
{
	static char buf[8][512];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	return buf[k];
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

/* ---- value formatting ---- */

static void check_int(int64_t raw, uint64_t div, unsigned dec, const char *want)
{
	char buf[32];
	size_t n = wfw_csv_fmt_int(buf, raw, div, dec);

	buf[n] = '\0';
	CU_ASSERT_STRING_EQUAL(buf, want);
}

static void test_fmt_int(void)
{
	check_int(4180, 1000, 3, "4.180");
	check_int(4, 1000, 3, "0.004");
	check_int(-5, 1000, 3, "-0.005");
	check_int(-5005, 1000, 3, "-5.005");
	check_int(0, 1000, 3, "0.000");
	check_int(123, 1, 0, "123");
	check_int(-1, 1, 0, "-1");
	check_int(7, 1000000000, 9, "0.000000007");
	check_int(-1234567, 1000000, 6, "-1.234567");
	check_int(INT64_MAX, 1000, 3, "9223372036854775.807");
	check_int(INT64_MIN, 1, 0, "-9223372036854775808");
	check_int(INT64_MIN, 1000, 3, "-9223372036854775.808");
	check_int(1999999, 1000, 3, "1999.999");
	check_int(100, 10, 1, "10.0");
}

/* Three decimals (the branch-free path below 10^4) against snprintf. */
static void check_int3(int64_t raw)
{
	uint64_t mag = raw < 0 ? (uint64_t)0 - (uint64_t)raw : (uint64_t)raw;
	char want[40];

	snprintf(want, sizeof(want), "%s%llu.%03llu", raw < 0 ? "-" : "",
		 (unsigned long long)(mag / 1000), (unsigned long long)(mag % 1000));
	check_int(raw, 1000, 3, want);
}

static void test_fmt_int_3dec(void)
{
	int64_t p = 1;

	for (int64_t r = -100000; r <= 10100000; r += r < 100000 ? 1 : 97)
		check_int3(r);
	for (int k = 0; k < 18; k++, p *= 10) {
		check_int3(p - 1);
		check_int3(p);
		check_int3(-p);
		check_int3(1 - p);
	}
}

static void test_fmt_float(void)
{
	char buf[40];
	size_t n;
	uint64_t state = 12345;

	n = wfw_csv_fmt_float(buf, 0.33); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "0.33");
	n = wfw_csv_fmt_float(buf, 0.0); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "0.0");
	n = wfw_csv_fmt_float(buf, -0.0); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "-0.0");
	n = wfw_csv_fmt_float(buf, 100.0); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "100.0");
	n = wfw_csv_fmt_float(buf, 4.1797981021053525); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "4.1797981021053525");
	n = wfw_csv_fmt_float(buf, 1746.30360946498); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "1746.30360946498");
	n = wfw_csv_fmt_float(buf, 1e-5); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "1e-05");
	n = wfw_csv_fmt_float(buf, NAN); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "nan");
	n = wfw_csv_fmt_float(buf, -INFINITY); buf[n] = 0;
	CU_ASSERT_STRING_EQUAL(buf, "-inf");
	/* Any finite double reads back exactly. */
	for (int i = 0; i < 200000; i++) {
		union { uint64_t u; double d; } v;

		v.u = wultfw_rand64(&state);
		if (!isfinite(v.d))
			continue;
		n = wfw_csv_fmt_float(buf, v.d);
		CU_ASSERT_FATAL(n < 32);
		buf[n] = '\0';
		if (strtod(buf, NULL) != v.d) {
			CU_FAIL("float does not round-trip");
			printf("\n%.17g -> %s\n", v.d, buf);
			break;
		}
	}
}

/* Doubles of every kind the fast formatters take apart, chosen by i % 5. */
static double random_float(int i, uint64_t r)
{
	double v;

	switch (i % 5) {
	case 0:	/* uniform over the fast range's exponents */
		v = ldexp((double)(r >> 11) / (double)(1ULL << 53), (int)(r % 64) - 14);
		break;
	case 1:	/* ratios as derived columns compute them */
		v = 100.0 * (double)(r % 1000000) / (double)(1000000 + r % 7);
		break;
	case 2:	/* short decimals, as read from CSV (0 to 9 decimals, up to 15 digits) */
		v = (i & 4) ? (double)(r % 100000) / 100.0
		    : (double)(r % 1000000000000000ULL >> (r % 48)) /
		      pow(10, (int)((r >> 50) % 10));
		break;
	case 3:	/* powers of two and their neighbours (the gap halves below) */
		v = ldexp(1.0, (int)(r % 63) - 14);
		v = (r & 6) == 2 ? nextafter(v, 0) : (r & 6) == 4 ? nextafter(v, INFINITY) : v;
		break;
	default: /* near range edges and powers of ten */
		v = pow(10, (int)(r % 20) - 5) * (1 + ((int)(r % 3) - 1) * 1e-16);
		break;
	}
	return (r & (1ULL << 63)) ? -v : v;
}

/* The fast formatter prints exactly what the snprintf-based one prints. */
static void test_fmt_float_fast_matches(void)
{
	uint64_t state = 777;
	char a[40], b[40];
	int bad = 0;

	for (int i = 0; i < 1000000 && bad < 5; i++) {
		double v = random_float(i, wultfw_rand64(&state));

		a[wfw_csv_fmt_float(a, v)] = '\0';
		b[wfw_csv_fmt_float_slow(b, v)] = '\0';
		if (strcmp(a, b)) {
			bad++;
			printf("\n  %.17g: fast %s, slow %s", v, a, b);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/*
 * A column's formatter remembers whether its last value was a short
 * decimal: runs of each kind and single switches between them, through
 * the row path, still print exactly what the snprintf-based one prints.
 */
static void test_fmt_float_column_hint(void)
{
	static const struct wultfw_column col = { "CC6%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 };
	static const struct wultfw_schema one = { 1, &col };
	uint64_t state = 4242;
	struct wfw_csvfmt f;
	char err[256], row[64], want[48];
	int bad = 0;

	CU_ASSERT_FATAL(wfw_csvfmt_init(&f, &one, err, sizeof(err)) == 0);
	for (int i = 0; i < 200000 && bad < 5; i++) {
		uint64_t r = wultfw_rand64(&state);
		union wultfw_cell c;
		size_t n;

		/*
		 * runs of 1 to 8 values of one kind; every tenth value of any
		 * kind, after a ratio, so the general path sees it first
		 */
		if (i % 10 == 9)
			c.f = random_float(i / 10, r);
		else if (i % 10 != 8 && ((i >> (r % 4)) & 1))
			c.f = (double)(r % 100000) / 1000.0;
		else
			c.f = 100.0 * (double)(r % 1000000) / (double)(1000000 + r % 7);
		n = wfw_csvfmt_row(&f, row, &c);
		row[n - 1] = '\0';	/* the newline */
		want[wfw_csv_fmt_float_slow(want, c.f)] = '\0';
		if (strcmp(row, want)) {
			bad++;
			printf("\n  %.17g: row %s, slow %s", c.f, row, want);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	wfw_csvfmt_free(&f);
}

/* ---- header, quoting, libcsv round trip ---- */

static const char *const odd_enum[] = { "C1", "x,y", "q\"r", "line\nbreak" };
static const struct wultfw_column odd_cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "b,c", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "d\"e", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, odd_enum, 4 },
};
static const struct wultfw_schema odd_schema = { 4, odd_cols };

static void test_header_quoting(void)
{
	static const char want[] = "WakeLatency,\"b,c\",\"d\"\"e\",ReqCState\n";
	struct wfw_csvfmt f;
	char err[256], row[512];
	union wultfw_cell cells[4];
	size_t n;

	CU_ASSERT_FATAL(wfw_csvfmt_init(&f, &odd_schema, err, sizeof(err)) == 0);
	/* f.header is a buffer of header_len bytes, not a C string */
	CU_ASSERT_EQUAL_FATAL(f.header_len, sizeof(want) - 1);
	CU_ASSERT(!memcmp(f.header, want, sizeof(want) - 1));

	cells[0].i = 12345;
	cells[1].i = -3;
	cells[2].f = 0.5;
	cells[3].i = 1;
	n = wfw_csvfmt_row(&f, row, cells);
	CU_ASSERT(n <= f.row_max);
	row[n] = '\0';
	CU_ASSERT_STRING_EQUAL(row, "12.345,-3,0.5,\"x,y\"\n");
	cells[3].i = 2;
	n = wfw_csvfmt_row(&f, row, cells); row[n] = '\0';
	CU_ASSERT_STRING_EQUAL(row, "12.345,-3,0.5,\"q\"\"r\"\n");
	cells[3].i = -1;
	n = wfw_csvfmt_row(&f, row, cells); row[n] = '\0';
	CU_ASSERT_STRING_EQUAL(row, "12.345,-3,0.5,\n");
	cells[3].i = 99;	/* out of range: empty, never a crash */
	n = wfw_csvfmt_row(&f, row, cells); row[n] = '\0';
	CU_ASSERT_STRING_EQUAL(row, "12.345,-3,0.5,\n");
	wfw_csvfmt_free(&f);
}

/* A schema changed in place (a one-pass reader): rows follow the change. */
static void test_csvfmt_sync(void)
{
	static const char *const names[] = { "C1", "C6", "a much longer state name" };
	struct wultfw_column cols[] = {
		{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
		{ "ReqCState", "", WULTFW_COL_ENUM, 0, names, 1 },
	};
	struct wultfw_schema sch = { 2, cols };
	union wultfw_cell cells[2] = { { .i = 4180 }, { .i = 0 } };
	struct wfw_csvfmt f;
	char err[256], row[512];
	size_t n, before;

	CU_ASSERT_FATAL(wfw_csvfmt_init(&f, &sch, err, sizeof(err)) == 0);
	n = wfw_csvfmt_row(&f, row, cells); row[n] = '\0';
	CU_ASSERT_STRING_EQUAL(row, "4.180,C1\n");
	before = f.row_max;
	cols[0].type = WULTFW_COL_FLOAT;
	cols[0].divisor = 0;
	cols[1].n_enum = 3;
	CU_ASSERT_FATAL(wfw_csvfmt_sync(&f, err, sizeof(err)) == 0);
	CU_ASSERT(f.row_max > before);
	cells[0].f = 1.2345;
	cells[1].i = 2;
	n = wfw_csvfmt_row(&f, row, cells); row[n] = '\0';
	CU_ASSERT(n <= f.row_max);
	CU_ASSERT_STRING_EQUAL(row, "1.2345,a much longer state name\n");
	CU_ASSERT_EQUAL(f.header_len, strlen("WakeLatency,ReqCState\n"));
	wfw_csvfmt_free(&f);
}

static void test_bad_divisor(void)
{
	static const struct wultfw_column c[] = {
		{ "X", "us", WULTFW_COL_INT, 1024, NULL, 0 },
	};
	static const struct wultfw_schema s = { 1, c };
	struct wfw_csvfmt f;
	char err[256];

	CU_ASSERT(wfw_csvfmt_init(&f, &s, err, sizeof(err)) == -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "1024"));
}

/* libcsv parser callbacks: collect fields of every row. */
struct parsed {
	char fields[64][64][64];
	int nfields[64];
	int row, col;
};

static void cb_field(void *s, size_t len, void *data)
{
	struct parsed *p = data;

	if (p->row < 64 && p->col < 64) {
		if (len > 63)
			len = 63;
		memcpy(p->fields[p->row][p->col], s, len);
		p->fields[p->row][p->col][len] = '\0';
	}
	p->col++;
}

static void cb_row(int c, void *data)
{
	struct parsed *p = data;

	(void)c;
	if (p->row < 64)
		p->nfields[p->row] = p->col;
	p->row++;
	p->col = 0;
}

static void test_libcsv_roundtrip(void)
{
	struct wfw_csv_writer w;
	struct wultfw_batch b;
	struct csv_parser parser;
	struct parsed *p = calloc(1, sizeof(*p));
	const char *path = tpath("odd.csv");
	char *text;
	size_t len;

	CU_ASSERT_FATAL(wfw_csvw_open(&w, path, &odd_schema, 0) == 0);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 4, 8) == 0);
	for (int r = 0; r < 5; r++) {
		union wultfw_cell *row = wultfw_row(&b, b.rows++);

		row[0].i = r * 1001 - 2000;
		row[1].i = r;
		row[2].f = r / 3.0;
		row[3].i = r - 1;	/* -1, 0, 1, 2, 3 */
	}
	CU_ASSERT(wfw_csvw_write(&w, &b) == 0);
	CU_ASSERT(wfw_csvw_close(&w) == 0);

	text = read_all(path, &len);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT_FATAL(csv_init(&parser, CSV_STRICT) == 0);
	CU_ASSERT(csv_parse(&parser, text, len, cb_field, cb_row, p) == len);
	csv_fini(&parser, cb_field, cb_row, p);
	csv_free(&parser);

	CU_ASSERT_EQUAL(p->row, 6);
	for (int r = 0; r < 6; r++)
		CU_ASSERT_EQUAL(p->nfields[r], 4);
	CU_ASSERT_STRING_EQUAL(p->fields[0][1], "b,c");
	CU_ASSERT_STRING_EQUAL(p->fields[0][2], "d\"e");
	CU_ASSERT_STRING_EQUAL(p->fields[1][0], "-2.000");
	CU_ASSERT_STRING_EQUAL(p->fields[3][0], "0.002");
	CU_ASSERT_STRING_EQUAL(p->fields[1][3], "");
	CU_ASSERT_STRING_EQUAL(p->fields[3][3], "x,y");
	CU_ASSERT_STRING_EQUAL(p->fields[4][3], "q\"r");
	CU_ASSERT_STRING_EQUAL(p->fields[5][3], "line\nbreak");
	CU_ASSERT_EQUAL(strtod(p->fields[5][2], NULL), 4 / 3.0);

	/* And our own reader gives back the same cells. */
	{
		struct wfw_reader *r;
		struct wultfw_batch rb;
		char err[512];

		CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
		CU_ASSERT_EQUAL(wfw_reader_rows(r), 5);
		CU_ASSERT_FATAL(wfw_batch_alloc(&rb, 4, 16) == 0);
		CU_ASSERT_EQUAL(wfw_reader_read(r, &rb), 5);
		for (size_t k = 0; k < 5; k++) {
			CU_ASSERT_EQUAL(wultfw_row(&rb, k)[0].i, wultfw_row(&b, k)[0].i);
			CU_ASSERT_EQUAL(wultfw_row(&rb, k)[2].f, wultfw_row(&b, k)[2].f);
		}
		CU_ASSERT_EQUAL(wfw_reader_schema(r)->cols[0].type, WULTFW_COL_INT);
		CU_ASSERT_EQUAL(wfw_reader_schema(r)->cols[0].divisor, 1000);
		CU_ASSERT_EQUAL(wfw_reader_schema(r)->cols[3].type, WULTFW_COL_ENUM);
		CU_ASSERT_STRING_EQUAL(wfw_reader_schema(r)->cols[3].enum_names[
			wultfw_row(&rb, 4)[3].i], "line\nbreak");
		CU_ASSERT_EQUAL(wultfw_row(&rb, 0)[3].i, -1);
		CU_ASSERT_EQUAL(wfw_reader_read(r, &rb), 0);
		wfw_batch_free(&rb);
		wfw_reader_close(r);
	}
	wfw_batch_free(&b);
	free(text);
	free(p);
}

/* ---- whole-record output on write errors ---- */

static size_t hook_budget;	/* bytes the fake disk still takes */

/* A disk that fills up: a short write, then ENOSPC, like a real one. */
static long full_disk_write(int fd, const void *p, size_t n)
{
	long w;

	if (!hook_budget) {
		errno = ENOSPC;
		return -1;
	}
	w = write(fd, p, n < hook_budget ? n : hook_budget);
	if (w > 0)
		hook_budget -= (size_t)w;
	return w;
}

static void check_whole_rows(const char *path, size_t ncols)
{
	size_t len, lines = 0;
	char *text = read_all(path, &len);

	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT(len > 0);
	CU_ASSERT_EQUAL(text[len - 1], '\n');
	for (char *p = text, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
		size_t commas = 0;

		for (char *q = p; q < nl; q++)
			commas += *q == ',';
		CU_ASSERT_EQUAL(commas, ncols - 1);
		lines++;
	}
	CU_ASSERT(lines >= 1);
	free(text);
}

static const struct wultfw_column plain_cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "IntrLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
};
static const struct wultfw_schema plain_schema = { 4, plain_cols };

static void fill_plain(struct wultfw_batch *b, size_t rows, uint64_t seed)
{
	b->rows = 0;
	for (size_t r = 0; r < rows; r++) {
		union wultfw_cell *row = wultfw_row(b, b->rows++);

		row[0].i = (int64_t)(wultfw_rand64(&seed) % 100000000);
		row[1].i = (int64_t)(wultfw_rand64(&seed) % 100000000);
		row[2].i = (int64_t)(wultfw_rand64(&seed) % 4000000);
		row[3].f = (double)(wultfw_rand64(&seed) % 10000) / 77.0;
	}
}

static void test_enospc_simulated(void)
{
	struct wfw_csv_writer w;
	struct wultfw_batch b;
	const char *path = tpath("full.csv");
	int ret = 0;
	struct stat st;

	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 4, 1000) == 0);
	hook_budget = 3 * (1 << 20) + 12345;	/* not on a row boundary */
	wfw_out_write_hook = full_disk_write;
	CU_ASSERT_FATAL(wfw_csvw_open(&w, path, &plain_schema, 0) == 0);
	for (int i = 0; i < 1000 && !ret; i++) {
		fill_plain(&b, 1000, (uint64_t)i);
		ret = wfw_csvw_write(&w, &b);
	}
	CU_ASSERT_EQUAL(ret, -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(w.out.msg, path));
	CU_ASSERT_PTR_NOT_NULL(strstr(w.out.msg, strerror(ENOSPC)));
	/* Sticky: later writes and close report the same error. */
	CU_ASSERT_EQUAL(wfw_csvw_write(&w, &b), -ENOSPC);
	CU_ASSERT_EQUAL(wfw_csvw_close(&w), -ENOSPC);
	wfw_out_write_hook = NULL;

	CU_ASSERT(stat(path, &st) == 0);
	CU_ASSERT(st.st_size > 0 && st.st_size < 3 * (1 << 20) + 12345);
	check_whole_rows(path, 4);
	wfw_batch_free(&b);
}

static void test_dev_full(void)
{
	struct wfw_out o;
	char *p;

	CU_ASSERT_FATAL(wfw_out_open(&o, "/dev/full", 4096, 0) == 0);
	p = wfw_out_reserve(&o, 10);
	CU_ASSERT_FATAL(p != NULL);
	memcpy(p, "1,2,3,4,5\n", 10);
	wfw_out_commit(&o, 10);
	CU_ASSERT_EQUAL(wfw_out_flush(&o), -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(o.msg, "/dev/full"));
	CU_ASSERT_PTR_NOT_NULL(strstr(o.msg, "No space left on device"));
	CU_ASSERT_PTR_NULL(wfw_out_reserve(&o, 10));
	CU_ASSERT_EQUAL(wfw_out_close(&o), -ENOSPC);
}

/* A real full filesystem: a 256 KiB tmpfs (needs root; skipped otherwise). */
static void test_enospc_tmpfs(void)
{
	const char *mnt = tpath("tiny");
	struct wfw_csv_writer w;
	struct wultfw_batch b;
	const char *path = tpath("tiny/datapoints.csv");
	int ret = 0;

	mkdir(mnt, 0755);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=256k")) {
		int err = errno;

		rmdir(mnt);
		TU_SKIP("cannot mount a tmpfs here: %s", strerror(err));
	}
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 4, 1000) == 0);
	CU_ASSERT_FATAL(wfw_csvw_open(&w, path, &plain_schema, 0) == 0);
	for (int i = 0; i < 100 && !ret; i++) {
		fill_plain(&b, 1000, (uint64_t)i);
		ret = wfw_csvw_write(&w, &b);
	}
	if (!ret)
		ret = wfw_csvw_flush(&w);
	CU_ASSERT_EQUAL(ret, -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(w.out.msg, "No space left on device"));
	wfw_csvw_close(&w);
	check_whole_rows(path, 4);
	{
		struct wfw_reader *r;
		char err[512];

		CU_ASSERT(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
		if (r) {
			CU_ASSERT(wfw_reader_rows(r) > 1000);
			wfw_reader_close(r);
		}
	}
	umount(mnt);
	rmdir(mnt);
	wfw_batch_free(&b);
}

/* ---- CSV reader ---- */

static const char wult_csv[] =
	"WakeLatency,SilentTime,IntrLatency,IntrOff,LDist,ReqCState,CC0%,CC1Derived%,CC1%,CC6%,PC2%,PC6%,SMICnt,NMICnt\n"
	"4.1797981021053525,1746.30360946498,5.2,1,1750.49,C6,0.33,0.0,0.0,99.67,0.0,0.0,0,0\n"
	"12.506124567,388.0137451,13.1,0,400.52,C1,1.07,98.93,98.93,0.0,0.0,0.0,0,0\n"
	"\n"
	"3.9,2204.1,4.75,1,2208.0,C6,0.3,0.0,0.0,99.7,0.0,0.0,0,1\r\n"
	"7.2,9.5,8.125,0,16.7,POLL,100.0,0.0,0.0,0.0,0.0,0.0,0,0\n";

static void test_reader_wult_csv(void)
{
	const char *path = tpath("wult.csv");
	const struct wultfw_schema *s;
	struct wfw_reader *r;
	struct wultfw_batch b;
	char err[512];
	int c;

	write_file(path, wult_csv);
	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_format(r), WFW_FMT_CSV);
	s = wfw_reader_schema(r);
	CU_ASSERT_EQUAL(s->ncols, 14);
	CU_ASSERT_EQUAL(wfw_reader_rows(r), 4);
	c = wfw_schema_find(s, "WakeLatency");
	CU_ASSERT_EQUAL(c, 0);
	CU_ASSERT_EQUAL(s->cols[0].type, WULTFW_COL_FLOAT);
	CU_ASSERT_EQUAL(wfw_schema_find(s, "RTD"), -1);
	c = wfw_schema_find(s, "ReqCState");
	CU_ASSERT_FATAL(c == 5);
	CU_ASSERT_EQUAL(s->cols[5].type, WULTFW_COL_ENUM);
	CU_ASSERT_EQUAL(s->cols[5].n_enum, 3);
	CU_ASSERT_EQUAL(s->cols[3].type, WULTFW_COL_INT);	/* IntrOff 0/1 */
	CU_ASSERT_EQUAL(s->cols[3].divisor, 1);
	CU_ASSERT_EQUAL(s->cols[4].type, WULTFW_COL_FLOAT);	/* 2 and 1 decimals */

	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 14, 3) == 0);
	CU_ASSERT_EQUAL(wfw_reader_read(r, &b), 3);	/* capacity 3 */
	CU_ASSERT_EQUAL(wultfw_row(&b, 0)[0].f, 4.1797981021053525);
	CU_ASSERT_EQUAL(wultfw_row(&b, 0)[1].f, 1746.30360946498);
	CU_ASSERT_EQUAL(wultfw_row(&b, 1)[0].f, strtod("12.506124567", NULL));
	CU_ASSERT_EQUAL(wultfw_row(&b, 1)[6].f, 1.07);
	CU_ASSERT_STRING_EQUAL(s->cols[5].enum_names[wultfw_row(&b, 0)[5].i], "C6");
	CU_ASSERT_STRING_EQUAL(s->cols[5].enum_names[wultfw_row(&b, 1)[5].i], "C1");
	CU_ASSERT_EQUAL(wultfw_row(&b, 2)[13].i, 1);	/* the CRLF line */
	CU_ASSERT_EQUAL(wfw_cell_value(&s->cols[2], wultfw_row(&b, 2)[2]), 4.75);
	b.rows = 0;
	CU_ASSERT_EQUAL(wfw_reader_read(r, &b), 1);
	CU_ASSERT_STRING_EQUAL(s->cols[5].enum_names[wultfw_row(&b, 0)[5].i], "POLL");
	b.rows = 0;
	CU_ASSERT_EQUAL(wfw_reader_read(r, &b), 0);
	wfw_batch_free(&b);
	wfw_reader_close(r);
}

/* Open `text` as a CSV file; expect failure with all of `want` in the error. */
static void expect_bad(const char *name, const char *text, const char *want1,
		       const char *want2)
{
	const char *path = tpath(name);
	struct wfw_reader *r;
	char err[512];

	write_file(path, text);
	CU_ASSERT(wfw_reader_open(&r, path, err, sizeof(err)) < 0);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want1));
	if (want2)
		CU_ASSERT_PTR_NOT_NULL(strstr(err, want2));
	if (!strstr(err, want1) || (want2 && !strstr(err, want2)))
		printf("\n  got: %s\n", err);
}

static void test_reader_bad_csv(void)
{
	char want[600];

	snprintf(want, sizeof(want), "%s: empty file", tpath("empty.csv"));
	expect_bad("empty.csv", "", want, NULL);
	expect_bad("blank.csv", "\n\n", "empty file", NULL);
	snprintf(want, sizeof(want), "%s:3: 2 fields, the header has 3", tpath("short.csv"));
	expect_bad("short.csv", "A,B,C\n1,2,3\n4,5\n", want, NULL);
	snprintf(want, sizeof(want), "%s:4: column WakeLatency: 'abc' is not a number",
		 tpath("nonnum.csv"));
	expect_bad("nonnum.csv", "WakeLatency,ReqCState\n1.5,C1\n2.5,C6\nabc,C1\n",
		   want, NULL);
	/* Text first, number later: the first line with text is named. */
	expect_bad("nonnum2.csv", "WakeLatency,X\nxyz,1\n2.5,1\n", ":2: column WakeLatency: 'xyz' is not a number",
		   "line 3");
	expect_bad("quote.csv", "A,B\n1,\"2\n3,4\n", ":2: a quoted field is never closed", NULL);
	expect_bad("noname.csv", "A,,C\n1,2,3\n", ":1: column 2 of the header has no name", NULL);
	expect_bad("binary.csv", "A\001B\n1\n", ":1: binary data in the header line", NULL);
}

static void test_reader_header_only(void)
{
	const char *path = tpath("missing.csv");
	struct wfw_reader *r;
	struct wultfw_batch b;
	char err[512];

	/* A header and no rows is a valid, empty result. */
	write_file(path, "WakeLatency,ReqCState\n");
	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_rows(r), 0);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 2, 4) == 0);
	CU_ASSERT_EQUAL(wfw_reader_read(r, &b), 0);
	wfw_batch_free(&b);
	wfw_reader_close(r);
	CU_ASSERT(wfw_reader_open(&r, tpath("does-not-exist.csv"), err, sizeof(err)) == -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "does-not-exist.csv: cannot open"));
}

/* A file of `rows` rows "i.500,C<i%3>", with row `odd` holding 1.2345. */
static void write_rows(const char *path, int rows, int odd, bool quote_late)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	fputs("WakeLatency,ReqCState\n", f);
	for (int i = 0; i < rows; i++) {
		if (i == odd)
			fprintf(f, "1.2345,C%d\n", i % 3);
		else if (quote_late && i == rows - 10)
			fprintf(f, "%d.500,\"C%d\"\n", i, i % 3);
		else
			fprintf(f, "%d.500,C%d\n", i, i % 3);
	}
	fclose(f);
}

/* One pass: the type changes between batches, never inside one. */
static void test_reader_one_pass(void)
{
	struct wfw_reader_opts o = { .one_pass = true };
	const char *path = tpath("onepass.csv");
	const struct wultfw_schema *s;
	struct wfw_reader *r;
	struct wultfw_batch b;
	char err[512];
	long n, total = 0;

	write_rows(path, 3000, 2500, false);
	CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &o, err, sizeof(err)) == 0);
	s = wfw_reader_schema(r);
	CU_ASSERT_EQUAL(s->cols[0].type, WULTFW_COL_INT);
	CU_ASSERT_EQUAL(s->cols[0].divisor, 1000);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 2, 1024) == 0);
	while ((n = wfw_reader_read(r, &b)) > 0) {
		/* rows 2048..2499 come as INT, the batch stops before 2500 */
		if (total < 2500)
			CU_ASSERT(total + n <= 2500);
		if (total + n <= 2500)
			CU_ASSERT_EQUAL(wfw_reader_schema_gen(r), 0);
		if (total == 2500) {
			CU_ASSERT_EQUAL(wfw_reader_schema_gen(r), 1);
			CU_ASSERT_EQUAL(s->cols[0].type, WULTFW_COL_FLOAT);
			CU_ASSERT_EQUAL(b.cells[0].f, 1.2345);
			CU_ASSERT_EQUAL(b.cells[2].f, 2501.5);
		}
		total += n;
		b.rows = 0;
	}
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(total, 3000);
	CU_ASSERT_EQUAL(wfw_reader_rows(r), 3000);
	wfw_reader_close(r);
	wfw_batch_free(&b);
}

/*
 * A CPU column is text whatever it holds (as an experiment's): digits are
 * names, one first seen past the rows a one-pass reader learns from too.
 */
static void test_reader_cpu_text(void)
{
	const char *path = tpath("cpu.csv");
	FILE *f = fopen(path, "w");
	const struct wfw_reader_opts o[2] = { { 0 }, { .one_pass = true } };
	const struct wultfw_schema *s;
	struct wfw_reader *r;
	struct wultfw_batch b;
	char err[512];
	long n, total;

	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "WakeLatency,CPU\n");
	for (int i = 0; i < 3000; i++)
		fprintf(f, "%d.5,%s\n", i, i < 2000 ? (i % 2 ? "1" : "0") : i == 2999 ? "" : "12");
	fclose(f);
	for (int pass = 0; pass < 2; pass++) {
		CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &o[pass], err, sizeof(err)) == 0);
		s = wfw_reader_schema(r);
		CU_ASSERT_EQUAL(s->cols[0].type, WULTFW_COL_INT);
		CU_ASSERT_FATAL(wfw_batch_alloc(&b, 2, 1024) == 0);
		total = 0;
		while ((n = wfw_reader_read(r, &b)) > 0) {
			CU_ASSERT_EQUAL(s->cols[1].type, WULTFW_COL_ENUM);
			for (long k = 0; k < n; k++) {
				int64_t want = total + k < 2000 ? (total + k) % 2 :
					       total + k == 2999 ? -1 : 2;

				CU_ASSERT_EQUAL(b.cells[k * 2 + 1].i, want);
			}
			total += n;
			b.rows = 0;
		}
		CU_ASSERT_EQUAL(n, 0);
		CU_ASSERT_EQUAL(total, 3000);
		CU_ASSERT_EQUAL(wfw_reader_schema_gen(r), 0);
		CU_ASSERT_EQUAL_FATAL(s->cols[1].n_enum, 3);
		CU_ASSERT_STRING_EQUAL(s->cols[1].enum_names[2], "12");
		wfw_reader_close(r);
		wfw_batch_free(&b);
	}
}

/* Parts of a file: every row read once; a quote in a later part: -EAGAIN. */
static void test_reader_parts(void)
{
	const char *path = tpath("parts.csv");
	struct wultfw_batch b;
	char err[512];
	long rows = 0, n;

	write_rows(path, 5000, -1, false);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 2, 512) == 0);
	for (unsigned k = 0; k < 3; k++) {
		struct wfw_reader_opts o = { .one_pass = true, .part = k, .nparts = 3 };
		struct wfw_reader *r;

		CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &o, err, sizeof(err)) == 0);
		while ((n = wfw_reader_read(r, &b)) > 0) {
			/* the first cell of a part's first row is a whole row's */
			CU_ASSERT_EQUAL(b.cells[0].i % 1000, 500);
			rows += n;
			b.rows = 0;
		}
		CU_ASSERT_EQUAL(n, 0);
		wfw_reader_close(r);
	}
	CU_ASSERT_EQUAL(rows, 5000);
	write_rows(path, 5000, -1, true);
	{
		struct wfw_reader_opts o = { .one_pass = true, .part = 1, .nparts = 2 };
		struct wfw_reader *r;

		CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &o, err, sizeof(err)) == 0);
		while ((n = wfw_reader_read(r, &b)) > 0)
			b.rows = 0;
		CU_ASSERT_EQUAL(n, -EAGAIN);
		wfw_reader_close(r);
	}
	wfw_batch_free(&b);
}

/*
 * Each part's first row number (a selection's `index`), blank lines not
 * counted: part by part, from one scan, and the rows each part reads.
 */
static void test_part_first_rows(void)
{
	const char *path = tpath("firsts.csv");
	struct wfw_reader_opts whole = { .one_pass = true };
	struct wultfw_batch b;
	uint64_t firsts[7], first, next = 0;
	struct wfw_reader *r;
	char err[512];
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "A,B\n");
	for (int i = 0; i < 4000; i++)
		fprintf(f, "%s%d,%d\n", i % 333 == 7 ? "\n\r\n" : "", i, i % 3);
	fclose(f);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 2, 512) == 0);
	CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &whole, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_part_firsts(r, 7, firsts), 0);
	wfw_reader_close(r);
	for (unsigned k = 0; k < 7; k++) {
		struct wfw_reader_opts o = { .one_pass = true, .part = k, .nparts = 7 };
		long n;

		CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &o, err, sizeof(err)) == 0);
		CU_ASSERT_EQUAL(wfw_reader_first_row(r, &first), 0);
		CU_ASSERT_EQUAL(first, next);
		CU_ASSERT_EQUAL(firsts[k], next);
		while ((n = wfw_reader_read(r, &b)) > 0) {
			/* column A holds the row's number */
			CU_ASSERT_EQUAL(b.cells[0].i, (int64_t)next);
			next += (uint64_t)n;
			b.rows = 0;
		}
		wfw_reader_close(r);
	}
	CU_ASSERT_EQUAL(next, 4000);
	/* a quote before a part: a quoted newline may hide there */
	write_file(path, "A,B\n\"1\",2\n3,4\n5,6\n7,8\n");
	CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &whole, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_part_firsts(r, 2, firsts), -EAGAIN);
	wfw_reader_close(r);
	wfw_batch_free(&b);
}

/* The reader's own decimal parser agrees with strtod bit for bit. */
static void test_reader_parses_like_strtod(void)
{
	const char *path = tpath("numbers.csv");
	FILE *f = fopen(path, "w");
	uint64_t state = 4242;
	struct wfw_reader *r;
	struct wultfw_batch b;
	char err[512], text[64];
	double *want;
	int n = 200000, bad = 0;

	CU_ASSERT_FATAL(f != NULL);
	want = malloc(sizeof(double) * (size_t)n);
	fputs("X\n", f);
	for (int i = 0; i < n; i++) {
		uint64_t u = wultfw_rand64(&state);
		double v = ldexp((double)(u >> 11), (int)(u % 90) - 100);

		switch (i % 5) {
		case 0: snprintf(text, sizeof(text), "%.17g", v); break;
		case 1: snprintf(text, sizeof(text), "%.19f", v); break;
		case 2: snprintf(text, sizeof(text), "%.16g", v); break;
		case 3: snprintf(text, sizeof(text), "%llu.%llu", (unsigned long long)(u % 100000),
				 (unsigned long long)(u >> 20)); break;
		default: snprintf(text, sizeof(text), "%.3f", v); break;
		}
		if (i % 1000 == 7) {	/* exact ties: round half to even */
			static const char *const ties[] = {
				"4503599627370496.5", "4503599627370497.5",
				"2251799813685248.25", "2251799813685248.75",
				"1125899906842624.125", "9007199254740993.0",
			};
			snprintf(text, sizeof(text), "%s", ties[(i / 1000) % 6]);
		}
		if (u & 1) {
			memmove(text + 1, text, strlen(text) + 1);
			text[0] = '-';
		}
		want[i] = strtod(text, NULL);
		fprintf(f, "%s\n", text);
	}
	fclose(f);
	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_schema(r)->cols[0].type, WULTFW_COL_FLOAT);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 1, (size_t)n) == 0);
	CU_ASSERT_FATAL(wfw_reader_read(r, &b) == n);
	for (int i = 0; i < n && bad < 5; i++) {
		if (memcmp(&b.cells[i].f, &want[i], 8)) {
			bad++;
			printf("\n  row %d: got %.17g want %.17g", i, b.cells[i].f, want[i]);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	wfw_batch_free(&b);
	wfw_reader_close(r);
	free(want);
}

/* A random field for the fast-path test: mostly decimals, some junk. */
static int random_field(char *buf, uint64_t *state)
{
	static const char junk[] = "0123456789.-+eE x\"\r\n,\0";
	uint64_t u = wultfw_rand64(state);
	int n = (int)(u % 17), k = 0;

	if (u & 0x100)
		buf[k++] = '-';
	for (; k < n; k++) {
		u = wultfw_rand64(state);
		buf[k] = (u & 7) ? (char)('0' + u % 10) : junk[(u >> 8) % (sizeof(junk) - 1)];
		if ((u >> 20) % 9 == 0)
			buf[k] = '.';
	}
	return n;
}

/*
 * The window fast paths (16 bytes at a time) accept only what the scalar
 * paths accept, with the same bits, and take most plain decimals.
 */
static void test_window_paths(void)
{
	char win[WFW_CSV_WIN + 32];
	uint64_t state = 77;
	long took = 0, bad = 0;

	for (int i = 0; i < 2000000 && bad < 5; i++) {
		int n = random_field(win, &state), dec = i % 5;
		const char *end = win + n;
		int64_t a = 0, b = 0;
		double x = 0, y = 0;

		memset(win + n, ',', sizeof(win) - (size_t)n);
		if (!wfw_len_canon(win, n, dec, &a)) {
			took++;
			if (wfw_csvnum_scan_canon(win, end, dec, &b) != end || a != b)
				bad++;
		}
		if (!wfw_len_double(win, n, &x)) {
			took++;
			if (wfw_csvnum_scan_double(win, end, &y) != end || memcmp(&x, &y, 8))
				bad++;
		}
		if (bad && bad < 5)
			printf("\n  field '%.*s' dec %d: fast %lld %.17g", n, win, dec,
			       (long long)a, x);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(took > 200000);
}

/* Looking a short name up by its words finds what the byte lookup finds. */
static void test_enum_words(void)
{
	static const char *const names[] = { "POLL", "C1", "C1E", "C6", "C10",
		"haltpoll idle", "exactly8", "sixteen bytes!!", "" };
	struct wfw_enum_tab t = { 0 };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CU_ASSERT_EQUAL(wfw_enum_add(&t, names[i], strlen(names[i])), (long)i);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char b[16] = { 0 };
		uint64_t w0, w1;

		memcpy(b, names[i], strlen(names[i]));
		memcpy(&w0, b, 8);
		memcpy(&w1, b + 8, 8);
		CU_ASSERT_EQUAL(wfw_enum_find_words(&t, le64toh(w0), le64toh(w1),
						    strlen(names[i])), (long)i);
		CU_ASSERT_EQUAL(wfw_enum_find(&t, names[i], strlen(names[i])), (long)i);
	}
	CU_ASSERT_EQUAL(wfw_enum_find(&t, "C1E ", 4), -1);
	CU_ASSERT_EQUAL(wfw_enum_find_words(&t, 0x583143, 0, 3), -1);	/* "C1X" */
	wfw_enum_free(&t);
}

int main(void)
{
	CU_pSuite s;
	int failed;

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("datafmt", NULL, NULL);
	CU_add_test(s, "int formatting", test_fmt_int);
	CU_add_test(s, "int formatting, 3 decimals", test_fmt_int_3dec);
	CU_add_test(s, "float formatting", test_fmt_float);
	CU_add_test(s, "fast float formatting equals snprintf", test_fmt_float_fast_matches);
	CU_add_test(s, "a column's short-decimal hint", test_fmt_float_column_hint);
	CU_add_test(s, "header and quoting", test_header_quoting);
	CU_add_test(s, "divisor not a power of ten", test_bad_divisor);
	CU_add_test(s, "formatter follows a changed schema", test_csvfmt_sync);
	CU_add_test(s, "round trip through libcsv", test_libcsv_roundtrip);
	CU_add_test(s, "ENOSPC simulated", test_enospc_simulated);
	CU_add_test(s, "ENOSPC on /dev/full", test_dev_full);
	CU_add_test(s, "ENOSPC on a tiny tmpfs", test_enospc_tmpfs);
	CU_add_test(s, "reader on wult's datapoints.csv", test_reader_wult_csv);
	CU_add_test(s, "reader on bad CSV files", test_reader_bad_csv);
	CU_add_test(s, "reader parses numbers like strtod", test_reader_parses_like_strtod);
	CU_add_test(s, "reader on header-only and missing files", test_reader_header_only);
	CU_add_test(s, "one-pass reader retypes between batches", test_reader_one_pass);
	CU_add_test(s, "reader in parts", test_reader_parts);
	CU_add_test(s, "a CPU column is text", test_reader_cpu_text);
	CU_add_test(s, "a part's first row number", test_part_first_rows);
	CU_add_test(s, "window fast paths agree with the scalar ones", test_window_paths);
	CU_add_test(s, "enum lookup by words", test_enum_words);
	failed = tu_run();
	if (!failed)
		tu_rmtree(tmpdir);	/* kept for a look when a test failed */
	return failed;
}
