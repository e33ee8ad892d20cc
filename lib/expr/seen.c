/* SPDX-License-Identifier: MIT */
/* Names and columns no row has, over every part's reader (seen.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/reader.h"
#include "expr/ast.h"
#include "expr/seen.h"
#include <suggest/suggest.h>

/* One comparison of a column with a name (or, !name, with a number). */
struct wfw_seen_cmp {
	const char *what;	/* "--include", "--exclude" */
	const char *col;	/* the column, as written */
	const char *name;	/* the string, or NULL */
	bool seen;		/* some reader's rows had it */
	char **names;		/* the column's names, every reader's */
	size_t nnames;
};

/* n's comparisons of a column into z->v from z->n on (NULL: count). */
static void collect(struct wfw_seen *z, const struct node *n, const char *what,
		    bool count)
{
	if (!n)
		return;
	if (n->kind != NODE_CMP) {
		collect(z, n->left, what, count);
		collect(z, n->right, what, count);
		return;
	}
	/* resolved: the column first; `index` and column pairs never miss */
	if (n->a.kind != VAL_COLUMN || n->b.tok.kind == TOK_NAME)
		return;
	if (!count)
		z->v[z->n] = (struct wfw_seen_cmp){
			.what = what, .col = n->a.col->name,
			.name = n->b.tok.kind == TOK_STR ? n->b.tok.text : NULL };
	z->n++;
}

int wfw_seen_init(struct wfw_seen *z, const struct wfw_select *sel)
{
	memset(z, 0, sizeof(*z));
	collect(z, sel->include ? sel->include->root : NULL, "--include", true);
	collect(z, sel->exclude ? sel->exclude->root : NULL, "--exclude", true);
	z->v = calloc(z->n + 1, sizeof(*z->v));
	if (!z->v) {
		z->failed = true;
		return -ENOMEM;
	}
	z->n = 0;
	collect(z, sel->include ? sel->include->root : NULL, "--include", false);
	collect(z, sel->exclude ? sel->exclude->root : NULL, "--exclude", false);
	/* the texts outlive sel: a reader's copy may be freed first */
	for (size_t k = 0; k < z->n; k++) {
		z->v[k].col = strdup(z->v[k].col);
		z->v[k].name = z->v[k].name ? strdup(z->v[k].name) : NULL;
		if (!z->v[k].col)
			z->failed = true;
	}
	return z->failed ? -ENOMEM : 0;
}

static bool listed(char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

/* The column's names into c's list, each once. */
static void add_names(struct wfw_seen *z, struct wfw_seen_cmp *c,
		      const struct wultfw_column *col)
{
	for (size_t i = 0; i < col->n_enum; i++) {
		char **v;

		if (listed(c->names, c->nnames, col->enum_names[i]))
			continue;
		v = realloc(c->names, (c->nnames + 1) * sizeof(*v));
		if (!v || !(v[c->nnames] = strdup(col->enum_names[i]))) {
			if (v)
				c->names = v;
			z->failed = true;
			return;
		}
		c->names = v;
		c->nnames++;
	}
}

void wfw_seen_note(struct wfw_seen *z, const struct wultfw_schema *s)
{
	for (size_t k = 0; k < z->n && !z->failed; k++) {
		struct wfw_seen_cmp *c = &z->v[k];
		int i = wfw_schema_find(s, c->col);
		const struct wultfw_column *col;

		if (i < 0)
			continue;
		col = &s->cols[i];
		/* an ENUM without names: empty in every row so far */
		if (col->type != WULTFW_COL_ENUM)
			c->seen |= !c->name;
		else if (c->name)
			add_names(z, c, col);
		if (c->name && !c->seen)
			c->seen = listed(c->names, c->nnames, c->name);
	}
}

static void warn_one(const struct wfw_seen_cmp *c, const char *cmd,
		     const char *path, FILE *f)
{
	const char *near;

	fprintf(f, "wultfw %s: warning: %s: %s: ", cmd, path, c->what);
	if (!c->name || !c->nnames) {
		fprintf(f, "no row has a value in %s: the column is empty in every row\n",
			c->col);
		return;
	}
	fprintf(f, "no row has %s \"%s\"", c->col, c->name);
	near = wfw_suggest(c->name, (const char *const *)c->names, c->nnames);
	if (near)
		fprintf(f, " (did you mean \"%s\"?)", near);
	for (size_t i = 0; i < c->nnames; i++)
		fprintf(f, "%s%s", i ? ", " : "; its names: ", c->names[i]);
	fputc('\n', f);
}

size_t wfw_seen_warn(const struct wfw_seen *z, const char *cmd,
		     const char *path, FILE *f)
{
	size_t lines = 0;

	for (size_t k = 0; k < z->n && !z->failed; k++) {
		if (z->v[k].seen)
			continue;
		warn_one(&z->v[k], cmd, path, f);
		lines++;
	}
	return lines;
}

void wfw_seen_free(struct wfw_seen *z)
{
	for (size_t k = 0; z->v && k < z->n; k++) {
		free((char *)z->v[k].col);
		free((char *)z->v[k].name);
		for (size_t i = 0; i < z->v[k].nnames; i++)
			free(z->v[k].names[i]);
		free(z->v[k].names);
	}
	free(z->v);
	memset(z, 0, sizeof(*z));
}
