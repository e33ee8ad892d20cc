/* SPDX-License-Identifier: MIT */
/* lib/kside: derived wult columns from raw kernel-side datapoints. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <CUnit/Basic.h>

#include <wultfw/kside.h>

static const char *const names[] = { "POLL", "C1", "C6" };

static int col(const struct wultfw_kside *ks, const char *name)
{
	size_t i;

	for (i = 0; i < ks->schema.ncols; i++)
		if (!strcmp(ks->schema.cols[i].name, name))
			return (int)i;
	return -1;
}

/* TBI 1000, LTime 5000, TIntr 5300, TAI 5200: a C-state with irqs off. */
static struct wultfw_kside_dp base_dp(void)
{
	struct wultfw_kside_dp dp = {
		.tbi = 1000, .ltime = 5000, .tai = 5200, .tintr = 5300,
		.ldist = 4500, .req_state = 2, .intr_off = -1,
	};
	return dp;
}

static void test_latencies_no_counters(void)
{
	struct wultfw_kside_cfg cfg = { .cstate_names = names, .n_cstates = 3 };
	struct wultfw_kside ks;
	struct wultfw_kside_dp dp = base_dp();
	union wultfw_cell row[WULTFW_KSIDE_MAX_COLS];

	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &cfg), 0);
	/* Absent counters mean absent columns, not zeros; LTime is always. */
	CU_ASSERT_EQUAL(ks.schema.ncols, 7);
	CU_ASSERT_EQUAL(col(&ks, "CC0%"), -1);
	CU_ASSERT_EQUAL(col(&ks, "NMICnt"), -1);
	CU_ASSERT_EQUAL(col(&ks, "CPUFreq"), -1);
	CU_ASSERT_STRING_EQUAL(ks.schema.cols[0].name, "WakeLatency");
	CU_ASSERT_EQUAL(ks.schema.cols[0].divisor, 1000);

	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_OK);
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_EQUAL(row[col(&ks, "WakeLatency")].i, 200);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrLatency")].i, 300);
	CU_ASSERT_EQUAL(row[col(&ks, "SilentTime")].i, 4000);
	CU_ASSERT_EQUAL(row[col(&ks, "LDist")].i, 4500);
	CU_ASSERT_EQUAL(row[col(&ks, "ReqCState")].i, 2);
	CU_ASSERT_EQUAL(row[col(&ks, "LTime")].i, 5000);
	/* TAI before TIntr: the handler waited for the idle exit. */
	CU_ASSERT_EQUAL(row[col(&ks, "IntrOff")].i, 1);

	dp.tintr = 5100;	/* handler first: interrupts were on */
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrOff")].i, 0);
	dp.intr_off = 1;	/* the source knows better than the order */
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrOff")].i, 1);

	dp.req_state = 7;	/* unknown to cpuidle: empty, not out of range */
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_EQUAL(row[col(&ks, "ReqCState")].i, -1);
}

/* A machine without cpuidle states: no ReqCState column at all. */
static void test_no_cstates(void)
{
	struct wultfw_kside_cfg cfg = { .cstate_names = NULL, .n_cstates = 0 };
	union wultfw_cell row[WULTFW_KSIDE_MAX_COLS];
	struct wultfw_kside_dp dp = base_dp();
	struct wultfw_kside ks;

	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &cfg), 0);
	CU_ASSERT_EQUAL(ks.schema.ncols, 6);
	CU_ASSERT_EQUAL(col(&ks, "ReqCState"), -1);
	memset(row, 0x5a, sizeof(row));
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_EQUAL(row[col(&ks, "LDist")].i, 4500);
	CU_ASSERT_EQUAL(row[col(&ks, "WakeLatency")].i, 200);
	/* Nothing written past the schema's columns. */
	CU_ASSERT_EQUAL(row[6].i, (int64_t)0x5a5a5a5a5a5a5a5aLL);
}

static void test_check(void)
{
	struct wultfw_kside_cfg cfg = { .counters = WULTFW_KSIDE_HAS_TSC };
	struct wultfw_kside ks;
	struct wultfw_kside_dp dp;

	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &cfg), 0);
	dp = base_dp(); dp.tsc = 10;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_OK);
	dp.tbi = 5000;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_BAD_TBI);
	dp = base_dp(); dp.tsc = 10; dp.tai = 5000;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_BAD_TAI);
	dp = base_dp(); dp.tsc = 10; dp.tintr = 4999;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_BAD_TINTR);
	dp = base_dp(); dp.tsc = 10; dp.tintr = 5000;	/* LTime <= TIntr ok */
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_OK);
	dp = base_dp(); dp.tsc = 10; dp.tbi = 0;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_BAD_ZERO);
	dp = base_dp(); dp.tsc = 0;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_BAD_TOTCYC);
	CU_ASSERT_PTR_NOT_NULL(strstr(wultfw_kside_bad_str(WULTFW_KSIDE_BAD_TAI), "TAI"));
}

static void test_percentages(void)
{
	struct wultfw_kside_cfg cfg = {
		.counters = WULTFW_KSIDE_HAS_TSC | WULTFW_KSIDE_HAS_APERF |
			    WULTFW_KSIDE_HAS_MPERF | WULTFW_KSIDE_HAS_SMI |
			    WULTFW_KSIDE_HAS_NMI,
		.nres = 3, .res_names = { "CC1", "CC6", "PC6" },
		.cstate_names = names, .n_cstates = 3,
	};
	struct wultfw_kside ks;
	struct wultfw_kside_dp dp = base_dp();
	union wultfw_cell row[WULTFW_KSIDE_MAX_COLS];

	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &cfg), 0);
	CU_ASSERT_TRUE(col(&ks, "CC0%") >= 0);
	CU_ASSERT_TRUE(col(&ks, "CC1Derived%") >= 0);
	CU_ASSERT_TRUE(col(&ks, "CC6%") >= 0);
	CU_ASSERT_TRUE(col(&ks, "PC6%") >= 0);

	/* 1000 TSC cycles: 100 in C0, 50 in CC1, 600 in CC6, 400 in PC6. */
	dp.tsc = 1000; dp.mperf = 100; dp.aperf = 150;
	dp.res[0] = 50; dp.res[1] = 600; dp.res[2] = 400;
	dp.smi = 1; dp.nmi = 2;
	dp.cyc_ns = 500;	/* 1000 cycles in 500 ns: a 2 GHz TSC */
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CC0%")].f, 10.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CC1%")].f, 5.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CC6%")].f, 60.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "PC6%")].f, 40.0, 1e-9);
	/* Derived CC1: neither C0 nor CC6; CC1's own and PC6 do not count. */
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CC1Derived%")].f, 30.0, 1e-9);
	/* 2000 MHz TSC * APERF/MPERF 1.5 */
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CPUFreq")].f, 3000.0, 1e-6);
	CU_ASSERT_EQUAL(row[col(&ks, "SMICnt")].i, 1);
	CU_ASSERT_EQUAL(row[col(&ks, "NMICnt")].i, 2);

	dp.cyc_ns = 0;		/* falls back to TAI - TBI = 4200 ns */
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CPUFreq")].f,
			       1000.0 / 4200.0 * 1000.0 * 1.5, 1e-6);
	dp.tsc = 0;		/* no cycles: NaN, never a made-up 0 */
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_TRUE(isnan(row[col(&ks, "CC6%")].f));
}

/*
 * A source that does not measure its timestamping cost (hrt) gets no
 * AIOverhead/IntrOverhead of zeros and no *Raw copies of the latencies;
 * the raw columns it has keep wult's names and order.
 */
static void test_raw_without_overheads(void)
{
	static const char *const want[] = {
		"WakeLatency", "SilentTime", "IntrLatency", "IntrOff", "LDist",
		"LTime", "TBI", "TAI", "TIntr", "TotCyc",
	};
	struct wultfw_kside_cfg cfg = { .counters = WULTFW_KSIDE_HAS_TSC,
				     .raw = true };
	struct wultfw_kside ks;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &cfg), 0);
	CU_ASSERT_EQUAL(col(&ks, "WakeLatencyRaw"), -1);
	CU_ASSERT_EQUAL(col(&ks, "IntrLatencyRaw"), -1);
	CU_ASSERT_EQUAL(col(&ks, "AIOverhead"), -1);
	CU_ASSERT_EQUAL(col(&ks, "IntrOverhead"), -1);
	CU_ASSERT_EQUAL_FATAL(ks.schema.ncols, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < ks.schema.ncols; i++)
		CU_ASSERT_STRING_EQUAL(ks.schema.cols[i].name, want[i]);
	/* With the bit they come before LTime, as wult writes them. */
	cfg.counters |= WULTFW_KSIDE_HAS_OVERHEADS;
	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &cfg), 0);
	CU_ASSERT_EQUAL(col(&ks, "WakeLatencyRaw"), 5);
	CU_ASSERT_EQUAL(col(&ks, "IntrOverhead"), 8);
	CU_ASSERT_EQUAL(col(&ks, "LTime"), 9);
}

static void test_raw_and_extra(void)
{
	static const struct wultfw_column extra[] = {
		{ .name = "SoftIRQCnt", .type = WULTFW_COL_INT },
	};
	struct wultfw_kside_cfg cfg = {
		.counters = WULTFW_KSIDE_HAS_TSC | WULTFW_KSIDE_HAS_MPERF,
		.nres = 1, .res_names = { "CC6" },
		.raw = true, .extra = extra, .nextra = 1,
	};
	struct wultfw_kside ks;
	struct wultfw_kside_dp dp = base_dp();
	union wultfw_cell row[WULTFW_KSIDE_MAX_COLS];

	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &cfg), 0);
	CU_ASSERT_EQUAL(ks.first_extra, ks.schema.ncols - 1);
	CU_ASSERT_STRING_EQUAL(ks.schema.cols[ks.first_extra].name, "SoftIRQCnt");
	dp.tsc = 77; dp.mperf = 7; dp.res[0] = 33;
	row[ks.first_extra].i = -5;
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_EQUAL(row[col(&ks, "LTime")].i, 5000);
	CU_ASSERT_EQUAL(row[col(&ks, "TBI")].i, 1000);
	CU_ASSERT_EQUAL(row[col(&ks, "TAI")].i, 5200);
	CU_ASSERT_EQUAL(row[col(&ks, "TIntr")].i, 5300);
	CU_ASSERT_EQUAL(row[col(&ks, "TotCyc")].i, 77);
	CU_ASSERT_EQUAL(row[col(&ks, "CC0Cyc")].i, 7);
	CU_ASSERT_EQUAL(row[col(&ks, "CC6Cyc")].i, 33);
	CU_ASSERT_EQUAL(row[ks.first_extra].i, -5);	/* left to the caller */
}

/*
 * Overheads: TBI 1000, LTime 5000. Interrupts off in idle (TAI 5200 <
 * TIntr 5300): the handler waited for AIOverhead, so it comes out of
 * IntrLatency; IntrOverhead does not apply. Interrupts on (TIntr 5100 <
 * TAI 5400): the idle exit waited for IntrOverhead instead.
 */
static void test_overheads(void)
{
	struct wultfw_kside_cfg cfg = { .counters = WULTFW_KSIDE_HAS_OVERHEADS,
				     .raw = true };
	struct wultfw_kside ks;
	struct wultfw_kside_dp dp = base_dp();
	union wultfw_cell row[WULTFW_KSIDE_MAX_COLS];

	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &cfg), 0);
	dp.tai_pre = 10;
	dp.tintr_pre = 7;
	dp.ai_overhead = 40;
	dp.intr_overhead = 55;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_OK);
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrOff")].i, 1);
	CU_ASSERT_EQUAL(row[col(&ks, "WakeLatency")].i, 200 - 10);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrLatency")].i, 300 - 7 - 40);
	/* raw = true keeps the unadjusted values and the overheads. */
	CU_ASSERT_EQUAL(row[col(&ks, "WakeLatencyRaw")].i, 200);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrLatencyRaw")].i, 300);
	CU_ASSERT_EQUAL(row[col(&ks, "AIOverhead")].i, 40);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrOverhead")].i, 55);
	CU_ASSERT_EQUAL(ks.schema.cols[col(&ks, "WakeLatencyRaw")].divisor, 1000);
	/* SilentTime is not a latency: nothing taken out. */
	CU_ASSERT_EQUAL(row[col(&ks, "SilentTime")].i, 4000);

	dp.tintr = 5100;
	dp.tai = 5400;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_OK);
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrOff")].i, 0);
	CU_ASSERT_EQUAL(row[col(&ks, "WakeLatency")].i, 400 - 10 - 55);
	CU_ASSERT_EQUAL(row[col(&ks, "IntrLatency")].i, 100 - 7);

	/* Overheads larger than the latency they are in: dropped. */
	dp.intr_overhead = 395;
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_BAD_OVERHEAD);
	/* Adjusted idle exit before the handler it waited for: dropped. */
	dp.intr_overhead = 300;	/* wake 90 < intr 93 */
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_BAD_OVERHEAD);
	dp = base_dp();
	dp.ai_overhead = 150;	/* intr 150 < wake 200 with irqs off */
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_BAD_OVERHEAD);
	dp.ai_overhead = 100;	/* intr 200 == wake 200: still in order */
	CU_ASSERT_EQUAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(wultfw_kside_bad_str(WULTFW_KSIDE_BAD_OVERHEAD),
				      "overhead"));
}

static void test_bad_cfg(void)
{
	struct wultfw_kside ks;
	struct wultfw_kside_cfg cfg = { .nres = 1, .res_names = { "CC6" } };

	/* A residency percentage without the TSC has no denominator. */
	CU_ASSERT_EQUAL(wultfw_kside_init(&ks, &cfg), -EINVAL);
	cfg.counters = WULTFW_KSIDE_HAS_TSC;
	cfg.res_names[0] = "WAYTOOLONGNAME";
	CU_ASSERT_EQUAL(wultfw_kside_init(&ks, &cfg), -EINVAL);
	cfg.nres = WULTFW_KSIDE_MAX_RES + 1;
	CU_ASSERT_EQUAL(wultfw_kside_init(&ks, &cfg), -EINVAL);
	cfg.nres = 0;
	cfg.counters = WULTFW_KSIDE_HAS_MPERF;
	CU_ASSERT_EQUAL(wultfw_kside_init(&ks, &cfg), -EINVAL);
}

int main(void)
{
	CU_pSuite s;
	unsigned int fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("kside", NULL, NULL);
	CU_add_test(s, "latencies without counters", test_latencies_no_counters);
	CU_add_test(s, "no cpuidle states: no ReqCState", test_no_cstates);
	CU_add_test(s, "consistency checks", test_check);
	CU_add_test(s, "percentages and CPUFreq", test_percentages);
	CU_add_test(s, "raw and extra columns", test_raw_and_extra);
	CU_add_test(s, "overhead subtraction", test_overheads);
	CU_add_test(s, "raw columns without measured overheads",
		    test_raw_without_overheads);
	CU_add_test(s, "bad configurations", test_bad_cfg);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
