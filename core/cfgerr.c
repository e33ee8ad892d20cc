/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cfgerr.h"
#include "log.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suggest/suggest.h>

/* Name of the file the outermost config came from; set by the parser. */
const char *wfw_cfg_main_file = "-";

const char *wfw_setting_file(const config_setting_t *s)
{
	const char *f = s ? config_setting_source_file(s) : NULL;

	return f ? f : wfw_cfg_main_file;
}

/* Room for one more message in each array. */
static bool grow(struct wfw_cfgerr *e)
{
	char **m = realloc(e->msgs, (e->n + 1) * sizeof(*m));
	char **f;
	int *l;

	if (!m)
		return false;
	e->msgs = m;
	f = realloc(e->files, (e->n + 1) * sizeof(*f));
	if (!f)
		return false;
	e->files = f;
	l = realloc(e->lines, (e->n + 1) * sizeof(*l));
	if (!l)
		return false;
	e->lines = l;
	return true;
}

static __attribute__((format(printf, 5, 0)))
void vadd(struct wfw_cfgerr *e, const char *file, int line,
		 const char *key, const char *fmt, va_list ap)
{
	char msg[768], full[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!*file)	/* the message carries its own location */
		snprintf(full, sizeof(full), "%s", msg);
	else if (line <= 0)	/* the whole file: no line to name */
		snprintf(full, sizeof(full), "%s: %s%s%s", file, key ? key : "",
			 key && *key ? ": " : "", msg);
	else if (key && *key)
		snprintf(full, sizeof(full), "%s:%d: %s: %s", file, line, key, msg);
	else
		snprintf(full, sizeof(full), "%s:%d: %s", file, line, msg);
	/* A top-level setting is checked once per experiment: say it once. */
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->msgs[i], full))
			return;
	if (!grow(e))
		return;
	e->msgs[e->n] = strdup(full);
	e->files[e->n] = strdup(file);
	e->lines[e->n] = line > 0 ? line : 0;
	if (e->msgs[e->n] && e->files[e->n]) {
		e->n++;
		return;
	}
	free(e->msgs[e->n]);
	free(e->files[e->n]);
}

void wfw_cfgerr_add(struct wfw_cfgerr *e, const char *file, int line,
		    const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(e, file, line, key, fmt, ap);
	va_end(ap);
}

/* The command-line option that set s (or its array), or NULL (overrides.c). */
static const char *set_by_option(const config_setting_t *s)
{
	const config_setting_t *p = s ? config_setting_parent(s) : NULL;

	if (s && config_setting_get_hook(s))
		return config_setting_get_hook(s);
	return p && config_setting_is_array(p) ? config_setting_get_hook(p) : NULL;
}

void wfw_cfgerr_at(struct wfw_cfgerr *e, const config_setting_t *s,
		   const char *key, const char *fmt, ...)
{
	const char *opt = set_by_option(s);
	va_list ap;

	va_start(ap, fmt);
	if (opt)	/* not in the file: the option is where to fix it */
		vadd(e, opt, 0, key, fmt, ap);
	else
		vadd(e, wfw_setting_file(s), s ? config_setting_source_line(s) : 0,
		     key, fmt, ap);
	va_end(ap);
}

void wfw_loc_set(struct wfw_loc *loc, const config_setting_t *s,
		 const char *key)
{
	snprintf(loc->file, sizeof(loc->file), "%s", wfw_setting_file(s));
	loc->line = s ? config_setting_source_line(s) : 0;
	snprintf(loc->key, sizeof(loc->key), "%s", key);
}

int wfw_cfgerr_type(struct wfw_cfgerr *e, const config_setting_t *s,
		    const char *key, int type, const char *what)
{
	if (config_setting_type(s) == type)
		return 0;
	wfw_cfgerr_at(e, s, key, "expected %s", what);
	return -EINVAL;
}

/* known[] as "a, b, c" in buf. */
static const char *join_names(const char *const *known, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t j = 0; known[j] && used < len; j++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 j ? ", " : "", known[j]);
	return buf;
}

static size_t count(const char *const *list)
{
	size_t n = 0;

	while (list[n])
		n++;
	return n;
}

void wfw_cfgerr_keys(struct wfw_cfgerr *e, const config_setting_t *group,
		     const char *path, const char *const *known)
{
	char key[256], list[512];
	int i;

	for (i = 0; i < config_setting_length(group); i++) {
		const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(s);
		const char *hint;
		size_t j;

		for (j = 0; known[j]; j++)
			if (!strcmp(known[j], name))
				break;
		if (known[j])
			continue;
		snprintf(key, sizeof(key), "%s%s%s", path, *path ? "." : "", name);
		hint = wfw_suggest(name, known, count(known));
		if (hint)
			wfw_cfgerr_at(e, s, key, "unknown key (did you mean '%s'?)", hint);
		else
			wfw_cfgerr_at(e, s, key, "unknown key (known here: %s; see wultfw.cfg(5))",
				      join_names(known, list, sizeof(list)));
	}
}

/* Does message a come before b: its file first named earlier, then by line (whole-file ones last), then as found. */
static bool before(const struct wfw_cfgerr *e, size_t a, size_t b)
{
	size_t fa = 0, fb = 0;
	int la = e->lines[a] ? e->lines[a] : INT_MAX;
	int lb = e->lines[b] ? e->lines[b] : INT_MAX;

	while (strcmp(e->files[fa], e->files[a]))
		fa++;
	while (strcmp(e->files[fb], e->files[b]))
		fb++;
	if (fa != fb)
		return fa < fb;
	return la != lb ? la < lb : a < b;
}

/* In the order the user reads the file: by file, then line. */
void wfw_cfgerr_print(const struct wfw_cfgerr *e)
{
	size_t *order = malloc(e->n * sizeof(*order) + 1);
	size_t i, j;

	if (!order) {
		for (i = 0; i < e->n; i++)
			wfw_err("%s", e->msgs[i]);
		return;
	}
	for (i = 0; i < e->n; i++) {
		for (j = i; j > 0 && before(e, i, order[j - 1]); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < e->n; i++)
		wfw_err("%s", e->msgs[order[i]]);
	free(order);
}

void wfw_cfgerr_free(struct wfw_cfgerr *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free(e->msgs[i]);
		free(e->files[i]);
	}
	free(e->msgs);
	free(e->files);
	free(e->lines);
	e->msgs = NULL;
	e->files = NULL;
	e->lines = NULL;
	e->n = 0;
}
