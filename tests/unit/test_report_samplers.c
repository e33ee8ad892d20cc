/* SPDX-License-Identifier: MIT */
/*
 * The report's sampler views: counters' rates (lib/report/telemetry.c)
 * and a skid result's classes and histograms (lib/report/skid.c), on
 * small recorded-like data.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "testutil.h"

static double ts[] = { 0, 1e9, 2e9, 3e9, 4e9 };

static struct wfw_rep_series series(enum wfw_rep_kind kind, double *v)
{
	return (struct wfw_rep_series){ .file = "telemetry.csv", .name = "stat:ctxt",
					.unit = "count", .kind = kind, .n = 5, .t = ts, .v = v };
}

/* A total: its change per second; one that went down has no rate. */
static void test_total_rates(void)
{
	double v[] = { 0, 10, 30, 30, 25 }, t[5], r[5];
	struct wfw_rep_series s = series(WFW_KIND_TOTAL, v);

	CU_ASSERT_EQUAL(wfw_rep_rates(&s, 1, t, r), 4);	/* one per interval */
	CU_ASSERT_DOUBLE_EQUAL(r[0], 10, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r[1], 20, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r[2], 0, 1e-9);
	CU_ASSERT(isnan(r[3]));
	CU_ASSERT_DOUBLE_EQUAL(t[0], 1e9, 1);
	CU_ASSERT_DOUBLE_EQUAL(t[3], 4e9, 1);
	/* Every 3rd sample: intervals 0-3 and the shorter 3-4. */
	CU_ASSERT_EQUAL(wfw_rep_rates(&s, 3, t, r), 2);
	CU_ASSERT_DOUBLE_EQUAL(r[0], 10, 1e-9);
	CU_ASSERT(isnan(r[1]));
}

/* An increase: the increases after the interval's start, per second. */
static void test_increase_rates(void)
{
	double v[] = { 5, 10, 20, 0, 4 }, t[5], r[5];
	struct wfw_rep_series s = series(WFW_KIND_INCREASE, v);

	CU_ASSERT_EQUAL(wfw_rep_rates(&s, 1, t, r), 4);
	CU_ASSERT_DOUBLE_EQUAL(r[0], 10, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r[3], 4, 1e-9);
	CU_ASSERT_EQUAL(wfw_rep_rates(&s, 2, t, r), 2);
	CU_ASSERT_DOUBLE_EQUAL(r[0], 15, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r[1], 2, 1e-9);
	s.n = 1;	/* one sample: no interval */
	CU_ASSERT_EQUAL(wfw_rep_rates(&s, 1, t, r), 0);
}

static char *json_of(int (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_EQUAL(fn(f, arg), 0);
	fclose(f);
	return buf;
}

static int level_json(FILE *f, const void *arg)
{
	return wfw_rep_series_json(f, arg, 20000, 0);
}

static int total_json(FILE *f, const void *arg)
{
	return wfw_rep_series_json(f, arg, 2, 0);
}

/* data.js: a level as read, a total as its rates (fewer when thinned). */
static void test_series_json(void)
{
	double v[] = { 0, 10, 30, 30, 25 };
	struct wfw_rep_series s = series(WFW_KIND_LEVEL, v);
	char *j = json_of(level_json, &s);

	TU_ASSERT_CONTAINS(j, "\"kind\": \"level\", \"rate\": false, \"samples\": 5, \"step\": 1, "
			   "\"t\": [0.000000,1.000000,2.000000,3.000000,4.000000], \"v\": [0,10,30,30,25]}");
	free(j);
	s.kind = WFW_KIND_TOTAL;
	j = json_of(total_json, &s);
	TU_ASSERT_CONTAINS(j, "\"kind\": \"total\", \"rate\": true, \"samples\": 5, \"step\": 3, "
			   "\"t\": [3.000000,4.000000], \"v\": [10,null]}");
	free(j);
}

static int skid_json(FILE *f, const void *arg)
{
	return wfw_skid_emit(arg, f);
}

/*
 * Two precise levels as the skid sampler writes them: a hit, runway
 * samples, one far in the loop (its bins merge to width 4, both levels'
 * alike) and one outside the code (no Skid: a class, in no bin).
 */
static void test_skid_view(void)
{
	char *dir = tu_tmpdir(), *path, *j;
	const char *names[] = { "Skid" };
	float kept = 0, *vals[] = { &kept };	/* the Skid tab's column, as kept */
	struct wfw_rep_result r = { .ncols = 1, .colnames = names, .vals = vals };

	path = tu_write(dir, "datapoints.csv",
			"Event,Precise,Skid,SkidBytes,Where,Time\n"
			"r412e,p0,0,0,hit,0.1\n"
			"r412e,p0,1,5,runway,0.2\n"
			"r412e,p0,1,5,runway,0.3\n"
			"r412e,p0,,,outside,0.4\n"
			"r412e,p1,2,6,runway,0.5\n"
			"r412e,p1,10000,10011,loop,0.6\n");
	snprintf(r.path, sizeof(r.path), "%s", path);
	j = json_of(skid_json, &r);
	TU_ASSERT_CONTAINS(j, "{\"name\": \"p0\", \"samples\": 4, \"classes\": [{\"name\": \"hit\", \"n\": 1}, "
			   "{\"name\": \"runway\", \"n\": 2}, {\"name\": \"outside\", \"n\": 1}, {\"name\": \"loop\", \"n\": 0}]");
	TU_ASSERT_CONTAINS(j, "\"skid\": {\"width\": 4, \"rows\": 3, \"max\": 1, \"counts\": [3]}");
	TU_ASSERT_CONTAINS(j, "{\"name\": \"p1\", \"samples\": 2, ");
	TU_ASSERT_CONTAINS(j, "\"skid\": {\"width\": 4, \"rows\": 2, \"max\": 10000, \"counts\": [1,");
	TU_ASSERT_CONTAINS(j, "\"odd\": 0, \"bytes\": true}");
	free(j);
	names[0] = "WakeLatency";	/* not a skid tab: no view */
	j = json_of(skid_json, &r);
	CU_ASSERT_STRING_EQUAL(j, "null");
	free(j);
	tu_rmtree(dir);
	free(dir);
	free(path);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("report samplers", NULL, NULL);
	CU_add_test(s, "a total's rates", test_total_rates);
	CU_add_test(s, "an increase's rates", test_increase_rates);
	CU_add_test(s, "series for data.js", test_series_json);
	CU_add_test(s, "skid view: classes and bins", test_skid_view);
	return tu_run();
}
