/* SPDX-License-Identifier: MIT */
/* Evaluating a compiled expression on rows, and --include/--exclude. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "datafmt/reader.h"
#include "expr/ast.h"
#include "expr/expr.h"
#include "expr/parser.h"

static double value(const struct operand *o, const union wultfw_cell *row)
{
	if (o->kind == VAL_NUMBER)
		return o->num;
	if (o->col->type == WULTFW_COL_ENUM)
		return (double)row[o->idx].i;
	return wfw_cell_value(o->col, row[o->idx]) * o->scale;
}

static bool compare(const struct node *n, const union wultfw_cell *row)
{
	double a, b;

	if (n->pending)		/* every cell of the column is empty so far */
		return n->op == TOK_NE;
	if (n->b.kind == VAL_ENUM) {
		bool eq = row[n->a.idx].i == n->b.enum_val;

		return n->op == TOK_EQ ? eq : !eq;
	}
	a = value(&n->a, row);
	b = value(&n->b, row);
	switch (n->op) {
	case TOK_EQ: return a == b;
	case TOK_NE: return a != b;
	case TOK_LT: return a < b;
	case TOK_LE: return a <= b;
	case TOK_GT: return a > b;
	default: return a >= b;
	}
}

static bool eval(const struct node *n, const union wultfw_cell *row)
{
	switch (n->kind) {
	case NODE_OR: return eval(n->left, row) || eval(n->right, row);
	case NODE_AND: return eval(n->left, row) && eval(n->right, row);
	case NODE_NOT: return !eval(n->left, row);
	default: return compare(n, row);
	}
}

bool wfw_expr_match(const struct wfw_expr *e, const union wultfw_cell *row)
{
	return eval(e->root, row);
}

int wfw_select_init(struct wfw_select *sel, const char *include,
		    const char *exclude, const struct wultfw_schema *s,
		    char *err, size_t errlen)
{
	memset(sel, 0, sizeof(*sel));
	if (include) {
		int n = snprintf(err, errlen, "--include: ");

		if (wfw_expr_compile(&sel->include, include, s, err + n,
				     errlen - (size_t)n))
			return -EINVAL;
	}
	if (exclude) {
		int n = snprintf(err, errlen, "--exclude: ");

		if (wfw_expr_compile(&sel->exclude, exclude, s, err + n,
				     errlen - (size_t)n)) {
			wfw_select_free(sel);
			return -EINVAL;
		}
	}
	return 0;
}

/* e after the reader's latest schema changes; -EINVAL with sel->err. */
static int refresh(struct wfw_select *sel, struct wfw_expr *e,
		   const char *what)
{
	char why[sizeof(sel->err) - 128];

	if (!e || !e->nwatch || !expr_refresh(e, why, sizeof(why)))
		return 0;
	if (sel->kept + sel->dropped)
		snprintf(sel->err, sizeof(sel->err), "%s: in the rows after the first %llu: %s",
			 what, (unsigned long long)(sel->kept + sel->dropped), why);
	else	/* the first batch itself corrected the types */
		snprintf(sel->err, sizeof(sel->err), "%s: in the first rows: %s", what, why);
	return -EINVAL;
}

int wfw_select_batch(struct wfw_select *sel, struct wultfw_batch *b)
{
	size_t keep = 0, nc = b->ncols;

	if (!wfw_select_active(sel)) {
		sel->kept += b->rows;
		return 0;
	}
	if (sel->err[0] || refresh(sel, sel->include, "--include") ||
	    refresh(sel, sel->exclude, "--exclude")) {
		b->rows = 0;
		return -EINVAL;
	}
	for (size_t r = 0; r < b->rows; r++) {
		const union wultfw_cell *row = &b->cells[r * nc];

		if ((sel->include && !wfw_expr_match(sel->include, row)) ||
		    (sel->exclude && wfw_expr_match(sel->exclude, row)))
			continue;
		if (keep != r)
			memmove(&b->cells[keep * nc], row, nc * sizeof(*row));
		keep++;
	}
	sel->kept += keep;
	sel->dropped += b->rows - keep;
	b->rows = keep;
	return 0;
}

static void node_columns(const struct node *n, bool *used)
{
	if (!n)
		return;
	if (n->kind != NODE_CMP) {
		node_columns(n->left, used);
		node_columns(n->right, used);
		return;
	}
	if (n->a.kind == VAL_COLUMN)
		used[n->a.idx] = true;
	if (n->b.kind == VAL_COLUMN)
		used[n->b.idx] = true;
}

void wfw_select_columns(const struct wfw_select *sel, bool *used)
{
	if (sel->include)
		node_columns(sel->include->root, used);
	if (sel->exclude)
		node_columns(sel->exclude->root, used);
}

void wfw_select_free(struct wfw_select *sel)
{
	wfw_expr_free(sel->include);
	wfw_expr_free(sel->exclude);
	sel->include = sel->exclude = NULL;
}
