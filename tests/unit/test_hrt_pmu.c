/* SPDX-License-Identifier: MIT */
/*
 * hrt's counter discovery (plugins/hrt/hrt_pmu.c) on fake sysfs trees, the
 * counter deltas -> lib/kside columns with synthetic deltas (the only way
 * APERF/MPERF/SMI/cstate_* are exercised on a machine without them), and,
 * where this machine has msr/tsc and we are root, the real perf event.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "hrt_pmu.h"
#include "testutil.h"

static char err[512];

/* dir/pmu/{type,format/event,events/...}; events as "name=spec" pairs. */
static void fake_pmu(const char *dir, const char *pmu, int type,
		     const char *const *events)
{
	char path[1024], sub[1024], num[16];

	snprintf(path, sizeof(path), "%s/%s", dir, pmu);
	mkdir(path, 0755);
	snprintf(num, sizeof(num), "%d\n", type);
	free(tu_write(path, "type", num));
	snprintf(sub, sizeof(sub), "%s/format", path);
	mkdir(sub, 0755);
	free(tu_write(sub, "event", "config:0-63\n"));
	snprintf(sub, sizeof(sub), "%s/events", path);
	mkdir(sub, 0755);
	for (; *events; events += 2) {
		char text[128];

		snprintf(text, sizeof(text), "%s\n", events[1]);
		free(tu_write(sub, events[0], text));
	}
}

static int col(const struct wultfw_kside *ks, const char *name)
{
	size_t i;

	for (i = 0; i < ks->schema.ncols; i++)
		if (!strcmp(ks->schema.cols[i].name, name))
			return (int)i;
	return -1;
}

/* This machine's case: msr offers only the TSC. */
static void test_tsc_only(void)
{
	static const char *const msr[] = { "tsc", "event=0x00", NULL };
	struct wultfw_kside_cfg kc = { 0 };
	struct hrt_pmu pmu;
	char *dir = tu_tmpdir(), buf[128];

	fake_pmu(dir, "msr", 9, msr);
	CU_ASSERT_EQUAL_FATAL(hrt_pmu_discover(&pmu, dir, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmu.n, 1);
	CU_ASSERT_EQUAL(pmu.c[0].kind, HRT_PMU_TSC);
	CU_ASSERT_EQUAL(pmu.c[0].type, 9);
	CU_ASSERT_EQUAL(pmu.c[0].config, 0);
	CU_ASSERT_EQUAL(pmu.c[0].fd, -1);
	TU_ASSERT_CONTAINS(pmu.absent, "msr/aperf");
	TU_ASSERT_CONTAINS(pmu.absent, "cstate_core/c6-residency");
	TU_ASSERT_CONTAINS(pmu.absent, "cstate_pkg/c10-residency");
	CU_ASSERT_PTR_NULL(strstr(pmu.absent, "msr/tsc"));
	hrt_pmu_present_str(&pmu, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "msr/tsc");
	/* TotCyc only: no made-up percentages. */
	hrt_pmu_kside_cfg(&pmu, &kc);
	CU_ASSERT_EQUAL(kc.counters, WULTFW_KSIDE_HAS_TSC);
	CU_ASSERT_EQUAL(kc.nres, 0);
	/* Not worth the probe's time unless asked for (counters not given). */
	CU_ASSERT_FALSE(hrt_pmu_beyond_tsc(&pmu));
	tu_rmtree(dir);
	free(dir);
}

/* No PMU at all, or residency counters without the TSC: nothing. */
static void test_nothing_without_tsc(void)
{
	static const char *const core[] = { "c6-residency", "event=0x02", NULL };
	struct hrt_pmu pmu;
	char *dir = tu_tmpdir(), buf[32];

	CU_ASSERT_EQUAL(hrt_pmu_discover(&pmu, dir, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu.n, 0);
	hrt_pmu_present_str(&pmu, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "none");
	fake_pmu(dir, "cstate_core", 20, core);
	CU_ASSERT_EQUAL(hrt_pmu_discover(&pmu, dir, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu.n, 0);
	TU_ASSERT_CONTAINS(pmu.absent, "cstate_core/c6-residency");
	tu_rmtree(dir);
	free(dir);
}

/*
 * An Intel-like machine: every kind present, in kside's order, and
 * synthetic deltas through lib/kside give the right columns.
 */
static void test_full_set_to_columns(void)
{
	static const char *const msr[] = {
		"smi", "event=0x04", "tsc", "event=0x00",
		"mperf", "event=0x02", "aperf", "event=0x01", NULL };
	static const char *const core[] = {
		"c6-residency", "event=0x02", "c1-residency", "event=0x00", NULL };
	static const char *const pkg[] = {
		"c6-residency", "event=0x02", "c2-residency", "event=0x00",
		"c6-residency.scale", "1", NULL };
	struct wultfw_kside_cfg kc = { 0 };
	struct wultfw_kside ks;
	struct wultfw_kside_dp dp = {
		.tbi = 1000, .ltime = 400000, .tintr = 401000, .tai = 401000 + 500,
		.ldist = 399000, .req_state = -1, .intr_off = -1,
	};
	union wultfw_cell row[WULTFW_KSIDE_MAX_COLS];
	struct hrt_pmu pmu;
	/* tsc, aperf, mperf, smi, CC1, CC6, PC2, PC6 */
	uint64_t d[HRT_PMU_MAX] = { 800000, 30000, 20000, 1,
				    8000, 700000, 600000, 500000 };
	char *dir = tu_tmpdir();
	const char *order[] = { "tsc", "aperf", "mperf", "smi", "c1-residency",
				"c6-residency", "c2-residency", "c6-residency" };
	size_t i;

	fake_pmu(dir, "msr", 9, msr);
	fake_pmu(dir, "cstate_core", 20, core);
	fake_pmu(dir, "cstate_pkg", 21, pkg);
	CU_ASSERT_EQUAL_FATAL(hrt_pmu_discover(&pmu, dir, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmu.n, 8);
	for (i = 0; i < 8; i++)
		CU_ASSERT_STRING_EQUAL(pmu.c[i].event, order[i]);
	CU_ASSERT_EQUAL(pmu.c[1].config, 1);
	CU_ASSERT_EQUAL(pmu.c[3].config, 4);
	CU_ASSERT_EQUAL(pmu.c[5].type, 20);
	CU_ASSERT_EQUAL(pmu.c[7].type, 21);
	CU_ASSERT_EQUAL(pmu.c[7].config, 2);
	CU_ASSERT_STRING_EQUAL(pmu.c[7].res_name, "PC6");
	TU_ASSERT_CONTAINS(pmu.absent, "cstate_core/c3-residency");
	CU_ASSERT_TRUE(hrt_pmu_beyond_tsc(&pmu));

	hrt_pmu_kside_cfg(&pmu, &kc);
	CU_ASSERT_EQUAL(kc.counters, WULTFW_KSIDE_HAS_TSC | WULTFW_KSIDE_HAS_APERF |
			WULTFW_KSIDE_HAS_MPERF | WULTFW_KSIDE_HAS_SMI);
	CU_ASSERT_EQUAL_FATAL(kc.nres, 4);
	CU_ASSERT_STRING_EQUAL(kc.res_names[0], "CC1");
	CU_ASSERT_STRING_EQUAL(kc.res_names[1], "CC6");
	CU_ASSERT_STRING_EQUAL(kc.res_names[2], "PC2");
	CU_ASSERT_STRING_EQUAL(kc.res_names[3], "PC6");
	kc.raw = true;
	CU_ASSERT_EQUAL_FATAL(wultfw_kside_init(&ks, &kc), 0);

	hrt_pmu_fill_dp(&pmu, d, &dp);
	CU_ASSERT_EQUAL(dp.tsc, 800000);
	CU_ASSERT_EQUAL(dp.smi, 1);
	dp.cyc_ns = 400000;	/* 800000 TSC cycles in 400 us: 2 GHz */
	CU_ASSERT_EQUAL_FATAL(wultfw_kside_check(&ks, &dp), WULTFW_KSIDE_OK);
	wultfw_kside_fill(&ks, &dp, row);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CC0%")].f, 2.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CC1%")].f, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CC6%")].f, 87.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "PC2%")].f, 75.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "PC6%")].f, 62.5, 1e-9);
	/* 100 - CC0 - CC6 (CC1's own counter and package ones excluded) */
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CC1Derived%")].f, 10.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[col(&ks, "CPUFreq")].f, 3000.0, 1e-6);
	CU_ASSERT_EQUAL(row[col(&ks, "SMICnt")].i, 1);
	CU_ASSERT_EQUAL(row[col(&ks, "TotCyc")].i, 800000);
	CU_ASSERT_EQUAL(row[col(&ks, "PC6Cyc")].i, 500000);
	CU_ASSERT_EQUAL(col(&ks, "CC3%"), -1);	/* absent: no column */
	tu_rmtree(dir);
	free(dir);
}

static void test_parse_event(void)
{
	char *dir = tu_tmpdir();
	uint64_t cfg;

	free(tu_write(dir, "event", "config:0-7\n"));
	free(tu_write(dir, "umask", "config:8-15\n"));
	free(tu_write(dir, "edge", "config:18\n"));
	free(tu_write(dir, "ldlat", "config1:0-15\n"));
	CU_ASSERT_EQUAL(hrt_pmu_parse_event(dir, "event=0x3c,umask=0x2,edge", &cfg), 0);
	CU_ASSERT_EQUAL(cfg, 0x3c | 0x200 | (1u << 18));
	CU_ASSERT_EQUAL(hrt_pmu_parse_event(dir, "event=0x100", &cfg), -EINVAL);
	CU_ASSERT_EQUAL(hrt_pmu_parse_event(dir, "event=zz", &cfg), -EINVAL);
	CU_ASSERT_EQUAL(hrt_pmu_parse_event(dir, "cmask=1", &cfg), -EINVAL);
	CU_ASSERT_EQUAL(hrt_pmu_parse_event(dir, "ldlat=3", &cfg), -EINVAL);
	tu_rmtree(dir);
	free(dir);
}

/* An event file that exists but makes no sense is an error naming it. */
static void test_bad_event_file(void)
{
	static const char *const msr[] = { "tsc", "event=oops", NULL };
	struct hrt_pmu pmu;
	char *dir = tu_tmpdir();

	fake_pmu(dir, "msr", 9, msr);
	CU_ASSERT_EQUAL(hrt_pmu_discover(&pmu, dir, err, sizeof(err)), -EINVAL);
	TU_ASSERT_CONTAINS(err, "msr/events/tsc");
	TU_ASSERT_CONTAINS(err, "event=oops");
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));
	tu_rmtree(dir);
	free(dir);
}

/* The real msr/tsc perf event, where this machine has it and we are root. */
static void test_real_tsc(void)
{
	struct { uint64_t v, ena, run; } r0, r1;
	struct timespec t0, t1, d = { 0, 50000000 };
	struct hrt_pmu pmu;
	double ghz;

	if (access("/sys/bus/event_source/devices/msr/events/tsc", R_OK))
		TU_SKIP("no msr/tsc perf event here (/sys/bus/event_source/devices/msr/events/tsc)");
	if (geteuid() != 0)
		TU_SKIP("needs root to open the msr/tsc perf event");
	CU_ASSERT_EQUAL_FATAL(hrt_pmu_discover(&pmu,
		"/sys/bus/event_source/devices", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmu.c[0].kind, HRT_PMU_TSC);
	/* A CPU that does not exist: one line naming the event and errno. */
	CU_ASSERT_TRUE(hrt_pmu_open(&pmu, 99999, err, sizeof(err)) < 0);
	TU_ASSERT_CONTAINS(err, "msr/tsc");
	TU_ASSERT_CONTAINS(err, "CPU 99999");
	TU_ASSERT_CONTAINS(err, "errno");
	CU_ASSERT_EQUAL(pmu.c[0].fd, -1);

	CU_ASSERT_EQUAL_FATAL(hrt_pmu_open(&pmu, 0, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmu.cpu, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL_FATAL(read(pmu.c[0].fd, &r0, sizeof(r0)), sizeof(r0));
	nanosleep(&d, NULL);
	CU_ASSERT_EQUAL_FATAL(read(pmu.c[0].fd, &r1, sizeof(r1)), sizeof(r1));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Pinned, never multiplexed: it counted all the time. */
	CU_ASSERT_EQUAL(r1.ena - r1.run, 0);
	ghz = (double)(r1.v - r0.v) /
	      ((double)(t1.tv_sec - t0.tv_sec) * 1e9 +
	       (double)(t1.tv_nsec - t0.tv_nsec));
	/* Any TSC of the last 20 years; the ns-exact check is hrt-test.sh's. */
	CU_ASSERT(ghz > 0.5 && ghz < 6.0);
	hrt_pmu_close(&pmu);
	CU_ASSERT_EQUAL(pmu.c[0].fd, -1);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("hrt counters", NULL, NULL);
	CU_add_test(s, "msr/tsc only", test_tsc_only);
	CU_add_test(s, "nothing without the TSC", test_nothing_without_tsc);
	CU_add_test(s, "full set -> kside columns", test_full_set_to_columns);
	CU_add_test(s, "event spec parsing", test_parse_event);
	CU_add_test(s, "bad event file", test_bad_event_file);
	CU_add_test(s, "real msr/tsc perf event", test_real_tsc);
	return tu_run();
}
