/* SPDX-License-Identifier: MIT */
/*
 * The binary format, version 2 (doc/binary-format.md): CRC-32C, block
 * round trips of every column type with extreme and empty cells, size
 * against CSV, a file cut at every length, every flipped byte reported
 * with its block and offset, salvage, and version 1 files still read.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <wultfw/plugin.h>

#include "../../cli/commands.h"
#include "datafmt/binblock.h"
#include "datafmt/binfmt.h"
#include "datafmt/crc32c.h"
#include "datafmt/le.h"
#include "datafmt/reader.h"
#include "datafmt/writer.h"
#include "stats/moments.h"
#include "testutil.h"

static char *tmp;

static const char *tpath(const char *name)
{
	static char buf[8][512];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmp, name);
	return buf[k];
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	CU_ASSERT_FATAL(f != NULL);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	CU_ASSERT_FATAL(fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void spill(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fwrite(p, 1, n, f) == n);
	fclose(f);
}

/* ---- CRC-32C ---- */

static void test_crc32c(void)
{
	static unsigned char buf[20000];	/* past 3 stripes of the fast CRC */
	uint64_t seed = 7;

	/* The check value of the Castagnoli CRC (RFC 3720's polynomial). */
	CU_ASSERT_EQUAL(wfw_crc32c(0, "123456789", 9), 0xE3069283u);
	CU_ASSERT_EQUAL(wfw_crc32c_table(0, "123456789", 9), 0xE3069283u);
	CU_ASSERT_EQUAL(wfw_crc32c(0, "", 0), 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)wultfw_rand64(&seed);
	/* Fast and table agree at every length and alignment; chaining works. */
	for (size_t off = 0; off < 8; off++)
		for (size_t n = 0; n + off <= sizeof(buf); n += n < 1000 ? 13 : 997) {
			uint32_t a = wfw_crc32c(0, buf + off, n);

			CU_ASSERT_EQUAL(a, wfw_crc32c_table(0, buf + off, n));
			CU_ASSERT_EQUAL(a, wfw_crc32c(wfw_crc32c(0, buf + off, n / 2),
						      buf + off + n / 2, n - n / 2));
		}
}

/* ---- a schema with every column type ---- */

static const char *const cstates[] = { "POLL", "C1", "C1E", "C6" };
static const struct wultfw_column cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "SMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 4 },
	{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "TotCyc", "cycles", WULTFW_COL_INT, 1, NULL, 0 },
	{ "Const", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "Gone", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "Ratio", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
};
#define NCOLS 8
static const struct wultfw_schema schema = { NCOLS, cols };

static double fbits(uint64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/*
 * Row `r` of a deterministic data set. Ranges change between stretches of
 * rows so blocks get different widths; edge values appear throughout.
 */
static void make_row(union wultfw_cell *c, uint64_t r)
{
	static const double specials[] = { 0.0, -0.0, 1e-310, 100.0, 1.0 / 3,
					   INFINITY, -INFINITY, NAN };
	uint64_t x = r * 0x9E3779B97F4A7C15ull ^ (r >> 7), span = r / 5000 % 4;

	c[0].i = (int64_t)(x % (1000ull << (8 * span)));		/* 2..5 bytes */
	c[1].i = r % 997 == 5 ? WULTFW_CELL_EMPTY : (int64_t)(x % 3);
	c[2].i = (int64_t)(x % 5) - 1;				/* -1 .. 3 */
	c[3].f = span == 3 && x % 101 == 0 ? specials[x % 8]
		 : (double)(int64_t)(x % 100001) / 1000;	/* 3 decimals */
	c[4].i = r % 4999 == 0 ? INT64_MAX : r % 4999 == 1 ? INT64_MIN + 1
		 : r % 4999 == 2 ? WULTFW_CELL_EMPTY : (int64_t)(x - 1000);
	c[5].i = 42;
	c[6].i = WULTFW_CELL_EMPTY;
	c[7].f = span == 1 ? fbits(0x7ff80000000e4b7eull)	/* an empty-float NaN */
		 : (double)(x % 1000) / 7;
}

/* rows rows written in batches of `batch`, flushing every `flush` batches. */
static void write_file(const char *path, uint64_t rows, size_t batch,
		       size_t flush)
{
	struct wfw_bin_writer w;
	struct wultfw_batch b;
	uint64_t r = 0;

	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, batch) == 0);
	CU_ASSERT_FATAL(wfw_binw_open(&w, path, &schema, NULL, 0) == 0);
	for (size_t k = 0; r < rows; k++) {
		b.rows = 0;
		while (b.rows < batch && r < rows)
			make_row(wultfw_row(&b, b.rows++), r++);
		CU_ASSERT_FATAL(wfw_binw_write(&w, &b) == 0);
		if (flush && k % flush == flush - 1)
			CU_ASSERT_FATAL(wfw_binw_flush(&w) == 0);
	}
	CU_ASSERT_FATAL(wfw_binw_close(&w) == 0);
	wfw_batch_free(&b);
}

/* Read the file in batches of `cap` rows; every cell must equal make_row's bits. */
static uint64_t check_file(const char *path, size_t cap, uint64_t first)
{
	struct wfw_reader *r;
	struct wultfw_batch b;
	union wultfw_cell want[NCOLS];
	uint64_t row = first, bad = 0;
	char err[512];
	long n;

	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, cap) == 0);
	while ((n = wfw_reader_read(r, &b)) > 0) {
		for (size_t k = 0; k < b.rows; k++, row++) {
			make_row(want, row);
			bad += memcmp(wultfw_row(&b, k), want, sizeof(want)) != 0;
		}
		b.rows = 0;
	}
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(wfw_reader_rows(r), row - first);
	wfw_batch_free(&b);
	wfw_reader_close(r);
	return row - first;
}

static void test_roundtrip(void)
{
	/* Full blocks straight from big batches, staged ones from small. */
	write_file(tpath("rt1.wfb"), 40000, 20000, 0);
	CU_ASSERT_EQUAL(check_file(tpath("rt1.wfb"), 4096, 0), 40000);
	write_file(tpath("rt2.wfb"), 23456, 333, 7);
	CU_ASSERT_EQUAL(check_file(tpath("rt2.wfb"), 1, 0) , 23456);
	CU_ASSERT_EQUAL(check_file(tpath("rt2.wfb"), 10000, 0), 23456);
	/* A file without rows is a header alone. */
	write_file(tpath("rt0.wfb"), 0, 10, 0);
	CU_ASSERT_EQUAL(check_file(tpath("rt0.wfb"), 10, 0), 0);
}

/*
 * A FLOAT column's BARE flag: written by wfw_writer_set_bare() in place
 * (the header's length and CRC stay right), read back by the reader, kept
 * only on FLOAT columns; a CSV of the file prints its integers so.
 */
static void test_bare_flag(void)
{
	static const struct wultfw_column bcols[] = {
		{ "I", "", WULTFW_COL_INT, 1, NULL, 0 },
		{ "F", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "G", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
	};
	const struct wultfw_schema s = { 3, bcols };
	union wultfw_cell cells[] = { { .i = 5 }, { .f = 5.0 }, { .f = 5.0 },
				      { .i = 6 }, { .f = 7.25 }, { .f = 7.25 } };
	struct wultfw_batch b = { cells, 3, 2, 2, 0 };
	struct wfw_writer w, wc;
	struct wfw_reader *r;
	const char *path = tpath("bare.wfb"), *csv = tpath("bare.csv");
	char err[256];
	const char want[] = "I,F,G\n5,5,5.0\n6,7.25,7.25\n";
	char got[64] = "";
	FILE *f;

	CU_ASSERT_FATAL(wfw_writer_open(&w, &wfw_format_binary, path, &s, NULL, 0) == 0);
	CU_ASSERT_EQUAL(wfw_writer_set_bare(&w, 0, true), 0);	/* INT: no flag */
	CU_ASSERT_EQUAL(wfw_writer_set_bare(&w, 1, true), 0);
	CU_ASSERT_EQUAL(wfw_writer_write(&w, &b), 0);
	CU_ASSERT_EQUAL(wfw_writer_close(&w), 0);
	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	CU_ASSERT(!wfw_reader_bare_ints(r, 0));
	CU_ASSERT(wfw_reader_bare_ints(r, 1));
	CU_ASSERT(!wfw_reader_bare_ints(r, 2));
	CU_ASSERT_FATAL(wfw_writer_open(&wc, &wfw_format_csv, csv, wfw_reader_schema(r),
					NULL, 0) == 0);
	for (size_t c = 0; c < 3; c++)
		CU_ASSERT_EQUAL(wfw_writer_set_bare(&wc, c, wfw_reader_bare_ints(r, c)), 0);
	b.rows = 0;
	CU_ASSERT_EQUAL(wfw_reader_read(r, &b), 2);
	CU_ASSERT_EQUAL(wfw_writer_write(&wc, &b), 0);
	CU_ASSERT_EQUAL(wfw_writer_close(&wc), 0);
	wfw_reader_close(r);
	f = fopen(csv, "r");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fread(got, 1, sizeof(got) - 1, f) > 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(got, want);
}

/* Every block of the file: offsets and row counts, from its headers. */
struct blk { uint64_t off, rows_before; uint32_t rows, len; };

static size_t list_blocks(const unsigned char *p, size_t len, struct blk *out,
			  size_t max, size_t *hlen)
{
	struct wfw_bin_header h;
	size_t need, n = 0, off;
	uint64_t before = 0;
	char err[256];

	CU_ASSERT_FATAL(wfw_bin_header_parse(&h, p, len, &need, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(h.version, 2);
	*hlen = off = h.header_len;
	wfw_bin_header_free(&h);
	while (off + WFW_BLK_HDR_LEN <= len && n < max) {
		out[n] = (struct blk){ off, before, wfw_get32(p + off), wfw_get32(p + off + 4) };
		before += out[n].rows;
		off += WFW_BLK_HDR_LEN + out[n++].len;
	}
	CU_ASSERT_EQUAL(off, len);
	return n;
}

static void test_narrow(void)
{
	static const struct wultfw_column c3[] = {
		{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
		{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 4 },
		{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	};
	static const struct wultfw_schema s3 = { 3, c3 };
	union wultfw_cell cells[3 * 1000];
	unsigned char *out = malloc(wfw_blk_bound(3, 1000) + WFW_BLK_SLACK);
	struct wfw_blk_col bc[3];
	char err[256];
	size_t len;

	for (int r = 0; r < 1000; r++) {		/* column-major */
		cells[r].i = 5000 + r * 60;		/* < 64 K: 2 bytes */
		cells[1000 + r].i = r % 4;		/* 1 byte */
		cells[2000 + r].f = r / 100.0;		/* 2 decimals, < 1000: 2 bytes */
	}
	len = wfw_blk_encode(&s3, cells, 1000, 1000, out);
	CU_ASSERT_EQUAL(len, WFW_BLK_HDR_LEN + 3 * WFW_BLK_CHUNK_LEN + 1000 * (2 + 1 + 2));
	CU_ASSERT_FATAL(wfw_blk_parse(&s3, out + WFW_BLK_HDR_LEN, len - WFW_BLK_HDR_LEN,
				      1000, bc, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(bc[2].enc, WFW_ENC_DEC);
	CU_ASSERT_EQUAL(bc[2].scale, 2);
	free(out);
}

/* The same rows as CSV and binary: the binary file at most half as big. */
static void test_half_of_csv(void)
{
	struct wfw_csv_writer cw;
	struct stat sc, sb;
	struct wultfw_batch b;
	static const struct wultfw_schema s7 = { 6, cols };	/* no all-empty column */

	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 6, 50000) == 0);
	for (size_t r = 0; r < 50000; r++) {
		union wultfw_cell row[NCOLS];

		make_row(row, r);
		memcpy(wultfw_row(&b, r), row, 6 * sizeof(row[0]));
	}
	b.rows = 50000;
	CU_ASSERT_FATAL(wfw_csvw_open(&cw, tpath("half.csv"), &s7, 0) == 0);
	CU_ASSERT(wfw_csvw_write(&cw, &b) == 0);
	CU_ASSERT(wfw_csvw_close(&cw) == 0);
	{
		struct wfw_bin_writer bw;

		CU_ASSERT_FATAL(wfw_binw_open(&bw, tpath("half.wfb"), &s7, NULL, 0) == 0);
		CU_ASSERT(wfw_binw_write(&bw, &b) == 0);
		CU_ASSERT(wfw_binw_close(&bw) == 0);
	}
	CU_ASSERT_FATAL(stat(tpath("half.csv"), &sc) == 0 && stat(tpath("half.wfb"), &sb) == 0);
	printf("\n  csv %lld bytes, binary %lld bytes ", (long long)sc.st_size,
	       (long long)sb.st_size);
	CU_ASSERT(2 * sb.st_size <= sc.st_size);
	wfw_batch_free(&b);
}

/* An enum cell outside its table (checksums intact) is an error, not an index. */
static void test_enum_range(void)
{
	struct wfw_reader *r;
	struct wultfw_batch b;
	union wultfw_cell rows[2 * NCOLS], colmajor[2 * NCOLS];
	unsigned char *blk = malloc(wfw_blk_bound(NCOLS, 2) + WFW_BLK_SLACK);
	size_t len;
	char err[512];
	FILE *f;

	write_file(tpath("enum.wfb"), 0, 10, 0);	/* the header alone */
	make_row(rows, 0);
	make_row(rows + NCOLS, 1);
	rows[NCOLS + 2].i = 42;
	for (size_t c = 0; c < NCOLS; c++) {
		colmajor[2 * c] = rows[c];
		colmajor[2 * c + 1] = rows[NCOLS + c];
	}
	len = wfw_blk_encode(&schema, colmajor, 2, 2, blk);
	f = fopen(tpath("enum.wfb"), "ab");
	CU_ASSERT_FATAL(f && fwrite(blk, 1, len, f) == len);
	fclose(f);
	CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("enum.wfb"), err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_rows(r), 2);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, 10) == 0);
	CU_ASSERT(wfw_reader_read(r, &b) == -EINVAL);
	TU_ASSERT_CONTAINS(wfw_reader_error(r), "block 0 at byte");
	TU_ASSERT_CONTAINS(wfw_reader_error(r), "row 1 of the block: column ReqCState holds 42");
	wfw_batch_free(&b);
	wfw_reader_close(r);
	free(blk);
}

/*
 * Enum chunks checked from their least and greatest byte: -1 .. n_enum - 1
 * passes, one cell past it (in or after the first 16) is named.
 */
static void test_enum_bytes(void)
{
	static const struct wultfw_column e = { "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 4 };
	static const struct wultfw_schema one = { 1, &e };
	unsigned char p[WFW_BLK_CHUNK_LEN + 40 + WFW_BLK_SLACK] = { WFW_ENC_FOR, 1 };
	struct wfw_blk_col c;
	char err[256];

	wfw_put64(p + 4, (uint64_t)-1);	/* base -1: byte 0 is "no state" */
	for (size_t i = 0; i < 40; i++)
		p[WFW_BLK_CHUNK_LEN + i] = (unsigned char)(i % 5);	/* -1 .. 3 */
	CU_ASSERT_EQUAL(wfw_blk_parse(&one, p, WFW_BLK_CHUNK_LEN + 40, 40, &c, err, sizeof(err)), 0);
	for (size_t at = 3; at < 40; at += 17) {
		char want[64];

		p[WFW_BLK_CHUNK_LEN + at] = 5;	/* 4: past the 4 names */
		CU_ASSERT_EQUAL(wfw_blk_parse(&one, p, WFW_BLK_CHUNK_LEN + 40, 40, &c, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "row %zu of the block: column ReqCState holds 4", at);
		TU_ASSERT_CONTAINS(err, want);
		p[WFW_BLK_CHUNK_LEN + at] = 0;
	}
	wfw_put64(p + 4, (uint64_t)-2);	/* byte 0 now -2 */
	CU_ASSERT_EQUAL(wfw_blk_parse(&one, p, WFW_BLK_CHUNK_LEN + 40, 40, &c, err, sizeof(err)), -EINVAL);
	TU_ASSERT_CONTAINS(err, "row 0 of the block: column ReqCState holds -2");
}

/* Cut after every byte: the whole blocks read, the rest said ignored. */
static void test_truncated(void)
{
	struct blk bl[64];
	size_t len, hlen, nb;
	unsigned char *p;

	write_file(tpath("cut-src.wfb"), 700, 50, 2);	/* blocks of 100 rows */
	p = slurp(tpath("cut-src.wfb"), &len);
	nb = list_blocks(p, len, bl, 64, &hlen);
	CU_ASSERT_FATAL(nb == 7);
	for (size_t cut = hlen; cut <= len; cut++) {
		struct wfw_reader *r;
		char err[512];
		size_t whole = 0;
		uint64_t rows = 0, end = hlen;

		while (whole < nb && bl[whole].off + WFW_BLK_HDR_LEN + bl[whole].len <= cut) {
			rows += bl[whole].rows;
			end = bl[whole].off + WFW_BLK_HDR_LEN + bl[whole].len;
			whole++;
		}
		spill(tpath("cut.wfb"), p, cut);
		CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("cut.wfb"), err, sizeof(err)) == 0);
		CU_ASSERT_EQUAL(wfw_reader_rows(r), rows);
		CU_ASSERT_EQUAL(wfw_reader_ignored_bytes(r), cut - end);
		wfw_reader_close(r);
		if (cut % 97 == 0 || cut == len)
			CU_ASSERT_EQUAL(check_file(tpath("cut.wfb"), 64, 0), rows);
	}
	free(p);
}

/* Rows before the damage, then the error naming block and offset. */
static void expect_damage(const char *path, const struct blk *b, size_t k)
{
	struct wfw_reader *r;
	struct wultfw_batch bt;
	char err[512], want[128];
	uint64_t rows = 0;
	long n;

	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(wfw_batch_alloc(&bt, NCOLS, 77) == 0);
	while ((n = wfw_reader_read(r, &bt)) > 0) {
		rows += (uint64_t)n;
		bt.rows = 0;
	}
	CU_ASSERT(n == -EBADMSG || n == -EINVAL);
	CU_ASSERT_EQUAL(rows, b[k].rows_before);
	snprintf(want, sizeof(want), "cor.wfb: block %zu at byte %llu: ", k,
		 (unsigned long long)b[k].off);
	TU_ASSERT_CONTAINS(wfw_reader_error(r), want);
	TU_ASSERT_CONTAINS(wfw_reader_error(r), "checksum mismatch");
	TU_ASSERT_CONTAINS(wfw_reader_error(r), "--salvage");
	/* The error stays: a caller reading on does not get past it. */
	bt.rows = 0;
	CU_ASSERT(wfw_reader_read(r, &bt) < 0);
	wfw_batch_free(&bt);
	wfw_reader_close(r);
}

static void test_flipped_bytes(void)
{
	struct blk bl[16];
	size_t len, hlen, nb, k = 0;
	unsigned char *p;

	write_file(tpath("cor-src.wfb"), 300, 30, 2);	/* blocks of 60 rows */
	p = slurp(tpath("cor-src.wfb"), &len);
	nb = list_blocks(p, len, bl, 16, &hlen);
	CU_ASSERT_FATAL(nb == 5);
	for (size_t off = hlen; off < len; off++) {
		while (k + 1 < nb && bl[k + 1].off <= off)
			k++;
		p[off] ^= 0x10;
		spill(tpath("cor.wfb"), p, len);
		expect_damage(tpath("cor.wfb"), bl, k);
		p[off] ^= 0x10;
	}
	free(p);
}

static void test_salvage(void)
{
	struct blk bl[16];
	size_t len, hlen, nb;
	unsigned char *p;
	struct wfw_reader *r;
	struct wultfw_batch b;
	union wultfw_cell want[NCOLS];
	char err[512];
	uint64_t rows = 0, bad = 0;
	long n;

	write_file(tpath("sal-src.wfb"), 600, 100, 1);	/* 6 blocks of 100 */
	p = slurp(tpath("sal-src.wfb"), &len);
	nb = list_blocks(p, len, bl, 16, &hlen);
	CU_ASSERT_FATAL(nb == 6);
	p[bl[1].off + 100] ^= 1;	/* payload of block 1 */
	p[bl[3].off + 2] ^= 1;		/* header of block 3: its length is lost */
	spill(tpath("sal.wfb"), p, len);
	CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("sal.wfb"), err, sizeof(err)) == 0);
	wfw_reader_set_salvage(r, true);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, 64) == 0);
	while ((n = wfw_reader_read(r, &b)) > 0) {
		for (size_t i = 0; i < b.rows; i++, rows++) {
			uint64_t row = rows < 100 ? rows : rows < 200 ? rows + 100 : rows + 200;

			make_row(want, row);
			bad += memcmp(wultfw_row(&b, i), want, sizeof(want)) != 0;
		}
		b.rows = 0;
	}
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(rows, 400);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(wfw_reader_damaged(r), 2);
	wfw_batch_free(&b);
	wfw_reader_close(r);
	free(p);
}

/*
 * Garbage inside blocks with their checksums fixed up (what no flipped
 * byte gives, but a buggy or hostile writer could): every read either
 * works or fails with a message; never a crash (run under ASan by the
 * sanitizer build).
 */
static void test_fixed_up_garbage(void)
{
	struct blk bl[16];
	size_t len, hlen, nb;
	unsigned char *p, *q;
	uint64_t seed = 4242;
	struct wultfw_batch b;

	write_file(tpath("fz-src.wfb"), 200, 50, 1);
	p = slurp(tpath("fz-src.wfb"), &len);
	nb = list_blocks(p, len, bl, 16, &hlen);
	q = malloc(len);
	CU_ASSERT_FATAL(q && nb == 4 && wfw_batch_alloc(&b, NCOLS, 33) == 0);
	for (int i = 0; i < 3000; i++) {
		const struct blk *k = &bl[wultfw_rand64(&seed) % nb];
		unsigned char *h;
		struct wfw_reader *r;
		char err[512];

		memcpy(q, p, len);
		h = q + k->off;
		for (int j = 0; j < 1 + i % 4; j++)	/* payload and header bytes */
			h[wultfw_rand64(&seed) % (WFW_BLK_HDR_LEN + k->len)] =
				(unsigned char)wultfw_rand64(&seed);
		if (i & 1)	/* keep the lengths sane half the time */
			memcpy(h, p + k->off, 8);
		wfw_put32(h + 8, wfw_crc32c(0, h + WFW_BLK_HDR_LEN, k->len));
		wfw_put32(h + 12, wfw_crc32c(0, h, 12));
		spill(tpath("fz.wfb"), q, len);
		CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("fz.wfb"), err, sizeof(err)) == 0);
		for (long n = 1; n > 0; b.rows = 0)
			n = wfw_reader_read(r, &b);
		wfw_reader_close(r);
	}
	wfw_batch_free(&b);
	free(q);
	free(p);
}

/* ---- version 1 files ---- */

static int convert(const char *in, const char *out, const char *flag)
{
	char *argv[] = { "convert", (char *)in, "-o", (char *)out, (char *)flag, NULL };

	return wfw_cmd_convert(flag ? 5 : 4, argv);
}

static void test_version1(void)
{
	const char *v1 = TEST_DATA "/binary-v1/datapoints.wfb";
	struct wfw_reader *r;
	char err[512], *want, *got;

	CU_ASSERT_FATAL(wfw_reader_open(&r, v1, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_rows(r), 12);
	CU_ASSERT_EQUAL(wfw_reader_schema(r)->ncols, 6);
	CU_ASSERT_STRING_EQUAL(wfw_reader_meta(r, "experiment"), "v1-sample");
	wfw_reader_close(r);
	/* Its CSV view is what the version 1 code printed (kept beside it). */
	CU_ASSERT(convert(v1, tpath("v1.csv"), NULL) == 0);
	want = tu_read(TEST_DATA "/binary-v1/datapoints.csv");
	got = tu_read(tpath("v1.csv"));
	CU_ASSERT_FATAL(want && got);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	/* Converted to version 2 and back: the same text. */
	CU_ASSERT(convert(v1, tpath("v1to2.wfb"), NULL) == 0);
	CU_ASSERT(convert(tpath("v1to2.wfb"), tpath("v2.csv"), NULL) == 0);
	got = tu_read(tpath("v2.csv"));
	CU_ASSERT_FATAL(got != NULL);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	free(want);
}

/* convert stops at damage and says what to do; --salvage copies the rest. */
static void test_convert_salvage(void)
{
	struct blk bl[16];
	size_t len, hlen;
	unsigned char *p;
	struct wfw_reader *r;
	char err[512];

	write_file(tpath("cs-src.wfb"), 500, 100, 1);
	p = slurp(tpath("cs-src.wfb"), &len);
	CU_ASSERT_FATAL(list_blocks(p, len, bl, 16, &hlen) == 5);
	p[bl[2].off + 40] ^= 0x80;
	spill(tpath("cs.wfb"), p, len);
	CU_ASSERT(convert(tpath("cs.wfb"), tpath("cs.csv"), NULL) == 1);
	CU_ASSERT(access(tpath("cs.csv"), F_OK) != 0);
	CU_ASSERT(convert(tpath("cs.wfb"), tpath("cs2.wfb"), "--salvage") == 0);
	CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("cs2.wfb"), err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_rows(r), 400);
	wfw_reader_close(r);
	free(p);
}

/* ---- the encoder's choices against a plain reference ---- */

/* The plan of a FLOAT column one cell at a time, as doc/binary-format.md says. */
static void ref_plan_float(const union wultfw_cell *v, size_t rows, struct wfw_blk_col *k)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, m;

	for (unsigned scale = 0; scale <= WFW_DEC_MAX_SCALE; scale++) {
		size_t r = 0;

		for (lo = INT64_MAX, hi = INT64_MIN; r < rows && wfw_dec_exact(v[r].f, scale, &m); r++) {
			lo = m < lo ? m : lo;
			hi = m > hi ? m : hi;
		}
		if (r == rows) {
			uint64_t range = (uint64_t)hi - (uint64_t)lo;

			*k = (struct wfw_blk_col){ .enc = WFW_ENC_DEC, .scale = (uint8_t)scale,
						   .base = (uint64_t)lo };
			while (range) {
				k->width++;
				range >>= 8;
			}
			return;
		}
	}
	*k = (struct wfw_blk_col){ .enc = WFW_ENC_FOR, .width = 8 };
}

/* A float cell: mostly decimals of the block's scale, now and then anything. */
static double rand_float(uint64_t *seed, unsigned scale, unsigned odd)
{
	static const double specials[] = { 0.0, -0.0, NAN, INFINITY, -INFINITY, 1e-310,
					   2251799813685247.0, 1e300, 0.1 + 0.2 };
	uint64_t x = wultfw_rand64(seed);
	/* now and then near 2^51, where a scale more no longer fits */
	int64_t k = (int64_t)(x >> 12) % (x % 512 ? 100000000 : 2251799813685248);

	if (odd && x % odd == 0)
		return x & 2 ? specials[x / 4 % 9] : fbits(x);
	if (x & 4)
		k = -k;
	return (double)k / wfw_pow10_exact[(scale + x / 8 % 2) % (WFW_DEC_MAX_SCALE + 1)];
}

/* Random blocks: each FLOAT chunk as the reference plans it, every cell back. */
static void test_encode_plans(void)
{
	static const struct wultfw_column fc[] = {
		{ "A", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
		{ "B", "", WULTFW_COL_FLOAT, 0, NULL, 0 },
	};
	static const struct wultfw_schema s2 = { 2, fc };
	union wultfw_cell cells[2 * 301], back[2 * 301];
	unsigned char *out = malloc(wfw_blk_bound(2, 301) + WFW_BLK_SLACK);
	uint64_t seed = 1234, bad = 0, dec = 0, scales = 0;
	struct wfw_blk_col got[2], want;
	char err[256];

	CU_ASSERT_FATAL(out != NULL);
	for (int i = 0; i < 20000; i++) {
		size_t rows = 1 + wultfw_rand64(&seed) % 301, len;
		unsigned scale = (unsigned)(wultfw_rand64(&seed) % 11);
		unsigned odd = i % 3 ? 0 : 1 + (unsigned)(wultfw_rand64(&seed) % 400);

		for (size_t r = 0; r < 2 * rows; r++)
			cells[r].f = rand_float(&seed, scale, odd);
		len = wfw_blk_encode(&s2, cells, rows, rows, out);
		CU_ASSERT_FATAL(wfw_blk_parse(&s2, out + WFW_BLK_HDR_LEN, len - WFW_BLK_HDR_LEN,
					      (uint32_t)rows, got, err, sizeof(err)) == 0);
		for (size_t c = 0; c < 2; c++) {
			ref_plan_float(cells + c * rows, rows, &want);
			bad += got[c].enc != want.enc || got[c].width != want.width ||
			       got[c].scale != want.scale || got[c].base != want.base;
			dec += got[c].enc == WFW_ENC_DEC;
			scales |= 1u << got[c].scale;
		}
		wfw_blk_decode(got, 2, 0, rows, back);
		for (size_t r = 0; r < rows; r++)
			bad += memcmp(&back[2 * r], &cells[r], 8) || memcmp(&back[2 * r + 1], &cells[rows + r], 8);
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* Both kinds of chunk, every scale. */
	printf("\n  %llu of 40000 chunks scaled decimals ", (unsigned long long)dec);
	CU_ASSERT(dec > 10000 && dec < 35000);
	CU_ASSERT_EQUAL(scales, (1u << (WFW_DEC_MAX_SCALE + 1)) - 1);
	free(out);
}

/* ---- whole blocks copied as they are (convert_raw.c) ---- */

/* How a whole read of a file ended: rows handed out, the last return, why. */
struct read_end { uint64_t rows; long ret; char why[512]; };

static void read_end(struct wfw_reader *r, long ret, uint64_t rows, struct read_end *e)
{
	e->rows = rows;
	e->ret = ret;
	snprintf(e->why, sizeof(e->why), "%s", ret < 0 ? wfw_reader_error(r) : "");
}

/* path read whole by rows (raw false) or by blocks (raw true). */
static void read_whole(const char *path, bool raw, bool salvage, struct read_end *e)
{
	struct wfw_reader *r;
	struct wultfw_batch b;
	unsigned char *blk;
	uint64_t rows = 0;
	uint32_t n = 0;
	size_t cap;
	char err[512];
	long got;

	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	wfw_reader_set_salvage(r, salvage);
	cap = wfw_blk_bound(NCOLS, wfw_reader_block_rows(r)) + WFW_BLK_SLACK;
	blk = malloc(cap);
	CU_ASSERT_FATAL(blk && wfw_batch_alloc(&b, NCOLS, 64) == 0);
	do {
		b.rows = 0;
		got = raw ? wfw_reader_read_block(r, blk, cap, &n) : wfw_reader_read(r, &b);
		rows += raw && got > 0 ? n : got > 0 ? (uint64_t)got : 0;
	} while (got > 0);
	read_end(r, got, rows, e);
	wfw_batch_free(&b);
	free(blk);
	wfw_reader_close(r);
}

/* Blocks copied pass and fail as rows read do, with the same message. */
static void expect_same_end(const char *path, bool salvage)
{
	struct read_end rows, blocks;

	read_whole(path, false, salvage, &rows);
	read_whole(path, true, salvage, &blocks);
	CU_ASSERT_EQUAL(blocks.rows, rows.rows);
	CU_ASSERT_EQUAL(blocks.ret, rows.ret);
	CU_ASSERT_STRING_EQUAL(blocks.why, rows.why);
}

/* Every flipped byte, and garbage with fixed-up checksums (structure, enums). */
static void test_raw_checks(void)
{
	struct blk bl[16];
	size_t len, hlen, nb;
	unsigned char *p;
	uint64_t seed = 77;

	write_file(tpath("rc-src.wfb"), 300, 30, 2);	/* blocks of 60 rows */
	p = slurp(tpath("rc-src.wfb"), &len);
	nb = list_blocks(p, len, bl, 16, &hlen);
	CU_ASSERT_FATAL(nb == 5);
	for (size_t off = hlen; off < len; off += 3) {
		p[off] ^= 0x10;
		spill(tpath("rc.wfb"), p, len);
		expect_same_end(tpath("rc.wfb"), off % 2);
		p[off] ^= 0x10;
	}
	for (int i = 0; i < 600; i++) {
		const struct blk *k = &bl[wultfw_rand64(&seed) % nb];
		unsigned char *h = p + k->off, hdr[WFW_BLK_HDR_LEN], was;
		/* rows, length or payload; the checksums are made to hold */
		size_t at = wultfw_rand64(&seed) % (8 + k->len);

		at += at < 8 ? 0 : 8;
		memcpy(hdr, h, sizeof(hdr));
		was = h[at];
		h[at] = (unsigned char)wultfw_rand64(&seed);
		wfw_put32(h + 8, wfw_crc32c(0, h + WFW_BLK_HDR_LEN, k->len));
		wfw_put32(h + 12, wfw_crc32c(0, h, 12));
		spill(tpath("rc.wfb"), p, len);
		expect_same_end(tpath("rc.wfb"), i % 2);
		h[at] = was;
		memcpy(h, hdr, sizeof(hdr));
	}
	free(p);
}

/* convert to binary keeps the input's blocks (short ones too) byte for byte. */
static void test_convert_raw(void)
{
	static const char *const flags[] = { NULL, "-j1", "-j3" };
	size_t len, olen, hlen, ohlen;
	struct blk bl[16], obl[16];
	unsigned char *p, *q;

	write_file(tpath("cr-src.wfb"), 700, 50, 2);	/* 7 blocks of 100 rows */
	p = slurp(tpath("cr-src.wfb"), &len);
	CU_ASSERT_FATAL(list_blocks(p, len, bl, 16, &hlen) == 7);
	for (size_t i = 0; i < 3; i++) {
		unlink(tpath("cr.wfb"));
		CU_ASSERT_FATAL(convert(tpath("cr-src.wfb"), tpath("cr.wfb"), flags[i]) == 0);
		q = slurp(tpath("cr.wfb"), &olen);
		CU_ASSERT_EQUAL(list_blocks(q, olen, obl, 16, &ohlen), 7);
		CU_ASSERT(olen - ohlen == len - hlen &&
			  !memcmp(q + ohlen, p + hlen, len - hlen));
		CU_ASSERT_EQUAL(check_file(tpath("cr.wfb"), 333, 0), 700);
		free(q);
	}
	/* Blocks may hold more rows than the writer's: encoded afresh. */
	wfw_put32(p + 24, 65536);
	wfw_put32(p + 32, 0);
	wfw_put32(p + 32, wfw_crc32(0, p, hlen));
	spill(tpath("cr-big.wfb"), p, len);
	unlink(tpath("cr.wfb"));
	CU_ASSERT_FATAL(convert(tpath("cr-big.wfb"), tpath("cr.wfb"), NULL) == 0);
	q = slurp(tpath("cr.wfb"), &olen);
	CU_ASSERT_EQUAL(list_blocks(q, olen, obl, 16, &ohlen), 1);
	CU_ASSERT_EQUAL(check_file(tpath("cr.wfb"), 333, 0), 700);
	free(q);
	free(p);
}

/* ---- column by column ---- */

/* A cell as wfw_col_batch.numbers gives an INT column's. */
static union wultfw_cell as_number(union wultfw_cell c)
{
	if (c.i == WULTFW_CELL_EMPTY)
		return (union wultfw_cell){ .i = WULTFW_FLOAT_EMPTY_BITS };
	return (union wultfw_cell){ .f = (double)c.i };
}

/* dst[0, n) and s as wfw_min_max_sum() of them gives: bit for bit. */
static bool sums_hold(const double *dst, size_t n, const struct wfw_run_sums *s)
{
	double lo = INFINITY, hi = -INFINITY, sum = wfw_min_max_sum(dst, n, &lo, &hi);

	return s->ok && !memcmp(&lo, &s->lo, sizeof(lo)) &&
	       !memcmp(&hi, &s->hi, sizeof(hi)) && !memcmp(&sum, &s->sum, sizeof(sum));
}

/*
 * Read `path` column by column (the columns in `want`, NULL: all) in
 * batches of `cap`; every cell must be the row reader's, as numbers with
 * `numbers`, and a column said to have no NaN must have none.
 */
/* Returns how many times a column came with its sums. */
static uint64_t check_cols(const char *path, size_t cap, const bool *want, bool numbers)
{
	struct wfw_reader *r, *rr;
	struct wfw_col_batch b;
	struct wultfw_batch rb;
	uint64_t bad = 0, lied = 0, rows = 0, summed = 0;
	char err[512];
	long n;

	CU_ASSERT_FATAL(wfw_reader_open(&r, path, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(wfw_reader_open(&rr, path, err, sizeof(err)) == 0);
	const struct wultfw_schema *s = wfw_reader_schema(r);

	CU_ASSERT_FATAL(wfw_col_batch_alloc(&b, s->ncols, cap, want) == 0);
	CU_ASSERT_FATAL(wfw_batch_alloc(&rb, s->ncols, cap) == 0);
	b.numbers = numbers;
	b.sums = calloc(s->ncols, sizeof(*b.sums));
	CU_ASSERT_PTR_NOT_NULL_FATAL(b.sums);
	while ((n = wfw_reader_read_cols(r, &b)) > 0) {
		rb.rows = 0;
		CU_ASSERT_FATAL(wfw_reader_read(rr, &rb) == n);
		for (size_t c = 0; c < s->ncols; c++) {
			CU_ASSERT((b.col[c] != NULL) == (!want || want[c]));
			for (size_t k = 0; b.col[c] && k < b.rows; k++) {
				union wultfw_cell w = wultfw_crow(&rb, k)[c];

				if (numbers && s->cols[c].type == WULTFW_COL_INT)
					w = as_number(w);
				bad += w.i != b.col[c][k].i;
				lied += !b.may_nan[c] && s->cols[c].type != WULTFW_COL_ENUM &&
					(numbers || s->cols[c].type == WULTFW_COL_FLOAT) &&
					w.f != w.f;
			}
			/* sums only for numbers, and then right */
			lied += b.sums[c].ok && (!numbers || !sums_hold(&b.col[c][0].f, b.rows, &b.sums[c]));
			summed += b.sums[c].ok;
		}
		rows += b.rows;
		b.rows = 0;
	}
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(wfw_reader_read(rr, &rb), 0);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(lied, 0);
	CU_ASSERT_EQUAL(rows, wfw_reader_rows(r));
	free(b.sums);
	wfw_col_batch_free(&b);
	wfw_batch_free(&rb);
	wfw_reader_close(r);
	wfw_reader_close(rr);
	return summed;
}

static void test_read_cols(void)
{
	static const bool some[NCOLS] = { true, false, true, true, true, false, true, true };
	const char *v1 = TEST_DATA "/binary-v1/datapoints.wfb";
	struct wfw_reader *r;
	char err[512];

	write_file(tpath("cols.wfb"), 23456, 333, 7);
	CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("cols.wfb"), err, sizeof(err)) == 0);
	CU_ASSERT(wfw_reader_native_cols(r));
	wfw_reader_close(r);
	for (int numbers = 0; numbers < 2; numbers++) {
		uint64_t summed = check_cols(tpath("cols.wfb"), 1000, NULL, numbers) +
				  check_cols(tpath("cols.wfb"), 7, some, numbers) +
				  check_cols(tpath("cols.wfb"), 65536, some, numbers);

		/* Version 2 numbers come with sums where they can. */
		CU_ASSERT_EQUAL(summed > 0, numbers);
		/* Version 1 files go through rows (reader.c transposes). */
		CU_ASSERT_EQUAL(check_cols(v1, 5, NULL, numbers), 0);
	}
	CU_ASSERT_FATAL(wfw_reader_open(&r, v1, err, sizeof(err)) == 0);
	CU_ASSERT(!wfw_reader_native_cols(r));
	wfw_reader_close(r);
}

/* Hand-made chunks whose cells come out INT64_MIN: empty as numbers too. */
static void test_decode_num_min(void)
{
	unsigned char data[16] = { 0, 1, 2, 3 };
	struct wfw_blk_col plain = { data, (uint64_t)INT64_MIN, WFW_ENC_FOR, 1, 0 };
	struct wfw_blk_col fe = { data, (uint64_t)INT64_MIN, WFW_ENC_FOR_EMPTY, 1, 0 };
	union wultfw_cell d[4];
	const union wultfw_cell empty = { .i = WULTFW_FLOAT_EMPTY_BITS };

	CU_ASSERT(wfw_blk_may_nan(&plain, WULTFW_COL_INT));
	wfw_blk_decode_num(&plain, 0, 4, &d[0].f);
	CU_ASSERT_EQUAL(d[0].i, empty.i);
	CU_ASSERT_EQUAL(d[1].f, (double)(INT64_MIN + 1));
	wfw_blk_decode_num(&fe, 0, 4, &d[0].f);
	CU_ASSERT_EQUAL(d[0].i, empty.i);	/* code 0 */
	CU_ASSERT_EQUAL(d[1].i, empty.i);	/* base + 1 - 1: INT64_MIN */
	CU_ASSERT_EQUAL(d[3].f, (double)(INT64_MIN + 2));
	plain.base = 5;
	CU_ASSERT(!wfw_blk_may_nan(&plain, WULTFW_COL_INT));
	wfw_blk_decode_num(&plain, 1, 3, &d[0].f);
	CU_ASSERT_EQUAL(d[2].f, 8.0);
}

/*
 * Decoding with sums: the cells decoding without gives, and the sums of
 * them, for every width the fast loops take, both encodings, any count
 * and start; other chunks are left to the plain decoders.
 */
static void test_decode_sums(void)
{
	unsigned char data[8 * 64 + 8];
	double got[64], want[64];
	struct wfw_run_sums s;
	uint64_t seed = 5;
	size_t bad = 0, cases = 0;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)wultfw_rand64(&seed);
	for (unsigned w = 0; w <= 4; w++) {
		for (int dec = 0; dec < 2; dec++) {
			struct wfw_blk_col c = { data, (uint64_t)-123456789, dec ? WFW_ENC_DEC : WFW_ENC_FOR,
						 (uint8_t)w, (uint8_t)(dec ? 3 : 0) };

			for (size_t first = 0; first < 3; first++) {
				for (size_t n = 1; n + first <= 60; n += 1 + n / 8) {
					CU_ASSERT_FATAL(wfw_blk_decode_sums(&c, dec ? WULTFW_COL_FLOAT : WULTFW_COL_INT,
									    first, n, got, &s));
					if (dec)
						wfw_blk_decode_col(&c, first, n, (union wultfw_cell *)want);
					else
						wfw_blk_decode_num(&c, first, n, want);
					bad += memcmp(got, want, n * sizeof(*got)) || !sums_hold(got, n, &s);
					cases++;
				}
			}
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(cases > 100);
	/* empty cells, raw doubles, wide cells, enums: not here */
	CU_ASSERT_FALSE(wfw_blk_decode_sums(&(struct wfw_blk_col){ data, 0, WFW_ENC_FOR_EMPTY, 2, 0 },
					    WULTFW_COL_INT, 0, 8, got, &s));
	CU_ASSERT_FALSE(wfw_blk_decode_sums(&(struct wfw_blk_col){ data, 0, WFW_ENC_FOR, 8, 0 },
					    WULTFW_COL_FLOAT, 0, 8, got, &s));
	CU_ASSERT_FALSE(wfw_blk_decode_sums(&(struct wfw_blk_col){ data, 0, WFW_ENC_FOR, 5, 0 },
					    WULTFW_COL_INT, 0, 8, got, &s));
	CU_ASSERT_FALSE(wfw_blk_decode_sums(&(struct wfw_blk_col){ data, 0, WFW_ENC_FOR, 1, 0 },
					    WULTFW_COL_ENUM, 0, 8, got, &s));
}

int main(void)
{
	CU_pSuite s;
	int failed;

	tmp = tu_tmpdir();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("binfmt", NULL, NULL);
	CU_add_test(s, "CRC-32C check value, fast = table", test_crc32c);
	CU_add_test(s, "round trip of every column type, extremes, empties", test_roundtrip);
	CU_add_test(s, "a FLOAT column's integers-as-integers flag", test_bare_flag);
	CU_add_test(s, "cells as narrow as their block's range", test_narrow);
	CU_add_test(s, "binary at most half the CSV", test_half_of_csv);
	CU_add_test(s, "enum cell outside its table", test_enum_range);
	CU_add_test(s, "enum chunks checked by their extremes", test_enum_bytes);
	CU_add_test(s, "cut at every length: whole blocks, rest ignored", test_truncated);
	CU_add_test(s, "every flipped byte: block and offset named", test_flipped_bytes);
	CU_add_test(s, "salvage skips damaged blocks", test_salvage);
	CU_add_test(s, "garbage with fixed-up checksums: no crash", test_fixed_up_garbage);
	CU_add_test(s, "version 1 files read as before", test_version1);
	CU_add_test(s, "convert on damage, and --salvage", test_convert_salvage);
	CU_add_test(s, "encoder's plans as the reference's, cells back", test_encode_plans);
	CU_add_test(s, "blocks copied are checked as rows read", test_raw_checks);
	CU_add_test(s, "convert to binary copies the blocks", test_convert_raw);
	CU_add_test(s, "read column by column, as numbers", test_read_cols);
	CU_add_test(s, "INT64_MIN cells decoded as numbers", test_decode_num_min);
	CU_add_test(s, "numbers decoded with their extremes and sum", test_decode_sums);
	failed = tu_run();
	if (!failed)
		tu_rmtree(tmp);
	return failed;
}
