/* SPDX-License-Identifier: MIT */
/*
 * csv and binary sinks through their plugin descriptors, the binary
 * format's round trip and damaged headers (its blocks: test_binfmt.c),
 * and `wultfw convert` byte equality with the csv sink.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <wultfw/plugin.h>

#include "../../cli/commands.h"
#include "sinkhost.h"
#include "datafmt/binfmt.h"
#include "datafmt/out.h"
#include "datafmt/reader.h"
#include "testutil.h"

extern const struct wultfw_plugin csv_LTX_wultfw_plugin;
extern const struct wultfw_plugin binary_LTX_wultfw_plugin;

static char tmpdir[] = "/tmp/wfw-test-sinks-XXXXXX";

static const char *tpath(const char *name)
{
	static char buf[8][512];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	return buf[k];
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
	*len = (size_t)n;
	return buf;
}

static void write_bytes(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fwrite(p, 1, n, f) == n);
	fclose(f);
}

/* ---- a schema with every column type ---- */

static const char *const cstates[] = { "POLL", "C1", "C1E", "C6" };
static const struct wultfw_column all_cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "IntrLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 4 },
	{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "SMICnt", "", WULTFW_COL_INT, 0, NULL, 0 },
	{ "TotCyc", "cycles", WULTFW_COL_INT, 1, NULL, 0 },
};
static const struct wultfw_schema all_schema = { 7, all_cols };

/* Deterministic rows hitting edge values of every type. */
static void fill(struct wultfw_batch *b, size_t rows, uint64_t seed)
{
	static const double specials[] = { 0.0, -0.0, 1e-310, 100.0, 1.0 / 3,
					   INFINITY, -INFINITY, 4.1797981021053525 };
	b->rows = 0;
	for (size_t r = 0; r < rows; r++) {
		union wultfw_cell *row = wultfw_row(b, b->rows++);
		uint64_t x = wultfw_rand64(&seed);

		row[0].i = (int64_t)(x % 50000000);
		row[1].i = (int64_t)(x % 70000000) - 1000;	/* some negative */
		row[2].i = (int64_t)(wultfw_rand64(&seed) % 4000000);
		row[3].i = (int64_t)(x % 5) - 1;		/* -1 .. 3 */
		row[4].f = (x & 7) ? (double)(x % 100000) / 997.0
				   : specials[(x >> 3) % 8];
		/* INT64_MIN itself is WULTFW_CELL_EMPTY, an empty CSV field */
		row[5].i = r == 0 ? INT64_MAX : r == 1 ? INT64_MIN + 1 : (int64_t)(x % 3);
		row[6].i = (int64_t)wultfw_rand64(&seed);
	}
}

/* ---- driving a sink through its descriptor ---- */

static const struct wultfw_source_info timer_src = {
	.size = sizeof(timer_src), .devid = "timer",
	.devdescr = "clock_nanosleep, user space", .resolution_ns = 1,
	.schema = &all_schema,
};

/* The sink with file = FILE (NULL: its default), as the core runs it. */
static int sink_open_schema(struct tu_sink *s, const struct wultfw_plugin *p,
			    const char *file, const struct wultfw_schema *sch)
{
	char text[512];

	CU_ASSERT_EQUAL(p->abi_version, WULTFW_PLUGIN_ABI_VERSION);
	CU_ASSERT_EQUAL(p->size, sizeof(struct wultfw_plugin));
	CU_ASSERT_EQUAL(p->kind, WULTFW_KIND_SINK);
	CU_ASSERT_STRING_EQUAL(p->options[0].name, "file");
	snprintf(text, sizeof(text), "source = { %s%s%s };", file ? "file = \"" : "",
		 file ? file : "", file ? "\";" : "");
	return tu_sink_open(s, p, text, tmpdir, &timer_src, sch);
}

static int sink_open(struct tu_sink *s, const struct wultfw_plugin *p,
		     const char *file)
{
	return sink_open_schema(s, p, file, &all_schema);
}

static int sink_close(struct tu_sink *s)
{
	return tu_sink_close(s, NULL);
}

/* The same batches into a csv and a binary sink. */
static void run_both(const char *csv, const char *bin, size_t batches,
		     size_t rows)
{
	struct tu_sink c, b;
	struct wultfw_batch batch;

	CU_ASSERT_FATAL(wfw_batch_alloc(&batch, 7, rows) == 0);
	CU_ASSERT_FATAL(sink_open(&c, &csv_LTX_wultfw_plugin, csv) == 0);
	CU_ASSERT_FATAL(sink_open(&b, &binary_LTX_wultfw_plugin, bin) == 0);
	for (size_t i = 0; i < batches; i++) {
		fill(&batch, rows - i % 3, i);	/* uneven batch sizes */
		CU_ASSERT(tu_sink_write(&c, &batch) == 0);
		CU_ASSERT(tu_sink_write(&b, &batch) == 0);
		if (i == batches / 2) {
			CU_ASSERT(tu_sink_flush(&c) == 0);
			CU_ASSERT(tu_sink_flush(&b) == 0);
		}
	}
	CU_ASSERT(sink_close(&c) == 0);
	CU_ASSERT(sink_close(&b) == 0);
	wfw_batch_free(&batch);
}

static void test_csv_sink_text(void)
{
	static const char *const names[] = { "C6" };
	static const struct wultfw_column cols[] = {
		{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
		{ "ReqCState", "", WULTFW_COL_ENUM, 0, names, 1 },
		{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	};
	static const struct wultfw_schema sch = { 3, cols };
	struct tu_sink s;
	struct wultfw_batch b;
	union wultfw_cell cells[6] = {
		{ .i = 4180 }, { .i = 0 }, { .f = 0.33 },
		{ .i = 12000 }, { .i = -1 }, { .f = 100.0 },
	};
	char *text;
	size_t len;

	/* Option unset: the default name. */
	CU_ASSERT_FATAL(sink_open_schema(&s, &csv_LTX_wultfw_plugin, NULL, &sch) == 0);
	b = (struct wultfw_batch){ cells, 3, 2, 2, 0 };
	CU_ASSERT(tu_sink_write(&s, &b) == 0);
	CU_ASSERT(sink_close(&s) == 0);
	text = read_all(tpath("datapoints.csv"), &len);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT_STRING_EQUAL(text, "WakeLatency,ReqCState,CC0%\n4.180,C6,0.33\n12.000,,100.0\n");
	free(text);

	/* Never overwrites an existing file; the error names it. */
	CU_ASSERT(sink_open_schema(&s, &csv_LTX_wultfw_plugin, NULL, &sch) == -EEXIST);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.ctx.err, tpath("datapoints.csv")));
	/* A batch of the wrong width is refused, not misread. */
	{
		struct tu_sink s2;

		CU_ASSERT_FATAL(sink_open(&s2, &csv_LTX_wultfw_plugin, "w.csv") == 0);
		CU_ASSERT(tu_sink_write(&s2, &b) == -EINVAL);
		sink_close(&s2);
	}
}

static long fail_after_hook_budget;
static long failing_write(int fd, const void *p, size_t n)
{
	if (fail_after_hook_budget <= 0) {
		errno = EIO;
		return -1;
	}
	if ((long)n > fail_after_hook_budget)
		n = (size_t)fail_after_hook_budget;
	fail_after_hook_budget -= (long)n;
	return write(fd, p, n);
}

/* Every row of the file at path, read through; -1 when it cannot be read. */
static long long file_rows(const char *path)
{
	struct wfw_reader *r;
	struct wultfw_batch b;
	char err[512];
	long long n = -1;

	if (wfw_reader_open(&r, path, err, sizeof(err)))
		return -1;
	if (!wfw_batch_alloc(&b, wfw_reader_schema(r)->ncols, 4096)) {
		do
			b.rows = 0;
		while (wfw_reader_read(r, &b) > 0);
		n = (long long)wfw_reader_rows(r);
		wfw_batch_free(&b);
	}
	wfw_reader_close(r);
	return n;
}

/* The count the core gave for info.yml under key (the test host's), or -1. */
static long long info_count(const struct tu_sink *s, const char *key)
{
	const char *at = strstr(s->info, key);

	return at && at[strlen(key)] == ':' ? atoll(at + strlen(key) + 1) : -1;
}

/* EIO in the middle: write() fails with a message, files hold whole records. */
static void test_sinks_eio(void)
{
	struct tu_sink c, b;
	struct wultfw_batch batch;
	int rc = 0, rb = 0;

	CU_ASSERT_FATAL(wfw_batch_alloc(&batch, 7, 5000) == 0);
	CU_ASSERT_FATAL(sink_open(&c, &csv_LTX_wultfw_plugin, "eio.csv") == 0);
	CU_ASSERT_FATAL(sink_open(&b, &binary_LTX_wultfw_plugin, "eio.wfb") == 0);
	fail_after_hook_budget = 5000000 + 77;
	wfw_out_write_hook = failing_write;
	for (int i = 0; i < 200 && !(rc && rb); i++) {
		fill(&batch, 5000, (uint64_t)i);
		if (!rc)
			rc = tu_sink_write(&c, &batch);
		if (!rb)
			rb = tu_sink_write(&b, &batch);
		if (!fail_after_hook_budget)
			fail_after_hook_budget = 0;
	}
	wfw_out_write_hook = NULL;
	CU_ASSERT_EQUAL(rc, -EIO);
	CU_ASSERT_EQUAL(rb, -EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.ctx.err, "eio.csv"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.ctx.err, strerror(EIO)));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.ctx.err, "eio.wfb"));
	sink_close(&c);
	sink_close(&b);
	/* What the core counts for info.yml is what each file holds. */
	CU_ASSERT(file_rows(tpath("eio.csv")) > 0);
	CU_ASSERT_EQUAL(info_count(&c, "csv_rows_in_file"), file_rows(tpath("eio.csv")));
	CU_ASSERT_EQUAL(info_count(&b, "binary_records_in_file"), file_rows(tpath("eio.wfb")));
	{
		struct wfw_reader *r;
		char err[512];

		CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("eio.csv"), err, sizeof(err)) == 0);
		CU_ASSERT(wfw_reader_rows(r) > 0);
		wfw_reader_close(r);
		CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("eio.wfb"), err, sizeof(err)) == 0);
		CU_ASSERT(wfw_reader_rows(r) > 0);
		CU_ASSERT_EQUAL(wfw_reader_ignored_bytes(r), 0);
		wfw_reader_close(r);
	}
	wfw_batch_free(&batch);
}

/* ---- binary round trip ---- */

static void test_binary_roundtrip(void)
{
	struct wfw_reader *r;
	struct wultfw_batch want, got;
	const struct wultfw_schema *s;
	char err[512];
	uint64_t row = 0;
	long n;

	run_both("rt.csv", "rt.wfb", 20, 1000);
	CU_ASSERT_FATAL(wfw_reader_open(&r, tpath("rt.wfb"), err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(wfw_reader_format(r), WFW_FMT_BINARY);
	s = wfw_reader_schema(r);
	CU_ASSERT_FATAL(s->ncols == all_schema.ncols);
	for (size_t c = 0; c < s->ncols; c++) {
		CU_ASSERT_STRING_EQUAL(s->cols[c].name, all_cols[c].name);
		CU_ASSERT_STRING_EQUAL(s->cols[c].unit, all_cols[c].unit);
		CU_ASSERT_EQUAL(s->cols[c].type, all_cols[c].type);
		if (all_cols[c].type == WULTFW_COL_INT)
			CU_ASSERT_EQUAL(s->cols[c].divisor,
					all_cols[c].divisor ? all_cols[c].divisor : 1);
	}
	CU_ASSERT_EQUAL(s->cols[3].n_enum, 4);
	CU_ASSERT_STRING_EQUAL(s->cols[3].enum_names[2], "C1E");
	CU_ASSERT_STRING_EQUAL(wfw_reader_meta(r, "devid"), "timer");
	CU_ASSERT_STRING_EQUAL(wfw_reader_meta(r, "experiment"), "unit-test");
	CU_ASSERT_STRING_EQUAL(wfw_reader_meta(r, "cpu"), "1");
	CU_ASSERT_PTR_NULL(wfw_reader_meta(r, "nope"));
	CU_ASSERT_EQUAL(wfw_reader_ignored_bytes(r), 0);

	/* Regenerate the batches and compare every cell bit for bit. */
	CU_ASSERT_FATAL(wfw_batch_alloc(&want, 7, 1000) == 0);
	CU_ASSERT_FATAL(wfw_batch_alloc(&got, 7, 1000) == 0);
	for (size_t i = 0; i < 20; i++) {
		fill(&want, 1000 - i % 3, i);
		got.rows = 0;
		got.capacity = want.rows;
		n = wfw_reader_read(r, &got);
		CU_ASSERT_FATAL(n == (long)want.rows);
		CU_ASSERT(memcmp(got.cells, want.cells, want.rows * 7 * 8) == 0);
		row += (uint64_t)n;
	}
	got.rows = 0;
	CU_ASSERT_EQUAL(wfw_reader_read(r, &got), 0);
	CU_ASSERT_EQUAL(wfw_reader_rows(r), row);
	wfw_reader_close(r);
	wfw_batch_free(&want);
	wfw_batch_free(&got);
}

/* ---- truncated and corrupted files ---- */

static void test_binary_corrupt(void)
{
	size_t len, hlen;
	char *data, *copy;
	char err[512];
	struct wfw_bin_header h;
	size_t need;
	uint64_t seed = 99;
	struct wultfw_batch b;

	run_both("co.csv", "co.wfb", 1, 20);
	data = read_all(tpath("co.wfb"), &len);
	CU_ASSERT_FATAL(data && wfw_bin_header_parse(&h, data, len, &need, err, sizeof(err)) == 0);
	hlen = h.header_len;
	wfw_bin_header_free(&h);
	copy = malloc(len);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, 7, 64) == 0);

	/* Any single flipped header byte is caught (magic, version, CRC...). */
	for (size_t k = 0; k < hlen; k++) {
		struct wfw_reader *r;

		memcpy(copy, data, len);
		copy[k] ^= 0x5a;
		write_bytes(tpath("flip.wfb"), copy, len);
		CU_ASSERT(wfw_reader_open(&r, tpath("flip.wfb"), err, sizeof(err)) < 0);
		if (r) {
			printf("\n  flipped byte %zu accepted\n", k);
			wfw_reader_close(r);
		}
	}
	/* Specific messages. */
	{
		struct wfw_reader *r;

		memcpy(copy, data, len);
		copy[12] = 9;	/* version */
		write_bytes(tpath("ver.wfb"), copy, len);
		CU_ASSERT(wfw_reader_open(&r, tpath("ver.wfb"), err, sizeof(err)) == -ENOTSUP);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "format version 9"));

		memcpy(copy, data, len);
		copy[40] ^= 1;	/* first column entry: checksum catches it */
		write_bytes(tpath("crc.wfb"), copy, len);
		CU_ASSERT(wfw_reader_open(&r, tpath("crc.wfb"), err, sizeof(err)) == -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "checksum"));
	}
	/* Random garbage in header fields with a fixed-up checksum: no crash. */
	for (int i = 0; i < 20000; i++) {
		struct wfw_reader *r;
		size_t k = WFW_BIN_MAGIC_LEN + 4 + wultfw_rand64(&seed) % (hlen - 12);
		uint32_t crc;

		memcpy(copy, data, len);
		copy[k] = (char)wultfw_rand64(&seed);
		if (i & 1)
			copy[WFW_BIN_MAGIC_LEN + 4 + wultfw_rand64(&seed) % (hlen - 12)] =
				(char)wultfw_rand64(&seed);
		memset(copy + 32, 0, 4);
		crc = wfw_crc32(0, copy, hlen);
		memcpy(copy + 32, &crc, 4);	/* little-endian host */
		if (wfw_bin_header_parse(&h, copy, len, &need, err, sizeof(err)) == 0) {
			wfw_bin_header_free(&h);
			write_bytes(tpath("fuzz.wfb"), copy, len);
			if (wfw_reader_open(&r, tpath("fuzz.wfb"), err, sizeof(err)) == 0) {
				const struct wultfw_schema *s = wfw_reader_schema(r);

				if (s->ncols == 7) {
					b.rows = 0;
					wfw_reader_read(r, &b);
				}
				wfw_reader_close(r);
			}
		}
	}
	/* A foreign file. */
	{
		struct wfw_reader *r;
		unsigned char junk[4096];

		for (size_t k = 0; k < sizeof(junk); k++)
			junk[k] = (unsigned char)wultfw_rand64(&seed);
		junk[0] = 0x7f;	/* ELF-like */
		write_bytes(tpath("junk.bin"), junk, sizeof(junk));
		CU_ASSERT(wfw_reader_open(&r, tpath("junk.bin"), err, sizeof(err)) < 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "junk.bin"));
	}
	wfw_batch_free(&b);
	free(copy);
	free(data);
}

/* ---- convert ---- */

static int convert(const char *in, const char *out, const char *to)
{
	char *argv[] = { "convert", (char *)in, "-o", (char *)out,
			 to ? "--to" : NULL, (char *)to, NULL };

	return wfw_cmd_convert(to ? 6 : 4, argv);
}

static void assert_same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *da = read_all(a, &la), *db = read_all(b, &lb);

	CU_ASSERT_FATAL(da && db);
	CU_ASSERT_EQUAL(la, lb);
	CU_ASSERT(la == lb && memcmp(da, db, la) == 0);
	free(da);
	free(db);
}

static void test_convert_equality(void)
{
	run_both("cv.csv", "cv.wfb", 30, 997);

	/* binary -> CSV equals what the csv sink wrote, byte for byte. */
	CU_ASSERT(convert(tpath("cv.wfb"), tpath("cv-from-bin.csv"), NULL) == 0);
	assert_same_file(tpath("cv.csv"), tpath("cv-from-bin.csv"));

	/* CSV -> binary -> CSV reproduces the file too. */
	CU_ASSERT(convert(tpath("cv.csv"), tpath("cv-from-csv.wfb"), NULL) == 0);
	CU_ASSERT(convert(tpath("cv-from-csv.wfb"), tpath("cv-again.out"), "csv") == 0);
	assert_same_file(tpath("cv.csv"), tpath("cv-again.out"));

	/* Refuses to overwrite; --help works; unknown extension is an error. */
	CU_ASSERT(convert(tpath("cv.wfb"), tpath("cv-from-bin.csv"), NULL) == 1);
	CU_ASSERT(convert(tpath("cv.wfb"), tpath("cv.what"), NULL) == 2);
	{
		char *argv[] = { "convert", "--help", NULL };

		CU_ASSERT(wfw_cmd_convert(2, argv) == 0);
	}
	/* A bad input gives an error and no output file. */
	CU_ASSERT(convert(tpath("nonexistent.csv"), tpath("x.wfb"), NULL) == 1);
	CU_ASSERT(access(tpath("x.wfb"), F_OK) != 0);
}

/*
 * A header the disk takes no byte of: the sink's open fails saying so, and
 * no file is left under its name or the temporary one.
 */
static void test_header_no_room(void)
{
	const struct wultfw_plugin *p[] = { &csv_LTX_wultfw_plugin, &binary_LTX_wultfw_plugin };
	const char *name[] = { "nohdr.csv", "nohdr.wfb" };

	for (size_t i = 0; i < 2; i++) {
		struct tu_sink s;

		fail_after_hook_budget = 0;
		wfw_out_write_hook = failing_write;
		CU_ASSERT_EQUAL(sink_open(&s, p[i], name[i]), -EIO);
		wfw_out_write_hook = NULL;
		CU_ASSERT_PTR_NOT_NULL(strstr(s.ctx.err, name[i]));
		CU_ASSERT_PTR_NOT_NULL(strstr(s.ctx.err, "cannot write its header"));
		CU_ASSERT(access(tpath(name[i]), F_OK) != 0);
		CU_ASSERT(access(tpath(i ? ".nohdr.wfb.tmp" : ".nohdr.csv.tmp"), F_OK) != 0);
	}
}

/* A file takes its name with its header, before any row; an empty run too. */
static void test_header_first(void)
{
	static const char *const names[] = { "C6" };
	static const struct wultfw_column cols[] = {
		{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
		{ "ReqCState", "", WULTFW_COL_ENUM, 0, names, 1 },
	};
	static const struct wultfw_schema sch = { 2, cols };
	struct tu_sink s;
	char *text;
	size_t len;

	CU_ASSERT_FATAL(sink_open_schema(&s, &csv_LTX_wultfw_plugin, "hdr.csv", &sch) == 0);
	text = read_all(tpath("hdr.csv"), &len);
	CU_ASSERT_PTR_NOT_NULL(text);
	if (text)
		CU_ASSERT_STRING_EQUAL(text, "WakeLatency,ReqCState\n");
	free(text);
	CU_ASSERT(access(tpath(".hdr.csv.tmp"), F_OK) != 0);
	CU_ASSERT(sink_close(&s) == 0);
	CU_ASSERT_EQUAL(file_rows(tpath("hdr.csv")), 0);
	/* No row went anywhere: no count differs, the core says 0. */
	CU_ASSERT_EQUAL(info_count(&s, "csv_rows_in_file"), 0);
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
	s = CU_add_suite("sinks", NULL, NULL);
	CU_add_test(s, "csv sink output and refusals", test_csv_sink_text);
	CU_add_test(s, "EIO mid-run: whole records only", test_sinks_eio);
	CU_add_test(s, "no room for the header: no file", test_header_no_room);
	CU_add_test(s, "the header before the name", test_header_first);
	CU_add_test(s, "binary round trip, every column type", test_binary_roundtrip);
	CU_add_test(s, "binary damaged headers and foreign files", test_binary_corrupt);
	CU_add_test(s, "convert byte equality with the csv sink", test_convert_equality);
	failed = tu_run();
	if (!failed)
		tu_rmtree(tmpdir);	/* kept for a look when a test failed */
	return failed;
}
