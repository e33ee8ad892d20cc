/* SPDX-License-Identifier: MIT */
/*
 * The scheduler, end to end with the deterministic test source and the
 * checking test sink: limits, end of data, discarded counts, several
 * sinks, failures, signals, result directories and C-state restriction
 * (against a fake sysfs tree).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cstates.h"
#include "plan.h"
#include "plugins.h"
#include "run.h"
#include "signals.h"
#include "testutil.h"

static char *dir, *sysfs;

static void mkfile(const char *rel, const char *text)
{
	char path[1024], cmd[1200];

	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s)\"", path);
	if (system(cmd) == 0)
		free(tu_write(sysfs, rel, text));
}

static int setup(void)
{
	dir = tu_tmpdir();
	sysfs = tu_tmpdir();
	if (!dir || !sysfs)
		return 1;
	mkfile("devices/system/cpu/online", "0-1\n");
	mkfile("devices/system/cpu/cpu1/cpuidle/state0/name", "POLL\n");
	mkfile("devices/system/cpu/cpu1/cpuidle/state0/disable", "0\n");
	mkfile("devices/system/cpu/cpu1/cpuidle/state1/name", "C1\n");
	mkfile("devices/system/cpu/cpu1/cpuidle/state1/disable", "0\n");
	mkfile("devices/system/cpu/cpu1/cpuidle/state2/name", "C6\n");
	mkfile("devices/system/cpu/cpu1/cpuidle/state2/disable", "1\n");
	/* CPU 0 has other states: a source must get the measured CPU's. */
	mkfile("devices/system/cpu/cpu0/cpuidle/state0/name", "CPU0-POLL\n");
	mkfile("devices/system/cpu/cpu0/cpuidle/state1/name", "CPU0-C1E\n");
	mkfile("devices/system/cpu/cpuidle/current_governor", "haltpoll\n");
	mkfile("devices/system/cpu/cpuidle/available_governors", "ladder menu haltpoll\n");
	wfw_signals_install();
	return wfw_plugins_init();
}

static int teardown(void)
{
	tu_rmtree(dir);
	tu_rmtree(sysfs);
	free(dir);
	free(sysfs);
	wfw_plugins_exit();
	return 0;
}

/* Run the single experiment in `body` named `name`; returns run's result. */
static int run(const char *name, const char *body, struct wfw_run_result *r,
	       bool force)
{
	struct wfw_plan_overrides ov = { .sysfs_root = sysfs };
	struct wfw_run_opts ro = { .sysfs_root = sysfs, .force = force };
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	char text[4096], *path;
	int ret;

	snprintf(text, sizeof(text), "outdir = \"%s\";\nname = \"%s\";\n%s", dir, name, body);
	path = tu_write(dir, "exp.cfg", text);
	ret = wfw_plan_load(&plan, path, &ov, &errs);
	wfw_cfgerr_print(&errs);
	wfw_cfgerr_free(&errs);
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	ro.config_file = path;
	wfw_stop_signal = 0;
	ret = wfw_run_experiment(&plan.exps[0], &ro, r);
	wfw_stop_signal = 0;
	wfw_plan_free(&plan);
	free(path);
	return ret;
}

static char *result(const char *name, const char *file)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, file);
	return tu_read(path);
}

#define SINK "sinks = ( { plugin = \"testsink\"; } );\n"

/* The core hands the source the measured CPU's cpuidle names (not CPU 0's). */
static void test_cstate_names_of_measured_cpu(void)
{
	struct wfw_run_result r;
	char *info;

	CU_ASSERT_EQUAL(run("names", "source = { plugin = \"testsrc\"; cpu = 1; total = 10; };\n"
			    SINK, &r, false), 0);
	info = result("names", "info.yml");
	TU_ASSERT_CONTAINS(info, "cstates_handed: 'POLL,C1,C6'");
	free(info);
}

/* A sampler: no launch distance anywhere in the results. */
static void test_sampler_has_no_ldist(void)
{
	struct wfw_run_result r;
	char *info, *cfg, *sink;

	CU_ASSERT_EQUAL(run("sampler", "source = { plugin = \"testsampler\"; cpu = 1; step = 3; };\n"
			    "limits = { datapoints = 25; };\n" SINK, &r, false), 0);
	CU_ASSERT_EQUAL(r.datapoints, 25);
	info = result("sampler", "info.yml");
	cfg = result("sampler", "logs/config");
	sink = result("sampler", "testsink.txt");
	TU_ASSERT_CONTAINS(info, "status: 'complete'");
	CU_ASSERT_PTR_NULL(strstr(info, "ldist"));
	CU_ASSERT_PTR_NULL(strstr(cfg, "ldist"));
	TU_ASSERT_CONTAINS(sink, "rows=25 ");
	free(info);
	free(cfg);
	free(sink);
}

static void test_datapoint_limit(void)
{
	struct wfw_run_result r;
	char *sink, *info, *cfg;

	CU_ASSERT_EQUAL(run("limit", "source = { plugin = \"testsrc\"; cpu = 1; };\n"
			    "limits = { datapoints = 1050; };\n" SINK, &r, false), 0);
	CU_ASSERT_EQUAL(r.datapoints, 1050);
	sink = result("limit", "testsink.txt");
	TU_ASSERT_CONTAINS(sink, "rows=1050 ");
	TU_ASSERT_CONTAINS(sink, "in_order=1 last=1049 ncols=3");
	TU_ASSERT_CONTAINS(sink, "interrupted=0 failed=0");
	info = result("limit", "info.yml");
	TU_ASSERT_CONTAINS(info, "toolname: 'wult'\n");
	TU_ASSERT_CONTAINS(info, "collector: 'wultfw ");
	TU_ASSERT_CONTAINS(info, "cpunum: 1\n");
	TU_ASSERT_CONTAINS(info, "devid: 'testsrc'\n");
	TU_ASSERT_CONTAINS(info, "datapoints: 1050\n");
	TU_ASSERT_CONTAINS(info, "status: 'complete'\n");
	cfg = result("limit", "logs/config");
	TU_ASSERT_CONTAINS(cfg, "rows_per_read = 100;");
	TU_ASSERT_CONTAINS(cfg, "datapoints = 1050L;");
	free(sink);
	free(info);
	free(cfg);
}

static void test_end_of_data(void)
{
	struct wfw_run_result r;
	char *sink;

	CU_ASSERT_EQUAL(run("end", "source = { plugin = \"testsrc\"; cpu = 1; total = 250; rows_per_read = 64; };\n" SINK,
			    &r, false), 0);
	CU_ASSERT_EQUAL(r.datapoints, 250);
	sink = result("end", "testsink.txt");
	TU_ASSERT_CONTAINS(sink, "rows=250 ");
	TU_ASSERT_CONTAINS(sink, "in_order=1 last=249");
	free(sink);
}

static void test_time_limit(void)
{
	struct wfw_run_result r;

	CU_ASSERT_EQUAL(run("time", "source = { plugin = \"testsrc\"; cpu = 1; rows_per_read = 1; delay = \"10ms\"; };\n"
			    "limits = { time = \"300ms\"; };\n" SINK, &r, false), 0);
	/*
	 * The limit ends the run (without it the source never ends; the 10 s
	 * bound is for that, not for a loaded machine's delays); reads of at
	 * least 10 ms each make at most 31 rows in 300 ms.
	 */
	CU_ASSERT(r.duration_s >= 0.29 && r.duration_s < 10);
	CU_ASSERT(r.datapoints >= 1 && r.datapoints <= 31);
}

static void test_discarded(void)
{
	struct wfw_run_result r;
	char *info, *sink;

	CU_ASSERT_EQUAL(run("disc", "source = { plugin = \"testsrc\"; cpu = 1; discard_every = 10; };\n"
			    "limits = { datapoints = 900; };\n" SINK, &r, false), 0);
	CU_ASSERT_EQUAL(r.datapoints, 900);
	CU_ASSERT_EQUAL(r.discarded, 100);
	info = result("disc", "info.yml");
	TU_ASSERT_CONTAINS(info, "discarded: 100\n");
	sink = result("disc", "testsink.txt");
	TU_ASSERT_CONTAINS(sink, "summary_discarded=100");
	free(info);
	free(sink);
}

/* Discarded after the last read kept, as the timer's thread can: counted. */
static void test_discarded_at_stop(void)
{
	struct wfw_run_result r;
	char *info, *sink;

	CU_ASSERT_EQUAL(run("discstop", "source = { plugin = \"testsrc\"; cpu = 1; discard_at_stop = 7; };\n"
			    "limits = { datapoints = 500; };\n" SINK, &r, false), 0);
	CU_ASSERT_EQUAL(r.datapoints, 500);
	CU_ASSERT_EQUAL(r.discarded, 7);
	info = result("discstop", "info.yml");
	TU_ASSERT_CONTAINS(info, "discarded: 7\n");
	sink = result("discstop", "testsink.txt");
	TU_ASSERT_CONTAINS(sink, "rows=500 ");
	TU_ASSERT_CONTAINS(sink, "summary_discarded=7");
	free(info);
	free(sink);
}

static void test_every_sink_sees_every_batch(void)
{
	struct wfw_run_result r;
	char *a, *b;

	CU_ASSERT_EQUAL(run("two", "source = { plugin = \"testsrc\"; cpu = 1; rows_per_read = 37; };\n"
			    "limits = { datapoints = 5000; };\n"
			    "sinks = ( { plugin = \"testsink\"; file = \"a.txt\"; }, { plugin = \"testsink\"; file = \"b.txt\"; } );\n",
			    &r, false), 0);
	a = result("two", "a.txt");
	b = result("two", "b.txt");
	TU_ASSERT_CONTAINS(a, "rows=5000 ");
	TU_ASSERT_CONTAINS(a, "in_order=1 last=4999");
	CU_ASSERT_PTR_NOT_NULL(b);
	if (a && b)
		CU_ASSERT_STRING_EQUAL(a, b);
	free(a);
	free(b);
}

static void test_sink_failure(void)
{
	struct wfw_run_result r;
	char *a, *b, *info;

	CU_ASSERT_NOT_EQUAL(run("sinkfail", "source = { plugin = \"testsrc\"; cpu = 1; };\n"
				"sinks = ( { plugin = \"testsink\"; file = \"a.txt\"; fail_after = 300; },\n"
				"          { plugin = \"testsink\"; file = \"b.txt\"; } );\n", &r, false), 0);
	CU_ASSERT(r.failed);
	CU_ASSERT_EQUAL(r.datapoints, 300);
	a = result("sinkfail", "a.txt");
	b = result("sinkfail", "b.txt");
	/* Both sinks were closed, and the healthy one has every datapoint. */
	TU_ASSERT_CONTAINS(a, "rows=300 ");
	TU_ASSERT_CONTAINS(a, "failed=1");
	/* The failed sink is closed but not flushed again. */
	TU_ASSERT_CONTAINS(a, "flushes=0");
	TU_ASSERT_CONTAINS(b, "rows=300 ");
	TU_ASSERT_CONTAINS(b, "flushes=1");
	info = result("sinkfail", "info.yml");
	TU_ASSERT_CONTAINS(info, "status: 'failed'\n");
	TU_ASSERT_CONTAINS(info, "datapoints: 300\n");
	free(a);
	free(b);
	free(info);
}

static void test_source_failure(void)
{
	struct wfw_run_result r;
	char *sink, *info;

	CU_ASSERT_NOT_EQUAL(run("srcfail", "source = { plugin = \"testsrc\"; cpu = 1; fail_after = 550; };\n" SINK,
				&r, false), 0);
	CU_ASSERT_EQUAL(r.datapoints, 550);
	sink = result("srcfail", "testsink.txt");
	TU_ASSERT_CONTAINS(sink, "rows=550 ");
	info = result("srcfail", "info.yml");
	TU_ASSERT_CONTAINS(info, "status: 'failed'\n");
	free(sink);
	free(info);
}

static void test_signal_stops_cleanly(void)
{
	struct wfw_run_result r;
	char *sink, *info;

	CU_ASSERT_EQUAL(run("sig", "source = { plugin = \"testsrc\"; cpu = 1; };\n"
			    "sinks = ( { plugin = \"testsink\"; raise_after = 500; } );\n", &r, false), 0);
	CU_ASSERT_EQUAL(r.stop_signal, SIGINT);
	CU_ASSERT_FALSE(r.failed);
	CU_ASSERT_EQUAL(r.datapoints, 500);
	sink = result("sig", "testsink.txt");
	TU_ASSERT_CONTAINS(sink, "rows=500 ");
	TU_ASSERT_CONTAINS(sink, "interrupted=1");
	info = result("sig", "info.yml");
	TU_ASSERT_CONTAINS(info, "status: 'interrupted'\n");
	TU_ASSERT_CONTAINS(info, "datapoints: 500\n");
	free(sink);
	free(info);
}

static void test_existing_dir(void)
{
	struct wfw_run_result r;
	const char *body = "source = { plugin = \"testsrc\"; cpu = 1; total = 10; };\n" SINK;

	CU_ASSERT_EQUAL(run("again", body, &r, false), 0);
	CU_ASSERT_EQUAL(run("again", body, &r, false), -EEXIST);
	CU_ASSERT_EQUAL(run("again", body, &r, true), 0);
	CU_ASSERT_EQUAL(r.datapoints, 10);
}

static void test_source_cannot_run(void)
{
	struct wfw_run_result r;
	struct stat st;
	char path[1024];

	CU_ASSERT_EQUAL(run("noopen", "source = { plugin = \"testsrc\"; cpu = 1; fail_open = \"no such device\"; };\n" SINK,
			    &r, false), -ENODEV);
	snprintf(path, sizeof(path), "%s/noopen", dir);
	CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);	/* no empty result dir */
}

static void test_ldist_outside_source_range(void)
{
	struct wfw_run_result r;

	CU_ASSERT_EQUAL(run("range", "source = { plugin = \"testsrc\"; cpu = 1; ldist = [ \"1us\", \"2s\" ]; };\n" SINK,
			    &r, false), -EINVAL);
	CU_ASSERT_EQUAL(run("gran", "source = { plugin = \"testsrc\"; cpu = 1; ldist = [ \"1001ns\", \"1999ns\" ]; ldist_gran = \"1us\"; };\n" SINK,
			    &r, false), -EINVAL);
}

static char *disable_flag(int state)
{
	char rel[256], path[1024];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu1/cpuidle/state%d/disable", state);
	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	return tu_read(path);
}

static void test_cstates_only_and_restore(void)
{
	struct wfw_run_result r;
	char body[2048], *info, *f0, *f1, *f2;

	snprintf(body, sizeof(body),
		 "source = { plugin = \"testsrc\"; cpu = 1; total = 10; watch = \"%s/devices/system/cpu/cpu1/cpuidle/state1/disable\"; };\n"
		 "cstates = { only = [ \"POLL\" ]; };\n" SINK, sysfs);
	CU_ASSERT_EQUAL(run("only", body, &r, false), 0);
	info = result("only", "info.yml");
	/* During the run C1 was disabled ... */
	TU_ASSERT_CONTAINS(info, "watched: '1'\n");
	TU_ASSERT_CONTAINS(info, "cstates: 'POLL on, C1 off, C6 off'\n");
	/* ... and afterwards every flag is as before. */
	f0 = disable_flag(0);
	f1 = disable_flag(1);
	f2 = disable_flag(2);
	CU_ASSERT_EQUAL(f0 ? f0[0] : 'x', '0');
	CU_ASSERT_EQUAL(f1 ? f1[0] : 'x', '0');
	CU_ASSERT_EQUAL(f2 ? f2[0] : 'x', '1');
	free(info);
	free(f0);
	free(f1);
	free(f2);
}

static void test_cstates_restored_after_failure(void)
{
	struct wfw_run_result r;
	char body[2048], *info, *f1, *f2;

	snprintf(body, sizeof(body),
		 "source = { plugin = \"testsrc\"; cpu = 1; fail_after = 20; watch = \"%s/devices/system/cpu/cpu1/cpuidle/state2/disable\"; };\n"
		 "cstates = { disable = [ \"C1\" ]; };\n" SINK, sysfs);
	CU_ASSERT_NOT_EQUAL(run("cfail", body, &r, false), 0);
	info = result("cfail", "info.yml");
	/* 'disable' turns C6 (off before) on: only the named states are off. */
	TU_ASSERT_CONTAINS(info, "watched: '0'\n");
	TU_ASSERT_CONTAINS(info, "cstates: 'POLL on, C1 off, C6 on'\n");
	f1 = disable_flag(1);
	f2 = disable_flag(2);
	CU_ASSERT_EQUAL(f1 ? f1[0] : 'x', '0');
	CU_ASSERT_EQUAL(f2 ? f2[0] : 'x', '1');
	free(info);
	free(f1);
	free(f2);
}

static void test_haltpoll_governor_switched(void)
{
	struct wfw_run_result r;
	char body[2048], path[1024], *info, *gov;

	snprintf(body, sizeof(body),
		 "source = { plugin = \"testsrc\"; cpu = 1; total = 10; watch = \"%s/devices/system/cpu/cpuidle/current_governor\"; };\n"
		 "cstates = { only = [ \"POLL\" ]; };\n" SINK, sysfs);
	CU_ASSERT_EQUAL(run("gov", body, &r, false), 0);
	info = result("gov", "info.yml");
	/* haltpoll ignores disable flags: menu ran the experiment ... */
	TU_ASSERT_CONTAINS(info, "watched: 'menu'\n");
	TU_ASSERT_CONTAINS(info, "cpuidle_governor: 'menu'\n");
	/* ... and haltpoll is back afterwards. */
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpuidle/current_governor", sysfs);
	gov = tu_read(path);
	CU_ASSERT_PTR_NOT_NULL(gov);
	if (gov)
		CU_ASSERT_EQUAL(strncmp(gov, "haltpoll", 8), 0);
	free(info);
	free(gov);
}

static void test_disable_deepest(void)
{
	struct wfw_run_result r;
	char body[2048], *info, *f2;

	/* C6, the deepest state of the fake CPU, starts enabled. */
	mkfile("devices/system/cpu/cpu1/cpuidle/state2/disable", "0\n");
	snprintf(body, sizeof(body),
		 "source = { plugin = \"testsrc\"; cpu = 1; total = 10; watch = \"%s/devices/system/cpu/cpu1/cpuidle/state2/disable\"; };\n"
		 "cstates = { disable_deepest = true; };\n" SINK, sysfs);
	CU_ASSERT_EQUAL(run("deep", body, &r, false), 0);
	info = result("deep", "info.yml");
	/* Off during the run, the others on ... */
	TU_ASSERT_CONTAINS(info, "watched: '1'\n");
	TU_ASSERT_CONTAINS(info, "cstates: 'POLL on, C1 on, C6 off'\n");
	/* ... and on again afterwards. */
	f2 = disable_flag(2);
	CU_ASSERT_EQUAL(f2 ? f2[0] : 'x', '0');
	mkfile("devices/system/cpu/cpu1/cpuidle/state2/disable", "1\n");
	free(info);
	free(f2);
}

static void test_cstates_not_all_off(void)
{
	struct wfw_plan_overrides ov = { .sysfs_root = sysfs };
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	char *path = tu_write(dir, "alloff.cfg",
			      "sinks = ( { plugin = \"testsink\"; } );\n"
			      "experiments = (\n"
			      " { name = \"a\"; source = { plugin = \"testsrc\"; cpu = 1; }; cstates = { only = [ ]; }; },\n"
			      " { name = \"b\"; source = { plugin = \"testsrc\"; cpu = 1; };\n"
			      "   cstates = { disable = [ \"POLL\", \"C1\" ]; disable_deepest = true; }; }\n"
			      ");\n");

	CU_ASSERT_NOT_EQUAL(wfw_plan_load(&plan, path, &ov, &errs), 0);
	CU_ASSERT_EQUAL_FATAL(errs.n, 2);
	TU_ASSERT_CONTAINS(errs.msgs[0], "alloff.cfg:3: experiments[0].cstates.only: this would disable every C-state of CPU 1");
	TU_ASSERT_CONTAINS(errs.msgs[1], "alloff.cfg:5: experiments[1].cstates.disable: this would disable every C-state of CPU 1");
	wfw_cfgerr_free(&errs);
	wfw_plan_free(&plan);
	free(path);
}

static void test_cstate_names_checked(void)
{
	struct wfw_plan_overrides ov = { .sysfs_root = sysfs };
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	char *path = tu_write(dir, "bad.cfg",
			      "name = \"x\";\nsource = { plugin = \"testsrc\"; cpu = 1; };\n" SINK
			      "cstates = { only = [ \"C3\" ]; };\n");

	CU_ASSERT_NOT_EQUAL(wfw_plan_load(&plan, path, &ov, &errs), 0);
	CU_ASSERT_EQUAL_FATAL(errs.n, 1);
	TU_ASSERT_CONTAINS(errs.msgs[0], "bad.cfg:4: cstates.only: CPU 1 has no C-state \"C3\" (it has \"POLL\", \"C1\", \"C6\")");
	wfw_cfgerr_free(&errs);
	wfw_plan_free(&plan);
	free(path);
}

/*
 * Parsing reads nothing of the machine; binding reads the sysfs root it
 * is given: the default CPU, its C-states, and validate() gets the root.
 */
static void test_bound_to_sysfs_root(void)
{
	static const char text[] =
		"name = \"x\";\nsource = { plugin = \"testsrc\"; };\n" SINK
		"cstates = { only = [ \"C9\" ]; };\n";
	char *other = tu_tmpdir(), *keep = sysfs, *path;
	struct wfw_plan_overrides ov = { 0 };
	struct wfw_cfgerr errs = { 0 };
	struct wfw_experiment e = { 0 };
	struct wfw_plan plan;
	config_t cfg;

	sysfs = other;
	mkfile("devices/system/cpu/online", "0-5\n");
	mkfile("devices/system/cpu/cpu5/cpuidle/state0/name", "POLL\n");
	mkfile("devices/system/cpu/cpu5/cpuidle/state1/name", "C9\n");
	sysfs = keep;
	config_init(&cfg);
	CU_ASSERT_FATAL(config_read_string(&cfg, text) == CONFIG_TRUE);
	wfw_experiment_parse(&e, NULL, config_root_setting(&cfg), "", NULL, &errs);
	CU_ASSERT_EQUAL(errs.n, 0);
	CU_ASSERT_EQUAL(e.cpu, -1);
	CU_ASSERT_PTR_NULL(e.cstates);
	wfw_experiment_free(&e);
	config_destroy(&cfg);

	path = tu_write(dir, "bound.cfg", text);
	ov.sysfs_root = other;
	CU_ASSERT_EQUAL_FATAL(wfw_plan_load(&plan, path, &ov, &errs), 0);
	CU_ASSERT_EQUAL(plan.exps[0].cpu, 5);
	CU_ASSERT_EQUAL_FATAL(plan.exps[0].ncstates, 1);
	CU_ASSERT_STRING_EQUAL(plan.exps[0].cstates[0], "C9");
	CU_ASSERT_STRING_EQUAL(plan.exps[0].source.ctx.sysfs_root, other);
	wfw_plan_free(&plan);
	wfw_cfgerr_free(&errs);
	tu_rmtree(other);
	free(other);
	free(path);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("scheduler", setup, teardown);
	CU_add_test(s, "datapoint limit is exact", test_datapoint_limit);
	CU_add_test(s, "source end of data", test_end_of_data);
	CU_add_test(s, "time limit", test_time_limit);
	CU_add_test(s, "discarded datapoints counted", test_discarded);
	CU_add_test(s, "discarded after the limit counted", test_discarded_at_stop);
	CU_add_test(s, "every sink sees every batch", test_every_sink_sees_every_batch);
	CU_add_test(s, "a failing sink stops the run, others closed", test_sink_failure);
	CU_add_test(s, "a failing source stops the run", test_source_failure);
	CU_add_test(s, "SIGINT stops cleanly", test_signal_stops_cleanly);
	CU_add_test(s, "existing result directory", test_existing_dir);
	CU_add_test(s, "source that cannot run leaves nothing", test_source_cannot_run);
	CU_add_test(s, "ldist outside the source's range", test_ldist_outside_source_range);
	CU_add_test(s, "C-state names of the measured CPU", test_cstate_names_of_measured_cpu);
	CU_add_test(s, "a sampler has no ldist", test_sampler_has_no_ldist);
	CU_add_test(s, "C-state restriction applied and restored", test_cstates_only_and_restore);
	CU_add_test(s, "C-states restored after a failure", test_cstates_restored_after_failure);
	CU_add_test(s, "haltpoll governor switched and restored", test_haltpoll_governor_switched);
	CU_add_test(s, "all but the deepest C-state", test_disable_deepest);
	CU_add_test(s, "C-state names checked", test_cstate_names_checked);
	CU_add_test(s, "C-states cannot all be turned off", test_cstates_not_all_off);
	CU_add_test(s, "bound to the sysfs root given", test_bound_to_sysfs_root);
	return tu_run();
}
