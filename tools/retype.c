/* SPDX-License-Identifier: MIT */
/* Column types that changed after the first rows, in words (retype.h). */
#include "config.h"

#include "retype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wultfw_column *wfw_retype_keep(const struct wultfw_schema *s)
{
	struct wultfw_column *c = malloc((s->ncols ? s->ncols : 1) * sizeof(*c));

	if (c)
		memcpy(c, s->cols, s->ncols * sizeof(*c));
	return c;
}

static const char *type_words(const struct wultfw_column *c, char *buf, size_t len)
{
	unsigned dec = 0;

	if (c->type == WULTFW_COL_FLOAT)
		return "numbers";
	if (c->type == WULTFW_COL_ENUM)
		return c->n_enum ? "names" : "empty cells";
	for (uint32_t d = c->divisor; d >= 10; d /= 10)
		dec++;
	if (!dec)
		return "integers";
	snprintf(buf, len, "numbers with %u decimals", dec);
	return buf;
}

void wfw_retype_words(const struct wultfw_column *first,
		      const struct wultfw_schema *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t c = 0; first && c < s->ncols && n < len; c++) {
		char a[32], b[32];

		if (first[c].type == s->cols[c].type &&
		    first[c].divisor == s->cols[c].divisor)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s: %s, then %s",
				      n ? "; " : "", s->cols[c].name,
				      type_words(&first[c], a, sizeof(a)),
				      type_words(&s->cols[c], b, sizeof(b)));
	}
}
