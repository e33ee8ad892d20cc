/* SPDX-License-Identifier: MIT */
/* The compiled form of a selection expression, internal to lib/expr. */
#ifndef WFW_EXPR_AST_H
#define WFW_EXPR_AST_H

#include <stdbool.h>
#include <stdint.h>
#include <wultfw/plugin.h>

#include "expr/lexer.h"

enum node_kind { NODE_OR, NODE_AND, NODE_NOT, NODE_CMP };

/* One side of a comparison, resolved against the schema. */
struct operand {
	/* VAL_INDEX: the row's number in the result as read, from 0 */
	enum { VAL_COLUMN, VAL_NUMBER, VAL_ENUM, VAL_INDEX } kind;
	const struct wultfw_column *col;	/* VAL_COLUMN */
	size_t idx;				/* VAL_COLUMN: cell index */
	double scale;		/* VAL_COLUMN: factor to the common unit */
	double num;		/* VAL_NUMBER, in the common unit */
	int64_t enum_val;	/* VAL_ENUM: index in the column's names, or -2 */
	size_t n_seen;		/* VAL_ENUM at -2: the column's names looked at */
	/* Parsing only: the token, for unit checks and error carets. */
	struct tok tok;
};

struct node {
	enum node_kind kind;
	struct node *left, *right;	/* OR/AND: both; NOT: left */
	enum tok_kind op;		/* CMP: TOK_EQ .. TOK_GE */
	struct operand a, b;		/* CMP */
	/*
	 * CMP with a number or column: a column had no type yet (empty in
	 * every row so far); until it has one the comparison is one with an
	 * empty cell.
	 */
	bool pending;
};

struct wfw_expr {
	struct node *root;
	const struct wultfw_schema *schema;
	char *text;		/* for errors found while rows are read */
	/* Comparisons a one-pass reader's later rows may decide. */
	struct node **watch;
	size_t nwatch;
	bool uses_index;	/* a comparison reads the row's number */
};

void expr_node_free(struct node *n);

/* Does comparison n wait for the schema (pending, or an unknown name)? */
static inline bool expr_watched(const struct node *n)
{
	return n->pending || (n->b.kind == VAL_ENUM && n->b.enum_val == -2);
}

#endif
