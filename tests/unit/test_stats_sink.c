/* SPDX-License-Identifier: MIT */
/*
 * The stats sink through its descriptor: per-ReqCState grouping, the
 * content of stats.json, the cyclictest-format histogram file.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include <wultfw/plugin.h>

#include "options.h"
#include "sinkhost.h"
#include "testopts.h"
#include "testutil.h"

#include "binhist.h"

extern const struct wultfw_plugin stats_LTX_wultfw_plugin;

static const char *const cstates[] = { "C1", "C6" };
static const struct wultfw_column cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 2 },
	{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
};
static const struct wultfw_schema schema = { 3, cols };

#define ROWS 10000

static int64_t state_of(size_t r)
{
	return r % 100 == 99 ? -1 : r % 3 == 0 ? 1 : 0;
}

static int64_t wake_of(size_t r)	/* raw ns */
{
	return state_of(r) == 1 ? 50000 + (int64_t)r : 1000 + (int64_t)(r % 1000);
}

static double cc0_of(size_t r)
{
	return r % 1000 == 500 ? NAN : (double)(r % 7) * 1.5;
}

static char dir[] = "/tmp/test_stats_sink.XXXXXX";

static struct wfw_optvals vals;
static char opts_text[1024];

/*
 * Options as the core hands them (its parser, defaults included), with
 * our overrides; `extra` is more settings, "" for none.
 */
static void set_opts_with(const char *histogram, int64_t buckets,
			  const char *extra)
{
	char *text = opts_text;

	wfw_options_free(&vals);
	snprintf(opts_text, sizeof(opts_text),
		 "source = { percentiles = ( 50, 99.9 ); table = false;\n"
		 "  histogram_buckets = %lld; %s%s%s %s };",
		 (long long)buckets, histogram ? "histogram = \"" : "",
		 histogram ? histogram : "", histogram ? "\";" : "", extra);
	CU_ASSERT_EQUAL_FATAL(to_option_values(&stats_LTX_wultfw_plugin, text, &vals), 0);
}

static void set_opts(const char *histogram, int64_t buckets)
{
	set_opts_with(histogram, buckets, "");
}

static int run_sink(void)
{
	struct wultfw_run_summary sum = { .size = sizeof(sum) };
	union wultfw_cell *cells = calloc(1000 * 3, sizeof(*cells));
	struct wultfw_batch b = { cells, 3, 0, 1000, 0 };
	struct tu_sink s;
	int ret;

	ret = tu_sink_open(&s, &stats_LTX_wultfw_plugin, opts_text, dir, NULL, &schema);
	if (ret) {
		free(cells);
		return ret;
	}
	for (size_t r = 0; r < ROWS; r++) {
		union wultfw_cell *row = wultfw_row(&b, b.rows++);

		row[0].i = wake_of(r);
		row[1].i = state_of(r);
		row[2].f = cc0_of(r);
		/* odd batch sizes; a one-group batch now and then */
		if (b.rows == 997 || r == ROWS - 1 || (r > 3000 && r < 3002)) {
			CU_ASSERT_EQUAL(tu_sink_write(&s, &b), 0);
			b.rows = 0;
		}
	}
	sum.datapoints = ROWS;
	ret = tu_sink_close(&s, &sum);
	/* The core counts stats.json as the rows its statistics are of. */
	if (!ret)
		CU_ASSERT_PTR_NOT_NULL(strstr(s.info, "stats_rows_in_file: 10000\n"));
	free(cells);
	return ret;
}

static char *slurp(const char *name)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Follow keys in order through the text, return the number after the last. */
static double json_at(const char *js, const char *const *keys, size_t n)
{
	const char *p = js;
	char k[128];

	for (size_t i = 0; i < n && p; i++) {
		snprintf(k, sizeof(k), "\"%s\":", keys[i]);
		p = strstr(p, k);
		if (p)
			p += strlen(k);
	}
	return p ? strtod(p, NULL) : NAN;
}

#define J(js, ...) json_at(js, (const char *const[]){ __VA_ARGS__ }, \
	sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void test_json(void)
{
	double *c6 = malloc(ROWS * sizeof(double));
	size_t n6 = 0, n1 = 0, nn = 0, ncc = 0;
	long double sumcc = 0;
	double max1 = 0, h;
	size_t k;
	char *js;

	set_opts(NULL, 1000);
	CU_ASSERT_EQUAL_FATAL(run_sink(), 0);
	js = slurp("stats.json");
	CU_ASSERT_PTR_NOT_NULL_FATAL(js);
	for (size_t r = 0; r < ROWS; r++) {
		if (state_of(r) == 1)
			c6[n6++] = (double)wake_of(r) / 1000;
		else if (state_of(r) == 0) {
			n1++;
			if (wake_of(r) / 1000.0 > max1)
				max1 = wake_of(r) / 1000.0;
		}
		else
			nn++;
		if (!isnan(cc0_of(r))) {
			ncc++;
			sumcc += cc0_of(r);
		}
	}
	qsort(c6, n6, sizeof(double), cmpd);
	CU_ASSERT_EQUAL(J(js, "datapoints"), ROWS);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "all", "count"), ROWS);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "ReqCState", "C1", "count"), n1);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "ReqCState", "C6", "count"), n6);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "ReqCState", "-", "count"), nn);
	CU_ASSERT_DOUBLE_EQUAL(J(js, "WakeLatency", "C6", "min"), c6[0], 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(J(js, "WakeLatency", "C6", "max"), c6[n6 - 1],
			       1e-9);
	/* n6 is even: the median is the mean of the two middle values */
	CU_ASSERT_DOUBLE_EQUAL(J(js, "WakeLatency", "C6", "median"),
			       (c6[n6 / 2 - 1] + c6[n6 / 2]) / 2, 1e-9);
	h = (n6 - 1) * 0.999;
	k = (size_t)h;
	CU_ASSERT_DOUBLE_EQUAL(J(js, "WakeLatency", "C6", "percentiles",
				 "99.9"), c6[k] + (h - k) * (c6[k + 1] - c6[k]),
			       1e-9);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "C1", "min"), 1.0);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "C1", "max"), max1);
	/* NaN cells of a FLOAT column are skipped, not counted */
	CU_ASSERT_EQUAL(J(js, "CC0%", "all", "count"), ncc);
	CU_ASSERT_DOUBLE_EQUAL(J(js, "CC0%", "all", "mean"),
			       (double)(sumcc / ncc), 1e-9);
	CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"exact\": true"));
	CU_ASSERT_PTR_NULL(strstr(js, "\"exact\": false"));
	free(js);
	free(c6);
}

static void test_histogram_file(void)
{
	size_t want1 = 0, over = 0;
	char *h, line[64];

	set_opts("hist.txt", 55);
	CU_ASSERT_EQUAL_FATAL(run_sink(), 0);
	h = slurp("hist.txt");
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	for (size_t r = 0; r < ROWS; r++) {
		int64_t us = wake_of(r) / 1000;

		want1 += us == 1;
		over += us >= 55;
	}
	CU_ASSERT_EQUAL(strncmp(h, "# Histogram\n000000 000000\n", 26), 0);
	snprintf(line, sizeof(line), "\n000001 %06zu\n", want1);
	CU_ASSERT_PTR_NOT_NULL(strstr(h, line));
	snprintf(line, sizeof(line), "\n# Total: %09zu\n", ROWS - over);
	CU_ASSERT_PTR_NOT_NULL(strstr(h, line));
	snprintf(line, sizeof(line), "\n# Histogram Overflows: %05zu\n", over);
	CU_ASSERT_PTR_NOT_NULL(strstr(h, line));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\n# Min Latencies: 00001\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\n# Max Latencies: 00059\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\n000054 "));
	CU_ASSERT_PTR_NULL(strstr(h, "\n000055 "));
	free(h);
}

/* The skid offset histogram: bins of 10 per group, hits and nan counted. */
static void test_text_histogram(void)
{
	static const char *const lv[] = { "p0", "p1" };
	static const struct wultfw_column scols[] = {
		{ "Precise", "", WULTFW_COL_ENUM, 0, lv, 2 },
		{ "Skid", "instructions", WULTFW_COL_FLOAT, 0, NULL, 0 },
	};
	const struct wultfw_schema sch = { 2, scols };
	const double v[] = { 0, 1, 9, 10, 35, NAN, 1, -1 };
	const int64_t g[] = { 0, 0, 0, 0, 0, 0, 1, -1 };
	union wultfw_cell cells[16];
	struct wultfw_batch b = { cells, 2, 8, 8, 0 };
	struct stats_binhist h;
	char err[256], *text;
	size_t len;
	FILE *f;

	for (size_t r = 0; r < 8; r++) {
		cells[2 * r].i = g[r];
		cells[2 * r + 1].f = v[r];
	}
	CU_ASSERT_EQUAL(stats_binhist_init(&h, &sch, "Skd", "Precise", 10, err,
					   sizeof(err)), -ENOENT);
	TU_ASSERT_CONTAINS(err, "no numeric column 'Skd'");
	CU_ASSERT_EQUAL_FATAL(stats_binhist_init(&h, &sch, "Skid", "Precise", 10,
						 err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(stats_binhist_add(&h, &b), 0);
	f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(stats_binhist_write(&h, f), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(text,
		"# Skid histogram, bins of 10 instructions\n"
		"# Precise p0: 1 at 0, 4 above 0, 0 below 0, 1 not a number\n"
		"0 3\n10 1\n20 0\n30 1\n"
		"# Precise p1: 0 at 0, 1 above 0, 0 below 0, 0 not a number\n"
		"0 1\n"
		"# Precise -: 0 at 0, 0 above 0, 1 below 0, 0 not a number\n");
	free(text);
	stats_binhist_free(&h);
}

/*
 * Values no statistic can take (issue 29): infinities, 1e308, NaN and
 * empty cells are left out and counted; INT64 extremes, subnormals and
 * negative values are values. No file says inf or nan, no bin array
 * grows with a value.
 */
static const double odd_cc0[] = { -INFINITY, INFINITY, NAN, 1e308, -1e300,
				  4.9e-324, -5, 3.0e38, 2.5 };
#define NODD (sizeof(odd_cc0) / sizeof(odd_cc0[0]))

static int run_odd_values(void)
{
	struct wultfw_run_summary sum = { .size = sizeof(sum), .datapoints = NODD };
	union wultfw_cell cells[NODD * 3];
	struct wultfw_batch b = { cells, 3, NODD, NODD, 0 };
	struct tu_sink s;
	int ret;

	for (size_t r = 0; r < NODD; r++) {
		int64_t w[] = { INT64_MAX, INT64_MIN + 1, WULTFW_CELL_EMPTY, 5000 };

		cells[3 * r].i = w[r % 4];
		cells[3 * r + 1].i = (int64_t)(r % 2);
		cells[3 * r + 2].f = odd_cc0[r];
	}
	ret = tu_sink_open(&s, &stats_LTX_wultfw_plugin, opts_text, dir, NULL, &schema);
	if (ret)
		return ret;
	CU_ASSERT_EQUAL(tu_sink_write(&s, &b), 0);
	return tu_sink_close(&s, &sum);
}

static void test_odd_values(void)
{
	char *js, *h, *t;

	set_opts_with("odd-hist.txt", 100,
		      "histogram_metrics = [ \"WakeLatency\", \"CC0%\" ];"
		      " text_histogram = \"odd-text.txt\"; text_histogram_metric = \"CC0%\";"
		      " text_histogram_bin = 1; group_by = \"\";");
	CU_ASSERT_EQUAL_FATAL(run_odd_values(), 0);
	js = slurp("stats.json");
	h = slurp("odd-hist.txt");
	t = slurp("odd-text.txt");
	CU_ASSERT_PTR_NOT_NULL_FATAL(js);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(J(js, "CC0%", "out_of_range_cells"), 4);
	CU_ASSERT_EQUAL(J(js, "CC0%", "nan_cells"), 1);
	CU_ASSERT_EQUAL(J(js, "CC0%", "all", "count"), 4);
	CU_ASSERT_EQUAL(J(js, "CC0%", "all", "min"), -5);
	CU_ASSERT_EQUAL(J(js, "CC0%", "all", "max"), 3.0e38);
	CU_ASSERT_DOUBLE_EQUAL(J(js, "CC0%", "all", "mean"), 7.5e37, 1e24);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "empty_cells"), 2);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "all", "count"), NODD - 2);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "all", "max"), (double)INT64_MAX / 1000);
	CU_ASSERT_EQUAL(J(js, "WakeLatency", "all", "min"), (double)(INT64_MIN + 1) / 1000);
	/* Neither JSON nor the histograms print a non-number. */
	CU_ASSERT_PTR_NULL(strstr(js, "inf"));
	CU_ASSERT_PTR_NULL(strstr(js, "nan,"));
	CU_ASSERT_PTR_NULL(strstr(h, "inf "));
	TU_ASSERT_CONTAINS(h, "# Thread 1: 5 values out of range (infinite, or beyond 9.2e18 in magnitude) left out\n");
	TU_ASSERT_CONTAINS(h, "\n# Min Latencies: -9223372036854776 -0005\n");
	TU_ASSERT_CONTAINS(h, "\n# Max Latencies: 9223372036854776 00002\n");
	TU_ASSERT_CONTAINS(t, "# CC0% histogram, bins of 1 %\n");
	TU_ASSERT_CONTAINS(t, "# all: 0 at 0, 3 above 0, 1 below 0, 1 not a number, 4 out of range (infinite, or beyond 3.4e38 in magnitude), 1 above the last bin (100000)\n");
	TU_ASSERT_CONTAINS(t, "\n0 1\n1 0\n2 1\n");
	free(js);
	free(h);
	free(t);
}

static void test_bad_options(void)
{
	char *e = to_option_errors(&stats_LTX_wultfw_plugin,
				   "source = { percentiles = ( 50, 101 ); histogram_buckets = 0; };");

	/* Bounds are the table's: the core refuses them at the line. */
	TU_ASSERT_CONTAINS(e, "source.percentiles: element 1: 101.0 is out of range: allowed 0 to 100");
	TU_ASSERT_CONTAINS(e, "source.histogram_buckets: 0 is out of range: allowed 1 to 10000000");
	free(e);
	set_opts_with(NULL, 1000, "group_by = \"NoSuchColumn\";");
	CU_ASSERT_EQUAL(run_sink(), -EINVAL);
	set_opts_with("h.txt", 100, "histogram_metrics = [ \"NoSuchMetric\" ];");
	CU_ASSERT_EQUAL(run_sink(), -ENOENT);
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;
	char cmd[600];

	if (!mkdtemp(dir))
		return 2;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("stats sink", NULL, NULL);
	CU_add_test(s, "stats.json per ReqCState", test_json);
	CU_add_test(s, "cyclictest histogram file", test_histogram_file);
	CU_add_test(s, "text histogram per group", test_text_histogram);
	CU_add_test(s, "values out of range", test_odd_values);
	CU_add_test(s, "bad options", test_bad_options);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	wfw_options_free(&vals);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fails++;
	return fails ? 1 : 0;
}
