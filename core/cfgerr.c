/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cfgerr.h"
#include "log.h"

#include <errno.h>
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

static __attribute__((format(printf, 5, 0)))
void vadd(struct wfw_cfgerr *e, const char *file, int line,
		 const char *key, const char *fmt, va_list ap)
{
	char msg[768], full[1024];
	char **grown;

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
	grown = realloc(e->msgs, (e->n + 1) * sizeof(*e->msgs));
	if (!grown)
		return;
	e->msgs = grown;
	e->msgs[e->n] = strdup(full);
	if (e->msgs[e->n])
		e->n++;
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

void wfw_cfgerr_print(const struct wfw_cfgerr *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		wfw_err("%s", e->msgs[i]);
}

void wfw_cfgerr_free(struct wfw_cfgerr *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->msgs[i]);
	free(e->msgs);
	e->msgs = NULL;
	e->n = 0;
}
