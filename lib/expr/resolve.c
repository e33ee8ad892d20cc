/* SPDX-License-Identifier: MIT */
/* Meaning of a comparison's operands: columns, units, enum names. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "expr/expr.h"
#include "expr/resolve.h"
#include <suggest/suggest.h>
#include "units/duration.h"

void wfw_unknown_column(const struct wultfw_schema *s, const char *name,
			char *buf, size_t len)
{
	const char *names[s->ncols ? s->ncols : 1];
	const char *near;
	size_t n;

	for (size_t i = 0; i < s->ncols; i++)
		names[i] = s->cols[i].name;
	near = wfw_suggest(name, names, s->ncols);
	n = (size_t)snprintf(buf, len, "unknown column '%s'", name);
	if (near && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (did you mean '%s'?)", near);
	for (size_t i = 0; i < s->ncols && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      i ? ", " : "; the columns are: ", names[i]);
}

static bool column_named(const struct wultfw_schema *s, const char *name)
{
	for (size_t i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i].name, name))
			return true;
	return false;
}

/* pandas' `index`, the row number from 0, unless a column has the name. */
static bool is_index(const struct parser *p, const struct operand *o)
{
	return o->tok.kind == TOK_NAME && !strcmp(o->tok.text, "index") &&
	       !column_named(p->schema, "index");
}

static int find_column(struct parser *p, struct operand *o)
{
	const struct wultfw_schema *s = p->schema;
	char why[1024];

	if (is_index(p, o)) {
		o->kind = VAL_INDEX;
		return 0;
	}
	for (size_t i = 0; i < s->ncols; i++) {
		if (!strcmp(s->cols[i].name, o->tok.text)) {
			o->kind = VAL_COLUMN;
			o->col = &s->cols[i];
			o->idx = i;
			o->scale = 1;
			return 0;
		}
	}
	wfw_unknown_column(s, o->tok.text, why, sizeof(why));
	expr_error(p, o->tok.pos, "%s", why);
	return -EINVAL;
}

/* "a < 5" from "5 > a": the column goes first. */
static enum tok_kind mirror(enum tok_kind op)
{
	switch (op) {
	case TOK_LT: return TOK_GT;
	case TOK_GT: return TOK_LT;
	case TOK_LE: return TOK_GE;
	case TOK_GE: return TOK_LE;
	default: return op;
	}
}

/*
 * Empty in every row so far: a one-pass CSV reader gives such a column a
 * type (numbers, or names) with its first value, so comparisons on it are
 * checked then (expr_refresh()).
 */
static bool untyped(const struct wultfw_column *c)
{
	return c->type == WULTFW_COL_ENUM && !c->n_enum;
}

/* Names are only ever appended: look at the new ones only. */
static int resolve_string(struct parser *p, struct node *n)
{
	const struct wultfw_column *c = n->a.col;

	if (c->type != WULTFW_COL_ENUM) {
		expr_error(p, n->b.tok.pos, "column '%s' holds numbers: compare it with a number, not a string",
			   c->name);
		return -EINVAL;
	}
	if (n->op != TOK_EQ && n->op != TOK_NE) {
		expr_error(p, n->b.tok.pos, "names of '%s' compare with == or != only",
			   c->name);
		return -EINVAL;
	}
	if (n->b.kind != VAL_ENUM) {
		n->b.kind = VAL_ENUM;
		n->b.enum_val = -2;	/* a name the column does not hold */
		n->b.n_seen = 0;
	}
	for (size_t i = n->b.n_seen; i < c->n_enum && n->b.enum_val == -2; i++)
		if (!strcmp(c->enum_names[i], n->b.tok.text))
			n->b.enum_val = (int64_t)i;
	n->b.n_seen = c->n_enum;
	return 0;
}

/* A number in the column's unit; a duration converts between units. */
static int resolve_number(struct parser *p, struct node *n)
{
	const struct wultfw_column *c = n->a.col;
	const char *unit = n->b.tok.text, *cunit = c->unit ? c->unit : "";
	uint64_t u_ns = wfw_duration_unit_ns(unit);
	uint64_t c_ns = wfw_duration_unit_ns(cunit);

	if (c->type == WULTFW_COL_ENUM && !untyped(c)) {
		expr_error(p, n->b.tok.pos, "column '%s' holds names: compare it with a quoted name such as \"C6\"",
			   c->name);
		return -EINVAL;
	}
	n->pending = untyped(c);
	n->b.kind = VAL_NUMBER;
	n->b.num = n->b.tok.num;
	if (!*unit || !strcmp(unit, cunit))
		return 0;
	if (u_ns && c_ns) {
		n->b.num = n->b.tok.num * (double)u_ns / (double)c_ns;
		return 0;
	}
	if (!*cunit)
		expr_error(p, n->b.tok.pos, "column '%s' has no unit (CSV files do not record units, a source may give none): write the number in the column's own unit, without '%s'",
			   c->name, unit);
	else if (!u_ns && c_ns)
		expr_error(p, n->b.tok.pos, "unknown unit '%s' for column '%s' (in %s): use ns, us, ms or s",
			   unit, c->name, cunit);
	else
		expr_error(p, n->b.tok.pos, "unit '%s' does not fit column '%s', which is in '%s'",
			   unit, c->name, cunit);
	return -EINVAL;
}

/* Two columns: durations compare in ns, other units must be equal. */
static int resolve_columns(struct parser *p, struct node *n)
{
	const struct wultfw_column *a = n->a.col, *b = n->b.col;
	uint64_t a_ns = wfw_duration_unit_ns(a->unit ? a->unit : "");
	uint64_t b_ns = wfw_duration_unit_ns(b->unit ? b->unit : "");

	if ((a->type == WULTFW_COL_ENUM && !untyped(a)) ||
	    (b->type == WULTFW_COL_ENUM && !untyped(b))) {
		expr_error(p, n->b.tok.pos, "'%s' and '%s' cannot be compared: compare names with a quoted string",
			   a->name, b->name);
		return -EINVAL;
	}
	n->pending = untyped(a) || untyped(b);
	if (a_ns && b_ns && a_ns != b_ns) {
		n->a.scale = (double)a_ns;
		n->b.scale = (double)b_ns;
	}
	return 0;
}

/* The part of resolving that depends on the columns' types. */
static int resolve_types(struct parser *p, struct node *n)
{
	if (n->b.tok.kind == TOK_NAME)
		return resolve_columns(p, n);
	if (n->b.tok.kind == TOK_STR)
		return resolve_string(p, n);
	return resolve_number(p, n);
}

/* `index OP number`: a plain number, the row number's own unit. */
static int resolve_index(struct parser *p, struct node *n)
{
	if (n->b.tok.kind != TOK_NUM) {
		expr_error(p, n->b.tok.pos, "index (the row number from 0) compares with a number only, e.g. index < 1000");
		return -EINVAL;
	}
	if (n->b.tok.text[0]) {
		expr_error(p, n->b.tok.pos, "index is a row number: write it without a unit ('%s')",
			   n->b.tok.text);
		return -EINVAL;
	}
	n->b.kind = VAL_NUMBER;
	n->b.num = n->b.tok.num;
	return 0;
}

int expr_resolve(struct parser *p, struct node *n)
{
	int a_col = n->a.tok.kind == TOK_NAME, b_col = n->b.tok.kind == TOK_NAME;

	if (!a_col && !b_col) {
		expr_error(p, n->a.tok.pos, "a comparison needs a column on one side");
		return -EINVAL;
	}
	/* The column first; of two names, the one that is a column. */
	if (!a_col || (b_col && !column_named(p->schema, n->a.tok.text) &&
		       column_named(p->schema, n->b.tok.text))) {
		struct operand t = n->a;

		n->a = n->b;
		n->b = t;
		n->op = mirror(n->op);
	}
	if (find_column(p, &n->a))
		return -EINVAL;
	if (n->a.kind == VAL_INDEX)
		return resolve_index(p, n);
	if (b_col && is_index(p, &n->b)) {
		expr_error(p, n->b.tok.pos, "index (the row number from 0) compares with a number only, e.g. index < 1000");
		return -EINVAL;
	}
	if (b_col && a_col && n->a.col->type == WULTFW_COL_ENUM &&
	    !column_named(p->schema, n->b.tok.text)) {
		expr_error(p, n->b.tok.pos, "'%s' is no column: a name of '%s' is a string, in quotes: %s %s \"%s\"",
			   n->b.tok.text, n->a.col->name, n->a.col->name,
			   n->op == TOK_NE ? "!=" : "==", n->b.tok.text);
		return -EINVAL;
	}
	if (n->b.tok.kind == TOK_NAME && find_column(p, &n->b))
		return -EINVAL;
	return resolve_types(p, n);
}

/* Has the schema changed in a way that decides watched comparison n? */
static bool decided(const struct node *n)
{
	const struct wultfw_column *a = n->a.col;

	if (n->pending)
		return !untyped(a) && (n->b.kind != VAL_COLUMN || !untyped(n->b.col));
	return a->type != WULTFW_COL_ENUM || a->n_enum != n->b.n_seen;
}

int expr_refresh(struct wfw_expr *e, char *err, size_t errlen)
{
	struct parser p = { .text = e->text, .schema = e->schema, .err = err,
			    .errlen = errlen };
	size_t k = 0;

	while (k < e->nwatch) {
		struct node *n = e->watch[k];

		if (!decided(n)) {
			k++;
			continue;
		}
		if (resolve_types(&p, n))
			return -EINVAL;
		if (expr_watched(n))
			k++;
		else
			e->watch[k] = e->watch[--e->nwatch];
	}
	return 0;
}
