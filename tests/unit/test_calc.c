/* SPDX-License-Identifier: MIT */
/*
 * wultfw calc: a datapoints.csv in wult's own format (float microseconds,
 * C-state names), per-C-state grouping, result directories, several
 * results, and bad files that must fail with the file and line named.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "commands.h"
#include "testutil.h"

static char dir[] = "/tmp/test_calc.XXXXXX";
static char out[8192 * 8], err[4096];

struct calc_call {
	int argc;
	char *argv[32];
};

static int calc_fn(void *arg)
{
	struct calc_call *c = arg;

	return wfw_cmd_calc(c->argc, c->argv);
}

/* Run wfw_cmd_calc with args, capturing stdout and stderr. */
static int calc(const char *const *args, size_t n)
{
	struct calc_call c = { (int)n + 1, { "calc" } };

	for (size_t i = 0; i < n; i++)
		c.argv[i + 1] = (char *)args[i];
	return tu_capture(calc_fn, &c, out, sizeof(out), err, sizeof(err));
}

#define CALC(...) calc((const char *const[]){ __VA_ARGS__ }, \
	sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))

static const char *path(const char *name)
{
	static char p[4][600];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(path(name), "w");

	fputs(text, f);
	fclose(f);
}

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

#define WULT_HDR "WakeLatency,SilentTime,IntrLatency,IntrOff,LDist," \
	"ReqCState,CC0%,CC1Derived%,CC1%,CC6%,PC2%,PC6%,SMICnt,NMICnt\n"

/* 7 rows as wult writes them; WakeLatency sorted: 3.5 4.17 5 6 9 12.25 100 */
static const char wult_csv[] = WULT_HDR
	"4.1797981021053525,1746.30360946498,4.8,False,1750.5,C6,0.33,1.2,0,98.1,0,0,0,0\n"
	"12.25,20.5,13.0,False,33.75,C1,5.5,94.5,94.5,0,0,0,0,0\n"
	"3.5,200.25,3.75,True,204.0,C1,1.0,99.0,99.0,0,0,0,0,0\n"
	"100,300,101,False,400,C6,0.1,0.0,0.0,99.9,0,0,1,0\n"
	"5,5,5,False,10,C6,0.2,0.2,0.0,99.6,0,0,0,0\n"
	"6,6,6,False,12,C1,0.2,0.2,0.0,99.6,0,0,0,0\n"
	"9,9,9,False,18,C6,0.2,0.2,0.0,99.6,0,0,0,0\n";

static void test_wult_csv(void)
{
	CU_ASSERT_EQUAL(CALC("--json", "-m", "WakeLatency,*Off",
			     "-f", "min,median,p50,max", path("wult.csv")), 0);
	CU_ASSERT_EQUAL(J(out, "WakeLatency", "all", "count"), 7);
	CU_ASSERT_DOUBLE_EQUAL(J(out, "WakeLatency", "all", "min"), 3.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(J(out, "WakeLatency", "all", "median"), 6, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(J(out, "WakeLatency", "all", "max"), 100, 1e-9);
	/* mean of the seven values */
	CU_ASSERT_DOUBLE_EQUAL(J(out, "WakeLatency", "all", "mean"),
			       (4.1797981021053525 + 12.25 + 3.5 + 100 + 5 + 6
				+ 9) / 7, 1e-9);
	/* IntrOff holds True/False: not numeric, so no metric matches *Off */
	CU_ASSERT_PTR_NULL(strstr(out, "IntrOff"));
	CU_ASSERT_PTR_NULL(strstr(out, "SilentTime"));
}

static void test_per_cstate_table(void)
{
	CU_ASSERT_EQUAL(CALC("-c", "-m", "WakeLatency", "-f",
			     "count,median,p75", path("wult.csv")), 0);
	/* C1: 3.5 6 12.25 -> median 6; C6: 4.18 5 9 100 -> median 7 */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "ReqCState"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "C1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "C6 "));
	CU_ASSERT_EQUAL(CALC("-c", "--json", "-m", "WakeLatency",
			     path("wult.csv")), 0);
	CU_ASSERT_EQUAL(J(out, "ReqCState", "C1", "count"), 3);
	CU_ASSERT_DOUBLE_EQUAL(J(out, "ReqCState", "C1", "median"), 6, 1e-9);
	CU_ASSERT_EQUAL(J(out, "ReqCState", "C6", "count"), 4);
	CU_ASSERT_DOUBLE_EQUAL(J(out, "ReqCState", "C6", "median"), 7, 1e-9);
}

static void test_dirs_side_by_side(void)
{
	char d[600], cmd[700];
	const char *line;

	snprintf(d, sizeof(d), "%s/res", dir);
	mkdir(d, 0755);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/datapoints.csv'",
		 path("wult.csv"), d);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	CU_ASSERT_EQUAL(CALC("-m", "WakeLatency", "-f", "count,max", d,
			     path("wult.csv")), 0);
	/* a row per metric and result, functions as columns with a unit
	 * column; under the second result its difference to the first */
	line = strstr(out, "Metric");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_EQUAL(strncmp(line, "Metric       Unit  Result", 25), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "count"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "max\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "  7  "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "  100.000\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "diff vs "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "+0 (+0.0%)  +0.000 (+0.0%)\n"));
	/* markdown and CSV carry the same cells */
	CU_ASSERT_EQUAL(CALC("-m", "WakeLatency", "-f", "count,99%", "--format",
			     "markdown", path("wult.csv")), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "| Metric | Unit | count | 99% |\n"
				       "|:---|:---|---:|---:|\n"));
	CU_ASSERT_EQUAL(CALC("-m", "WakeLatency", "-f", "count,med", "--format",
			     "csv", path("wult.csv")), 0);
	CU_ASSERT_STRING_EQUAL(out, "Metric,Unit,count,med\nWakeLatency,us,7,6.000\n");
	CU_ASSERT_EQUAL(CALC("--format", "html", path("wult.csv")), 2);
	CU_ASSERT_EQUAL(CALC("--list-funcs"), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(med, p50, 50%)"));
	/* a directory without data */
	snprintf(d, sizeof(d), "%s/empty_dir", dir);
	mkdir(d, 0755);
	CU_ASSERT_EQUAL(CALC(d), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "without datapoints.csv"));
}

static void test_bad_files(void)
{
	put("nonnum.csv", WULT_HDR
	    "4.1,1.0,4.8,False,1750.5,C6,0.33,1.2,0,98.1,0,0,0,0\n"
	    "4.2,1.0,abc,False,1750.5,C6,0.33,1.2,0,98.1,0,0,0,0\n");
	CU_ASSERT_EQUAL(CALC(path("nonnum.csv")), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nonnum.csv:3"));
	CU_ASSERT_STRING_EQUAL(out, "");

	put("short.csv", WULT_HDR
	    "4.1,1.0,4.8,False,1750.5,C6,0.33,1.2,0,98.1,0,0,0,0\n"
	    "4.1,1.0,4.8,False,1750.5,C6,0.33,1.2,0,98.1,0,0\n");
	CU_ASSERT_EQUAL(CALC(path("short.csv")), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "short.csv:3"));

	put("empty.csv", "");
	CU_ASSERT_EQUAL(CALC(path("empty.csv")), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "empty.csv"));

	CU_ASSERT_EQUAL(CALC(path("no-such-file.csv")), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no-such-file.csv"));

	CU_ASSERT_EQUAL(CALC("-m", "NoSuchMetric", path("wult.csv")), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "wult.csv"));
}

static void test_bad_args(void)
{
	CU_ASSERT_EQUAL(CALC("-f", "p100.5", path("wult.csv")), 2);
	CU_ASSERT_EQUAL(CALC("-f", "foo", path("wult.csv")), 2);
	CU_ASSERT_EQUAL(CALC("--exact-limit", "-5", path("wult.csv")), 2);
	CU_ASSERT_NOT_EQUAL(CALC(), 0);
	CU_ASSERT_EQUAL(CALC("--help"), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Usage: wultfw calc"));
}

/* Above the exact limit the histogram's bound holds and is reported. */
static void test_histogram_mode(void)
{
	FILE *f = fopen(path("big.csv"), "w");

	fputs("Lat,ReqCState\n", f);
	for (int i = 1; i <= 20000; i++)
		fprintf(f, "%.3f,C%d\n", i * 0.731, i % 2);
	fclose(f);
	CU_ASSERT_EQUAL(CALC("--json", "-e", "1000", "-f", "p99",
			     path("big.csv")), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"exact\": false"));
	{
		/* exact p99: rank 0.99 * 19999 = 19799.01 */
		double want = (19800 + 0.01) * 0.731;
		double got = J(out, "Lat", "all", "percentiles", "99");

		CU_ASSERT(fabs(got - want) <= want * 0.0009765625);
	}
	CU_ASSERT_EQUAL(CALC("--json", "-f", "p99", path("big.csv")), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"exact\": true"));
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;
	char cmd[600];

	if (!mkdtemp(dir))
		return 2;
	put("wult.csv", wult_csv);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("calc", NULL, NULL);
	CU_add_test(s, "wult datapoints.csv", test_wult_csv);
	CU_add_test(s, "per C-state", test_per_cstate_table);
	CU_add_test(s, "directories side by side", test_dirs_side_by_side);
	CU_add_test(s, "bad files", test_bad_files);
	CU_add_test(s, "bad arguments", test_bad_args);
	CU_add_test(s, "histogram mode", test_histogram_mode);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fails++;
	return fails ? 1 : 0;
}
