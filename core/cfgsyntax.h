/* SPDX-License-Identifier: MIT */
/*
 * libconfig says only "syntax error" and a line: find what is wrong there
 * (a string or bracket left open, a setting without '=') and say what is
 * expected, for one line "FILE:LINE: what: what is expected".
 */
#ifndef WFW_CFGSYNTAX_H
#define WFW_CFGSYNTAX_H

#include <stddef.h>

/*
 * Into msg: why `file` did not parse at libconfig's `line` with its
 * `text`, and what is expected. *line may move to where the cause is
 * (the line a never closed string or bracket was opened at).
 */
void wfw_cfg_syntax_hint(const char *file, int *line, const char *text,
			 char *msg, size_t len);

#endif
