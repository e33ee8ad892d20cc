/* SPDX-License-Identifier: MIT */
/*
 * The telemetry source: each provider against fake procfs/sysfs trees
 * (counts, 32-bit wrap, a counter that goes away, an unreadable file,
 * did-you-mean), the real /proc and perf here, and the source through its
 * ops: single stops at max_samples, repetitive overwrites and counts,
 * on_demand samples once per read, clear gives deltas, and net:lo:rx_packets
 * counts exactly the UDP packets this test sends over a loopback of its own
 * (a fresh network namespace, so no other traffic lands on it).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "pace.h"
#include "tele_defaults.h"
#include "tele_priv.h"
#include "testopts.h"
#include "testutil.h"

extern const struct wultfw_plugin telemetry_LTX_wultfw_plugin;
static const struct wultfw_plugin *pl = &telemetry_LTX_wultfw_plugin;

/* ---- fake trees ---- */

static char root[256];

static void mkdir_p(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "mkdir -p '%s'", path);
	CU_ASSERT_EQUAL(system(buf), 0);
}

/* Write text at root/rel, making its directory. */
static void put(const char *rel, const char *text)
{
	char path[512], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	mkdir_p(path);
	*slash = '/';
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void fake_setup(void)
{
	char *tmp = tu_tmpdir();

	snprintf(root, sizeof(root), "%s", tmp);
	free(tmp);
}

static struct tele_env fake_env(void)
{
	static char sys[300], proc[300];

	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	return (struct tele_env){ sys, proc };
}

static int gone_calls;
static char gone_name[TELE_NAME_LEN];

static void on_gone(void *arg, const struct tele_slot *s, int err)
{
	(void)arg;
	(void)err;
	gone_calls++;
	snprintf(gone_name, sizeof(gone_name), "%s", s->c.name);
}

static int open_set(struct tele_set *set, const char *const *names, size_t n,
		    char *why)
{
	struct tele_env env = fake_env();
	int ret = tele_set_open(set, &env, names, n, false, why, 512);

	if (!ret)
		ret = tele_set_baseline(set, why, 512);
	return ret;
}

#define IRQ_HDR "           CPU0       CPU1       CPU3\n"

static void test_interrupts_wrap_and_gone(void)
{
	const char *names[] = { "interrupts:LOC:cpu1", "interrupts:ERR", "interrupts:24:cpu3" };
	struct tele_set set;
	int64_t v[3];
	char why[512];

	fake_setup();
	put("proc/interrupts", IRQ_HDR
	    "  24:          1          2          3   PCI-MSI  eth0\n"
	    " LOC:        100 4294967290        300   Local timer interrupts\n"
	    " ERR:          7\n");
	CU_ASSERT_EQUAL_FATAL(open_set(&set, names, 3, why), 0);
	put("proc/interrupts", IRQ_HDR
	    "  24:          1          2         13   PCI-MSI  eth0\n"
	    " LOC:        100          5        300   Local timer interrupts\n"
	    " ERR:          9\n");
	gone_calls = 0;
	tele_set_sample(&set, true, false, v, NULL, on_gone, NULL);
	/* 4294967290 -> 5 through 2^32: 11 more, unwrapped */
	CU_ASSERT_EQUAL(v[0], 4294967301LL);
	CU_ASSERT_EQUAL(v[1], 9);
	CU_ASSERT_EQUAL(v[2], 13);
	/* CPU 3 goes offline: its column is gone, the rest go on */
	put("proc/interrupts", "           CPU0       CPU1\n"
	    "  24:          1          2   PCI-MSI  eth0\n"
	    " LOC:        100          8   Local timer interrupts\n"
	    " ERR:          9\n");
	tele_set_sample(&set, true, true, v, NULL, on_gone, NULL);
	CU_ASSERT_EQUAL(v[0], 3);
	CU_ASSERT_EQUAL(v[1], 0);
	CU_ASSERT_EQUAL(v[2], WULTFW_CELL_EMPTY);
	CU_ASSERT_EQUAL(gone_calls, 1);
	CU_ASSERT_STRING_EQUAL(gone_name, "interrupts:24:cpu3");
	tele_set_sample(&set, true, true, v, NULL, on_gone, NULL);
	CU_ASSERT_EQUAL(v[2], WULTFW_CELL_EMPTY);
	CU_ASSERT_EQUAL(gone_calls, 1);	/* said once */
	tele_set_close(&set);
	tu_rmtree(root);
}


static bool has(const struct tele_defaults *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i], name))
			return true;
	return false;
}

/*
 * No counters named: every per-CPU counter of the measured CPU, and only
 * its own (cpu1, never cpu11's or the all-CPU lines).
 */
static void test_default_counters(void)
{
	struct tele_env env;
	struct tele_defaults d;
	size_t i;

	fake_setup();
	env = fake_env();
	put("proc/interrupts", "           CPU0       CPU1      CPU11\n"
	    "  24:          1          2          3   PCI-MSI  eth0\n"
	    " LOC:        100        200        300   Local timer interrupts\n"
	    " ERR:          7\n");
	put("proc/softirqs", "                    CPU0       CPU1      CPU11\n"
	    "      TIMER:          1          2          3\n");
	put("proc/stat", "cpu  5 0 0 0 0 0 0 0 0 0\ncpu0 2 0 0 100 0 0 0 0 0 0\n"
	    "cpu1 3 0 0 100 0 0 0 0 0 0\ncpu11 3 0 0 100 0 0 0 0 0 0\nctxt 42\n");
	CU_ASSERT_EQUAL_FATAL(tele_defaults_list(&d, &env, 1), 0);
	CU_ASSERT(d.n >= 4);
	for (i = 0; i < d.n; i++) {
		CU_ASSERT_PTR_NOT_NULL(strstr(d.v[i], ":cpu1"));
		CU_ASSERT_PTR_NULL(strstr(d.v[i], "cpu11"));
		CU_ASSERT_PTR_NULL(strstr(d.v[i], "ctxt"));
		CU_ASSERT_PTR_NULL(strstr(d.v[i], "net:"));
	}
	CU_ASSERT(has(&d, "interrupts:LOC:cpu1"));
	CU_ASSERT(has(&d, "interrupts:24:cpu1"));
	CU_ASSERT(has(&d, "softirqs:TIMER:cpu1"));
	CU_ASSERT(has(&d, "stat:cpu1:idle"));
	tele_defaults_free(&d);
	/* CPU 5 is in no table: nothing, and the source says what to do */
	CU_ASSERT_EQUAL(tele_defaults_list(&d, &env, 5), 0);
	CU_ASSERT_EQUAL(d.n, 0);
	tele_defaults_free(&d);
	tu_rmtree(root);
}

/*
 * clear: the deltas of one set add up to the running total another set
 * reads of the same counter, across two 32-bit wraps.
 */
static void test_clear_sums_to_total(void)
{
	static const char *const steps[] = { "4294967290", "5", "4000000000", "17" };
	const char *names[] = { "interrupts:LOC:cpu1" };
	struct tele_set totals, deltas;
	int64_t first, last = 0, v, sum = 0;
	char why[512], text[256];
	size_t i;

	fake_setup();
	snprintf(text, sizeof(text), IRQ_HDR " LOC:  1  %s  3   Local timer\n", "4294967000");
	put("proc/interrupts", text);
	CU_ASSERT_EQUAL_FATAL(open_set(&totals, names, 1, why), 0);
	CU_ASSERT_EQUAL_FATAL(open_set(&deltas, names, 1, why), 0);
	tele_set_sample(&totals, true, false, &first, NULL, NULL, NULL);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		snprintf(text, sizeof(text), IRQ_HDR " LOC:  1  %s  3   Local timer\n", steps[i]);
		put("proc/interrupts", text);
		tele_set_sample(&deltas, true, true, &v, NULL, NULL, NULL);
		CU_ASSERT(v >= 0);
		sum += v;
		tele_set_sample(&totals, true, false, &last, NULL, NULL, NULL);
	}
	CU_ASSERT_EQUAL(first, 4294967000LL);
	CU_ASSERT_EQUAL(last, 2 * 4294967296LL + 17);
	CU_ASSERT_EQUAL(sum, last - first);
	tele_set_close(&totals);
	tele_set_close(&deltas);
	tu_rmtree(root);
}

static void test_softirqs_and_stat(void)
{
	const char *names[] = { "softirqs:TIMER:cpu1", "stat:cpu1:idle", "stat:cpu:user", "stat:ctxt" };
	struct tele_set set;
	int64_t v[4];
	char why[512];

	fake_setup();
	put("proc/softirqs", "                    CPU0       CPU1\n"
	    "          HI:          0          0\n       TIMER:         10         20\n");
	put("proc/stat", "cpu  5 0 0 0 0 0 0 0 0 0\ncpu0 2 0 0 100 0 0 0 0 0 0\n"
	    "cpu1 3 0 0 200 0 0 0 0 0 0\nintr 1 2 3\nctxt 1000\n");
	CU_ASSERT_EQUAL_FATAL(open_set(&set, names, 4, why), 0);
	put("proc/softirqs", "                    CPU0       CPU1\n"
	    "          HI:          0          0\n       TIMER:         10         25\n");
	put("proc/stat", "cpu  9 0 0 0 0 0 0 0 0 0\ncpu0 2 0 0 100 0 0 0 0 0 0\n"
	    "cpu1 3 0 0 260 0 0 0 0 0 0\nintr 1 2 3\nctxt 1500\n");
	tele_set_sample(&set, false, true, v, NULL, on_gone, NULL);
	CU_ASSERT_EQUAL(v[0], 5);
	CU_ASSERT_EQUAL(v[1], 60);
	CU_ASSERT_EQUAL(v[2], 4);
	CU_ASSERT_EQUAL(v[3], 500);
	CU_ASSERT_STRING_EQUAL(set.slots[1].c.unit, "ticks");
	tele_set_close(&set);
	tu_rmtree(root);
}

static void test_sysfs_providers(void)
{
	const char *names[] = { "net:veth0:rx_packets", "cpuidle:cpu0:state1:time",
				"cpufreq:cpu0:cur_freq", "thermal:zone0:temp",
				"aer:0000:00:1c.0:correctable:RxErr" };
	struct tele_set set;
	int64_t v[5], t[5];
	char why[512], path[512], *kinds;

	fake_setup();
	put("sys/class/net/veth0/statistics/rx_packets", "18446744073709551610\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state0/name", "POLL\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/name", "C1\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/time", "1000\n");
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2000000\n");
	put("sys/class/thermal/thermal_zone0/temp", "-5000\n");
	put("sys/bus/pci/devices/0000:00:1c.0/aer_dev_correctable",
	    "RxErr 1\nBadTLP 0\nTOTAL_ERR_COR 1\n");
	CU_ASSERT_EQUAL_FATAL(open_set(&set, names, 5, why), 0);
	put("sys/class/net/veth0/statistics/rx_packets", "4\n");	/* 64-bit wrap */
	put("sys/devices/system/cpu/cpu0/cpuidle/state1/time", "1500\n");
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2100000\n");
	put("sys/bus/pci/devices/0000:00:1c.0/aer_dev_correctable",
	    "RxErr 3\nBadTLP 0\nTOTAL_ERR_COR 3\n");
	tele_set_sample(&set, true, true, v, t, on_gone, NULL);
	CU_ASSERT_EQUAL(v[0], 10);
	CU_ASSERT_EQUAL(v[1], 500);
	CU_ASSERT_EQUAL(v[2], 2100000);		/* a level, not a delta */
	CU_ASSERT_EQUAL(v[3], -5000);
	CU_ASSERT_EQUAL(v[4], 2);
	CU_ASSERT(t[0] > 0 && t[0] <= t[4]);
	/* what info.yml's telemetry_kinds says of each column */
	kinds = tele_set_kinds_text(&set, false);
	CU_ASSERT_STRING_EQUAL(kinds, "total total level level total");
	free(kinds);
	kinds = tele_set_kinds_text(&set, true);
	CU_ASSERT_STRING_EQUAL(kinds, "increase increase level level increase");
	free(kinds);
	/* the interface is removed: an empty cell, a reason, no crash */
	snprintf(path, sizeof(path), "%s/sys/class/net/veth0", root);
	tu_rmtree(path);
	gone_calls = 0;
	tele_set_sample(&set, true, true, v, t, on_gone, NULL);
	CU_ASSERT_EQUAL(v[0], WULTFW_CELL_EMPTY);
	CU_ASSERT_EQUAL(t[0], WULTFW_CELL_EMPTY);
	CU_ASSERT_EQUAL(v[1], 0);
	CU_ASSERT_EQUAL(gone_calls, 1);
	tele_set_close(&set);
	tu_rmtree(root);
}

static void test_bad_names(void)
{
	struct tele_set set;
	char why[512], path[512];
	const char *typo[] = { "net:lo:rx_packet" };
	const char *prov[] = { "interupts:LOC:cpu0" };
	const char *unreadable[] = { "net:lo:tx_bytes" };
	const char *none[] = { "cpufreq:cpu0:cur_freq" };

	fake_setup();
	put("sys/class/net/lo/statistics/rx_packets", "1\n");
	put("sys/devices/system/cpu/cpu0/online", "1\n");
	CU_ASSERT_NOT_EQUAL(open_set(&set, typo, 1, why), 0);
	TU_ASSERT_CONTAINS(why, "did you mean 'net:lo:rx_packets'");
	CU_ASSERT_NOT_EQUAL(open_set(&set, prov, 1, why), 0);
	TU_ASSERT_CONTAINS(why, "did you mean 'interrupts'");
	/* a file that cannot be read (a directory here: root reads anything) */
	snprintf(path, sizeof(path), "%s/sys/class/net/lo/statistics/tx_bytes", root);
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	CU_ASSERT_NOT_EQUAL(open_set(&set, unreadable, 1, why), 0);
	TU_ASSERT_CONTAINS(why, "counter 'net:lo:tx_bytes': cannot read it from");
	TU_ASSERT_CONTAINS(why, "Is a directory");
	CU_ASSERT_NOT_EQUAL(open_set(&set, none, 1, why), 0);
	TU_ASSERT_CONTAINS(why, "no cpufreq driver");
	tu_rmtree(root);
}

/*
 * Counters this machine cannot give are left out with their reason (one
 * reason naming them together); strict refuses; a wrong name is refused
 * either way; none readable is a failure.
 */
static void test_missing_left_out(void)
{
	const char *names[] = { "cpuidle:cpu0:state0:usage", "stat:ctxt",
				"net:eth9:rx_packets", "cpuidle:cpu0:state1:time" };
	const char *malformed[] = { "stat:ctxt", "cpuidle:cpu0" };
	const char *none[] = { "cpuidle:cpu0:state0:usage", "net:eth9:rx_packets" };
	struct tele_env env;
	struct tele_set set;
	char why[512], text[1024];
	int64_t v[4];

	fake_setup();
	env = fake_env();
	put("proc/stat", "cpu  1 2 3 4 5 6 7 8 0 0\nctxt 42\n");
	put("sys/devices/system/cpu/cpu0/online", "1\n");
	put("sys/class/net/lo/statistics/rx_packets", "1\n");
	CU_ASSERT_EQUAL_FATAL(tele_set_open(&set, &env, names, 4, false, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(set.n, 1);
	CU_ASSERT_STRING_EQUAL(set.slots[0].c.name, "stat:ctxt");
	CU_ASSERT_EQUAL(set.nmissing, 3);
	tele_set_missing_text(&set, "", text, sizeof(text));
	TU_ASSERT_CONTAINS(text, "cpuidle:cpu0:state0:usage, cpuidle:cpu0:state1:time (CPU 0 has no cpuidle states (cpuidle driver: none)); net:eth9:rx_packets (");
	TU_ASSERT_CONTAINS(text, "did you mean 'net:lo:rx_packets'");
	tele_set_missing_text(&set, "", text, 60);	/* cut, and says so */
	CU_ASSERT(strlen(text) < 60);
	TU_ASSERT_CONTAINS(text, "... (3 counters in all)");
	CU_ASSERT_EQUAL(tele_set_baseline(&set, why, sizeof(why)), 0);
	tele_set_sample(&set, true, false, v, NULL, NULL, NULL);
	CU_ASSERT_EQUAL(v[0], 42);
	tele_set_close(&set);

	CU_ASSERT_EQUAL(tele_set_open(&set, &env, names, 4, true, why, sizeof(why)), -ENOENT);
	TU_ASSERT_CONTAINS(why, "counter 'cpuidle:cpu0:state0:usage': CPU 0 has no cpuidle states");
	CU_ASSERT_EQUAL(tele_set_open(&set, &env, malformed, 2, false, why, sizeof(why)), -EINVAL);
	TU_ASSERT_CONTAINS(why, "counter 'cpuidle:cpu0': 'cpu0' is not cpuN:stateK:usage");
	CU_ASSERT_NOT_EQUAL(tele_set_open(&set, &env, none, 2, false, why, sizeof(why)), 0);
	TU_ASSERT_CONTAINS(why, "none of its counters can be read here: cpuidle:cpu0:state0:usage (");
	TU_ASSERT_CONTAINS(why, "; net:eth9:rx_packets (");
	/* a CPU with states, but not the one asked for */
	put("sys/devices/system/cpu/cpu0/cpuidle/state0/name", "POLL\n");
	put("sys/devices/system/cpu/cpu0/cpuidle/state0/usage", "7\n");
	CU_ASSERT_EQUAL(tele_set_open(&set, &env, names + 3, 1, false, why, sizeof(why)), -ENOENT);
	TU_ASSERT_CONTAINS(why, "CPU 0 has cpuidle states 0-0 only");
	CU_ASSERT_EQUAL_FATAL(tele_set_open(&set, &env, names, 1, false, why, sizeof(why)), 0);
	tele_set_close(&set);
	tu_rmtree(root);
}

/*
 * The unit text, through an event that opens: the fake PMU takes the real
 * msr PMU's type, so its event 0 is the TSC, labelled as RAPL labels energy.
 */
static void test_perf_fake_unit(void)
{
	const char *energy[] = { "perf:power/energy-pkg" };
	struct tele_env env;
	struct tele_set set;
	char why[512], type[32] = "";
	FILE *f = fopen("/sys/bus/event_source/devices/msr/type", "r");

	if (f) {
		if (!fgets(type, sizeof(type), f))
			type[0] = '\0';
		fclose(f);
	}
	if (!type[0])
		TU_SKIP("no msr perf PMU here (/sys/bus/event_source/devices/msr/type)");
	if (geteuid())
		TU_SKIP("needs root to open an event of the msr perf PMU");
	fake_setup();
	env = fake_env();
	put("sys/bus/event_source/devices/power/type", type);
	put("sys/bus/event_source/devices/power/cpumask", "0\n");
	put("sys/bus/event_source/devices/power/format/event", "config:0-63\n");
	put("sys/bus/event_source/devices/power/events/energy-pkg", "event=0x00\n");
	put("sys/bus/event_source/devices/power/events/energy-pkg.unit", "Joules\n");
	put("sys/bus/event_source/devices/power/events/energy-pkg.scale",
	    "2.3283064365386962890625e-10\n");
	CU_ASSERT_EQUAL_FATAL(tele_set_open(&set, &env, energy, 1, false, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(set.slots[0].c.unit, "2.3283064365386962890625e-10 Joules");
	tele_set_close(&set);
	tu_rmtree(root);
}

/*
 * perf names resolved through a fake event_source tree: the PMU's type,
 * cpumask and an event's unit and scale are read (RAPL's energy-pkg);
 * type 99999 is no PMU, so perf_event_open refuses and names the CPU the
 * cpumask gave.
 */
static void test_perf_fake_pmu(void)
{
	const char *energy[] = { "perf:power/energy-pkg" };
	const char *noev[] = { "perf:power/energy-gpu" };
	const char *nopmu[] = { "perf:nosuch/tsc" };
	struct tele_env env;
	struct tele_set set;
	char why[512];

	fake_setup();
	env = fake_env();
	put("sys/bus/event_source/devices/power/type", "99999\n");
	put("sys/bus/event_source/devices/power/cpumask", "1\n");
	put("sys/bus/event_source/devices/power/format/event", "config:0-7\n");
	put("sys/bus/event_source/devices/power/events/energy-pkg", "event=0x02\n");
	put("sys/bus/event_source/devices/power/events/energy-pkg.unit", "Joules\n");
	put("sys/bus/event_source/devices/power/events/energy-pkg.scale",
	    "2.3283064365386962890625e-10\n");
	CU_ASSERT_NOT_EQUAL(tele_set_open(&set, &env, energy, 1, false, why, sizeof(why)), 0);
	TU_ASSERT_CONTAINS(why, "perf_event_open(power/energy-pkg on CPU 1)");
	CU_ASSERT_NOT_EQUAL(tele_set_open(&set, &env, noev, 1, false, why, sizeof(why)), 0);
	TU_ASSERT_CONTAINS(why, "PMU 'power' has no event 'energy-gpu'");
	CU_ASSERT_NOT_EQUAL(tele_set_open(&set, &env, nopmu, 1, false, why, sizeof(why)), 0);
	TU_ASSERT_CONTAINS(why, "no perf PMU 'nosuch'");
	tu_rmtree(root);
}

/* ---- the real machine ---- */

static void test_real_procfs(void)
{
	struct tele_env env = { "/sys", "/proc" };
	const char *names[] = { "interrupts:LOC:cpu0", "stat:cpu:idle", "stat:ctxt" };
	struct tele_set set;
	int64_t v[3];
	char why[512];

	CU_ASSERT_EQUAL_FATAL(tele_set_open(&set, &env, names, 3, false, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(tele_set_baseline(&set, why, sizeof(why)), 0);
	usleep(50000);
	tele_set_sample(&set, true, true, v, NULL, NULL, NULL);
	CU_ASSERT(v[2] > 0);	/* this process alone switched context */
	CU_ASSERT(v[0] >= 0 && v[1] >= 0);
	tele_set_close(&set);
}

static void test_real_perf_tsc(void)
{
	struct tele_env env = { "/sys", "/proc" };
	const char *tsc[] = { "perf:msr/tsc" };
	struct tele_set set;
	int64_t v[1];
	char why[512];

	if (access("/sys/bus/event_source/devices/msr/events/tsc", F_OK))
		TU_SKIP("no msr perf PMU with a tsc event here (/sys/bus/event_source/devices/msr/events/tsc)");
	if (geteuid())
		TU_SKIP("needs root to open perf:msr/tsc");
	CU_ASSERT_EQUAL_FATAL(tele_set_open(&set, &env, tsc, 1, false, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(tele_set_baseline(&set, why, sizeof(why)), 0);
	usleep(10000);
	tele_set_sample(&set, true, true, v, NULL, NULL, NULL);
	/* 10 ms of any TSC above 100 MHz */
	CU_ASSERT(v[0] > 1000000);
	tele_set_close(&set);
}

/* ---- the source through its ops ---- */

struct harness {
	struct wfw_optvals ov;
	struct wultfw_ctx ctx;
	struct wultfw_source_info info;
	struct wultfw_batch b;
	char log[8192];
	char info_yml[4096];
	char warned[256];	/* the option each warning blamed: "counters," */
};

static void h_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		  const char *msg)
{
	struct harness *h = ctx->host_data;
	size_t len = strlen(h->log);

	snprintf(h->log + len, sizeof(h->log) - len, "%s\n", msg);
	len = strlen(h->warned);
	if (level == WULTFW_LOG_WARN)
		snprintf(h->warned + len, sizeof(h->warned) - len, "%s,",
			 ctx->bad_opt >= 0 ? pl->options[ctx->bad_opt].name : "-");
}

static void h_info(struct wultfw_ctx *ctx, const char *key, const char *value)
{
	struct harness *h = ctx->host_data;
	size_t len = strlen(h->info_yml);

	snprintf(h->info_yml + len, sizeof(h->info_yml) - len, "%s: %s\n", key, value);
}

static const struct wultfw_host h_host = { .log = h_log, .info = h_info };

static int h_open(struct harness *h, const char *group, const char *sys)
{
	char text[1024];
	int ret;

	memset(h, 0, sizeof(*h));
	snprintf(text, sizeof(text), "source = { %s };", group);
	CU_ASSERT_EQUAL_FATAL(to_option_values(pl, text, &h->ov), 0);
	h->ctx.plugin = pl;
	h->ctx.opts = h->ov.vals;
	h->ctx.cfg = h->ov.cfg;
	h->ctx.sysfs_root = sys;
	h->ctx.host = &h_host;
	h->ctx.host_data = h;
	h->ctx.cpu = 0;
	h->ctx.bad_opt = -1;
	ret = pl->validate(&h->ctx);
	if (!ret)
		ret = pl->source->open(&h->ctx, &h->info);
	if (ret)
		return ret;
	h->b.ncols = h->info.schema->ncols;
	h->b.capacity = 4096;
	h->b.cells = calloc(h->b.capacity * h->b.ncols, sizeof(*h->b.cells));
	return pl->source->start(&h->ctx, &(struct wultfw_source_params){ .cpu = 0 });
}

static void h_close(struct harness *h)
{
	pl->source->close(&h->ctx);
	free(h->b.cells);
	wfw_options_free(&h->ov);
}

static void test_options(void)
{
	struct harness h;

	/* none named: CPU 0's own counters (every machine has its LOC) */
	CU_ASSERT_EQUAL(h_open(&h, "", "/sys"), 0);
	CU_ASSERT(h.info.schema->ncols > 3);
	for (size_t i = 2; i < h.info.schema->ncols; i++)
		CU_ASSERT_PTR_NOT_NULL(strstr(h.info.schema->cols[i].name, ":cpu0"));
	pl->source->stop(&h.ctx);
	h_close(&h);
	CU_ASSERT_EQUAL(h_open(&h, "counters = [ \"stat:ctxt\" ]; mode = \"repetitive\";", "/sys"), -EINVAL);
	TU_ASSERT_CONTAINS(h.ctx.err, "max_samples");
	h_close(&h);
	CU_ASSERT_EQUAL(h_open(&h, "counters = [ \"stat:ctxt\", \"net:lo:rx_bytes\" ]; layout = \"value\";", "/sys"), 0);
	CU_ASSERT_EQUAL(h.info.schema->ncols, 6);
	CU_ASSERT_STRING_EQUAL(h.info.schema->cols[0].name, "Time");
	CU_ASSERT_STRING_EQUAL(h.info.schema->cols[1].name, "SampleWindow");
	CU_ASSERT_STRING_EQUAL(h.info.schema->cols[4].name, "net:lo:rx_bytes");
	CU_ASSERT_STRING_EQUAL(h.info.schema->cols[4].unit, "bytes");
	CU_ASSERT_STRING_EQUAL(h.info.schema->cols[5].name, "net:lo:rx_bytes.Time");
	pl->source->stop(&h.ctx);
	h_close(&h);
}

static void test_single_stops_at_max(void)
{
	struct harness h;
	int ret = 0, reads = 0;

	CU_ASSERT_EQUAL_FATAL(h_open(&h, "counters = [ \"stat:ctxt\" ]; period = \"1ms\"; max_samples = 7; clear = true;", "/sys"), 0);
	while (reads++ < 100000 && (ret = pl->source->read(&h.ctx, &h.b, 100000000)) == WULTFW_READ_OK)
		;
	CU_ASSERT_EQUAL(ret, WULTFW_READ_END);
	CU_ASSERT_EQUAL(h.b.rows, 7);
	/* a read after the end takes nothing */
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), WULTFW_READ_END);
	CU_ASSERT_EQUAL(h.b.rows, 7);
	pl->source->stop(&h.ctx);
	TU_ASSERT_CONTAINS(h.info_yml, "telemetry_kinds: increase\n");
	TU_ASSERT_CONTAINS(h.info_yml, "telemetry_samples: 7");
	TU_ASSERT_CONTAINS(h.info_yml, "telemetry_period_achieved_ns: ");
	h_close(&h);
}

/*
 * single mode declares its period, and read() as the core calls it on
 * that schedule: the achieved period is measured and recorded.
 */
static void test_achieved_period(void)
{
	struct wfw_pace pace;
	struct harness h;
	const char *p;
	int ret;

	CU_ASSERT_EQUAL_FATAL(h_open(&h, "counters = [ \"stat:ctxt\" ]; period = \"20ms\"; max_samples = 10;", "/sys"), 0);
	CU_ASSERT_EQUAL(h.info.period_ns, 20000000);
	CU_ASSERT_TRUE(h.info.period_aligned);	/* sync_start */
	wfw_pace_start(&pace, h.info.period_ns, h.info.period_aligned);
	do {
		while (!wfw_pace_wait(&pace, 100000000))
			;
		ret = pl->source->read(&h.ctx, &h.b, 0);
		wfw_pace_next(&pace);
	} while (ret == WULTFW_READ_OK);
	pl->source->stop(&h.ctx);
	p = strstr(h.info_yml, "telemetry_period_achieved_ns: ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	double got = strtod(p + strlen("telemetry_period_achieved_ns: "), NULL);

	/*
	 * Recorded and plausible only: deadlines are absolute, but a first
	 * sample taken late on a loaded machine makes the mean period of the
	 * rest shorter than asked, so no tighter bound holds everywhere.
	 */
	CU_ASSERT(got > 0);
	CU_ASSERT(got < 20e6 * 50);
	h_close(&h);
}

static void test_repetitive_overwrites(void)
{
	struct harness h;
	struct tele_priv *p;
	uint64_t rows = 0;
	int waited = 0;

	CU_ASSERT_EQUAL_FATAL(h_open(&h, "counters = [ \"stat:ctxt\" ]; mode = \"repetitive\"; period = \"1ms\"; max_samples = 4;", "/sys"), 0);
	p = h.ctx.priv;
	/* no timing margin: wait (up to 20 s) until more than the ring was taken */
	while (waited++ < 2000) {
		pthread_mutex_lock(&p->lock);
		bool enough = p->taken >= 12;

		pthread_mutex_unlock(&p->lock);
		if (enough)
			break;
		usleep(10000);
	}
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), WULTFW_READ_OK);
	CU_ASSERT_EQUAL(h.b.rows, 4);
	pl->source->stop(&h.ctx);
	rows = h.b.rows;
	h.b.rows = 0;
	pl->source->read(&h.ctx, &h.b, 0);	/* drain after stop */
	rows += h.b.rows;
	CU_ASSERT(p->overwrites >= 8);
	CU_ASSERT_EQUAL(rows + p->overwrites, p->taken);
	TU_ASSERT_CONTAINS(h.info_yml, "telemetry_overwrites: ");
	TU_ASSERT_CONTAINS(h.log, "overwritten");
	h_close(&h);
}

static void test_on_demand(void)
{
	struct harness h;

	CU_ASSERT_EQUAL_FATAL(h_open(&h, "counters = [ \"stat:ctxt\" ]; mode = \"on_demand\"; period = \"1h\";", "/sys"), 0);
	for (int i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), WULTFW_READ_OK);
	CU_ASSERT_EQUAL(h.b.rows, 5);
	pl->source->stop(&h.ctx);
	TU_ASSERT_CONTAINS(h.info_yml, "telemetry_samples: 5");
	h_close(&h);
}

/* A missing counter through the source: one warning at `counters`, the
 * rest sampled, info.yml names it; strict refuses. */
static void test_missing_through_source(void)
{
	struct harness h;
	char group[1024], sys[300];

	fake_setup();
	put("proc/stat", "cpu  1 2 3 4 5 6 7 8 0 0\nctxt 42\n");
	snprintf(sys, sizeof(sys), "%s/sys", root);
	put("sys/devices/system/cpu/cpu0/online", "1\n");
	snprintf(group, sizeof(group),
		 "counters = [ \"cpuidle:cpu0:state0:usage\", \"stat:ctxt\", \"cpuidle:cpu0:state0:time\" ]; "
		 "proc_root = \"%s/proc\"; period = \"1s\"; max_samples = 1;", root);
	CU_ASSERT_EQUAL_FATAL(h_open(&h, group, sys), 0);
	CU_ASSERT_STRING_EQUAL(h.warned, "counters,");
	TU_ASSERT_CONTAINS(h.log, "2 of 3 counters cannot be read here and are left out: cpuidle:cpu0:state0:usage, cpuidle:cpu0:state0:time (CPU 0 has no cpuidle states");
	TU_ASSERT_CONTAINS(h.log, "strict = true");
	CU_ASSERT_EQUAL(h.info.schema->ncols, 3);
	CU_ASSERT_STRING_EQUAL(h.info.schema->cols[2].name, "stat:ctxt");
	TU_ASSERT_CONTAINS(h.info_yml, "telemetry_unavailable: cpuidle:cpu0:state0:usage, cpuidle:cpu0:state0:time (CPU 0 has no cpuidle states");
	CU_ASSERT_EQUAL(h.ctx.bad_opt, -1);	/* a warning blames only while said */
	pl->source->stop(&h.ctx);
	h_close(&h);

	strcat(group, " strict = true;");
	CU_ASSERT_EQUAL(h_open(&h, group, sys), -ENOENT);
	TU_ASSERT_CONTAINS(h.ctx.err, "counter 'cpuidle:cpu0:state0:usage': CPU 0 has no cpuidle states");
	CU_ASSERT_STRING_EQUAL(pl->options[h.ctx.bad_opt].name, "counters");
	h_close(&h);
	tu_rmtree(root);
}

/*
 * A /proc/interrupts of 8 MB with its LOC row last: reading it once copies
 * and scans 8 MB, longer than 100us on any machine.
 */
static void put_big_interrupts(void)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir_p(path);
	strcat(path, "/interrupts");
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("           CPU0\n", f);
	for (int i = 0; i < 200000; i++)
		fprintf(f, "%6d:  %20d   PCI-MSI   filler filler filler\n", 1000 + i, i);
	fputs(" LOC:   12345   Local timer interrupts\n", f);
	fclose(f);
}

/*
 * The period this machine can keep is measured at open: asked below it,
 * a warning at `period` names both; a period above it says nothing.
 */
static void test_period_achievable(void)
{
	struct harness h;
	char group[512];

	fake_setup();
	put_big_interrupts();
	snprintf(group, sizeof(group), "counters = [ \"interrupts:LOC:cpu0\" ]; proc_root = \"%s/proc\"; "
		 "period = \"100us\"; max_samples = 1;", root);
	CU_ASSERT_EQUAL_FATAL(h_open(&h, group, "/sys"), 0);
	CU_ASSERT_STRING_EQUAL(h.warned, "period,");
	TU_ASSERT_CONTAINS(h.log, "period 100us is shorter than this machine can sample this counter: about every ");
	TU_ASSERT_CONTAINS(h.log, "medians of 5 at open");
	TU_ASSERT_CONTAINS(h.info_yml, "telemetry_period_achievable_ns: ");
	TU_ASSERT_CONTAINS(h.info_yml, "telemetry_sample_ns: ");
	pl->source->stop(&h.ctx);
	h_close(&h);

	snprintf(group, sizeof(group), "counters = [ \"interrupts:LOC:cpu0\" ]; proc_root = \"%s/proc\"; "
		 "period = \"1h\"; max_samples = 1;", root);
	CU_ASSERT_EQUAL_FATAL(h_open(&h, group, "/sys"), 0);
	CU_ASSERT_STRING_EQUAL(h.warned, "");
	pl->source->stop(&h.ctx);
	h_close(&h);
	tu_rmtree(root);
}

/*
 * After stop() a single-mode source takes no sample, however late the
 * deadline is: telemetry_samples is the rows it gave (a time limit ends
 * a run with stop() and a drain).
 */
static void test_no_sample_after_stop(void)
{
	struct harness h;
	char want[64];

	CU_ASSERT_EQUAL_FATAL(h_open(&h, "counters = [ \"stat:ctxt\" ]; period = \"100us\";", "/sys"), 0);
	while (h.b.rows < 3)
		CU_ASSERT_EQUAL_FATAL(pl->source->read(&h.ctx, &h.b, 100000000), WULTFW_READ_OK);
	pl->source->stop(&h.ctx);
	usleep(2000);		/* the next deadline is past: the old drain took it */
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), WULTFW_READ_END);
	CU_ASSERT_EQUAL(h.b.rows, 3);
	snprintf(want, sizeof(want), "telemetry_samples: %zu\n", h.b.rows);
	TU_ASSERT_CONTAINS(h.info_yml, want);
	h_close(&h);
}

/* ---- net:lo:rx_packets counts exactly the packets sent ---- */

#define LO_PACKETS 200

static int lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM, 0), ret;

	if (s < 0)
		return -1;
	ret = ioctl(s, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	if (!ret)
		ret = ioctl(s, SIOCSIFFLAGS, &ifr);
	close(s);
	return ret;
}

/* Send n UDP packets to 127.0.0.1 (a bound receiver, so no ICMP back). */
static int send_udp(int n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	char buf[64] = "wultfw";
	int i, got = 0;

	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rx, (struct sockaddr *)&a, &alen))
		return -1;
	for (i = 0; i < n; i++)
		if (sendto(tx, buf, 16, 0, (struct sockaddr *)&a, sizeof(a)) == 16 &&
		    recv(rx, buf, sizeof(buf), 0) > 0)
			got++;
	close(rx);
	close(tx);
	return got;
}

/* In the child: a namespace of its own, sysfs mounted to show it. */
static int lo_child(char *msg, size_t len)
{
	char sys[] = "/tmp/test_telemetry_sys.XXXXXX";
	struct harness h;
	int64_t sum = 0;
	int ret, sent;

	/* only loopback, in a namespace of its own: nothing else counts */

	if (unshare(CLONE_NEWNET | CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    !mkdtemp(sys) || mount("sysfs", sys, "sysfs", 0, NULL) || lo_up()) {
		snprintf(msg, len, "cannot make a network namespace with its own sysfs: %s", strerror(errno));
		return 77;
	}
	ret = h_open(&h, "counters = [ \"net:lo:rx_packets\" ]; clear = true; period = \"5ms\";", sys);
	if (ret) {
		snprintf(msg, len, "open/start: %s", h.ctx.err);
		return 1;
	}
	/* sent while samples are taken: the deltas of every sample add up */
	sent = send_udp(LO_PACKETS / 2);
	for (int i = 0; i < 3; i++)
		pl->source->read(&h.ctx, &h.b, 100000000);
	sent += send_udp(LO_PACKETS / 2);
	/*
	 * recv() returned: the kernel counted them all. Samples until their
	 * deltas hold them (a loaded machine may hold the sampler up past a
	 * read's 100 ms; at most 200 reads), then two more that must add
	 * nothing.
	 */
	for (int i = 0, more = 2; i < 200 && more; i++) {
		pl->source->read(&h.ctx, &h.b, 100000000);
		sum = 0;
		for (size_t r = 0; r < h.b.rows; r++)
			sum += wultfw_row(&h.b, r)[2].i;
		more -= sum >= LO_PACKETS;
	}
	pl->source->stop(&h.ctx);
	h_close(&h);
	umount(sys);
	rmdir(sys);
	snprintf(msg, len, "sent %d, deltas add up to %lld", sent, (long long)sum);
	return sent == LO_PACKETS && sum == LO_PACKETS ? 0 : 1;
}

static void test_lo_packets(void)
{
	int pipefd[2], status;
	char msg[512] = "";
	ssize_t n;
	pid_t pid;

	if (geteuid())
		TU_SKIP("needs root (a network namespace of its own)");
	CU_ASSERT_EQUAL_FATAL(pipe(pipefd), 0);
	pid = fork();
	if (!pid) {
		int rc = lo_child(msg, sizeof(msg));

		if (write(pipefd[1], msg, strlen(msg) + 1) < 0)
			rc = 1;
		_exit(rc);
	}
	close(pipefd[1]);
	n = read(pipefd[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	printf("\n  loopback: %s\n", msg);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		TU_SKIP("%s", msg);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("telemetry", NULL, NULL);
	CU_add_test(s, "interrupts: wrap, CPU going away", test_interrupts_wrap_and_gone);
	CU_add_test(s, "softirqs and stat", test_softirqs_and_stat);
	CU_add_test(s, "default counters: the measured CPU's own", test_default_counters);
	CU_add_test(s, "sysfs providers, interface removed", test_sysfs_providers);
	CU_add_test(s, "bad names, unreadable file", test_bad_names);
	CU_add_test(s, "missing counters left out, strict refuses", test_missing_left_out);
	CU_add_test(s, "clear: deltas add up to the running total", test_clear_sums_to_total);
	CU_add_test(s, "perf names through a fake PMU tree (RAPL)", test_perf_fake_pmu);
	CU_add_test(s, "perf unit text through the msr PMU's type", test_perf_fake_unit);
	CU_add_test(s, "real procfs", test_real_procfs);
	CU_add_test(s, "real perf:msr/tsc", test_real_perf_tsc);
	CU_add_test(s, "options and schema", test_options);
	CU_add_test(s, "single stops at max_samples", test_single_stops_at_max);
	CU_add_test(s, "achieved period", test_achieved_period);
	CU_add_test(s, "repetitive overwrites", test_repetitive_overwrites);
	CU_add_test(s, "on_demand", test_on_demand);
	CU_add_test(s, "missing counters through the source", test_missing_through_source);
	CU_add_test(s, "period achievable here, measured at open", test_period_achievable);
	CU_add_test(s, "no sample after stop", test_no_sample_after_stop);
	CU_add_test(s, "net:lo:rx_packets counts UDP packets", test_lo_packets);
	return tu_run();
}
