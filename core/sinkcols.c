/* SPDX-License-Identifier: MIT */
/*
 * Which sink options name columns is the plugin's business; the core knows
 * it by the option's unit: "column" (a numeric column; in a list, also an
 * fnmatch(3) pattern) or "ENUM column". Only values written in the file
 * and not equal to the default are checked: a default such as group_by's
 * "ReqCState" is the sink's to drop quietly where a source lacks it.
 */
#include "config.h"

#include "sinkcols.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suggest/suggest.h>

/* The columns checked against, and what a message says they are. */
struct cols {
	const struct wultfw_column *v;
	size_t n;
	const char *whose;	/* "declares", "gives on this machine" */
	const char *plugin;
};

static bool wants_enum(const struct wultfw_option *o)
{
	return !strcmp(o->unit, "ENUM column");
}

static bool names_columns(const struct wultfw_option *o)
{
	return o->unit && (o->type == WULTFW_OPT_STRING ||
			   o->type == WULTFW_OPT_STRING_LIST) &&
	       (!strcmp(o->unit, "column") || wants_enum(o));
}

static bool type_fits(const struct wultfw_column *c, bool want_enum)
{
	return (c->type == WULTFW_COL_ENUM) == want_enum;
}

/* -1 no column of that name, 0 one of the wrong type, 1 fits. */
static int lookup(const struct cols *cs, const char *item, bool want_enum)
{
	int found = -1;

	for (size_t i = 0; i < cs->n; i++) {
		const struct wultfw_column *c = &cs->v[i];
		bool hit;

		if (wfw_names_is_pattern(c->name))
			hit = !wfw_names_is_pattern(item) && !fnmatch(c->name, item, 0);
		else if (wfw_names_is_pattern(item))
			hit = !fnmatch(item, c->name, 0);
		else
			hit = !strcmp(c->name, item);
		if (hit && type_fits(c, want_enum))
			return 1;
		if (hit)
			found = 0;
	}
	return found;
}

/* A pattern against declared patterns cannot be decided: let it be. */
static bool undecidable(const struct cols *cs, const char *item)
{
	if (!wfw_names_is_pattern(item))
		return false;
	for (size_t i = 0; i < cs->n; i++)
		if (wfw_names_is_pattern(cs->v[i].name))
			return true;
	return false;
}

/* "'X' ...(did you mean 'Y'?); its ENUM columns: a, b" */
static void say(const struct cols *cs, const char *item, bool want_enum,
		int found, char *msg, size_t len)
{
	const char *kind = want_enum ? "ENUM" : "numeric", *names[256], *near;
	size_t n = 0, at;

	for (size_t i = 0; i < cs->n && n < 256; i++)
		if (type_fits(&cs->v[i], want_enum))
			names[n++] = cs->v[i].name;
	near = wfw_names_is_pattern(item) ? NULL : wfw_suggest(item, names, n);
	if (found == 0)
		at = (size_t)snprintf(msg, len, "'%s' is not %s %s column of source '%s'",
				      item, want_enum ? "an" : "a", kind, cs->plugin);
	else
		at = (size_t)snprintf(msg, len, "source '%s' %s no %s column %s '%s'",
				      cs->plugin, cs->whose, kind,
				      wfw_names_is_pattern(item) ? "matching" : "named", item);
	if (near && at < len)
		at += (size_t)snprintf(msg + at, len - at, " (did you mean '%s'?)", near);
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(msg + at, len - at, "%s%s",
				       i ? ", " : (want_enum ? "; its ENUM columns: " : "; its numeric columns: "),
				       names[i]);
	if (!n && at < len)
		snprintf(msg + at, len - at, "; it has no %s column", kind);
}

/* One value of option i of sink pi; an error (or warning) when it fits none. */
static void check_item(const struct wfw_plugin_inst *pi, size_t i,
		       const config_setting_t *where, const char *item,
		       const struct cols *cs, struct wfw_cfgerr *out)
{
	const struct wultfw_option *o = &pi->opts.table[i];
	bool want_enum = wants_enum(o);
	char key[256], msg[2048];
	int found;

	if (!*item || undecidable(cs, item))
		return;
	found = lookup(cs, item, want_enum);
	if (found > 0)
		return;
	say(cs, item, want_enum, found, msg, sizeof(msg));
	snprintf(key, sizeof(key), "%s.%s", pi->key, o->name);
	wfw_cfgerr_at(out, where, key, "%s", msg);
}

/* Written in the file, and not the default. */
static const config_setting_t *given(const struct wfw_plugin_inst *pi, size_t i)
{
	const config_setting_t *s = pi->opts.settings ? pi->opts.settings[i] : NULL;
	const char *def = pi->opts.table[i].def;

	if (!s)
		return NULL;
	if (def && config_setting_type(s) == CONFIG_TYPE_STRING &&
	    !strcmp(config_setting_get_string(s), def))
		return NULL;
	return s;
}

static void check_sink(const struct wfw_plugin_inst *pi, const struct cols *cs,
		       struct wfw_cfgerr *out)
{
	if (!pi->h.desc || !pi->opts.vals)
		return;
	for (size_t i = 0; i < pi->opts.n; i++) {
		const struct wultfw_value *v = &pi->opts.vals[i];
		const config_setting_t *s = given(pi, i);

		if (!s || !names_columns(&pi->opts.table[i]) || !v->set)
			continue;
		if (pi->opts.table[i].type == WULTFW_OPT_STRING) {
			check_item(pi, i, s, v->s ? v->s : "", cs, out);
			continue;
		}
		for (size_t k = 0; k < v->strs.n; k++) {
			const config_setting_t *el =
				config_setting_get_elem(s, (unsigned)k);

			check_item(pi, i, el ? el : s, v->strs.v[k], cs, out);
		}
	}
}

static void check_all(const struct wfw_experiment *e, const struct cols *cs,
		      struct wfw_cfgerr *out)
{
	for (size_t i = 0; i < e->nsinks; i++)
		check_sink(&e->sinks[i], cs, out);
}

void wfw_sinkcols_check(const struct wfw_experiment *e, struct wfw_cfgerr *errs)
{
	const struct wultfw_column *d;
	struct cols cs = { .whose = "declares" };

	if (!e->source.h.desc)
		return;
	d = e->columns;
	if (!d)
		return;
	cs.v = d;
	while (d[cs.n].name)
		cs.n++;
	cs.plugin = e->source.h.desc->name;
	check_all(e, &cs, errs);
}

void wfw_sinkcols_check_schema(const struct wfw_experiment *e,
			       const struct wultfw_schema *s,
			       struct wfw_cfgerr *warns)
{
	struct cols cs = { s->cols, s->ncols, "gives on this machine",
			   e->source.h.desc->name };

	check_all(e, &cs, warns);
}

int wfw_sinkcols_refuse(const struct wfw_experiment *e,
			const struct wultfw_schema *s)
{
	struct wfw_cfgerr bad = { 0 };
	size_t n;

	wfw_sinkcols_check_schema(e, s, &bad);
	n = bad.n;
	wfw_cfgerr_print(&bad);
	wfw_cfgerr_free(&bad);
	return n ? -EINVAL : 0;
}
