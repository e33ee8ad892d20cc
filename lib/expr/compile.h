/* SPDX-License-Identifier: MIT */
/*
 * One expression being compiled: the state the parser (parser.c) and the
 * resolver (resolve.c) share, and its first fault (compile.c). Internal
 * to lib/expr.
 */
#ifndef WFW_EXPR_COMPILE_H
#define WFW_EXPR_COMPILE_H

#include "expr/ast.h"

struct parser {
	const char *text;
	size_t pos;
	struct tok tok;		/* the current token */
	const struct wultfw_schema *schema;
	char *err;
	size_t errlen;
	int failed;
};

/* Record the first error: the message, the expression, a caret at pos. */
void expr_error(struct parser *p, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
