/* SPDX-License-Identifier: MIT */
/* Recursive descent over the grammar in expr.h, building struct node. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/ast.h"
#include "expr/expr.h"
#include "expr/compile.h"
#include "expr/resolve.h"

static void advance(struct parser *p)
{
	expr_lex(p->text, &p->pos, &p->tok);
	if (p->tok.kind == TOK_BAD)
		expr_error(p, p->tok.pos, "%s", p->tok.text);
}

static struct node *new_node(struct parser *p, enum node_kind kind)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		expr_error(p, p->tok.pos, "out of memory");
	else
		n->kind = kind;
	return n;
}

static struct node *parse_or(struct parser *p);

static int is_cmp(enum tok_kind k)
{
	return k >= TOK_EQ && k <= TOK_GE;
}

static int parse_value(struct parser *p, struct operand *o)
{
	if (p->tok.kind != TOK_NAME && p->tok.kind != TOK_NUM &&
	    p->tok.kind != TOK_STR) {
		expr_error(p, p->tok.pos, p->tok.kind == TOK_END ?
			   "the expression ends where a value is expected" :
			   "a column, number or string is expected here");
		return -EINVAL;
	}
	o->tok = p->tok;
	advance(p);
	return p->failed ? -EINVAL : 0;
}

static struct node *parse_cmp(struct parser *p)
{
	struct node *n;

	if (p->tok.kind == TOK_LPAREN) {
		size_t open = p->tok.pos;

		advance(p);
		n = parse_or(p);
		if (n && p->tok.kind != TOK_RPAREN) {
			expr_error(p, p->tok.pos, "')' expected (to close the '(' at column %zu)",
				   open + 1);
			expr_node_free(n);
			return NULL;
		}
		advance(p);
		return n;
	}
	n = new_node(p, NODE_CMP);
	if (!n || parse_value(p, &n->a))
		goto fail;
	if (!is_cmp(p->tok.kind)) {
		expr_error(p, p->tok.pos, "a comparison (== != < <= > >=) is expected here");
		goto fail;
	}
	n->op = p->tok.kind;
	advance(p);
	/* Without a schema (wfw_expr_check_syntax) columns stay unresolved. */
	if (p->failed || parse_value(p, &n->b) ||
	    (p->schema && expr_resolve(p, n)))
		goto fail;
	return n;
fail:
	expr_node_free(n);
	return NULL;
}

static bool is_tilde(const struct tok *t)
{
	return t->kind == TOK_NOT && !strcmp(t->text, "~");
}

static struct node *parse_not(struct parser *p)
{
	struct node *n;
	bool tilde;

	if (p->tok.kind != TOK_NOT)
		return parse_cmp(p);
	tilde = is_tilde(&p->tok);
	advance(p);
	/*
	 * pandas' ~ inverts the value right after it (~LDist > 5 compares
	 * -LDist-1): only ~(...) means the same there and here.
	 */
	if (tilde && p->tok.kind != TOK_LPAREN && !is_tilde(&p->tok) &&
	    !p->failed) {
		expr_error(p, p->tok.pos, "'~' negates a parenthesised expression only, as in pandas: ~(LDist > 5)");
		return NULL;
	}
	n = new_node(p, NODE_NOT);
	if (n)
		n->left = parse_not(p);
	if (n && !n->left) {
		free(n);
		return NULL;
	}
	return n;
}

/* left-associative chains of one operator */
static struct node *parse_chain(struct parser *p, enum tok_kind op,
				enum node_kind kind,
				struct node *(*sub)(struct parser *))
{
	struct node *left = sub(p);

	while (left && p->tok.kind == op) {
		struct node *n;

		advance(p);
		n = new_node(p, kind);
		if (!n) {
			expr_node_free(left);
			return NULL;
		}
		n->left = left;
		n->right = sub(p);
		if (!n->right) {
			expr_node_free(n);
			return NULL;
		}
		left = n;
	}
	return left;
}

static struct node *parse_and(struct parser *p)
{
	return parse_chain(p, TOK_AND, NODE_AND, parse_not);
}

static struct node *parse_or(struct parser *p)
{
	return parse_chain(p, TOK_OR, NODE_OR, parse_and);
}

void expr_node_free(struct node *n)
{
	if (!n)
		return;
	expr_node_free(n->left);
	expr_node_free(n->right);
	free(n);
}

/* Count (watch == NULL) or list the comparisons waiting for the schema. */
static size_t collect_watched(struct node *n, struct node **watch)
{
	size_t k;

	if (!n)
		return 0;
	if (n->kind == NODE_CMP) {
		if (!expr_watched(n))
			return 0;
		if (watch)
			watch[0] = n;
		return 1;
	}
	k = collect_watched(n->left, watch);
	return k + collect_watched(n->right, watch ? watch + k : NULL);
}

/* Does a comparison under n read the row's number? */
static bool reads_index(const struct node *n)
{
	if (!n)
		return false;
	if (n->kind == NODE_CMP)
		return n->a.kind == VAL_INDEX;
	return reads_index(n->left) || reads_index(n->right);
}

static int new_expr(struct wfw_expr **e, struct node *root, const char *text,
		    const struct wultfw_schema *s)
{
	size_t nwatch = collect_watched(root, NULL);

	*e = calloc(1, sizeof(**e));
	if (!*e) {
		expr_node_free(root);
		return -ENOMEM;
	}
	(*e)->root = root;
	(*e)->schema = s;
	(*e)->text = strdup(text);
	(*e)->watch = calloc(nwatch + 1, sizeof(*(*e)->watch));
	if (!(*e)->text || !(*e)->watch) {
		wfw_expr_free(*e);	/* and root */
		*e = NULL;
		return -ENOMEM;
	}
	(*e)->nwatch = collect_watched(root, (*e)->watch);
	(*e)->uses_index = reads_index(root);
	return 0;
}

int wfw_expr_compile(struct wfw_expr **e, const char *text,
		     const struct wultfw_schema *s, char *err, size_t errlen)
{
	struct parser p = { .text = text, .schema = s, .err = err,
			    .errlen = errlen };
	struct node *root;

	*e = NULL;
	advance(&p);
	root = p.failed ? NULL : parse_or(&p);
	if (root && p.tok.kind != TOK_END)
		expr_error(&p, p.tok.pos, p.tok.kind == TOK_RPAREN ?
			   "')' without a matching '('" :
			   "'&&' or '||' expected here");
	if (!root && !p.failed)
		expr_error(&p, p.tok.pos, "cannot parse the expression");
	if (p.failed) {
		expr_node_free(root);
		return -EINVAL;
	}
	if (new_expr(e, root, text, s)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int wfw_expr_check_syntax(const char *text, char *err, size_t errlen)
{
	struct wfw_expr *e;
	int ret = wfw_expr_compile(&e, text, NULL, err, errlen);

	wfw_expr_free(e);
	return ret;
}

/* The NAME operands of n's comparisons, in order, to fn. */
static int visit_names(const struct node *n,
		       int (*fn)(const char *name, void *arg), void *arg)
{
	int ret;

	if (!n)
		return 0;
	if (n->kind == NODE_CMP) {
		ret = n->a.tok.kind == TOK_NAME ? fn(n->a.tok.text, arg) : 0;
		if (!ret && n->b.tok.kind == TOK_NAME)
			ret = fn(n->b.tok.text, arg);
		return ret;
	}
	ret = visit_names(n->left, fn, arg);
	return ret ? ret : visit_names(n->right, fn, arg);
}

int wfw_expr_names(const char *text, int (*fn)(const char *name, void *arg),
		   void *arg, char *err, size_t errlen)
{
	struct wfw_expr *e;
	int ret = wfw_expr_compile(&e, text, NULL, err, errlen);

	if (!ret)
		ret = visit_names(e->root, fn, arg);
	wfw_expr_free(e);
	return ret;
}

void wfw_expr_free(struct wfw_expr *e)
{
	if (!e)
		return;
	expr_node_free(e->root);
	free(e->text);
	free(e->watch);
	free(e);
}

static int is_index_name(const char *name, void *arg)
{
	(void)arg;
	return !strcmp(name, "index");
}

bool wfw_expr_text_uses_index(const char *text)
{
	char err[8];

	return text && wfw_expr_names(text, is_index_name, NULL, err, sizeof(err)) == 1;
}
