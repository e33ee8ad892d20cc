/* SPDX-License-Identifier: MIT */
/*
 * hrt's user-space side of the ring buffer: records -> rows, drops, and the
 * record kept back when a batch is full. Includes hrt.c to reach its static
 * functions; no BPF program is loaded.
 */
#include "../../plugins/hrt/hrt.c"

#include <CUnit/Basic.h>

static struct hrt_priv p;
static union wultfw_cell cells[4 * WULTFW_KSIDE_MAX_COLS];
static struct wultfw_batch b;

static const char *const names[] = { "POLL", "C1" };

static int col(const char *name)
{
	size_t i;

	for (i = 0; i < p.ks.schema.ncols; i++)
		if (!strcmp(p.ks.schema.cols[i].name, name))
			return (int)i;
	CU_FAIL("no such column");
	return 0;
}

static void setup(size_t capacity)
{
	struct wultfw_kside_cfg kc = {
		.counters = WULTFW_KSIDE_HAS_NMI, .cstate_names = names,
		.n_cstates = 2, .raw = true, .extra = hrt_extra_cols, .nextra = 2,
	};

	memset(&p, 0, sizeof(p));
	p.cpu = 1;
	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&p.ks, &kc), 0);
	memset(&b, 0, sizeof(b));
	b.cells = cells;
	b.ncols = p.ks.schema.ncols;
	b.capacity = capacity;
	p.cur = &b;
}

static struct hrt_event good(void)
{
	struct hrt_event e = {
		.tbi = 1000, .ltime = 2000, .tintr = 2300, .tai = 2900,
		.ldist = 1500, .req_state = 1, .intr_cpu = 1,
	};
	return e;
}

static void test_row(void)
{
	struct hrt_event e = good();
	const union wultfw_cell *r;

	setup(4);
	e.softirq = 2;
	CU_ASSERT_EQUAL(hrt_ringbuf_cb(&p, &e, sizeof(e)), 0);
	CU_ASSERT_EQUAL_FATAL(b.rows, 1);
	r = wultfw_crow(&b, 0);
	CU_ASSERT_EQUAL(r[col("WakeLatency")].i, 900);
	CU_ASSERT_EQUAL(r[col("IntrLatency")].i, 300);
	CU_ASSERT_EQUAL(r[col("SilentTime")].i, 1000);
	CU_ASSERT_EQUAL(r[col("ReqCState")].i, 1);
	CU_ASSERT_EQUAL(r[col("IntrOff")].i, 0);	/* callback before exit */
	CU_ASSERT_EQUAL(r[col("SoftIRQCnt")].i, 2);
	CU_ASSERT_EQUAL(r[col("Disturbed")].i, 1);
	CU_ASSERT_EQUAL(r[col("LTime")].i, 2000);

	e = good();
	e.nmi = 1;		/* an NMI alone disturbs too */
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	CU_ASSERT_EQUAL(wultfw_crow(&b, 1)[col("Disturbed")].i, 1);
	CU_ASSERT_EQUAL(wultfw_crow(&b, 1)[col("NMICnt")].i, 1);
	e = good();
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	CU_ASSERT_EQUAL(wultfw_crow(&b, 2)[col("Disturbed")].i, 0);
}

static void test_drops(void)
{
	struct hrt_event e = good();

	setup(4);
	e.intr_cpu = 0;		/* the timer ran on another CPU */
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	e = good();
	e.tbi = 2000;		/* idle entered when the timer was due */
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	e = good();
	e.tai = 1999;
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	CU_ASSERT_EQUAL(b.rows, 0);
	CU_ASSERT_EQUAL(b.discarded, 3);
	CU_ASSERT_EQUAL(p.drop_cpu, 1);
	CU_ASSERT_EQUAL(p.drop_ts[WULTFW_KSIDE_BAD_TBI], 1);
	CU_ASSERT_EQUAL(p.drop_ts[WULTFW_KSIDE_BAD_TAI], 1);
	/* A short record (older program) is ignored, not read past its end. */
	CU_ASSERT_EQUAL(hrt_ringbuf_cb(&p, &e, sizeof(e) - 8), 0);
	CU_ASSERT_EQUAL(b.rows + b.discarded, 3);
}

static void test_full_batch_keeps_record(void)
{
	struct hrt_event e = good();

	setup(1);
	CU_ASSERT_EQUAL(hrt_ringbuf_cb(&p, &e, sizeof(e)), 0);
	e.ldist = 4242;
	/* libbpf has consumed this one already: it must not be lost. */
	CU_ASSERT_EQUAL(hrt_ringbuf_cb(&p, &e, sizeof(e)), -ENOSPC);
	CU_ASSERT_TRUE(p.has_pending);
	CU_ASSERT_EQUAL(p.pending.ldist, 4242);
	CU_ASSERT_EQUAL(b.rows, 1);
}

/*
 * Counter deltas from the program: into kside's columns, CPUFreq over the
 * window the reads cover, and a counter that stopped counting drops the
 * datapoint instead of giving a wrong residency.
 */
static void test_counters(void)
{
	struct wultfw_kside_cfg kc = {
		.counters = WULTFW_KSIDE_HAS_NMI, .cstate_names = names,
		.n_cstates = 2, .raw = true, .extra = hrt_extra_cols, .nextra = 2,
	};
	struct hrt_event e = good();
	const union wultfw_cell *r;

	setup(4);
	p.pmu.n = 3;
	p.pmu.c[0].kind = HRT_PMU_TSC;
	p.pmu.c[1].kind = HRT_PMU_APERF;
	p.pmu.c[2].kind = HRT_PMU_MPERF;
	hrt_pmu_kside_cfg(&p.pmu, &kc);
	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&p.ks, &kc), 0);
	b.ncols = p.ks.schema.ncols;

	/* TAI - TBI = 1900 ns; the exit read took 200 ns longer: 2000 ns. */
	e.ctr_span_tbi = 100;
	e.ctr_span_tai = 300;
	e.ctr[0] = 4000;	/* 2 GHz TSC */
	e.ctr[1] = 3000;
	e.ctr[2] = 2000;
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	CU_ASSERT_EQUAL_FATAL(b.rows, 1);
	r = wultfw_crow(&b, 0);
	CU_ASSERT_EQUAL(r[col("TotCyc")].i, 4000);
	CU_ASSERT_EQUAL(r[col("CC0Cyc")].i, 2000);
	CU_ASSERT_DOUBLE_EQUAL(r[col("CC0%")].f, 50.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r[col("CPUFreq")].f, 3000.0, 1e-6);
	CU_ASSERT_EQUAL(p.ctr_slow, 0);

	e.ctr_bad = 1u << 2;	/* MPERF paused during the idle period */
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	e.ctr_bad = HRT_CTR_READ_FAILED;
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	CU_ASSERT_EQUAL(b.rows, 1);
	CU_ASSERT_EQUAL(b.discarded, 2);
	CU_ASSERT_EQUAL(p.drop_ctr, 2);

	e.ctr_bad = 0;
	e.ctr_span_tbi = 5000;	/* an interrupted read: kept, counted */
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	CU_ASSERT_EQUAL(b.rows, 2);
	CU_ASSERT_EQUAL(p.ctr_slow, 1);
	e.ctr[0] = 0;		/* TSC did not move: inconsistent */
	e.ctr_span_tbi = 0;
	hrt_ringbuf_cb(&p, &e, sizeof(e));
	CU_ASSERT_EQUAL(b.rows, 2);
	CU_ASSERT_EQUAL(p.drop_ts[WULTFW_KSIDE_BAD_TOTCYC], 1);
}

int main(void)
{
	CU_pSuite s;
	unsigned int fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("hrt records", NULL, NULL);
	CU_add_test(s, "record to row", test_row);
	CU_add_test(s, "drops counted by reason", test_drops);
	CU_add_test(s, "full batch keeps the record", test_full_batch_keeps_record);
	CU_add_test(s, "counter deltas", test_counters);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
