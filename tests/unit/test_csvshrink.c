/* SPDX-License-Identifier: MIT */
/*
 * A CSV file that changes length while the reader has it mapped: cut
 * shorter between two batches, the next batch reads past the new end and
 * raises SIGBUS, and each way of reading fails with one line naming the
 * file (before mapguard.h the process died of the signal); grown, the
 * rows there at open are read.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafmt/reader.h"
#include "testutil.h"

/* Rows of about 40 bytes: 4 MB, many pages past where the file is cut. */
#define ROWS	100000
#define NCOLS	4
#define BATCH	100
/* Where the file is cut: past the first batch, far before the end (the
 * message names it: 65536). */
#define CUT	(64 * 1024)

static char tmpdir[] = "/tmp/wfw-test-csvshrink-XXXXXX";
static char path[512];

static void write_csv(const char *mode, int rows)
{
	FILE *f = fopen(path, mode);

	CU_ASSERT_FATAL(f != NULL);
	if (*mode == 'w')
		fputs("WakeLatency,LDist,ReqCState,SMICnt\n", f);
	for (int i = 0; i < rows; i++)
		fprintf(f, "%d.%03d,%d.%d,%s,%d\n", i, i % 1000, i * 7, i % 10,
			i % 3 ? "C1" : "POLL", i % 5);
	CU_ASSERT_FATAL(fclose(f) == 0);
}

static struct wfw_reader *open_csv(void)
{
	struct wfw_reader_opts o = { .one_pass = true };
	struct wfw_reader *r;
	char err[512];

	CU_ASSERT_FATAL(wfw_reader_open_opts(&r, path, &o, err, sizeof(err)) == 0);
	return r;
}

/* Rows by read() (cols false) or read_cols(); cut the file after the first batch. */
static long read_all(struct wfw_reader *r, bool cols, bool cut)
{
	struct wultfw_batch b;
	struct wfw_col_batch cb;
	bool want[NCOLS] = { true, true, true, true };
	long n, rows = 0;

	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, BATCH) == 0);
	CU_ASSERT_FATAL(wfw_col_batch_alloc(&cb, NCOLS, BATCH, want) == 0);
	for (;;) {
		n = cols ? wfw_reader_read_cols(r, &cb) : wfw_reader_read(r, &b);
		if (n <= 0)
			break;
		rows += n;
		b.rows = cb.rows = 0;
		if (cut && rows == BATCH)
			CU_ASSERT_FATAL(truncate(path, CUT) == 0);
	}
	wfw_batch_free(&b);
	wfw_col_batch_free(&cb);
	return n < 0 ? n : rows;
}

static void check_shrunk(bool cols)
{
	struct wfw_reader *r;
	long n;

	write_csv("w", ROWS);
	r = open_csv();
	n = read_all(r, cols, true);
	CU_ASSERT_EQUAL(n, WFW_E_CUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(wfw_reader_error(r), path));
	CU_ASSERT_PTR_NOT_NULL(strstr(wfw_reader_error(r), "cut to 65536 bytes"));
	CU_ASSERT_PTR_NULL(strchr(wfw_reader_error(r), '\n'));
	/* The reader stays failed: its position is in the middle of a row. */
	CU_ASSERT_EQUAL(read_all(r, cols, false), WFW_E_CUT);
	wfw_reader_close(r);
}

static void test_shrunk_rows(void)
{
	check_shrunk(false);
}

static void test_shrunk_cols(void)
{
	check_shrunk(true);
}

/* Rows appended after open are not read: the length at open holds. */
static void test_grown(void)
{
	struct wfw_reader *r;

	write_csv("w", ROWS);
	r = open_csv();
	write_csv("a", ROWS);
	CU_ASSERT_EQUAL(read_all(r, true, false), ROWS);
	wfw_reader_close(r);
}

struct texts {
	const struct wfw_row_text *text;
	size_t rows, plain;
	unsigned sum;
};

/* Every byte of the rows' texts, as a CSV writer copies them. */
static int read_texts(void *arg)
{
	struct texts *t = arg;

	for (size_t i = 0; i < t->rows; i++)
		for (size_t j = 0; j < t->text[i].n; j++)
			t->sum += (unsigned char)t->text[i].s[j];
	return 0;
}

/*
 * Row texts point into the map: cut shorter between the read and the
 * copy, the copy fails through wfw_reader_use_texts() (it was SIGBUS).
 */
static void test_shrunk_texts(void)
{
	struct texts t = { 0 };
	struct wultfw_batch b;
	struct wfw_reader *r;
	long rows = 0;

	write_csv("w", ROWS);
	r = open_csv();
	t.text = wfw_reader_row_texts(r, BATCH);
	CU_ASSERT_FATAL(t.text != NULL);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, BATCH) == 0);
	/* A batch whose lines lie past CUT (rows of 20 bytes or more). */
	while (rows < CUT / 20 + BATCH) {
		b.rows = 0;
		CU_ASSERT_FATAL(wfw_reader_read(r, &b) == BATCH);
		rows += BATCH;
	}
	t.rows = b.rows;
	for (size_t i = 0; i < t.rows; i++)
		t.plain += t.text[i].n > 0;
	CU_ASSERT_EQUAL(t.plain, BATCH);	/* each is printed as it is */
	CU_ASSERT_EQUAL_FATAL(truncate(path, CUT), 0);
	CU_ASSERT_EQUAL(wfw_reader_use_texts(r, read_texts, &t), WFW_E_CUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(wfw_reader_error(r), "cut to 65536 bytes"));
	wfw_batch_free(&b);
	wfw_reader_close(r);
}

/* Part `k` of 2 opened, planned on a file of `size` bytes. */
static int open_part(struct wfw_reader **r, unsigned k, uint64_t size)
{
	struct wfw_reader_opts o = { .one_pass = true, .part = k, .nparts = 2,
				     .part_size = size };
	char err[512];
	int ret = wfw_reader_open_opts(r, path, &o, err, sizeof(err));

	if (ret == WFW_E_CUT)
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "while being read (it had"));
	return ret;
}

/*
 * Parts cut their ranges from the size the file had when they were
 * planned: shorter since, a part fails (it read a shifted range or
 * nothing, and the run went on); grown, the parts still read the rows
 * there then, each once.
 */
static void test_parts_planned(void)
{
	struct wfw_reader *r;
	struct stat st;
	uint64_t size;
	long rows = 0;

	write_csv("w", ROWS);
	CU_ASSERT_FATAL(stat(path, &st) == 0);
	size = (uint64_t)st.st_size;
	CU_ASSERT_EQUAL(open_part(&r, 1, size + 4096), WFW_E_CUT);
	write_csv("a", ROWS);
	for (unsigned k = 0; k < 2; k++) {
		CU_ASSERT_FATAL(open_part(&r, k, size) == 0);
		rows += read_all(r, true, false);
		wfw_reader_close(r);
	}
	CU_ASSERT_EQUAL(rows, ROWS);
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
	s = CU_add_suite("csvshrink", NULL, NULL);
	CU_add_test(s, "cut shorter while read(): an error, no SIGBUS", test_shrunk_rows);
	CU_add_test(s, "cut shorter while read_cols(): an error, no SIGBUS", test_shrunk_cols);
	CU_add_test(s, "grown while read: the rows at open", test_grown);
	CU_add_test(s, "cut shorter before its texts are copied: an error", test_shrunk_texts);
	CU_add_test(s, "parts read the file as planned", test_parts_planned);
	failed = tu_run();
	if (!failed)
		tu_rmtree(tmpdir);
	return failed;
}
