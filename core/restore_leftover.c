/* SPDX-License-Identifier: MIT */
/*
 * State files other wultfw processes left (restore.h): what a killed run
 * left changed, said and put back. Another process's file is hostile until
 * checked: the directory and the file must be trusted (statedir.h) and
 * every file it writes back must lie below the sysfs root in force.
 */
#include "config.h"

#include "restore.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic/atomic.h>
#include <sysstate/proc.h>
#include <sysstate/sysfile.h>

#include "restore_file.h"
#include "restore_plugin.h"
#include "statedir.h"

#define STATE_FILE_MAX (1 << 20)

/* fd's text (at most STATE_FILE_MAX bytes), or NULL. */
static char *slurp(int fd)
{
	char *text = malloc(STATE_FILE_MAX + 1);
	size_t len = 0;
	ssize_t n = 1;

	while (text && len <= STATE_FILE_MAX &&
	       (n = read(fd, text + len, STATE_FILE_MAX + 1 - len)) > 0)
		len += (size_t)n;
	if (text && (n < 0 || len > STATE_FILE_MAX)) {
		free(text);
		return NULL;
	}
	if (text)
		text[len] = '\0';
	return text;
}

static void list_changes(const char *tool, const struct wfw_state *st)
{
	for (size_t i = 0; i < st->nchanges; i++)
		fprintf(stderr, "wultfw %s:   %s\n", tool, st->changes[i].what);
}

/* One change: file writes below root, or its plugin's restore op. */
static int put_back(const char *tool, const char *root, struct wfw_change *c)
{
	int r;

	if (c->kind == WFW_CHANGE_PLUGIN)
		r = wfw_restore_plugin_change(c, tool);	/* says why */
	else if ((r = wfw_change_put_back_beneath(c, root)))
		fprintf(stderr, "wultfw %s: cannot put back '%s': %s%s\n", tool,
			c->what, strerror(-r),
			r == -EACCES || r == -EPERM ? " (run 'wultfw restore' as root)" : "");
	c->live = r != 0;
	return r;
}

/* The state file of a leftover: its directory's fd, name and path. */
struct sfile {
	int dirfd;
	const char *name;
	char path[PATH_MAX];
};

/* The file keeps only what could not be put back, for another try. */
static void keep_failed(const char *tool, const struct sfile *f,
			const struct wfw_state *st)
{
	char *text = wfw_state_format(st);

	if (!text || wfw_atomic_write_text_at(f->dirfd, f->name, text, strlen(text), 0644))
		fprintf(stderr, "wultfw %s: cannot rewrite %s: it still lists what was put back\n",
			tool, f->path);
	free(text);
	fprintf(stderr, "wultfw %s: kept %s for another try\n", tool, f->path);
}

/* Newest first; the file goes once everything is back. */
static int put_back_all(const char *tool, const char *root,
			const struct sfile *f, struct wfw_state *st)
{
	int ret = 0;

	for (size_t i = st->nchanges; i-- > 0;) {
		int r = put_back(tool, root, &st->changes[i]);

		if (r)
			ret = r;
	}
	if (ret) {
		keep_failed(tool, f, st);
		return ret;
	}
	if (unlinkat(f->dirfd, f->name, 0))
		fprintf(stderr, "wultfw %s: restored, but cannot remove %s: %s\n",
			tool, f->path, strerror(errno));
	else
		fprintf(stderr, "wultfw %s: restored them\n", tool);
	return 0;
}

/* A killed run's file: said, checked, and put back when `restore`. */
static int killed(const char *tool, const char *root, const struct sfile *f,
		  struct wfw_state *st, bool restore)
{
	char err[1024];

	fprintf(stderr, "wultfw %s: a killed wultfw (pid %d) left these settings changed (%s):\n",
		tool, (int)st->pid, f->path);
	list_changes(tool, st);
	if (wfw_state_confined(st, root, err, sizeof(err))) {
		fprintf(stderr, "wultfw %s: %s: %s: refused, nothing in it is put back; check the file and remove it\n",
			tool, f->path, err);
		return -1;
	}
	return restore ? (put_back_all(tool, root, f, st) ? -1 : 1) : 1;
}

/* The file's checked text, or NULL: gone (*ret 0) or refused (*ret -1). */
static char *read_checked(const char *tool, const struct sfile *f, int *ret)
{
	char err[1024], *text;
	int fd = wfw_statedir_file(f->dirfd, f->name, O_RDONLY, err, sizeof(err));

	*ret = 0;
	if (fd == -ENOENT)
		return NULL;	/* gone meanwhile: its run finished */
	if (fd < 0) {
		fprintf(stderr, "wultfw %s: %s\n", tool, err);
		*ret = -1;
		return NULL;
	}
	text = slurp(fd);
	close(fd);
	if (!text) {
		fprintf(stderr, "wultfw %s: %s: cannot read it, or larger than %d bytes: not a state file; check it and remove it\n",
			tool, f->path, STATE_FILE_MAX);
		*ret = -1;
	}
	return text;
}

/* One state file: 1 if a killed run's, 0 if not, -1 if refused or restoring failed. */
static int leftover(const char *tool, const char *root, const struct sfile *f,
		    bool restore)
{
	char err[256], boot[64];
	struct wfw_state st;
	int ret;
	char *text = read_checked(tool, f, &ret);

	if (!text)
		return ret;
	wfw_boot_id(boot, sizeof(boot));
	if (wfw_state_parse(text, &st, err, sizeof(err))) {
		fprintf(stderr, "wultfw %s: %s: %s\n", tool, f->path, err);
		ret = -1;
	} else if (st.pid == getpid() || !wfw_state_live(&st)) {
		ret = 0;
	} else if (*st.boot_id && *boot && strcmp(st.boot_id, boot)) {
		/* The reboot put every setting back already. */
		unlinkat(f->dirfd, f->name, 0);
	} else if (wfw_proc_alive(st.pid, st.pid_start, st.boot_id)) {
		fprintf(stderr, "wultfw %s: wultfw (pid %d) is running and has changed:\n", tool, (int)st.pid);
		list_changes(tool, &st);
	} else {
		ret = killed(tool, root, f, &st, restore);
	}
	free(st.changes);
	free(text);
	return ret;
}

static bool is_state_file(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && name[0] != '.' && !strcmp(name + n - 6, ".state");
}

/* The checked state directory: its fd, or -1 when there is none to read. */
static int open_dir(const char *tool, int *failed)
{
	char err[1024];
	int fd = wfw_statedir_open(false, err, sizeof(err));

	/* None, or not ours to read: nothing this user ever changed. */
	if (fd == -ENOENT || fd == -EACCES)
		return -1;
	if (fd < 0) {
		fprintf(stderr, "wultfw %s: %s\n", tool, err);
		*failed = 1;
	}
	return fd;
}

int wfw_restore_leftovers(const char *tool, const char *sysfs_root, bool restore)
{
	int found = 0, failed = 0, dirfd = open_dir(tool, &failed), lfd;
	const char *root = wfw_sysfs(sysfs_root);
	struct dirent *de;
	DIR *d;

	if (dirfd < 0)
		return failed ? -1 : 0;
	lfd = dup(dirfd);
	d = lfd < 0 ? NULL : fdopendir(lfd);
	if (!d) {
		if (lfd >= 0)
			close(lfd);
		close(dirfd);
		return 0;
	}
	while ((de = readdir(d))) {
		struct sfile f = { .dirfd = dirfd, .name = de->d_name };
		int r;

		if (!is_state_file(de->d_name))
			continue;
		snprintf(f.path, sizeof(f.path), "%s/%s", wfw_restore_dir(), de->d_name);
		r = leftover(tool, root, &f, restore);
		if (r < 0)
			failed = 1;
		else
			found += r;
	}
	closedir(d);
	close(dirfd);
	return failed ? -1 : found;
}
