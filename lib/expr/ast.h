/* SPDX-License-Identifier: MIT */
/* The compiled form of a selection expression, internal to lib/expr. */
#ifndef WFW_EXPR_AST_H
#define WFW_EXPR_AST_H

#include <stdint.h>
#include <wultfw/plugin.h>

#include "expr/lexer.h"

enum node_kind { NODE_OR, NODE_AND, NODE_NOT, NODE_CMP };

/* One side of a comparison, resolved against the schema. */
struct operand {
	enum { VAL_COLUMN, VAL_NUMBER, VAL_ENUM } kind;
	const struct wultfw_column *col;	/* VAL_COLUMN */
	size_t idx;				/* VAL_COLUMN: cell index */
	double scale;		/* VAL_COLUMN: factor to the common unit */
	double num;		/* VAL_NUMBER, in the common unit */
	int64_t enum_val;	/* VAL_ENUM: index in the column's names, or -2 */
	/* Parsing only: the token, for unit checks and error carets. */
	struct tok tok;
};

struct node {
	enum node_kind kind;
	struct node *left, *right;	/* OR/AND: both; NOT: left */
	enum tok_kind op;		/* CMP: TOK_EQ .. TOK_GE */
	struct operand a, b;		/* CMP */
};

struct wfw_expr {
	struct node *root;
	const struct wultfw_schema *schema;
};

void expr_node_free(struct node *n);

#endif
