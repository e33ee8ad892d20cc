/* SPDX-License-Identifier: MIT */
/*
 * wfw_reader_read_chunks() (lib/datafmt/binread.c): a block's rows taken
 * in pieces are copies of the reader's buffer, its last rows take the
 * buffer itself (the reader reads on into the caller's old one). Every
 * cell decoded from the chunks must be the row reader's, whatever the
 * piece size: whole blocks, pieces that end inside and at a block's end,
 * one row at a time, and a buffer that starts empty or too small.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "datafmt/binblock.h"
#include "datafmt/binwrite.h"
#include "datafmt/reader.h"
#include "testutil.h"

static const char *const names[] = { "C1", "C6" };
static const struct wultfw_column cols[] = {
	{ "Lat", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "State", "", WULTFW_COL_ENUM, 0, names, 2 },
	{ "Pct", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))
static const struct wultfw_schema schema = { NCOLS, cols };
#define ROWS 20000	/* two full blocks and a short one */

static char *tmp, path[4096];

static void make_row(union wultfw_cell *c, uint64_t r)
{
	uint64_t x = r * 0x9E3779B97F4A7C15ull;

	c[0].i = r % 777 == 3 ? WULTFW_CELL_EMPTY : (int64_t)(x % 100000) - 500;
	c[1].i = (int64_t)(x >> 40) % 2;
	c[2].f = (double)(int64_t)(x % 100001) / 1000;
}

static void write_file(void)
{
	struct wfw_bin_writer w;
	struct wultfw_batch b;

	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, ROWS) == 0);
	for (b.rows = 0; b.rows < ROWS; b.rows++)
		make_row(wultfw_row(&b, b.rows), b.rows);
	CU_ASSERT_FATAL(wfw_binw_open(&w, path, &schema, NULL, 0) == 0);
	CU_ASSERT_FATAL(wfw_binw_write(&w, &b) == 0);
	CU_ASSERT_FATAL(wfw_binw_close(&w) == 0);
	wfw_batch_free(&b);
}

/* The file in pieces of at most max rows; cells that differ from make_row's. */
static uint64_t read_in_pieces(size_t max, size_t start_cap)
{
	struct wfw_blk_col c[NCOLS];
	union wultfw_cell cell, want[NCOLS];
	unsigned char *buf = start_cap ? malloc(start_cap) : NULL;
	size_t cap = buf ? start_cap : 0, first;
	uint64_t row = 0, bad = 0;
	struct wfw_reader *r;
	char err[512];
	long n;

	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	while ((n = wfw_reader_read_chunks(r, max, &buf, &cap, c, &first)) > 0) {
		CU_ASSERT((size_t)n <= max);
		for (size_t k = 0; k < (size_t)n; k++, row++) {
			make_row(want, row);
			for (size_t j = 0; j < NCOLS; j++) {
				wfw_blk_decode_col(&c[j], first + k, 1, &cell);
				bad += cell.i != want[j].i;
			}
		}
	}
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(row, ROWS);
	free(buf);
	wfw_reader_close(r);
	return bad;
}

static void test_pieces(void)
{
	static const size_t max[] = { 65536, 8192, 3000, 4096, 1 };

	for (size_t i = 0; i < sizeof(max) / sizeof(max[0]); i++) {
		CU_ASSERT_EQUAL(read_in_pieces(max[i], 0), 0);
		CU_ASSERT_EQUAL(read_in_pieces(max[i], 16), 0);
	}
}

int main(void)
{
	CU_pSuite s;
	int failed;

	tmp = tu_tmpdir();
	if (!tmp || snprintf(path, sizeof(path), "%s/chunks.wfb", tmp) >= (int)sizeof(path))
		return 1;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("read_chunks", NULL, NULL);
	CU_add_test(s, "write the file", write_file);
	CU_add_test(s, "chunks in pieces: copied, or the buffer handed over", test_pieces);
	failed = tu_run();
	if (!failed)
		tu_rmtree(tmp);
	return failed;
}
