/* SPDX-License-Identifier: MIT */
/*
 * The settings state file (core/restore*.c): remembered before a change,
 * written back by undo, by restore_all, and by another process after this
 * one died -- against files in a temporary directory, which stands for
 * the sysfs root. Hostile state files: refused, and nothing written.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plugins.h"
#include "restore.h"
#include "restore_file.h"
#include "testutil.h"

static char *dir;

static int setup(void)
{
	char state[1024];

	dir = tu_tmpdir();
	if (!dir)
		return 1;
	snprintf(state, sizeof(state), "%s/state", dir);
	setenv("WULTFW_STATE_DIR", state, 1);
	/* Plugins only from a directory with none: a named one is missing. */
	setenv("WULTFW_PLUGIN_PATH", dir, 1);
	return wfw_plugins_init();
}

static int teardown(void)
{
	tu_rmtree(dir);
	free(dir);
	return 0;
}

static char *knob(const char *name, const char *text)
{
	char *path = tu_write(dir, name, text);

	return path;
}

static int state_files(void)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "exit $(ls %s/state/*.state 2>/dev/null | wc -l)", dir);
	return WEXITSTATUS(system(cmd));
}

/* Escapes, several steps and changes survive the text round trip. */
static void test_format_parse(void)
{
	struct wfw_change c[2] = { { 0 } };
	struct wultfw_restore_step s1[] = { { "/a\tb", "x\ny\\z" }, { "/c", "\n" } };
	struct wultfw_restore_step s2[] = { { "/d", "0" } };
	struct wfw_state st = { .pid = 42, .pid_start = 7, .boot_id = "b-1",
				.changes = c, .nchanges = 2 }, back;
	char err[256], *text;

	CU_ASSERT_EQUAL(wfw_change_set(&c[0], "two steps", s1, 2), 0);
	CU_ASSERT_EQUAL(wfw_change_set(&c[1], "one step", s2, 1), 0);
	c[0].live = c[1].live = true;
	text = wfw_state_format(&st);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL_FATAL(wfw_state_parse(text, &back, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(back.pid, 42);
	CU_ASSERT_EQUAL(back.pid_start, 7);
	CU_ASSERT_STRING_EQUAL(back.boot_id, "b-1");
	CU_ASSERT_EQUAL_FATAL(back.nchanges, 2);
	CU_ASSERT_STRING_EQUAL(back.changes[0].what, "two steps");
	CU_ASSERT_EQUAL(back.changes[0].nsteps, 2);
	CU_ASSERT_STRING_EQUAL(back.changes[0].steps[0].path, "/a\tb");
	CU_ASSERT_STRING_EQUAL(back.changes[0].steps[0].value, "x\ny\\z");
	CU_ASSERT_STRING_EQUAL(back.changes[0].steps[1].value, "\n");
	CU_ASSERT_STRING_EQUAL(back.changes[1].steps[0].path, "/d");
	free(back.changes);
	free(text);
	/* A line that is not ours: refused with its number. */
	CU_ASSERT_EQUAL(wfw_state_parse("pid 3\nbogus\n", &back, err, sizeof(err)), -EINVAL);
	TU_ASSERT_CONTAINS(err, "line 2");
	free(back.changes);
	CU_ASSERT_EQUAL(wfw_state_parse("change x\n", &back, err, sizeof(err)), -EINVAL);
	free(back.changes);
}

/* A change its plugin puts back: name and data survive, escapes too. */
static void test_plugin_format_parse(void)
{
	struct wfw_change c[2] = { { 0 } };
	struct wultfw_restore_step s1[] = { { "/w", "1" } };
	struct wfw_state st = { .pid = 42, .changes = c, .nchanges = 2 }, back;
	char err[256], *text;

	CU_ASSERT_EQUAL(wfw_change_set(&c[0], "by writes", s1, 1), 0);
	CU_ASSERT_EQUAL(wfw_change_set_plugin(&c[1], "qdisc etf on eth1 TX queue 0",
					      "ndl", "v1 3 eth1\tx\ny\\z"), 0);
	c[0].live = c[1].live = true;
	text = wfw_state_format(&st);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	TU_ASSERT_CONTAINS(text, "change qdisc etf on eth1 TX queue 0\nplugin ndl\tv1 3 eth1\\tx\\ny\\\\z\n");
	CU_ASSERT_EQUAL_FATAL(wfw_state_parse(text, &back, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(back.nchanges, 2);
	CU_ASSERT_EQUAL(back.changes[0].kind, WFW_CHANGE_WRITES);
	CU_ASSERT_EQUAL(back.changes[1].kind, WFW_CHANGE_PLUGIN);
	CU_ASSERT_STRING_EQUAL(back.changes[1].plugin, "ndl");
	CU_ASSERT_STRING_EQUAL(back.changes[1].data, "v1 3 eth1\tx\ny\\z");
	CU_ASSERT_EQUAL(back.changes[1].nsteps, 0);
	/* A plugin's change is not written back by the core. */
	CU_ASSERT_EQUAL(wfw_change_put_back(&back.changes[1]), -ENOSYS);
	free(back.changes);
	free(text);
	/* One way to undo a change: not writes and a plugin, not two plugins. */
	CU_ASSERT_EQUAL(wfw_state_parse("pid 3\nchange x\nwrite /a\t0\nplugin p\td\n",
					&back, err, sizeof(err)), -EINVAL);
	TU_ASSERT_CONTAINS(err, "line 4");
	free(back.changes);
	CU_ASSERT_EQUAL(wfw_state_parse("pid 3\nchange x\nplugin p\td\nplugin q\td\n",
					&back, err, sizeof(err)), -EINVAL);
	free(back.changes);
	CU_ASSERT_EQUAL(wfw_state_parse("pid 3\nplugin p\td\n", &back, err, sizeof(err)), -EINVAL);
	free(back.changes);
	CU_ASSERT_EQUAL(wfw_state_parse("pid 3\nchange x\nplugin ../p\td\n",
					&back, err, sizeof(err)), -EINVAL);
	free(back.changes);
}

/* Data too long for a line, or a name that is no plugin's: refused. */
static void test_plugin_refusals(void)
{
	static char data[WULTFW_RESTORE_DATA_MAX + 1];
	char err[512];

	memset(data, 'd', sizeof(data) - 1);
	CU_ASSERT_EQUAL(wfw_restore_remember_plugin("ndl", "big", data, err, sizeof(err)), -EINVAL);
	TU_ASSERT_CONTAINS(err, "the data (2048 bytes, at most 2047)");
	CU_ASSERT_EQUAL(wfw_restore_remember_plugin("a b", "x", "d", err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(state_files(), 0);
}

/*
 * A killed process left a write change and one of a plugin that is not
 * here: the write goes back, the plugin's change stays alone in the file,
 * and the restore fails until the file is gone.
 */
static void test_plugin_leftover_missing(void)
{
	char *a = knob("pk", "orig"), err[256], *v, path[1200], *text;
	struct wultfw_restore_step s = { a, "orig" };
	struct wfw_state st;
	pid_t pid = fork();

	if (pid == 0) {
		if (wfw_restore_remember("pk changed", &s, 1, err, sizeof(err)) < 0 ||
		    wfw_restore_remember_plugin("nosuchplugin", "its setting changed", "v1 data",
						err, sizeof(err)) < 0)
			_exit(1);
		kill(getpid(), SIGKILL);
	}
	CU_ASSERT_FATAL(pid > 0);
	waitpid(pid, NULL, 0);
	free(tu_write(dir, "pk", "changed"));
	CU_ASSERT_EQUAL(wfw_restore_leftovers("test", dir, true), -1);
	v = tu_read(a);
	TU_ASSERT_CONTAINS(v, "orig");
	free(v);
	snprintf(path, sizeof(path), "%s/state/%d.state", dir, (int)pid);
	text = tu_read(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL_FATAL(wfw_state_parse(text, &st, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(st.pid, pid);
	CU_ASSERT_EQUAL_FATAL(st.nchanges, 1);
	CU_ASSERT_STRING_EQUAL(st.changes[0].plugin, "nosuchplugin");
	CU_ASSERT_STRING_EQUAL(st.changes[0].data, "v1 data");
	free(st.changes);
	free(text);
	CU_ASSERT_EQUAL(wfw_restore_leftovers("test", dir, true), -1);
	CU_ASSERT_EQUAL(state_files(), 1);
	unlink(path);
	free(a);
}

/* The state file exists while a change is live and goes with the last undo. */
static void test_remember_undo(void)
{
	char *a = knob("a", "changed-a"), *b = knob("b", "changed-b"), err[256];
	struct wultfw_restore_step sa = { a, "orig-a" }, sb = { b, "orig-b" };
	char *va, *vb;
	int ia, ib;

	ia = wfw_restore_remember("a changed", &sa, 1, err, sizeof(err));
	ib = wfw_restore_remember("b changed", &sb, 1, err, sizeof(err));
	CU_ASSERT(ia >= 0 && ib >= 0 && ia != ib);
	CU_ASSERT_EQUAL(state_files(), 1);
	CU_ASSERT_EQUAL(wfw_restore_undo(ia), 0);
	va = tu_read(a);
	TU_ASSERT_CONTAINS(va, "orig-a");
	CU_ASSERT_EQUAL(state_files(), 1);	/* b is still changed */
	wfw_restore_forget(ib);
	vb = tu_read(b);
	TU_ASSERT_CONTAINS(vb, "changed-b");	/* forget writes nothing */
	CU_ASSERT_EQUAL(state_files(), 0);
	free(va);
	free(vb);
	free(a);
	free(b);
}

/* A child remembers a change and dies by SIGKILL: the parent restores it. */
static void test_leftover_of_killed_process(void)
{
	char *a = knob("k", "orig"), err[256], *v;
	struct wultfw_restore_step s = { a, "orig" };
	pid_t pid = fork();

	if (pid == 0) {
		FILE *f;

		if (wfw_restore_remember("k changed", &s, 1, err, sizeof(err)) < 0)
			_exit(1);
		f = fopen(a, "w");
		if (f) {
			fputs("changed", f);
			fclose(f);
		}
		kill(getpid(), SIGKILL);
	}
	CU_ASSERT_FATAL(pid > 0);
	waitpid(pid, NULL, 0);
	v = tu_read(a);
	TU_ASSERT_CONTAINS(v, "changed");
	free(v);
	CU_ASSERT_EQUAL(state_files(), 1);
	CU_ASSERT_EQUAL(wfw_restore_leftovers("test", dir, false), 1);	/* only says */
	CU_ASSERT_EQUAL(state_files(), 1);
	CU_ASSERT_EQUAL(wfw_restore_leftovers("test", dir, true), 1);
	v = tu_read(a);
	TU_ASSERT_CONTAINS(v, "orig");
	CU_ASSERT_EQUAL(state_files(), 0);
	CU_ASSERT_EQUAL(wfw_restore_leftovers("test", dir, true), 0);
	free(v);
	free(a);
}

/* A path too long or a change with no step is refused before any change. */
static void test_refusals(void)
{
	char longpath[600], err[256];
	struct wultfw_restore_step s = { longpath, "0" };

	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	CU_ASSERT_EQUAL(wfw_restore_remember("long", &s, 1, err, sizeof(err)), -EINVAL);
	TU_ASSERT_CONTAINS(err, "too long");
	CU_ASSERT_EQUAL(wfw_restore_remember("none", &s, 0, err, sizeof(err)), -E2BIG);
	CU_ASSERT_EQUAL(state_files(), 0);
}

/* A pid no process has: a child that has exited. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

/* src with @R the root (dir) and @O the victim's directory, into dst. */
static void subst(char *dst, size_t len, const char *src, const char *o)
{
	size_t j = 0;

	for (; *src && j + 1 < len; src++) {
		const char *w = src[0] == '@' && src[1] == 'R' ? dir :
				src[0] == '@' && src[1] == 'O' ? o : NULL;

		if (w) {
			j += (size_t)snprintf(dst + j, len - j, "%s", w);
			src++;
		} else {
			dst[j++] = *src;
		}
	}
	dst[j < len ? j : len - 1] = '\0';
}

/* STATE_DIR/NAME: a dead process's change "hostile" and `body`. */
static char *plant(const char *name, const char *body, const char *o)
{
	char text[4096], rel[256];
	int n;

	snprintf(rel, sizeof(rel), "%s/state", dir);
	mkdir(rel, 0755);
	n = snprintf(text, sizeof(text), "pid %d\nchange hostile\n", (int)dead_pid());
	subst(text + n, sizeof(text) - (size_t)n, body, o);
	snprintf(rel, sizeof(rel), "state/%s", name);
	return tu_write(dir, rel, text);
}

static int leftovers_restore(void *unused)
{
	(void)unused;
	return wfw_restore_leftovers("test", dir, true);
}

/* A restore refuses, saying `a` and `b`; the victim and knob stay. */
static void expect_refused(const char *o, const char *a, const char *b)
{
	char out[1024], err[4096], path[1200], *v;

	CU_ASSERT_EQUAL(tu_capture(leftovers_restore, NULL, out, sizeof(out), err, sizeof(err)), -1);
	TU_ASSERT_CONTAINS(err, a);
	TU_ASSERT_CONTAINS(err, b);
	snprintf(path, sizeof(path), "%s/victim", o);
	v = tu_read(path);
	CU_ASSERT_STRING_EQUAL(v, "safe");
	free(v);
	snprintf(path, sizeof(path), "%s/inknob", dir);
	v = tu_read(path);
	CU_ASSERT_STRING_EQUAL(v, "safe");
	free(v);
}

/*
 * Writes that do not stay below the root, however spelled, and changes
 * with no way back: the whole file is refused at its line, nothing is
 * written, the file is kept for a look.
 */
static void test_hostile_writes(void)
{
	static const struct {
		const char *body, *says;
	} cases[] = {
		{ "write @O/victim\tPWNED\n", "line 3: the write to " },
		{ "write @R/../@O/victim\tPWNED\n", "leads outside the sysfs root" },
		{ "write @R/out/victim\tPWNED\n", "leads outside the sysfs root" },
		{ "write @R/outlink\tPWNED\n", "leads outside the sysfs root" },
		/* the first change inside, the second not: neither is made */
		{ "write @R/inknob\tPWNED\nchange two\nwrite @O/victim\tPWNED\n", "line 5" },
		{ "write @R/fifo\tPWNED\n", "is to no regular file" },
		{ "change more\n", "line 2: change 'hostile' has no 'write' or 'plugin' line" },
	};
	char *o = tu_tmpdir(), path[1200], *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	free(tu_write(o, "victim", "safe"));
	free(tu_write(dir, "inknob", "safe"));
	snprintf(path, sizeof(path), "%s/out", dir);
	CU_ASSERT_EQUAL(symlink(o, path), 0);
	snprintf(path, sizeof(path), "%s/outlink", dir);
	snprintf(path + 600, 600, "%s/victim", o);
	CU_ASSERT_EQUAL(symlink(path + 600, path), 0);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CU_ASSERT_EQUAL(mkfifo(path, 0600), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p = plant("1.state", cases[i].body, o);
		expect_refused(o, "state/1.state: ", cases[i].says);
		CU_ASSERT_EQUAL(access(p, F_OK), 0);
		unlink(p);
		free(p);
	}
	tu_rmtree(o);
	free(o);
}

/*
 * State files and directories someone else could have put there: a
 * symbolic link, writable by others, a hard link, another user's.
 */
static void test_untrusted_files(void)
{
	char *o = tu_tmpdir(), path[1200], sdir[1200], *p, *q;

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	free(tu_write(o, "victim", "safe"));
	free(tu_write(dir, "inknob", "safe"));
	snprintf(sdir, sizeof(sdir), "%s/state", dir);
	/* Writable by the group, by others. */
	p = plant("2.state", "write @R/inknob\tPWNED\n", o);
	chmod(p, 0664);
	expect_refused(o, "state/2.state: writable by its group (mode 0664): refused", "remove it");
	chmod(p, 0646);
	expect_refused(o, "state/2.state: writable by others", "refused");
	unlink(p);
	free(p);
	/* A symbolic link to a file elsewhere, and a hard link. */
	q = tu_write(o, "evil.state", "pid 1\n");
	snprintf(path, sizeof(path), "%s/3.state", sdir);
	CU_ASSERT_EQUAL(symlink(q, path), 0);
	expect_refused(o, "state/3.state: a symbolic link: refused", "remove it");
	unlink(path);
	p = plant("4.state", "write @R/inknob\tPWNED\n", o);
	snprintf(path, sizeof(path), "%s/5.lnk", sdir);
	CU_ASSERT_EQUAL(link(p, path), 0);
	expect_refused(o, "state/4.state: it has 2 hard links", "refused");
	unlink(path);
	/* The directory itself writable by others: nothing in it is read. */
	chmod(sdir, 0777);
	expect_refused(o, "state directory ", "writable by others (mode 0777): refused");
	chmod(sdir, 0755);
	/* Another user's file. */
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(chown(p, 65534, 65534), 0);
		expect_refused(o, "state/4.state: owned by uid 65534, not by root", "refused");
	}
	unlink(p);
	free(p);
	free(q);
	tu_rmtree(o);
	free(o);
	if (geteuid() != 0)
		TU_SKIP("a file of another user needs root to make");
}

/* The state file is 0644 whatever the umask: a later run must trust it. */
static void test_state_file_mode(void)
{
	char *a = knob("m", "changed"), err[256], path[1200];
	struct wultfw_restore_step s = { a, "orig" };
	mode_t old = umask(0);
	struct stat st;
	int id = wfw_restore_remember("m changed", &s, 1, err, sizeof(err));

	umask(old);
	CU_ASSERT_FATAL(id >= 0);
	snprintf(path, sizeof(path), "%s/state/%d.state", dir, (int)getpid());
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0644);
	wfw_restore_forget(id);
	free(a);
}

/* A plugin's write outside the sysfs root is refused before any change. */
static void test_check_steps(void)
{
	struct wultfw_restore_step in = { "/sys/devices/system/cpu/online", "0-1" };
	struct wultfw_restore_step out = { "/tmp/x", "1" };
	char err[512];

	CU_ASSERT_EQUAL(wfw_restore_check_steps(NULL, &in, 1, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(wfw_restore_check_steps(NULL, &out, 1, err, sizeof(err)), -EXDEV);
	TU_ASSERT_CONTAINS(err, "cannot remember a write to /tmp/x: it is not below the sysfs root /sys,");
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("restore", setup, teardown);
	CU_add_test(s, "state file text round trip", test_format_parse);
	CU_add_test(s, "remember, undo, forget", test_remember_undo);
	CU_add_test(s, "a killed process's leftovers", test_leftover_of_killed_process);
	CU_add_test(s, "refusals", test_refusals);
	CU_add_test(s, "a plugin's change: text round trip", test_plugin_format_parse);
	CU_add_test(s, "a plugin's change: refusals", test_plugin_refusals);
	CU_add_test(s, "a plugin's change left by a killed process", test_plugin_leftover_missing);
	CU_add_test(s, "hostile writes refused", test_hostile_writes);
	CU_add_test(s, "untrusted state files refused", test_untrusted_files);
	CU_add_test(s, "the state file's mode", test_state_file_mode);
	CU_add_test(s, "a plugin's writes below the sysfs root", test_check_steps);
	return tu_run();
}
