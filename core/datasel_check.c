/* SPDX-License-Identifier: MIT */
/*
 * An experiment's include/exclude against the columns its source declares
 * (wultfw_plugin.columns), when the file is loaded: `wultfw --check`
 * catches what otherwise stops the run only once the source is open. And
 * against the columns it gave when --check opened it on this machine.
 * The expression is compiled against a schema made of the declaration:
 * its named columns, plus a column for each name the expression uses that
 * one of its patterns ("CC*%") matches.
 */
#include "config.h"

#include "datasel.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <suggest/suggest.h>

struct check_schema {
	const struct wultfw_column *declared;
	struct wultfw_column *cols;
	size_t n, cap;
};

/*
 * An ENUM declared without its names (the machine's C-states) gets a name
 * no string equals: the comparison is typed (a number against it is an
 * error) and a string matches no row, as for a name the rows never hold.
 */
static const char *const no_names[] = { "" };

static bool has(const struct check_schema *cs, const char *name)
{
	for (size_t i = 0; i < cs->n; i++)
		if (!strcmp(cs->cols[i].name, name))
			return true;
	return false;
}

static int add(struct check_schema *cs, const struct wultfw_column *col,
	       const char *name)
{
	struct wultfw_column *c;

	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? 2 * cs->cap : 16;

		c = realloc(cs->cols, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		cs->cols = c;
		cs->cap = cap;
	}
	c = &cs->cols[cs->n++];
	*c = *col;
	c->name = name;
	if (c->type == WULTFW_COL_ENUM && (!c->n_enum || !c->enum_names)) {
		c->enum_names = no_names;
		c->n_enum = 1;
	}
	return 0;
}

/* A name the expression uses: a column of a declared family, if one is. */
static int add_member(const char *name, void *arg)
{
	struct check_schema *cs = arg;
	const struct wultfw_column *d;

	if (has(cs, name))
		return 0;
	for (d = cs->declared; d->name; d++)
		if (wfw_names_is_pattern(d->name) && !fnmatch(d->name, name, 0))
			return add(cs, d, name);
	return 0;
}

/* The declared patterns, for the message: " (and where ...: CC*%, PC*%)". */
static void families(const struct wultfw_column *declared, char *buf, size_t len)
{
	size_t at = 0, n = 0;

	buf[0] = '\0';
	for (const struct wultfw_column *d = declared; d->name && at < len; d++)
		if (wfw_names_is_pattern(d->name))
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       n++ ? ", " : " (and where the machine has them: ",
					       d->name);
	if (n && at < len)
		snprintf(buf + at, len - at, ")");
}

/* A compile error, its first line saying against what. */
static void say(struct wfw_cfgerr *errs, const struct wfw_datasel_text *t,
		const struct wultfw_column *declared, const char *plugin,
		const char *err)
{
	size_t first = strcspn(err, "\n");
	char fam[256];

	families(declared, fam, sizeof(fam));
	wfw_cfgerr_at(errs, t->setting, t->key, "%.*s%s (checked against the columns source '%s' declares)%s",
		      (int)first, err, fam, plugin, err + first);
}

static void check_one(const struct wfw_datasel_text *t,
		      const struct wultfw_column *declared, const char *plugin,
		      struct wfw_cfgerr *errs)
{
	struct check_schema cs = { .declared = declared };
	struct wultfw_schema s;
	struct wfw_expr *e = NULL;
	char err[2048];
	int ret = 0;

	if (!t->text || !t->setting)
		return;
	for (const struct wultfw_column *d = declared; d->name && !ret; d++)
		if (!wfw_names_is_pattern(d->name))
			ret = add(&cs, d, d->name);
	if (!ret)
		ret = wfw_expr_names(t->text, add_member, &cs, err, sizeof(err));
	s = (struct wultfw_schema){ cs.n, cs.cols };
	if (!ret && wfw_expr_compile(&e, t->text, &s, err, sizeof(err)))
		say(errs, t, declared, plugin, err);
	else if (ret == -ENOMEM)
		wfw_cfgerr_at(errs, t->setting, t->key, "out of memory");
	wfw_expr_free(e);
	free(cs.cols);
}

void wfw_datasel_check_columns(const struct wfw_datasel_cfg *c,
			       const struct wultfw_column *declared,
			       const char *plugin, struct wfw_cfgerr *errs)
{
	if (!declared)
		return;
	check_one(&c->include, declared, plugin, errs);
	check_one(&c->exclude, declared, plugin, errs);
}

static void check_opened(const struct wfw_datasel_text *t,
			 const struct wultfw_schema *s, const char *plugin,
			 struct wfw_cfgerr *warns)
{
	struct wfw_expr *e = NULL;
	char err[2048];

	if (!t->text || !t->setting)
		return;
	if (wfw_expr_compile(&e, t->text, s, err, sizeof(err))) {
		size_t first = strcspn(err, "\n");

		wfw_cfgerr_at(warns, t->setting, t->key,
			      "%.*s (the columns source '%s' gives on this machine)%s",
			      (int)first, err, plugin, err + first);
	}
	wfw_expr_free(e);
}

void wfw_datasel_check_schema(const struct wfw_datasel_cfg *c,
			      const struct wultfw_schema *s, const char *plugin,
			      struct wfw_cfgerr *warns)
{
	check_opened(&c->include, s, plugin, warns);
	check_opened(&c->exclude, s, plugin, warns);
}
