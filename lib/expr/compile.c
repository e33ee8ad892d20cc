/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "expr/compile.h"

void expr_error(struct parser *p, size_t pos, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (p->failed)
		return;		/* the first fault is the one to show */
	p->failed = 1;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	n = strlen(p->err);
	snprintf(p->err + n, p->errlen - n, "\n  %s\n  %*s^", p->text,
		 (int)pos, "");
}
