/* SPDX-License-Identifier: MIT */
/*
 * What an experiment on several CPUs sets once for all of them: the
 * C-state restriction of every listed CPU (one governor switch, all put
 * back by one restore; a CPU without cpuidle states undoes what was done
 * before it), and the housekeeping CPUs it runs its own work on.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cstates.h"
#include "housekeep.h"
#include "testutil.h"

static char *sysfs, *state;

static void mkfile(const char *rel, const char *text)
{
	char path[1024], cmd[1200];

	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s)\"", path);
	if (system(cmd) == 0)
		free(tu_write(sysfs, rel, text));
}

/* CPU cpu's state s disable flag, as a character. */
static char flag(int cpu, int s)
{
	char path[1024], *t, c;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
		 sysfs, cpu, s);
	t = tu_read(path);
	c = t ? t[0] : '?';
	free(t);
	return c;
}

static int setup(void)
{
	sysfs = tu_tmpdir();
	state = tu_tmpdir();
	if (!sysfs || !state)
		return 1;
	setenv("WULTFW_STATE_DIR", state, 1);
	mkfile("devices/system/cpu/online", "0-2\n");
	for (int c = 0; c < 2; c++) {
		static const char *const names[] = { "POLL\n", "C1\n", "C6\n" };

		for (int s = 0; s < 3; s++) {
			char rel[128];

			snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpuidle/state%d/name", c, s);
			mkfile(rel, names[s]);
			snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpuidle/state%d/disable", c, s);
			mkfile(rel, "0\n");
		}
	}
	mkfile("devices/system/cpu/cpuidle/current_governor", "haltpoll\n");
	mkfile("devices/system/cpu/cpuidle/available_governors", "ladder menu haltpoll\n");
	return 0;
}

static int teardown(void)
{
	unsetenv("WULTFW_STATE_DIR");
	tu_rmtree(sysfs);
	tu_rmtree(state);
	free(sysfs);
	free(state);
	return 0;
}

static char *only_poll[] = { "POLL" };

static void experiment(struct wfw_experiment *e, int *cpus, size_t n)
{
	memset(e, 0, sizeof(*e));
	e->cpu = cpus[0];
	e->cpus = cpus;
	e->ncpus = n;
	e->cstate_mode = WFW_CSTATES_ONLY;
	e->cstates = only_poll;
	e->ncstates = 1;
	snprintf(e->cstates_loc.file, sizeof(e->cstates_loc.file), "t.cfg");
	e->cstates_loc.line = 3;
	snprintf(e->cstates_loc.key, sizeof(e->cstates_loc.key), "cstates.only");
}

static void governor(char *buf, size_t len)
{
	char path[1024], *t;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpuidle/current_governor", sysfs);
	t = tu_read(path);
	snprintf(buf, len, "%s", t ? t : "");
	free(t);
}

static void test_every_cpu_once(void)
{
	int cpus[] = { 0, 1 };
	struct wfw_experiment e;
	char note[512], err[1024], gov[64];

	experiment(&e, cpus, 2);
	CU_ASSERT_EQUAL(wfw_cstates_apply(&e, sysfs, note, sizeof(note), err, sizeof(err)), 0);
	TU_ASSERT_CONTAINS(note, "using 'menu'");
	for (int c = 0; c < 2; c++) {
		CU_ASSERT_EQUAL(flag(c, 0), '0');
		CU_ASSERT_EQUAL(flag(c, 1), '1');
		CU_ASSERT_EQUAL(flag(c, 2), '1');
	}
	governor(gov, sizeof(gov));
	TU_ASSERT_CONTAINS(gov, "menu");
	wfw_cstates_restore();
	for (int c = 0; c < 2; c++)
		for (int s = 0; s < 3; s++)
			CU_ASSERT_EQUAL(flag(c, s), '0');
	governor(gov, sizeof(gov));
	TU_ASSERT_CONTAINS(gov, "haltpoll");
}

/* CPU 2 has no cpuidle states: nothing stays changed, the error names it. */
static void test_cpu_without_states(void)
{
	int cpus[] = { 0, 1, 2 };
	struct wfw_experiment e;
	char note[512], err[1024], gov[64];

	experiment(&e, cpus, 3);
	CU_ASSERT(wfw_cstates_apply(&e, sysfs, note, sizeof(note), err, sizeof(err)) < 0);
	TU_ASSERT_CONTAINS(err, "t.cfg:3: cstates.only: ");
	for (int c = 0; c < 2; c++)
		for (int s = 0; s < 3; s++)
			CU_ASSERT_EQUAL(flag(c, s), '0');
	governor(gov, sizeof(gov));
	TU_ASSERT_CONTAINS(gov, "haltpoll");
}

/* info as info.yml says it (malloc'ed). */
static char *info_text(const struct wfw_info *info)
{
	char *d = tu_tmpdir(), path[1024], *t = NULL;

	if (d && !wfw_info_write(info, d, 0)) {
		snprintf(path, sizeof(path), "%s/info.yml", d);
		t = tu_read(path);
	}
	if (d)
		tu_rmtree(d);
	free(d);
	return t ? t : strdup("");
}

static void test_housekeeping(void)
{
	int cpus[] = { 0 }, hk[] = { 0, 2 };
	struct wfw_experiment e;
	struct wfw_housekeep h;
	struct wfw_info info;
	char *text;

	memset(&info, 0, sizeof(info));
	memset(&e, 0, sizeof(e));
	e.cpu = 0;
	e.cpus = cpus;
	e.ncpus = 1;
	/* Given: exactly those, a measured one included. */
	e.hk_cpus = hk;
	e.nhk = 2;
	wfw_housekeep_plan(&e, &h);
	CU_ASSERT(h.pinned && h.given);
	CU_ASSERT_EQUAL(CPU_COUNT(&h.set), 2);
	CU_ASSERT(CPU_ISSET(0, &h.set) && CPU_ISSET(2, &h.set));
	wfw_housekeep_info(&h, &info);
	/* Not given: no measured CPU among them. */
	e.nhk = 0;
	wfw_housekeep_plan(&e, &h);
	CU_ASSERT(!h.given);
	CU_ASSERT(!CPU_ISSET(0, &h.set));
	text = info_text(&info);
	TU_ASSERT_CONTAINS(text, "housekeeping: [0, 2]");
	free(text);
	wfw_info_free(&info);
	memset(&info, 0, sizeof(info));
	/* Nothing left: unpinned, and said so in info.yml. */
	h.pinned = false;
	wfw_housekeep_info(&h, &info);
	text = info_text(&info);
	TU_ASSERT_CONTAINS(text, "housekeeping: 'unpinned'");
	free(text);
	wfw_info_free(&info);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("percpu_once", setup, teardown);
	CU_add_test(s, "C-states of every CPU, put back at once", test_every_cpu_once);
	CU_add_test(s, "a CPU without states: nothing left changed", test_cpu_without_states);
	CU_add_test(s, "housekeeping CPUs", test_housekeeping);
	return tu_run();
}
