/* SPDX-License-Identifier: MIT */
/* Parser state shared by parser.c and resolve.c, internal to lib/expr. */
#ifndef WFW_EXPR_PARSER_H
#define WFW_EXPR_PARSER_H

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

/*
 * Give a comparison's operands meaning: columns looked up, the column put
 * first, units converted, strings turned into enum indices. 0 or -EINVAL.
 */
int expr_resolve(struct parser *p, struct node *n);

/*
 * Resolve e's watched comparisons again where the schema changed since:
 * a column typed at last, a name first seen. 0, or -EINVAL with the
 * message and caret in err (a column typed so that a comparison no
 * longer fits it).
 */
int expr_refresh(struct wfw_expr *e, char *err, size_t errlen);

#endif
