/* SPDX-License-Identifier: MIT */
/*
 * lib/sysstate on fake sysfs trees: first lines and numbers of files,
 * cpuidle (driver, governor, states, flags), online CPUs, info.yml's
 * facts, processes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysstate/cpuidle.h"
#include "sysstate/cpus.h"
#include "sysstate/facts.h"
#include "sysstate/proc.h"
#include "sysstate/sysfile.h"
#include "testutil.h"

static char *root;

static int setup(void)
{
	root = tu_tmpdir();
	return root ? 0 : -1;
}

static int teardown(void)
{
	tu_rmtree(root);
	free(root);
	return 0;
}

/* root/rel (its directories made) holding text. */
static void put(const char *rel, const char *text)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	free(tu_write(root, rel, text));
}

static const char *at(const char *rel)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return path;
}

static void test_read_line(void)
{
	char buf[8];

	put("f/two", "first\nsecond\n");
	put("f/empty", "");
	put("f/blank", "\n");
	put("f/log", "\n\ntar: cannot open\nmore\n");
	put("f/long", "0123456789\n");
	CU_ASSERT_EQUAL(wfw_read_line(at("f/two"), buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "first");
	CU_ASSERT_EQUAL(wfw_read_line(at("f/empty"), buf, sizeof(buf)), -ENODATA);
	CU_ASSERT_STRING_EQUAL(buf, "");
	/* A value may be empty: "isolated" with no isolated CPUs. */
	CU_ASSERT_EQUAL(wfw_read_line(at("f/blank"), buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "");
	CU_ASSERT_EQUAL(wfw_read_line(at("f/none"), buf, sizeof(buf)), -ENOENT);
	CU_ASSERT_STRING_EQUAL(buf, "");
	CU_ASSERT_EQUAL(wfw_read_line(at("f/long"), buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "0123456");	/* cut to the buffer */
	CU_ASSERT_EQUAL(wfw_read_text_line(at("f/log"), buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "tar: ca");
	CU_ASSERT_EQUAL(wfw_read_text_line(at("f/blank"), buf, sizeof(buf)), -ENODATA);
	CU_ASSERT_STRING_EQUAL(wfw_sysfs(NULL), "/sys");
	CU_ASSERT_STRING_EQUAL(wfw_sysfs(root), root);
}

static void test_read_u64(void)
{
	uint64_t v = 7;
	int fd;

	put("n/count", "18446744073709551615\n");
	put("n/word", "POLL\n");
	put("n/tail", "12 34\n");
	CU_ASSERT_EQUAL(wfw_read_u64(at("n/count"), &v), 0);
	CU_ASSERT_EQUAL(v, UINT64_MAX);
	CU_ASSERT_EQUAL(wfw_read_u64(at("n/word"), &v), -EINVAL);
	CU_ASSERT_EQUAL(wfw_read_u64(at("n/tail"), &v), -EINVAL);
	CU_ASSERT_EQUAL(wfw_read_u64(at("n/none"), &v), -ENOENT);
	fd = open(at("n/count"), O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	v = 0;
	CU_ASSERT_EQUAL(wfw_pread_u64(fd, &v), 0);
	CU_ASSERT_EQUAL(v, UINT64_MAX);
	/* Read again from the start: a counter kept open. */
	CU_ASSERT_EQUAL(wfw_pread_u64(fd, &v), 0);
	close(fd);
	fd = open(at("n/word"), O_RDONLY);
	CU_ASSERT_EQUAL(wfw_pread_u64(fd, &v), -EIO);
	close(fd);
}

#define CPU1 "devices/system/cpu/cpu1/cpuidle/"
#define IDLE "devices/system/cpu/cpuidle/"

static void fake_cpuidle(void)
{
	put(CPU1 "state0/name", "POLL\n");
	put(CPU1 "state0/disable", "0\n");
	put(CPU1 "state0/usage", "10\n");
	put(CPU1 "state0/time", "100\n");
	put(CPU1 "state1/name", "C1\n");
	put(CPU1 "state1/disable", "1\n");
	put(CPU1 "state1/usage", "20\n");
	put(CPU1 "state1/time", "200\n");
	put(IDLE "current_driver", "intel_idle\n");
	put(IDLE "current_governor", "menu\n");
	put(IDLE "available_governors", "ladder menu teo\n");
}

static void test_cpuidle(void)
{
	struct wfw_cpuidle ci;
	uint64_t usage[WFW_CPUIDLE_MAX_STATES], time_us[WFW_CPUIDLE_MAX_STATES];
	char buf[256];
	bool dis = false;

	fake_cpuidle();
	CU_ASSERT_EQUAL_FATAL(wfw_cpuidle_open(&ci, 1, root), 0);
	CU_ASSERT_EQUAL(ci.nstates, 2);
	CU_ASSERT_STRING_EQUAL(ci.name_ptrs[1], "C1");
	CU_ASSERT_EQUAL(wfw_cpuidle_find(&ci, "C1"), 1);
	CU_ASSERT_EQUAL(wfw_cpuidle_find(&ci, "C6"), -1);
	CU_ASSERT_EQUAL(wfw_cpuidle_read_usage(&ci, usage), 0);
	CU_ASSERT(usage[0] == 10 && usage[1] == 20);
	CU_ASSERT_EQUAL(wfw_cpuidle_read_time(&ci, time_us), 0);
	CU_ASSERT(time_us[0] == 100 && time_us[1] == 200);
	CU_ASSERT_EQUAL(wfw_cpuidle_get_disable(&ci, 1, &dis), 0);
	CU_ASSERT(dis);
	CU_ASSERT_EQUAL(wfw_cpuidle_set_disable(&ci, 0, true), 0);
	CU_ASSERT_EQUAL(wfw_cpuidle_get_disable(&ci, 0, &dis), 0);
	CU_ASSERT(dis);
	CU_ASSERT_EQUAL(wfw_cpuidle_get_disable(&ci, 2, &dis), -EINVAL);
	wfw_cpuidle_state_path(&ci, 1, "disable", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, at(CPU1 "state1/disable"));
	wfw_cpuidle_close(&ci);
	wfw_cpuidle_describe(1, root, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "POLL off, C1 off");
	wfw_cpuidle_describe(0, root, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "no cpuidle states");

	wfw_cpuidle_driver(root, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "intel_idle");
	wfw_cpuidle_governor(root, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "menu");
	wfw_cpuidle_governors(root, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "ladder menu teo");
	wfw_cpuidle_path(root, "current_governor", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, at(IDLE "current_governor"));
	/* CPU 0 has no states: the driver says why. */
	CU_ASSERT_EQUAL(wfw_cpuidle_open(&ci, 0, root), -ENOENT);
	wfw_cpuidle_why_none(0, root, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "CPU 0 has no cpuidle states (cpuidle driver: intel_idle)");
}

/* A machine without cpuidle: no directory, "none" for both. */
static void test_no_cpuidle(void)
{
	char *bare = tu_tmpdir(), buf[128];

	wfw_cpuidle_driver(bare, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "none");
	wfw_cpuidle_governor(bare, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "none");
	wfw_cpuidle_governors(bare, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "");
	wfw_cpuidle_why_none(3, bare, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "CPU 3 has no cpuidle states (cpuidle driver: none)");
	tu_rmtree(bare);
	free(bare);
}

static void test_cpulist(void)
{
	bool online[16];

	CU_ASSERT_EQUAL(wfw_parse_cpulist("0-3,8,10-11\n", online, 16), 7);
	CU_ASSERT(online[0] && online[3] && online[8] && online[11]);
	CU_ASSERT(!online[4] && !online[9] && !online[12]);
	CU_ASSERT_EQUAL(wfw_parse_cpulist("0", online, 16), 1);
	CU_ASSERT_EQUAL(wfw_parse_cpulist("3-1", online, 16), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_cpulist("0-99", online, 16), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_cpulist("a", online, 16), -EINVAL);
}

/* Online CPUs and the default measured one, from the tree given. */
static void test_online(void)
{
	char *bare = tu_tmpdir();
	bool online[16];

	put("devices/system/cpu/online", "0-2,5\n");
	CU_ASSERT_EQUAL(wfw_online_cpus(online, 16, root), 4);
	CU_ASSERT_EQUAL(wfw_cpu_online(5, root), 1);
	CU_ASSERT_EQUAL(wfw_cpu_online(4, root), 0);
	CU_ASSERT_EQUAL(wfw_cpu_online(-1, root), 0);
	CU_ASSERT_EQUAL(wfw_cpu_online(WFW_MAX_CPUS, root), 0);
	CU_ASSERT_EQUAL(wfw_default_cpu(root), 5);
	put("devices/system/cpu/online", "0\n");
	CU_ASSERT_EQUAL(wfw_default_cpu(root), 0);
	/* Nothing known: no CPU is judged, CPU 0 is the default. */
	CU_ASSERT(wfw_cpu_online(1, bare) < 0);
	CU_ASSERT_EQUAL(wfw_default_cpu(bare), 0);
	tu_rmtree(bare);
	free(bare);
}

struct got {
	char keys[32][32];
	char vals[32][256];
	size_t n;
};

static void keep(void *arg, const char *key, const char *value)
{
	struct got *g = arg;

	if (g->n < 32) {
		snprintf(g->keys[g->n], sizeof(g->keys[0]), "%s", key);
		snprintf(g->vals[g->n], sizeof(g->vals[0]), "%s", value);
		g->n++;
	}
}

static const char *val(const struct got *g, const char *key)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->keys[i], key))
			return g->vals[i];
	return NULL;
}

static void test_facts(void)
{
	char *bare = tu_tmpdir(), *keep_root = root;
	struct got g = { .n = 0 };

	root = bare;
	put("devices/system/clocksource/clocksource0/current_clocksource", "hpet\n");
	put("devices/system/clockevents/clockevent3/current_device", "lapic-deadline\n");
	put("devices/system/clockevents/clockevent0/current_device", "hpet\n");
	put("devices/system/cpu/cpu3/cpufreq/scaling_governor", "performance\n");
	put("devices/system/cpu/isolated", "2-3\n");
	put("kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	root = keep_root;
	wfw_machine_facts(bare, 3, keep, &g);
	CU_ASSERT_PTR_NOT_NULL(val(&g, "hostname"));
	CU_ASSERT_PTR_NOT_NULL(val(&g, "kernel"));
	CU_ASSERT_STRING_EQUAL(val(&g, "clocksource"), "hpet");
	CU_ASSERT_STRING_EQUAL(val(&g, "clockevent"), "lapic-deadline");	/* CPU 3's */
	CU_ASSERT_STRING_EQUAL(val(&g, "cpufreq_governor"), "performance");
	CU_ASSERT_STRING_EQUAL(val(&g, "isolated_cpus"), "2-3");
	CU_ASSERT_STRING_EQUAL(val(&g, "transparent_hugepage"), "madvise");
	CU_ASSERT_PTR_NULL(val(&g, "nohz_full_cpus"));	/* not there: left out */
	CU_ASSERT_STRING_EQUAL(val(&g, "cpuidle_driver"), "none");
	tu_rmtree(bare);
	free(bare);
}

static void test_proc(void)
{
	unsigned long long start = wfw_proc_start(getpid());
	char boot[64];
	pid_t child;

	wfw_boot_id(boot, sizeof(boot));
	CU_ASSERT(start > 0);
	CU_ASSERT(wfw_proc_alive(getpid(), start, boot));
	/* Another start time: the pid was reused. */
	CU_ASSERT(!wfw_proc_alive(getpid(), start + 1, boot));
	/* Another boot: every process of it is gone. */
	if (boot[0])
		CU_ASSERT(!wfw_proc_alive(getpid(), start, "not-this-boot"));
	child = fork();
	if (child == 0)
		_exit(0);
	CU_ASSERT_FATAL(child > 0);
	waitpid(child, NULL, 0);
	CU_ASSERT(!wfw_proc_alive(child, 0, boot));
	CU_ASSERT_EQUAL(wfw_proc_start(child), 0);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("sysstate", setup, teardown);
	CU_add_test(s, "first line of a file", test_read_line);
	CU_add_test(s, "numbers of files", test_read_u64);
	CU_add_test(s, "cpuidle of a CPU and the system", test_cpuidle);
	CU_add_test(s, "no cpuidle driver", test_no_cpuidle);
	CU_add_test(s, "CPU lists", test_cpulist);
	CU_add_test(s, "online CPUs, default CPU", test_online);
	CU_add_test(s, "facts for info.yml", test_facts);
	CU_add_test(s, "processes", test_proc);
	return tu_run();
}
