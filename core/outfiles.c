/* SPDX-License-Identifier: MIT */
/*
 * Which file a sink writes the core knows by convention: a STRING option
 * called "file" (csv, binary, WULTFW_FILE_OPTIONS) or one whose unit is
 * "file" (the stats sink's histograms). Each must stay inside the result
 * directory (the sink opens it through the core, which checks again).
 * Collectors write the file the core gives them, and keep_filtered the
 * core's filtered.csv.
 */
#include "config.h"

#include "outfiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <datafmt/resultfile.h>

#include "datasel.h"

struct outfile {
	const char *name;
	char at[300];		/* "FILE:LINE" */
	char key[200];		/* "sinks[1].file" */
	bool dflt;		/* not written in the file: a default */
};

struct outfiles {
	struct outfile *v;
	size_t n, cap;
};

static bool names_file(const struct wultfw_option *o)
{
	return o->type == WULTFW_OPT_STRING &&
	       (!strcmp(o->name, "file") || (o->unit && !strcmp(o->unit, "file")));
}

static struct outfile *add(struct outfiles *of, const char *name)
{
	if (of->n == of->cap) {
		size_t cap = of->cap ? 2 * of->cap : 8;
		struct outfile *v = realloc(of->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		of->v = v;
		of->cap = cap;
	}
	of->v[of->n].name = name;
	return &of->v[of->n++];
}

/* Where a sink's option was set, or its group when it is a default. */
static void option_where(const struct wfw_plugin_inst *pi, size_t i,
			 struct outfile *f)
{
	const config_setting_t *s = pi->opts.settings ? pi->opts.settings[i] : NULL;

	f->dflt = !s;
	if (s)
		snprintf(f->at, sizeof(f->at), "%s:%d", wfw_setting_file(s),
			 (int)config_setting_source_line(s));
	else
		snprintf(f->at, sizeof(f->at), "%s:%d", pi->loc.file, pi->loc.line);
	snprintf(f->key, sizeof(f->key), "%s.%s", pi->key, pi->opts.table[i].name);
}

static void add_sink(struct outfiles *of, const struct wfw_plugin_inst *pi)
{
	struct outfile *f;

	if (!pi->h.desc || !pi->opts.vals)
		return;
	for (size_t i = 0; i < pi->opts.n; i++) {
		const struct wultfw_value *v = &pi->opts.vals[i];

		if (!names_file(&pi->opts.table[i]) || !v->set || !v->s || !*v->s)
			continue;
		f = add(of, v->s);
		if (f)
			option_where(pi, i, f);
	}
}

/* A name such as the user meant, inside the directory: its last part. */
static const char *inside_name(const char *name, const char *def)
{
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	if (!*base || !strcmp(base, ".."))
		base = def ? def : "results.txt";
	return base;
}

/*
 * A file option names a file inside the result directory: not empty (an
 * option without a default may be "": no file), no leading '/', no '..'.
 */
static void check_name(const struct wfw_plugin_inst *pi, size_t i,
		       struct wfw_cfgerr *errs)
{
	const struct wultfw_option *o = &pi->opts.table[i];
	const struct wultfw_value *v = &pi->opts.vals[i];
	struct outfile f;

	if (!v->set || !v->s || (!*v->s && !o->def) ||
	    (*v->s && wfw_resultfile_inside(v->s)))
		return;
	option_where(pi, i, &f);
	if (!*v->s)
		wfw_cfgerr_add(errs, "", 0, NULL, "%s: %s: empty: give a file name such as \"%s\"",
			       f.at, f.key, o->def);
	else
		wfw_cfgerr_add(errs, "", 0, NULL, "%s: %s: \"%s\" is outside the result directory: give a name inside it, such as \"%s\" (no leading '/', no '..')",
			       f.at, f.key, v->s, inside_name(v->s, o->def));
}

static void check_names(const struct wfw_experiment *e, struct wfw_cfgerr *errs)
{
	for (size_t s = 0; s < e->nsinks; s++) {
		const struct wfw_plugin_inst *pi = &e->sinks[s];

		if (!pi->h.desc || !pi->opts.vals)
			continue;
		for (size_t i = 0; i < pi->opts.n; i++)
			if (names_file(&pi->opts.table[i]))
				check_name(pi, i, errs);
	}
}

static void gather(const struct wfw_experiment *e, struct outfiles *of)
{
	struct outfile *f;

	for (size_t i = 0; i < e->nsinks; i++)
		add_sink(of, &e->sinks[i]);
	for (size_t i = 0; i < e->collect.n; i++) {
		const struct wfw_plugin_inst *pi = &e->collect.pi[i];

		if (!e->collect.files[i])
			continue;
		f = add(of, e->collect.files[i]);
		if (!f)
			continue;
		f->dflt = false;
		snprintf(f->at, sizeof(f->at), "%s:%d", pi->loc.file, pi->loc.line);
		snprintf(f->key, sizeof(f->key), "%s", pi->key);
	}
	if (e->select.keep_filtered && e->select.keep_setting) {
		f = add(of, WFW_DATASEL_FILE);
		if (!f)
			return;
		f->dflt = false;
		snprintf(f->at, sizeof(f->at), "%s:%d",
			 wfw_setting_file(e->select.keep_setting),
			 (int)config_setting_source_line(e->select.keep_setting));
		snprintf(f->key, sizeof(f->key), "%s", e->select.keep_key);
	}
}

/* "FILE:LINE: sinks[1].file: ... written by sinks[0].file (FILE:LINE) too" */
static void clash(const struct outfile *second, const struct outfile *first,
		  struct wfw_cfgerr *errs)
{
	wfw_cfgerr_add(errs, "", 0, NULL,
		       "%s: %s: \"%s\"%s is written by %s (%s%s) too: the run would stop at its start; give one of them another file = \"...\"",
		       second->at, second->key, second->name,
		       second->dflt ? " (the default)" : "", first->key,
		       first->at, first->dflt ? ", its default" : "");
}

void wfw_outfiles_check(const struct wfw_experiment *e, struct wfw_cfgerr *errs)
{
	struct outfiles of = { 0 };

	check_names(e, errs);
	gather(e, &of);
	for (size_t i = 0; i < of.n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(of.v[i].name, of.v[j].name)) {
				clash(&of.v[i], &of.v[j], errs);
				break;
			}
	free(of.v);
}
