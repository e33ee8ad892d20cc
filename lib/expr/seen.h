/* SPDX-License-Identifier: MIT */
/*
 * Names and columns a selection compares with that no row has, gathered
 * over every reader that read a part of a file (one, or each chunk's):
 * `ReqCState == "C7"` keeps no row without any error, so the tools warn
 * after their output, one line per name, with a did-you-mean.
 */
#ifndef WFW_EXPR_SEEN_H
#define WFW_EXPR_SEEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "expr/expr.h"

struct wfw_seen_cmp;

struct wfw_seen {
	struct wfw_seen_cmp *v;	/* comparisons of a column, in order */
	size_t n;
	bool failed;		/* out of memory: warn about nothing */
};

/*
 * Set up for sel's comparisons (each reader's own compiled copy of the
 * same texts compares the same things in the same order). 0 or -ENOMEM.
 */
int wfw_seen_init(struct wfw_seen *z, const struct wfw_select *sel);

/*
 * After a reader read its rows: what its schema s says they held (a
 * name's column lists it; a number's column got a type).
 */
void wfw_seen_note(struct wfw_seen *z, const struct wultfw_schema *s);

/*
 * One line per name or column no reader saw, to f:
 * `wultfw CMD: warning: PATH: --include: no row has ReqCState "C7" (did
 * you mean "C6"?); its names: C1, C6`. How many lines.
 */
size_t wfw_seen_warn(const struct wfw_seen *z, const char *cmd,
		     const char *path, FILE *f);

void wfw_seen_free(struct wfw_seen *z);

#endif
