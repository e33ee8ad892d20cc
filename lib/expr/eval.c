/* SPDX-License-Identifier: MIT */
/* Evaluating a compiled expression on rows, and --include/--exclude. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/reader.h"
#include "expr/ast.h"
#include "expr/expr.h"
#include "expr/resolve.h"

static double value(const struct operand *o, const union wultfw_cell *row,
		    uint64_t index)
{
	if (o->kind == VAL_NUMBER)
		return o->num;
	if (o->kind == VAL_INDEX)
		return (double)index;
	if (o->col->type == WULTFW_COL_ENUM)
		return (double)row[o->idx].i;
	return wfw_cell_value(o->col, row[o->idx]) * o->scale;
}

static bool compare(const struct node *n, const union wultfw_cell *row,
		    uint64_t index)
{
	double a, b;

	if (n->pending)		/* every cell of the column is empty so far */
		return n->op == TOK_NE;
	if (n->b.kind == VAL_ENUM) {
		bool eq = row[n->a.idx].i == n->b.enum_val;

		return n->op == TOK_EQ ? eq : !eq;
	}
	a = value(&n->a, row, index);
	b = value(&n->b, row, index);
	switch (n->op) {
	case TOK_EQ: return a == b;
	case TOK_NE: return a != b;
	case TOK_LT: return a < b;
	case TOK_LE: return a <= b;
	case TOK_GT: return a > b;
	default: return a >= b;
	}
}

static bool eval(const struct node *n, const union wultfw_cell *row,
		 uint64_t index)
{
	switch (n->kind) {
	case NODE_OR: return eval(n->left, row, index) || eval(n->right, row, index);
	case NODE_AND: return eval(n->left, row, index) && eval(n->right, row, index);
	case NODE_NOT: return !eval(n->left, row, index);
	default: return compare(n, row, index);
	}
}

bool wfw_expr_match(const struct wfw_expr *e, const union wultfw_cell *row)
{
	return eval(e->root, row, 0);
}

bool wfw_expr_match_at(const struct wfw_expr *e, const union wultfw_cell *row,
		       uint64_t index)
{
	return eval(e->root, row, index);
}

bool wfw_expr_uses_index(const struct wfw_expr *e)
{
	return e && e->uses_index;
}

bool wfw_select_uses_index(const struct wfw_select *sel)
{
	return wfw_expr_uses_index(sel->include) || wfw_expr_uses_index(sel->exclude);
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
		sel->next_index += b->rows;
		return 0;
	}
	if (sel->err[0] || refresh(sel, sel->include, "--include") ||
	    refresh(sel, sel->exclude, "--exclude")) {
		b->rows = 0;
		return -EINVAL;
	}
	for (size_t r = 0; r < b->rows; r++) {
		const union wultfw_cell *row = &b->cells[r * nc];
		uint64_t index = sel->next_index + r;

		if ((sel->include && !eval(sel->include->root, row, index)) ||
		    (sel->exclude && eval(sel->exclude->root, row, index)))
			continue;
		if (keep != r)
			memmove(&b->cells[keep * nc], row, nc * sizeof(*row));
		keep++;
	}
	sel->kept += keep;
	sel->dropped += b->rows - keep;
	sel->next_index += b->rows;
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

/* ---- a whole batch of rows, column by column ---- */

/* Rows evaluated at a time: each node's answers, and a comparison's values. */
#define TILE 256

/*
 * An operand's value in rows [0, n), as value() gives it for each; the
 * rows' numbers start at `first`.
 */
static void values(const struct operand *o, const union wultfw_cell *const *cols,
		   size_t n, uint64_t first, double *v)
{
	const union wultfw_cell *c = o->kind == VAL_COLUMN ? cols[o->idx] : NULL;

	if (o->kind == VAL_INDEX) {
		for (size_t r = 0; r < n; r++)
			v[r] = (double)(first + r);
	} else if (!c) {
		for (size_t r = 0; r < n; r++)
			v[r] = o->num;
	} else if (o->col->type == WULTFW_COL_ENUM) {
		for (size_t r = 0; r < n; r++)
			v[r] = (double)c[r].i;
	} else if (o->col->type == WULTFW_COL_FLOAT) {
		for (size_t r = 0; r < n; r++)
			v[r] = c[r].f * o->scale;
	} else {	/* INT: wfw_cell_value(), inline */
		const double div = (double)(o->col->divisor ? o->col->divisor : 1);

		for (size_t r = 0; r < n; r++)
			v[r] = (c[r].i == WULTFW_CELL_EMPTY ? NAN : (double)c[r].i / div) *
			       o->scale;
	}
}

/* a[r] OP b[r] for each r: one loop per operator, so each vectorizes. */
static void cmp_all(enum tok_kind op, const double *a, const double *b,
		    size_t n, uint8_t *out)
{
	size_t r;

	switch (op) {
	case TOK_EQ:
		for (r = 0; r < n; r++)
			out[r] = a[r] == b[r];
		break;
	case TOK_NE:
		for (r = 0; r < n; r++)
			out[r] = a[r] != b[r];
		break;
	case TOK_LT:
		for (r = 0; r < n; r++)
			out[r] = a[r] < b[r];
		break;
	case TOK_LE:
		for (r = 0; r < n; r++)
			out[r] = a[r] <= b[r];
		break;
	case TOK_GT:
		for (r = 0; r < n; r++)
			out[r] = a[r] > b[r];
		break;
	default:
		for (r = 0; r < n; r++)
			out[r] = a[r] >= b[r];
	}
}

/* compare() for rows [0, n), numbered from `first`, into out[]. */
static void compare_cols(const struct node *nd, const union wultfw_cell *const *cols,
			 size_t n, uint64_t first, uint8_t *out)
{
	double a[TILE], b[TILE];

	if (nd->pending) {
		memset(out, nd->op == TOK_NE, n);
		return;
	}
	if (nd->b.kind == VAL_ENUM) {
		const union wultfw_cell *c = cols[nd->a.idx];
		const int64_t want = nd->b.enum_val;
		const uint8_t ne = nd->op != TOK_EQ;

		for (size_t r = 0; r < n; r++)
			out[r] = (uint8_t)((c[r].i == want) ^ ne);
		return;
	}
	values(&nd->a, cols, n, first, a);
	values(&nd->b, cols, n, first, b);
	cmp_all(nd->op, a, b, n, out);
}

/*
 * eval() for rows [0, n), numbered from `first`, into out[]; scratch: TILE
 * bytes per level below.
 */
static void eval_cols(const struct node *nd, const union wultfw_cell *const *cols,
		      size_t n, uint64_t first, uint8_t *out, uint8_t *scratch)
{
	switch (nd->kind) {
	case NODE_CMP:
		compare_cols(nd, cols, n, first, out);
		return;
	case NODE_NOT:
		eval_cols(nd->left, cols, n, first, out, scratch);
		for (size_t r = 0; r < n; r++)
			out[r] ^= 1;
		return;
	default:
		eval_cols(nd->left, cols, n, first, out, scratch + TILE);
		eval_cols(nd->right, cols, n, first, scratch, scratch + TILE);
		for (size_t r = 0; r < n; r++)
			out[r] = nd->kind == NODE_AND ? out[r] & scratch[r]
						      : out[r] | scratch[r];
	}
}

static size_t depth(const struct node *nd)
{
	size_t l, r;

	if (!nd || nd->kind == NODE_CMP)
		return 1;
	l = depth(nd->left);
	r = depth(nd->right);
	return 1 + (l > r ? l : r);
}

/*
 * Rows [first, first + n) (n <= TILE) of the batch, numbered from `index`
 * in the result, kept into keep[]: how many.
 */
static size_t keep_tile(const struct wfw_select *sel,
			const union wultfw_cell *const *cols, size_t first,
			uint64_t index, size_t n, uint8_t *scratch, uint32_t *keep)
{
	uint8_t *in = scratch, *ex = scratch + TILE;
	size_t k = 0;

	if (sel->include)
		eval_cols(sel->include->root, cols, n, index, in, scratch + 2 * TILE);
	else
		memset(in, 1, n);
	if (sel->exclude) {
		eval_cols(sel->exclude->root, cols, n, index, ex, scratch + 2 * TILE);
		for (size_t r = 0; r < n; r++)
			in[r] &= ex[r] ^ 1;
	}
	for (size_t r = 0; r < n; r++) {
		keep[k] = (uint32_t)(first + r);
		k += in[r];
	}
	return k;
}

size_t wfw_select_cols(const struct wfw_select *sel,
		       const union wultfw_cell *const *cols, size_t ncols,
		       size_t n, uint64_t first, uint32_t *keep)
{
	size_t d = 2 + (sel->include ? depth(sel->include->root) : 0) +
		   (sel->exclude ? depth(sel->exclude->root) : 0);
	const union wultfw_cell **at = malloc((ncols + 1) * sizeof(*at));
	uint8_t *scratch = malloc(d * TILE);
	size_t k = 0;

	if (!at || !scratch) {
		free(at);
		free(scratch);
		return (size_t)-1;
	}
	for (size_t r0 = 0; r0 < n; r0 += TILE) {
		size_t m = n - r0 < TILE ? n - r0 : TILE;

		/* the columns from row r0 on: each node reads rows [0, m) */
		for (size_t c = 0; c < ncols; c++)
			at[c] = cols[c] ? cols[c] + r0 : NULL;
		k += keep_tile(sel, at, r0, first + r0, m, scratch, keep + k);
	}
	free(at);
	free(scratch);
	return k;
}

void wfw_select_free(struct wfw_select *sel)
{
	wfw_expr_free(sel->include);
	wfw_expr_free(sel->exclude);
	sel->include = sel->exclude = NULL;
}
