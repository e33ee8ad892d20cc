/* SPDX-License-Identifier: MIT */
/* hrt option validation (plugins/hrt/hrt_opts.c), no BPF needed. */
#include "config.h"

#include <string.h>

#include <CUnit/Basic.h>

#include "hrt_health.h"
#include "hrt_opts.h"
#include "options.h"

static struct wultfw_ctx ctx;
#define O (*(const struct hrt_optvals *)ctx.cfg)
static char errs_text[4096];

/*
 * The core's parser with hrt's table on a source group, as a run does;
 * returns its result and leaves ctx.cfg/ctx.opts and errs_text set.
 */
static struct wfw_optvals vals;

static int parse(const char *text)
{
	struct wfw_cfgerr errs = { 0 };
	config_t c;
	size_t i;
	int ret;

	wfw_options_free(&vals);
	memset(&ctx, 0, sizeof(ctx));
	ctx.bad_opt = -1;
	errs_text[0] = 0;
	config_init(&c);
	CU_ASSERT_FATAL(config_read_string(&c, text) == CONFIG_TRUE);
	ret = wfw_options_parse(hrt_options, sizeof(struct hrt_optvals),
				config_lookup(&c, "source"), NULL, "source",
				"hrt", &vals, &errs);
	for (i = 0; i < errs.n; i++)
		snprintf(errs_text + strlen(errs_text),
			 sizeof(errs_text) - strlen(errs_text), "%s\n", errs.msgs[i]);
	wfw_cfgerr_free(&errs);
	config_destroy(&c);
	ctx.opts = vals.vals;
	ctx.cfg = vals.cfg;
	return ret;
}

static void test_table(void)
{
	size_t n = 0;

	while (hrt_options[n].name)
		n++;
	/* ctx->opts arrives in table order: the enum must match the table. */
	CU_ASSERT_EQUAL(n, HRT_NOPTS);
	CU_ASSERT_STRING_EQUAL(hrt_options[HRT_OPT_RAW].name, "raw");
	CU_ASSERT_STRING_EQUAL(hrt_options[HRT_OPT_RING_KIB].name, "ring_kib");
	CU_ASSERT_STRING_EQUAL(hrt_options[HRT_OPT_POLL].name, "poll");
	CU_ASSERT_STRING_EQUAL(hrt_options[HRT_OPT_COUNTERS].name, "counters");
}

static void test_defaults(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("source = { };"), 0);
	CU_ASSERT_EQUAL(hrt_check_opts(&ctx), 0);
	CU_ASSERT_FALSE(O.raw);
	CU_ASSERT_EQUAL(O.ring_kib, 1024);
	CU_ASSERT_EQUAL(O.poll, 1000000);
	/* Not given: decided when the counters are known (hrt_pmu_setup()). */
	CU_ASSERT_FALSE(O.counters_set);
	CU_ASSERT_EQUAL_FATAL(parse("source = { counters = false; };"), 0);
	CU_ASSERT_EQUAL(hrt_check_opts(&ctx), 0);
	CU_ASSERT_FALSE(O.counters);
	CU_ASSERT_TRUE(O.counters_set);
	CU_ASSERT_EQUAL_FATAL(parse("source = { counters = true; };"), 0);
	CU_ASSERT_EQUAL(hrt_check_opts(&ctx), 0);
	CU_ASSERT_TRUE(O.counters);
	CU_ASSERT_TRUE(O.counters_set);
}

static void test_ring(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("source = { ring_kib = 4096; };"), 0);
	CU_ASSERT_EQUAL(hrt_check_opts(&ctx), 0);
	CU_ASSERT_EQUAL(O.ring_kib, 4096);
	/* not a power of two: the plugin's own check */
	CU_ASSERT_EQUAL_FATAL(parse("source = { ring_kib = 1000; };"), 0);
	CU_ASSERT_EQUAL(hrt_check_opts(&ctx), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(ctx.err, "ring_kib = 1000"));
	/* out of the declared bounds: the core refuses them */
	CU_ASSERT_EQUAL(parse("source = { ring_kib = 8; };"), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(errs_text, "source.ring_kib: 8 is out of range: allowed 16 to 262144 KiB"));
	CU_ASSERT_EQUAL(parse("source = { ring_kib = -16; };"), -EINVAL);
	CU_ASSERT_EQUAL(parse("source = { ring_kib = 524288; };"), -EINVAL);
}

static void test_poll_and_raw(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("source = { raw = true; poll = \"50us\"; };"), 0);
	CU_ASSERT_EQUAL(hrt_check_opts(&ctx), 0);
	CU_ASSERT_TRUE(O.raw);
	CU_ASSERT_EQUAL(O.poll, 50000);
	CU_ASSERT_EQUAL(parse("source = { poll = \"49999ns\"; };"), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(errs_text, "source.poll: \"49999ns\" is out of range: allowed 50us to 100ms"));
	CU_ASSERT_EQUAL(parse("source = { poll = \"100000001ns\"; };"), -EINVAL);
}

/* hrt_health(): one warning per problem, none for a healthy run. */
static void test_health(void)
{
	/* 5000 datapoints at 50 us-4 ms in 10 s: about what fits. */
	struct hrt_health_in ok = {
		.duration_ns = 10000000000ULL, .ldist_from_ns = 50000,
		.ldist_to_ns = 4000000, .records = 4800, .kept = 4800,
		.arms = 4810, .probe_entry_ns = 500, .counters = true,
	};
	struct hrt_health_in in = ok;
	char w[2][HRT_HEALTH_LEN];

	CU_ASSERT_EQUAL(hrt_health(&ok, w, 2), 0);
	/* The Intel guest: 5000 in 57 s, 6912 armed, a 2.5 us probe. */
	in.duration_ns = 57000000000ULL;
	in.records = in.kept = 5000;
	in.arms = 6912;
	in.busy = 1900;
	in.early_wakeups = 12989;
	in.probe_entry_ns = 2500;
	CU_ASSERT_EQUAL_FATAL(hrt_health(&in, w, 2), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "2500 ns per idle entry"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "counters = false"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[1], "5000 datapoints kept in 57.0 s (88/s)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[1], "allow about 494/s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[1], "6912 timers armed"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[1], "12989 early wakeups"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[1], "a quieter CPU"));
	/* counters = false set: no advice to set it. */
	in.counters = false;
	CU_ASSERT_EQUAL(hrt_health(&in, w, 1), 1);
	CU_ASSERT_PTR_NULL(strstr(w[0], "counters = false"));
	CU_ASSERT_EQUAL(hrt_health(&in, w, 2), 2);
	CU_ASSERT_PTR_NULL(strstr(w[1], "counters = false"));
	/* Too short a run is not judged on its rate. */
	in = ok;
	in.duration_ns = 1000000000ULL;
	in.kept = 10;
	CU_ASSERT_EQUAL(hrt_health(&in, w, 2), 0);
	/* Just over half the allowed rate is still fine. */
	in = ok;
	in.kept = 2470;	/* 247.0/s of 493.8/s */
	CU_ASSERT_EQUAL(hrt_health(&in, w, 2), 0);
	in.kept = 2400;
	CU_ASSERT_EQUAL(hrt_health(&in, w, 2), 1);
}

/*
 * The trial's run: 3333 records in 3 s, 52 kept, 3281 dropped because idle
 * was entered after the launch time. The warning counts kept datapoints,
 * says why the others went, and advises by cause and setting.
 */
static void test_health_drops(void)
{
	struct hrt_health_in in = {
		.duration_ns = 3000000000ULL, .ldist_from_ns = 1000,
		.ldist_to_ns = 1000, .records = 3333, .kept = 52,
		.arms = 3400, .busy = 0, .counters = false,
		.drop = { { "ring buffer full", 0, "a larger ring_kib" },
			  { "idle entered after the launch time", 3281,
			    "longer launch distances" } },
		.ndrop = 2,
	};
	char w[1][HRT_HEALTH_LEN];

	CU_ASSERT_EQUAL_FATAL(hrt_health(&in, w, 1), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "52 datapoints kept in 3.0 s (17/s)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "of 3333 records 52 kept, 3281 dropped (3281 idle entered after the launch time)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "longer launch distances"));
	CU_ASSERT_PTR_NULL(strstr(w[0], "ring_kib"));
	CU_ASSERT_PTR_NULL(strstr(w[0], "counters = false"));
	CU_ASSERT_PTR_NULL(strstr(w[0], "quieter"));
	CU_ASSERT_PTR_NULL(strstr(w[0], "still in the ring buffer"));
	/* Records left in the ring at stop() are said, not silently lost. */
	in.records = 3343;
	CU_ASSERT_EQUAL_FATAL(hrt_health(&in, w, 1), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "10 still in the ring buffer at stop"));
	in.counters = true;
	CU_ASSERT_EQUAL_FATAL(hrt_health(&in, w, 1), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "counters = false"));
	/* A CPU that never idled armed nothing: no advice against causes that were not there. */
	in.records = in.kept = in.arms = 0;
	in.drop[1].n = 0;
	CU_ASSERT_EQUAL_FATAL(hrt_health(&in, w, 1), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "no timer was armed: the CPU never went idle"));
	CU_ASSERT_PTR_NULL(strstr(w[0], "ring_kib"));
	CU_ASSERT_PTR_NULL(strstr(w[0], "longer launch"));
	/* Armed, nothing dropped, nothing busy: no cause-specific advice. */
	in.arms = 100;
	in.counters = false;
	CU_ASSERT_EQUAL_FATAL(hrt_health(&in, w, 1), 1);
	CU_ASSERT_PTR_NULL(strstr(w[0], "ring_kib"));
	CU_ASSERT_PTR_NULL(strstr(w[0], "longer launch"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w[0], "seldom idle"));
}

int main(void)
{
	CU_pSuite s;
	unsigned int fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("hrt options", NULL, NULL);
	CU_add_test(s, "table order", test_table);
	CU_add_test(s, "defaults", test_defaults);
	CU_add_test(s, "ring_kib", test_ring);
	CU_add_test(s, "poll and raw", test_poll_and_raw);
	CU_add_test(s, "health warnings", test_health);
	CU_add_test(s, "health: kept, dropped and why", test_health_drops);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	wfw_options_free(&vals);
	return fails ? 1 : 0;
}
