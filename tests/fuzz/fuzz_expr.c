// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the selection expressions (lib/expr): check the
 * input's syntax alone (as an experiment file's include/exclude are),
 * compile it against a wult-like schema and, when it compiles, match it
 * against two rows (one with empty cells; `index` the first and the
 * largest row number), as --include/--exclude do, and say which names
 * no row has (the warning's helper, to a memory stream).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "seen.h"

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
static const union wultfw_cell rows[2][5] = {
	{ { .i = 150000 }, { .f = 20.5 }, { .i = 2 }, { .i = WULTFW_CELL_EMPTY }, { .f = 0.0 } },
	{ { .i = -5 }, { .i = WULTFW_FLOAT_EMPTY_BITS }, { .i = -1 }, { .i = 3 }, { .f = -1e300 } },
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
	wfw_expr_check_syntax(text, err, sizeof(err));
	wfw_expr_text_uses_index(text);
	if (!wfw_expr_compile(&e, text, &schema, err, sizeof(err))) {
		struct wfw_select sel = { .include = e };
		struct wfw_seen z;
		FILE *f = fmemopen(err, sizeof(err), "w");

		wfw_expr_match(e, rows[0]);
		wfw_expr_match_at(e, rows[1], UINT64_MAX);
		if (!wfw_seen_init(&z, &sel)) {
			wfw_seen_note(&z, &schema);
			if (f)
				wfw_seen_warn(&z, "fuzz", "f", f);
		}
		wfw_seen_free(&z);
		if (f)
			fclose(f);
		wfw_expr_free(e);
	}
	free(text);
	return 0;
}
