/* SPDX-License-Identifier: MIT */
/* Meaning of a comparison's operands (resolve.c), internal to lib/expr. */
#ifndef WFW_EXPR_RESOLVE_H
#define WFW_EXPR_RESOLVE_H

#include "expr/ast.h"
#include "expr/compile.h"

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
