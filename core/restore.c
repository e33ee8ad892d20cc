/* SPDX-License-Identifier: MIT */
/*
 * This process's changes to system settings, kept in its state file
 * before they are made (restore.h). Restoring needs only open, write,
 * close and unlinkat on strings prepared in advance, so signal handlers can
 * do it; everything that builds or rewrites the state file runs with the
 * stop signals held.
 */
#include "config.h"

#include "restore.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic/atomic.h>
#include <sysstate/beneath.h>
#include <sysstate/proc.h>
#include <sysstate/sysfile.h>

#include "restore_file.h"
#include "restore_plugin.h"
#include "statedir.h"

static struct wfw_change changes[WFW_RESTORE_MAX_CHANGES];
static volatile int nchanges;	/* slots used; a slot stays (dead) once undone */
static int state_dirfd = -1;	/* the state directory, checked */
static char state_name[32];	/* PID.state in it */
static char state_path[PATH_MAX];	/* both, for messages */
static pid_t owner;	/* whose changes these are: a forked child's are not */

static void hold_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, old);
}

/* The state file as it must be now; removed when nothing is left. */
static int save(void)
{
	struct wfw_state st = { .pid = getpid() };
	char *text;
	int ret;

	st.pid_start = wfw_proc_start(st.pid);
	wfw_boot_id(st.boot_id, sizeof(st.boot_id));
	st.changes = changes;
	st.nchanges = (size_t)nchanges;
	if (!wfw_state_live(&st)) {
		if (state_dirfd >= 0 && unlinkat(state_dirfd, state_name, 0) &&
		    errno != ENOENT)
			return -errno;
		return 0;
	}
	text = wfw_state_format(&st);
	if (!text)
		return -ENOMEM;
	ret = wfw_atomic_write_text_at(state_dirfd, state_name, text,
				       strlen(text), 0644);
	free(text);
	return ret;
}

/* The checked state directory (statedir.h), kept open for the process. */
static int open_state_dir(char *err, size_t errlen)
{
	if (state_dirfd >= 0 && owner == getpid())
		return 0;
	if (owner && owner != getpid())
		nchanges = 0;	/* a forked child: the parent's are not ours */
	if (state_dirfd < 0) {
		int fd = wfw_statedir_open(true, err, errlen);

		if (fd < 0)
			return fd;
		state_dirfd = fd;
	}
	owner = getpid();
	snprintf(state_name, sizeof(state_name), "%d.state", (int)owner);
	snprintf(state_path, sizeof(state_path), "%s/%s", wfw_restore_dir(), state_name);
	return 0;
}

/* c into the next slot and the state file; its id or -errno. */
static int add_change(const struct wfw_change *c, char *err, size_t errlen)
{
	sigset_t old;
	int ret, id;

	ret = open_state_dir(err, errlen);
	if (ret)
		return ret;
	hold_signals(&old);
	id = nchanges;
	if (id >= WFW_RESTORE_MAX_CHANGES) {
		snprintf(err, errlen, "cannot remember '%s': too many changes", c->what);
		ret = -E2BIG;
	} else {
		changes[id] = *c;
		changes[id].live = true;
		nchanges++;
		ret = save();
		if (ret) {
			snprintf(err, errlen, "cannot write %s (the settings to restore): %s",
				 state_path, strerror(-ret));
			changes[id].live = false;
			nchanges = id;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret ? ret : id;
}

int wfw_restore_remember(const char *what,
			 const struct wultfw_restore_step *steps, size_t n,
			 char *err, size_t errlen)
{
	struct wfw_change c;

	memset(&c, 0, sizeof(c));
	if (!n || n > WFW_RESTORE_MAX_STEPS) {
		snprintf(err, errlen, "cannot remember '%s': %s", what,
			 n ? "too many steps" : "no steps");
		return -E2BIG;
	}
	if (wfw_change_set(&c, what, steps, n)) {
		snprintf(err, errlen, "cannot remember '%s': a path or value is too long or holds a tab or newline",
			 what);
		return -EINVAL;
	}
	return add_change(&c, err, errlen);
}

int wfw_restore_check_steps(const char *sysfs_root,
			    const struct wultfw_restore_step *steps, size_t n,
			    char *err, size_t errlen)
{
	const char *root = wfw_sysfs(sysfs_root);

	for (size_t i = 0; i < n; i++) {
		int fd = steps[i].path ? wfw_open_beneath(root, steps[i].path, O_PATH) : -ENOENT;

		if (fd == -EXDEV) {
			snprintf(err, errlen, "cannot remember a write to %s: it is not below the sysfs root %s, and a later wultfw writes back nothing elsewhere",
				 steps[i].path, root);
			return -EXDEV;
		}
		if (fd == -EINVAL) {
			snprintf(err, errlen, "cannot remember a write to %s: it is no regular file, and a later wultfw writes back nothing else",
				 steps[i].path);
			return -EXDEV;
		}
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

int wfw_restore_remember_plugin(const char *plugin, const char *what,
				const char *data, char *err, size_t errlen)
{
	struct wfw_change c;

	memset(&c, 0, sizeof(c));
	if (wfw_change_set_plugin(&c, what, plugin, data)) {
		snprintf(err, errlen, "cannot remember '%s': the description (%zu bytes, at most %zu, no tab or newline) or the data (%zu bytes, at most %d) is too long",
			 what, strlen(what), sizeof(c.what) - 1, strlen(data),
			 WULTFW_RESTORE_DATA_MAX - 1);
		return -EINVAL;
	}
	return add_change(&c, err, errlen);
}

static void drop(int id, int (*put_back)(const struct wfw_change *c), int *ret)
{
	sigset_t old;

	if (id < 0 || id >= nchanges || !changes[id].live)
		return;
	hold_signals(&old);
	if (put_back)
		*ret = put_back(&changes[id]);
	changes[id].live = false;
	if (save() && put_back && !*ret)
		*ret = -EIO;
	/* All undone: the slots are free for the next experiment's changes. */
	while (nchanges > 0 && !changes[nchanges - 1].live)
		nchanges--;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int wfw_restore_undo(int id)
{
	int ret = 0;

	if (id >= 0 && id < nchanges && changes[id].live &&
	    changes[id].kind == WFW_CHANGE_PLUGIN) {
		/* Kept on failure: the state file tells a later wultfw. */
		ret = wfw_restore_plugin_change(&changes[id], NULL);
		if (!ret)
			drop(id, NULL, NULL);
		return ret;
	}
	drop(id, wfw_change_put_back, &ret);
	return ret;
}

void wfw_restore_forget(int id)
{
	drop(id, NULL, NULL);
}

static void say(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));

	(void)r;
}

/* Write-back changes undone; returns how many plugin changes are left. */
static int put_back_writes(void)
{
	int i, left = 0;

	for (i = nchanges - 1; i >= 0; i--) {
		if (!changes[i].live)
			continue;
		if (changes[i].kind == WFW_CHANGE_PLUGIN) {
			left++;
			continue;
		}
		wfw_change_put_back(&changes[i]);
		changes[i].live = false;
	}
	return left;
}

void wfw_restore_all(void)
{
	sigset_t old;

	/* A forked child exiting must not undo its parent's changes. */
	if (!owner || owner != getpid())
		return;
	hold_signals(&old);
	/*
	 * Only once all is written back: a crash before keeps the file. A
	 * plugin's own changes need its code, not safe to run here: they
	 * stay in the file for `wultfw restore` and the next run.
	 */
	if (!put_back_writes()) {
		if (state_dirfd >= 0)
			unlinkat(state_dirfd, state_name, 0);
	} else {
		say("wultfw: settings only a plugin can put back are left changed: 'wultfw restore' puts them back (");
		say(state_path);
		say(")\n");
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void wfw_restore_exit(void)
{
	sigset_t old;

	if (!owner || owner != getpid())
		return;
	hold_signals(&old);
	if (put_back_writes()) {
		save();		/* only what is left, for the next wultfw */
		fprintf(stderr, "wultfw: left changed, for 'wultfw restore' or the next run to put back (%s):\n",
			state_path);
		for (int i = 0; i < nchanges; i++)
			if (changes[i].live)
				fprintf(stderr, "wultfw:   %s\n", changes[i].what);
	} else if (state_dirfd >= 0) {
		unlinkat(state_dirfd, state_name, 0);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}
