/* SPDX-License-Identifier: MIT */
/* The state file's text, both ways, and undoing one change (restore_file.h). */
#include "config.h"

#include "restore_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sysstate/beneath.h>

/* Copy src into dst (len bytes); false if it does not fit. */
static bool fits(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		return false;
	memcpy(dst, src, n + 1);
	return true;
}

/* Copy src into dst (len bytes), cut to fit. */
static void copy_cut(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int wfw_change_set(struct wfw_change *c, const char *what,
		   const struct wultfw_restore_step *steps, size_t n)
{
	if (n > WFW_RESTORE_MAX_STEPS || !fits(c->what, sizeof(c->what), what) ||
	    strpbrk(what, "\n\t"))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!steps[i].path || !steps[i].value ||
		    !fits(c->steps[i].path, sizeof(c->steps[i].path), steps[i].path) ||
		    !fits(c->steps[i].value, sizeof(c->steps[i].value), steps[i].value))
			return -EINVAL;
	}
	c->nsteps = n;
	return 0;
}

/* A plugin name: what a plugin file may be called. */
static bool plugin_name_ok(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == strlen(s);
}

int wfw_change_set_plugin(struct wfw_change *c, const char *what,
			  const char *plugin, const char *data)
{
	if (!plugin || !data || !fits(c->what, sizeof(c->what), what) ||
	    strpbrk(what, "\n\t") || !plugin_name_ok(plugin) ||
	    !fits(c->plugin, sizeof(c->plugin), plugin) ||
	    !fits(c->data, sizeof(c->data), data))
		return -EINVAL;
	c->kind = WFW_CHANGE_PLUGIN;
	c->nsteps = 0;
	return 0;
}

/* Write each step's value; with root, another process's: only below it. */
static int put_back_with(const struct wfw_change *c, const char *root)
{
	int ret = 0;

	if (c->kind == WFW_CHANGE_PLUGIN)
		return -ENOSYS;

	for (size_t i = 0; i < c->nsteps; i++) {
		const char *v = c->steps[i].value;
		int fd = root ? wfw_open_beneath(root, c->steps[i].path, O_WRONLY | O_TRUNC) :
			 open(c->steps[i].path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		size_t len = strlen(v);

		if (fd < 0) {
			int e = root ? -fd : errno;

			if (e != ENOENT && !ret)
				ret = -e;
			continue;
		}
		/* ENODEV: a driver's unbind of a device it no longer has. */
		if (write(fd, v, len) != (ssize_t)len && errno != ENODEV && !ret)
			ret = -errno;
		close(fd);
	}
	return ret;
}

int wfw_change_put_back(const struct wfw_change *c)
{
	return put_back_with(c, NULL);
}

int wfw_change_put_back_beneath(const struct wfw_change *c, const char *root)
{
	return put_back_with(c, root);
}

/* One write's path below root? 0, or -EXDEV with err saying why. */
static int step_confined(const struct wfw_change *c, size_t k,
			 const char *root, char *err, size_t errlen)
{
	int fd = wfw_open_beneath(root, c->steps[k].path, O_PATH);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd != -EXDEV && fd != -EINVAL)
		return 0;	/* gone, or unreadable: put back says */
	if (fd == -EXDEV)
		snprintf(err, errlen, "line %d: the write to %s (change '%s') leads outside the sysfs root %s, the only place wultfw writes back",
			 c->steps[k].line, c->steps[k].path, c->what, root);
	else
		snprintf(err, errlen, "line %d: the write to %s (change '%s') is to no regular file, the only kind wultfw writes back",
			 c->steps[k].line, c->steps[k].path, c->what);
	return -EXDEV;
}

int wfw_state_confined(const struct wfw_state *st, const char *root,
		       char *err, size_t errlen)
{
	for (size_t i = 0; i < st->nchanges; i++) {
		const struct wfw_change *c = &st->changes[i];

		if (!c->live || c->kind != WFW_CHANGE_WRITES)
			continue;
		for (size_t k = 0; k < c->nsteps; k++)
			if (step_confined(c, k, root, err, errlen))
				return -EXDEV;
	}
	return 0;
}

bool wfw_state_live(const struct wfw_state *st)
{
	for (size_t i = 0; i < st->nchanges; i++)
		if (st->changes[i].live)
			return true;
	return false;
}

/* s with \, newline and tab escaped, appended to f. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else
			fputc(*s, f);
	}
}

char *wfw_state_format(const struct wfw_state *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "# wultfw: system settings this run changed and how to put them back.\n"
		"# If pid %d is gone, 'wultfw restore' puts them back.\n"
		"pid %d\npid_start %llu\nboot_id %s\n", (int)st->pid, (int)st->pid,
		st->pid_start, st->boot_id[0] ? st->boot_id : "-");
	for (size_t i = 0; i < st->nchanges; i++) {
		const struct wfw_change *c = &st->changes[i];

		if (!c->live)
			continue;
		fprintf(f, "change %s\n", c->what);
		if (c->kind == WFW_CHANGE_PLUGIN) {
			fprintf(f, "plugin %s\t", c->plugin);
			put_escaped(f, c->data);
			fputc('\n', f);
		}
		for (size_t k = 0; k < c->nsteps; k++) {
			fputs("write ", f);
			put_escaped(f, c->steps[k].path);
			fputc('\t', f);
			put_escaped(f, c->steps[k].value);
			fputc('\n', f);
		}
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* Undo put_escaped() into dst (len bytes); false if it does not fit. */
static bool get_escaped(char *dst, size_t len, const char *s, const char *end)
{
	size_t j = 0;

	for (; s < end; s++) {
		char ch = *s;

		if (ch == '\\' && s + 1 < end) {
			s++;
			ch = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		}
		if (j + 1 >= len)
			return false;
		dst[j++] = ch;
	}
	dst[j] = '\0';
	return true;
}

static int parse_write(struct wfw_change *c, const char *arg, int lineno)
{
	const char *tab = strchr(arg, '\t');

	if (!c || !tab || c->nsteps >= WFW_RESTORE_MAX_STEPS ||
	    c->kind != WFW_CHANGE_WRITES)
		return -EINVAL;
	if (!get_escaped(c->steps[c->nsteps].path, sizeof(c->steps[0].path), arg, tab) ||
	    !get_escaped(c->steps[c->nsteps].value, sizeof(c->steps[0].value),
			 tab + 1, tab + 1 + strlen(tab + 1)))
		return -EINVAL;
	c->steps[c->nsteps++].line = lineno;
	return 0;
}

/* "plugin NAME\tDATA": the one way c is undone. */
static int parse_plugin(struct wfw_change *c, const char *arg)
{
	const char *tab = strchr(arg, '\t');
	char name[sizeof(c->plugin)];

	if (!c || !tab || c->nsteps || c->kind != WFW_CHANGE_WRITES ||
	    !get_escaped(name, sizeof(name), arg, tab) || !plugin_name_ok(name) ||
	    !get_escaped(c->data, sizeof(c->data), tab + 1, tab + 1 + strlen(tab + 1)))
		return -EINVAL;
	memcpy(c->plugin, name, sizeof(name));
	c->kind = WFW_CHANGE_PLUGIN;
	return 0;
}

/* One line; *cur is the change `write` and `plugin` lines belong to. */
static int parse_line(struct wfw_state *st, const char *line, int lineno,
		      struct wfw_change **cur)
{
	if (!*line || *line == '#')
		return 0;
	if (!strncmp(line, "pid ", 4))
		return (st->pid = (pid_t)atoi(line + 4)) > 0 ? 0 : -EINVAL;
	if (!strncmp(line, "pid_start ", 10)) {
		st->pid_start = strtoull(line + 10, NULL, 10);
		return 0;
	}
	if (!strncmp(line, "boot_id ", 8)) {
		copy_cut(st->boot_id, sizeof(st->boot_id),
			 strcmp(line + 8, "-") ? line + 8 : "");
		return 0;
	}
	if (!strncmp(line, "write ", 6))
		return parse_write(*cur, line + 6, lineno);
	if (!strncmp(line, "plugin ", 7))
		return parse_plugin(*cur, line + 7);
	if (strncmp(line, "change ", 7) || st->nchanges >= WFW_RESTORE_MAX_CHANGES)
		return -EINVAL;
	*cur = &st->changes[st->nchanges++];
	memset(*cur, 0, sizeof(**cur));
	(*cur)->live = true;
	(*cur)->line = lineno;
	copy_cut((*cur)->what, sizeof((*cur)->what), line + 7);
	return 0;
}

/* Every change says how to undo it: writes, or its plugin. */
static int check_undoable(const struct wfw_state *st, char *err, size_t errlen)
{
	for (size_t i = 0; i < st->nchanges; i++) {
		const struct wfw_change *c = &st->changes[i];

		if (c->kind == WFW_CHANGE_WRITES && !c->nsteps) {
			snprintf(err, errlen, "line %d: change '%s' has no 'write' or 'plugin' line after it: no way to put it back (delete the file if you restored it by hand)",
				 c->line, c->what);
			return -EINVAL;
		}
	}
	return 0;
}

int wfw_state_parse(const char *text, struct wfw_state *st, char *err,
		    size_t errlen)
{
	struct wfw_change *cur = NULL;
	int lineno = 0;

	memset(st, 0, sizeof(*st));
	st->changes = calloc(WFW_RESTORE_MAX_CHANGES, sizeof(*st->changes));
	if (!st->changes)
		return -ENOMEM;
	while (*text) {
		size_t n = strcspn(text, "\n");
		char line[2 * WULTFW_RESTORE_DATA_MAX + 128];

		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		if (n >= sizeof(line) || parse_line(st, line, lineno, &cur)) {
			snprintf(err, errlen, "line %d: not a wultfw state line (delete the file if you restored its settings by hand)",
				 lineno);
			return -EINVAL;
		}
		text += n + (text[n] == '\n');
	}
	if (st->pid <= 0) {
		snprintf(err, errlen, "no 'pid' line");
		return -EINVAL;
	}
	return check_undoable(st, err, errlen);
}

const char *wfw_restore_dir(void)
{
	const char *d = getenv("WULTFW_STATE_DIR");

	return d && *d ? d : WFW_RESTORE_DEFAULT_DIR;
}
