/* SPDX-License-Identifier: MIT */
/*
 * State files other wultfw processes left (restore.h): what a killed run
 * left changed, said and put back.
 */
#include "config.h"

#include "restore.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic/atomic.h>
#include <sysstate/proc.h>

#include "restore_file.h"
#include "restore_plugin.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	long len;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && len < (1 << 20) &&
	    !fseek(f, 0, SEEK_SET) && (text = malloc((size_t)len + 1))) {
		text[fread(text, 1, (size_t)len, f)] = '\0';
	}
	fclose(f);
	return text;
}

static void list_changes(const char *tool, const struct wfw_state *st)
{
	for (size_t i = 0; i < st->nchanges; i++)
		fprintf(stderr, "wultfw %s:   %s\n", tool, st->changes[i].what);
}

/* One change: file writes, or its plugin's restore op. */
static int put_back(const char *tool, struct wfw_change *c)
{
	int r;

	if (c->kind == WFW_CHANGE_PLUGIN)
		r = wfw_restore_plugin_change(c, tool);	/* says why */
	else if ((r = wfw_change_put_back(c)))
		fprintf(stderr, "wultfw %s: cannot put back '%s': %s%s\n", tool,
			c->what, strerror(-r),
			r == -EACCES || r == -EPERM ? " (run 'wultfw restore' as root)" : "");
	c->live = r != 0;
	return r;
}

/* The file keeps only what could not be put back, for another try. */
static void keep_failed(const char *tool, const char *path,
			const struct wfw_state *st)
{
	char *text = wfw_state_format(st);

	if (!text || wfw_atomic_write_text(path, text, strlen(text)))
		fprintf(stderr, "wultfw %s: cannot rewrite %s: it still lists what was put back\n",
			tool, path);
	free(text);
	fprintf(stderr, "wultfw %s: kept %s for another try\n", tool, path);
}

/* Newest first; the file goes once everything is back. */
static int put_back_all(const char *tool, const char *path,
			struct wfw_state *st)
{
	int ret = 0;

	for (size_t i = st->nchanges; i-- > 0;) {
		int r = put_back(tool, &st->changes[i]);

		if (r)
			ret = r;
	}
	if (ret) {
		keep_failed(tool, path, st);
		return ret;
	}
	if (unlink(path))
		fprintf(stderr, "wultfw %s: restored, but cannot remove %s: %s\n",
			tool, path, strerror(errno));
	else
		fprintf(stderr, "wultfw %s: restored them\n", tool);
	return 0;
}

/* One state file: 1 if a killed run's, 0 if not, -1 if restoring failed. */
static int leftover(const char *tool, const char *path, bool restore)
{
	char err[256], boot[64], *text = slurp(path);
	struct wfw_state st;
	int ret = 0;

	if (!text)
		return 0;	/* gone meanwhile: its run finished */
	wfw_boot_id(boot, sizeof(boot));
	if (wfw_state_parse(text, &st, err, sizeof(err))) {
		fprintf(stderr, "wultfw %s: %s: %s\n", tool, path, err);
		ret = -1;
	} else if (st.pid == getpid() || !wfw_state_live(&st)) {
		ret = 0;
	} else if (*st.boot_id && *boot && strcmp(st.boot_id, boot)) {
		/* The reboot put every setting back already. */
		unlink(path);
	} else if (wfw_proc_alive(st.pid, st.pid_start, st.boot_id)) {
		fprintf(stderr, "wultfw %s: wultfw (pid %d) is running and has changed:\n", tool, (int)st.pid);
		list_changes(tool, &st);
	} else {
		fprintf(stderr, "wultfw %s: a killed wultfw (pid %d) left these settings changed (%s):\n",
			tool, (int)st.pid, path);
		list_changes(tool, &st);
		ret = restore ? (put_back_all(tool, path, &st) ? -1 : 1) : 1;
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

int wfw_restore_leftovers(const char *tool, bool restore)
{
	const char *dir = wfw_restore_dir();
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0, failed = 0;

	if (!d)
		return 0;	/* no state directory: nothing was ever changed */
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		int r;

		if (!is_state_file(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		r = leftover(tool, path, restore);
		if (r < 0)
			failed = 1;
		else
			found += r;
	}
	closedir(d);
	return failed ? -1 : found;
}
