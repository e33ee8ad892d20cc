// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the CSV reader (lib/datafmt): the input becomes a
 * memfd file read three ways, as wultfw calc may read it: whole (types
 * learned from every row), in one pass (types learned from the first rows
 * and corrected later), and in 2-4 parts as -j does. When two ways both
 * read the file to the end they must agree on every row and cell, and a
 * file that opens whole must read whole (the types were learned from it).
 * Then in one pass and in parts again column by column (read_cols, as calc
 * reads): all columns, which must fail or agree as the rows did, and some
 * columns, which must read to the end where the rows did (the other
 * columns' cells are only delimited) and agree on the columns read.
 * The whole read converts one cell at a time, the others two at a time
 * where they can: the two-cell path is checked against the one-cell one.
 * Last, every SIMD level the CPU has (csvwin.h) reads whole one cell at a
 * time and in one pass column by column two at a time, bit for bit as the
 * portable level does (a level the CPU lacks is left out).
 * Each field of 17 to 24 bytes also goes through the window path's long
 * cells (csvnum.h) against the scalar scans, directly.
 * Inputs that start like the binary magic are left to fuzz_binary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binfmt.h"
#include "csvnum.h"
#include "csvwin.h"
#include "fuzz_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Every part of the file (`size` bytes: planned on its size, as calc and
 * filter open parts) in order into run; 0, or the first failure.
 */
static int read_parts(const char *path, unsigned nparts, size_t size,
		      struct fuzz_run *run)
{
	for (unsigned k = 0; k < nparts; k++) {
		struct wfw_reader_opts o = { .part = k, .nparts = nparts,
					     .part_size = size };
		int ret = fuzz_read(path, &o, 64, false, run);

		if (ret)
			return ret;
		if (run->ret)
			return run->ret;
	}
	return 0;
}

/* read_cols of every part in order into run; 0, or the first failure. */
static int read_parts_cols(const char *path, unsigned nparts, size_t size,
			   uint64_t want, struct fuzz_run *run)
{
	for (unsigned k = 0; k < nparts; k++) {
		struct wfw_reader_opts o = { .part = k, .nparts = nparts,
					     .part_size = size };
		int ret = fuzz_read_cols(path, &o, 64, want, true, run);

		if (ret)
			return ret;
		if (run->ret)
			return run->ret;
	}
	return 0;
}

/* The one-pass rows o (read to the end or not) against read_cols. */
static void fuzz_cols(const char *path, const uint8_t *data, size_t size,
		      struct fuzz_run *o, const struct fuzz_run *w)
{
	const struct wfw_reader_opts one = { .one_pass = true };
	struct fuzz_run a = { .keep = true }, s = { .keep = true }, p = { .keep = true };
	/* Which columns: from the input's last bytes, so mutations try many. */
	uint64_t want = size < 2 ? 1 : (uint64_t)data[size - 1] << 8 | data[size - 2];

	if (!fuzz_read_cols(path, &one, 7, ~0ULL, size & 1, &a)) {
		if (!o->ret != !a.ret) {
			fprintf(stderr, "fuzz: rows %d vs all columns %d\n", o->ret, a.ret);
			abort();
		}
		if (!o->ret)
			fuzz_same(o, &a, "one pass: rows vs all columns");
	}
	if (!fuzz_read_cols(path, &one, 7, want, true, &s) && !o->ret) {
		if (s.ret) {
			fprintf(stderr, "fuzz: rows read, some columns failed (%d)\n", s.ret);
			abort();
		}
		fuzz_mask(o, want);
		fuzz_same(o, &s, "one pass: rows vs some columns");
	}
	if (w && !read_parts_cols(path, 2 + (size + 1) % 3, size, want, &p)) {
		struct fuzz_run m = *w;

		fuzz_mask(&m, want);	/* w is not looked at again */
		fuzz_same(&m, &p, "whole rows vs some columns in parts");
	}
	fuzz_run_free(&a);
	fuzz_run_free(&s);
	fuzz_run_free(&p);
}

/*
 * Rows one cell at a time and all columns two at a time, at level lvl; a
 * file that does not open keeps the open's result in ret.
 */
static void read_level(const char *path, size_t size, int lvl, struct fuzz_run *rows,
		       struct fuzz_run *cols)
{
	const struct wfw_reader_opts whole = { 0 }, one = { .one_pass = true };
	int ret;

	wfw_csv_force_level = lvl;
	wfw_csv_no_pairs = true;
	ret = fuzz_read(path, &whole, 64, false, rows);
	if (ret)
		rows->ret = ret;
	wfw_csv_no_pairs = false;
	ret = fuzz_read_cols(path, &one, 7, ~0ULL, size & 1, cols);
	if (ret)
		cols->ret = ret;
	wfw_csv_force_level = -1;
}

/* Every SIMD level against the portable one, bit for bit. */
static void fuzz_levels(const char *path, size_t size)
{
	struct fuzz_run rows = { .keep = true }, cols = { .keep = true };

	read_level(path, size, WFW_CSV_SCALAR, &rows, &cols);
	for (int lvl = WFW_CSV_SCALAR + 1; lvl < WFW_CSV_NLEVELS; lvl++) {
		struct fuzz_run r = { .keep = true }, c = { .keep = true };
		char what[64];

		if (!wfw_win_rows_level((enum wfw_csv_level)lvl))
			continue;
		read_level(path, size, lvl, &r, &c);
		snprintf(what, sizeof(what), "rows, scalar vs %s",
			 wfw_csv_level_name((enum wfw_csv_level)lvl));
		fuzz_same_bits(&rows, &r, what);
		snprintf(what, sizeof(what), "columns, scalar vs %s",
			 wfw_csv_level_name((enum wfw_csv_level)lvl));
		fuzz_same_bits(&cols, &c, what);
		fuzz_run_free(&r);
		fuzz_run_free(&c);
	}
	fuzz_run_free(&rows);
	fuzz_run_free(&cols);
}

static void fuzz_csv(const char *path, const uint8_t *data, size_t size)
{
	const struct wfw_reader_opts whole = { 0 }, one = { .one_pass = true };
	struct fuzz_run w = { .keep = true }, o = { .keep = true }, p = { .keep = true };
	char what[64];
	int ret;

	/* Whole with one cell at a time: the other ways take two (csvnum.h). */
	wfw_csv_no_pairs = true;
	ret = fuzz_read(path, &whole, 64, false, &w);
	wfw_csv_no_pairs = false;
	if (ret) {
		/* Not a CSV file: still go through the other ways. */
		fuzz_read(path, &one, 7, false, &o);
		read_parts(path, 2, size, &p);
		goto out;
	}
	if (w.ret) {
		fprintf(stderr, "fuzz: opened whole but read failed (%d)\n", w.ret);
		abort();
	}
	if (!fuzz_read(path, &one, 7, false, &o) && !o.ret)
		fuzz_same(&w, &o, "whole vs one pass");
	/* 2, 3 or 4 parts, after the input's size: mutations try each. */
	if (!read_parts(path, 2 + size % 3, size, &p)) {
		snprintf(what, sizeof(what), "whole vs %zu parts", 2 + size % 3);
		fuzz_same(&w, &p, what);
	}
	fuzz_cols(path, data, size, &o, &w);
out:
	fuzz_run_free(&w);
	fuzz_run_free(&o);
	fuzz_run_free(&p);
}

/*
 * The window path's long cells (csvnum.h, 17 to 24 bytes) against the
 * scalar scans, field by field of the input: the same cells taken, the
 * same bits, for FLOAT and for INT of every column `dec`.
 */
static void long_differs(const char *b, size_t n, const char *type, int dec)
{
	fprintf(stderr, "fuzz: long cell '%.*s' as %s (dec %d): window path vs scan\n",
		(int)n, b, type, dec);
	abort();
}

static void fuzz_long_cells(const uint8_t *data, size_t size)
{
	char b[WFW_CSV_WIN + 8];

	for (size_t i = 0, n; i < size; i += n + 1) {
		double x, y;
		int64_t a, c;
		const char *end;
		int took;

		for (n = 0; i + n < size && !wfw_field_delim((char)data[i + n]); n++)
			;
		if (n <= 16 || n > WFW_CELL_LONG)
			continue;
		memset(b, ',', sizeof(b));
		memcpy(b, data + i, n);
		end = b + n;
		took = !wfw_long_double(b, (int)n, &x);
		if (took != (wfw_csvnum_scan_double(b, end, &y) == end) ||
		    (took && memcmp(&x, &y, sizeof(x))))
			long_differs(b, n, "FLOAT", 0);
		for (int dec = 0; dec <= 9; dec++) {
			took = !wfw_long_canon(b, (int)n, dec, &a);

			if (took != (wfw_csvnum_scan_canon(b, end, dec, &c) == end) ||
			    (took && a != c))
				long_differs(b, n, "INT", dec);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	if (size && data[0] == (uint8_t)WFW_BIN_MAGIC[0])
		return -1;	/* not a CSV input: keep it out of the corpus */
	fd = fuzz_memfd("", 0, data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	fuzz_long_cells(data, size);
	fuzz_csv(path, data, size);
	fuzz_levels(path, size);
	close(fd);
	return 0;
}
