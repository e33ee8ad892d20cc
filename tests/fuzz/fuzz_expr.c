// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the selection expressions (lib/expr): compile the
 * input against a wult-like schema and, when it compiles, match it
 * against one row, as --include/--exclude do.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const cstates[] = { "POLL", "C1", "C6" };
static const struct wultfw_column cols[] = {
	{ .name = "WakeLatency", .unit = "us", .type = WULTFW_COL_INT, .divisor = 1000 },
	{ .name = "LDist", .unit = "us", .type = WULTFW_COL_FLOAT },
	{ .name = "ReqCState", .unit = "", .type = WULTFW_COL_ENUM,
	  .enum_names = cstates, .n_enum = 3 },
	{ .name = "SMICnt", .unit = "", .type = WULTFW_COL_INT, .divisor = 1 },
	{ .name = "CC0%", .unit = "%", .type = WULTFW_COL_FLOAT },
};
static const struct wultfw_schema schema = { 5, cols };
static const union wultfw_cell row[] = {
	{ .i = 150000 }, { .f = 20.5 }, { .i = 2 }, { .i = WULTFW_CELL_EMPTY }, { .f = 0.0 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);	/* the expression is a C string */
	struct wfw_expr *e;
	char err[2048];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!wfw_expr_compile(&e, text, &schema, err, sizeof(err))) {
		wfw_expr_match(e, row);
		wfw_expr_free(e);
	}
	free(text);
	return 0;
}
