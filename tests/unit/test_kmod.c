/* SPDX-License-Identifier: MIT */
/*
 * lib/kmod: kernel module record -> kside datapoint. The kernel side is
 * tested in a VM (tests/vm); these check the user-space conversion that
 * every module-based source relies on.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "kmod/kmod.h"
#include "kmod/kmod_source.h"
#include "testutil.h"

static struct wultfw_record make_rec(uint32_t tunit, uint32_t present)
{
	struct wultfw_record r;
	int i;

	memset(&r, 0, sizeof(r));
	r.tunit = tunit;
	r.ctr_present = present;
	r.tbi = 3000;
	r.ltime = 5000;
	r.tai = 7000;
	r.tintr = 6000;
	r.ldist_ns = 1234;
	r.req_cstate = 2;
	for (i = 0; i < WULTFW_NR_CTRS; i++) {
		r.ctr_bi[i] = 100 * (uint64_t)(i + 1);
		r.ctr_ai[i] = 100 * (uint64_t)(i + 1) + 10 + (uint64_t)i;
	}
	return r;
}

#define BIT32(n) (1u << (n))

static void test_tsc_to_ns(void)
{
	struct wfw_kmod km;
	struct wultfw_kside_cfg kc = { 0 };
	struct wultfw_record r;
	struct wultfw_kside_dp dp;

	memset(&km, 0, sizeof(km));
	km.cfg.ctr_present = BIT32(WULTFW_CTR_TSC) | BIT32(WULTFW_CTR_NMI);
	wfw_kmod_kside_cfg(&km, &kc);
	km.tsc.tsc0 = 1000;
	km.tsc.ns_per_cyc = 0.5;	/* 2 GHz */
	r = make_rec(WULTFW_TUNIT_TSC, km.cfg.ctr_present);
	wfw_kmod_to_dp(&km, &r, &dp);
	CU_ASSERT_EQUAL(dp.tbi, 1000);
	CU_ASSERT_EQUAL(dp.ltime, 2000);
	CU_ASSERT_EQUAL(dp.tintr, 2500);
	CU_ASSERT_EQUAL(dp.tai, 3000);
	CU_ASSERT_EQUAL(dp.ldist, 1234);	/* already ns */
	CU_ASSERT_EQUAL(dp.req_state, 2);
	CU_ASSERT_EQUAL(dp.intr_off, -1);
	/* Counter deltas stay in cycles/counts. */
	CU_ASSERT_EQUAL(dp.tsc, 10 + WULTFW_CTR_TSC);
	CU_ASSERT_EQUAL(dp.nmi, 10 + WULTFW_CTR_NMI);
	/* Absent counters are 0 even though the record has values there. */
	CU_ASSERT_EQUAL(dp.aperf, 0);
	CU_ASSERT_EQUAL(dp.smi, 0);
	/* A stray TSC value before calibration does not wrap around. */
	r.tbi = 10;
	wfw_kmod_to_dp(&km, &r, &dp);
	CU_ASSERT_EQUAL(dp.tbi, 0);
}

static void test_ns_identity(void)
{
	struct wfw_kmod km;
	struct wultfw_record r;
	struct wultfw_kside_dp dp;

	memset(&km, 0, sizeof(km));
	km.tsc.tsc0 = 4000;	/* must not be applied to ns records */
	km.tsc.ns_per_cyc = 0.25;
	r = make_rec(WULTFW_TUNIT_NS, 0);
	wfw_kmod_to_dp(&km, &r, &dp);
	CU_ASSERT_EQUAL(dp.tbi, 3000);
	CU_ASSERT_EQUAL(dp.ltime, 5000);
	CU_ASSERT_EQUAL(dp.tai, 7000);
	CU_ASSERT_EQUAL(dp.tintr, 6000);
	CU_ASSERT_EQUAL(dp.tsc, 0);
}

static void test_residency_mapping(void)
{
	struct wfw_kmod km;
	struct wultfw_kside_cfg kc = { 0 };
	struct wultfw_record r;
	struct wultfw_kside_dp dp;
	struct wultfw_kside ks;

	memset(&km, 0, sizeof(km));
	km.cfg.ctr_present = BIT32(WULTFW_CTR_TSC) | BIT32(WULTFW_CTR_MPERF) |
			     BIT32(WULTFW_CTR_CC6) | BIT32(WULTFW_CTR_PC6) |
			     BIT32(WULTFW_CTR_SMI);
	wfw_kmod_kside_cfg(&km, &kc);
	/* The module measures its timestamping cost: raw keeps the overheads. */
	CU_ASSERT_EQUAL(kc.counters, WULTFW_KSIDE_HAS_TSC | WULTFW_KSIDE_HAS_MPERF |
			WULTFW_KSIDE_HAS_SMI | WULTFW_KSIDE_HAS_OVERHEADS);
	CU_ASSERT_EQUAL_FATAL(kc.nres, 2);
	CU_ASSERT_STRING_EQUAL(kc.res_names[0], "CC6");
	CU_ASSERT_STRING_EQUAL(kc.res_names[1], "PC6");
	CU_ASSERT_EQUAL(wultfw_kside_init(&ks, &kc), 0);

	r = make_rec(WULTFW_TUNIT_NS, km.cfg.ctr_present);
	wfw_kmod_to_dp(&km, &r, &dp);
	CU_ASSERT_EQUAL(dp.res[0], 10 + WULTFW_CTR_CC6);
	CU_ASSERT_EQUAL(dp.res[1], 10 + WULTFW_CTR_PC6);
	CU_ASSERT_EQUAL(dp.mperf, 10 + WULTFW_CTR_MPERF);
	CU_ASSERT_EQUAL(dp.smi, 10 + WULTFW_CTR_SMI);

	/* Without the TSC there is no TotCyc, so no residency percentages. */
	km.cfg.ctr_present &= ~BIT32(WULTFW_CTR_TSC);
	wfw_kmod_kside_cfg(&km, &kc);
	CU_ASSERT_EQUAL(kc.nres, 0);
	CU_ASSERT_EQUAL(kc.counters & WULTFW_KSIDE_HAS_TSC, 0);
}

/* Overheads come through in ns even for TSC records; device columns. */
static void test_overheads_and_dev_data(void)
{
	struct wfw_kmod km;
	struct wultfw_kside_cfg kc = { 0 };
	struct wultfw_record r;
	struct wultfw_kside_dp dp;
	struct wultfw_kside ks;
	union wultfw_cell row[WULTFW_KSIDE_MAX_COLS];

	memset(&km, 0, sizeof(km));
	km.cfg.ctr_present = BIT32(WULTFW_CTR_TSC);
	strcpy(km.cfg.dev_data_names[0], "WarmupDelay");
	strcpy(km.cfg.dev_data_names[1], "LatchDelay");
	wfw_kmod_kside_cfg(&km, &kc);
	CU_ASSERT_EQUAL_FATAL(kc.nextra, 2);
	CU_ASSERT_STRING_EQUAL(kc.extra[0].name, "WarmupDelay");
	CU_ASSERT_STRING_EQUAL(kc.extra[1].name, "LatchDelay");
	CU_ASSERT_EQUAL(kc.extra[1].divisor, 1000);	/* shown in us */
	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &kc), 0);

	km.tsc.tsc0 = 1000;
	km.tsc.ns_per_cyc = 0.5;
	r = make_rec(WULTFW_TUNIT_TSC, km.cfg.ctr_present);
	r.tai_pre_ns = 11;
	r.tintr_pre_ns = 12;
	r.ai_overhead_ns = 130;
	r.intr_overhead_ns = 140;
	r.dev_data[0] = 2500;
	r.dev_data[1] = 800;
	wfw_kmod_to_dp(&km, &r, &dp);
	/* Not scaled by ns_per_cyc: the module converted them already. */
	CU_ASSERT_EQUAL(dp.tai_pre, 11);
	CU_ASSERT_EQUAL(dp.tintr_pre, 12);
	CU_ASSERT_EQUAL(dp.ai_overhead, 130);
	CU_ASSERT_EQUAL(dp.intr_overhead, 140);
	CU_ASSERT_EQUAL_FATAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_OK);
	wultfw_kside_fill(&ks, &dp, row);
	wfw_kmod_fill_dev(&km, &r, row, ks.first_extra);
	/* TAI 3000 ns, TIntr 2500 ns, LTime 2000 ns: interrupts on in idle. */
	CU_ASSERT_EQUAL(row[0].i, 1000 - 11 - 140);
	CU_ASSERT_EQUAL(row[ks.first_extra].i, 2500);
	CU_ASSERT_EQUAL(row[ks.first_extra + 1].i, 800);

	/* Only named slots become columns, in slot order. */
	memset(&km.cfg.dev_data_names, 0, sizeof(km.cfg.dev_data_names));
	strcpy(km.cfg.dev_data_names[1], "Other");
	wfw_kmod_kside_cfg(&km, &kc);
	CU_ASSERT_EQUAL_FATAL(kc.nextra, 1);
	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &kc), 0);
	wfw_kmod_fill_dev(&km, &r, row, ks.first_extra);
	CU_ASSERT_EQUAL(row[ks.first_extra].i, 800);
}

/*
 * tdt and i210 name ReqCState after the measured CPU's states, as the core
 * handed them (here CPU 3's, which differ from CPU 0's), not CPU 0's.
 */
static void test_reqcstate_names_of_measured_cpu(void)
{
	static const char *const cpu3[] = { "POLL", "C1", "C1E", "C6" };
	struct wultfw_ctx ctx = { .cpu = 3, .cstate_names = cpu3, .n_cstates = 4 };
	static struct wfw_kmod_source s;
	const struct wultfw_column *c = NULL;
	size_t i;

	memset(&s, 0, sizeof(s));
	s.km.cfg.ctr_present = BIT32(WULTFW_CTR_TSC);
	CU_ASSERT_EQUAL_FATAL(wfw_kmod_source_schema(&s, &ctx, false), 0);
	CU_ASSERT_EQUAL(s.probe_present, BIT32(WULTFW_CTR_TSC));
	for (i = 0; i < s.ks.schema.ncols; i++)
		if (!strcmp(s.ks.schema.cols[i].name, "ReqCState"))
			c = &s.ks.schema.cols[i];
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->type, WULTFW_COL_ENUM);
	CU_ASSERT_EQUAL_FATAL(c->n_enum, 4);
	CU_ASSERT_PTR_EQUAL(c->enum_names, cpu3);
	CU_ASSERT_STRING_EQUAL(c->enum_names[2], "C1E");

	/* No cpuidle on the measured CPU: no ReqCState column at all. */
	ctx.cstate_names = NULL;
	ctx.n_cstates = 0;
	CU_ASSERT_EQUAL_FATAL(wfw_kmod_source_schema(&s, &ctx, false), 0);
	for (i = 0; i < s.ks.schema.ncols; i++)
		CU_ASSERT_STRING_NOT_EQUAL(s.ks.schema.cols[i].name, "ReqCState");
}

static void test_ctr_list(void)
{
	char buf[64];

	wfw_kmod_ctr_list(BIT32(WULTFW_CTR_TSC) | BIT32(WULTFW_CTR_NMI) |
			  BIT32(WULTFW_CTR_PC10), buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "TSC,NMI,PC10");
	wfw_kmod_ctr_list(0, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "");
	CU_ASSERT_STRING_EQUAL(wfw_kmod_ctr_name(WULTFW_CTR_MC6), "MC6");
	CU_ASSERT_STRING_EQUAL(wfw_kmod_ctr_name(WULTFW_NR_CTRS), "?");
}

static void test_tsc_calibrate(void)
{
	struct wfw_kmod_tsc t = { 0 };

	/* 10 ms is enough for a rate that is plausible for any x86 CPU. */
	CU_ASSERT_EQUAL_FATAL(wfw_kmod_tsc_calibrate(&t, 10000000ULL), 0);
	CU_ASSERT(t.tsc0 > 0);
	CU_ASSERT(t.ns_per_cyc > 0.05 && t.ns_per_cyc < 10.0);
}

static void test_open_missing(void)
{
	struct wfw_kmod km;
	char why[256];

	CU_ASSERT_EQUAL(wfw_kmod_open(&km, "/nonexistent/wultfw", "hrt", why,
				      sizeof(why)), -ENOENT);
	/* The advice depends on whether this kernel can load modules at all. */
	if (access("/proc/modules", F_OK)) {
		TU_ASSERT_CONTAINS(why, "this kernel cannot load modules");
	} else {
		TU_ASSERT_CONTAINS(why, "then 'modprobe wultfw_hrt'");
	}
	CU_ASSERT_EQUAL(km.fd, -1);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("kmod", NULL, NULL);
	CU_add_test(s, "tsc to ns", test_tsc_to_ns);
	CU_add_test(s, "ns identity", test_ns_identity);
	CU_add_test(s, "residency mapping", test_residency_mapping);
	CU_add_test(s, "overheads and device columns", test_overheads_and_dev_data);
	CU_add_test(s, "counter names", test_ctr_list);
	CU_add_test(s, "ReqCState names of the measured CPU", test_reqcstate_names_of_measured_cpu);
	CU_add_test(s, "tsc calibration", test_tsc_calibrate);
	CU_add_test(s, "open missing device", test_open_missing);
	return tu_run();
}
