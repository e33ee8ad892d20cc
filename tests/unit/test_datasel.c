/* SPDX-License-Identifier: MIT */
/*
 * core/datasel.c: an experiment's include/exclude/keep_filtered parsed
 * with file:line errors, compiled against a schema, and batches split
 * into the selected rows (clipped to the room the limit leaves) and the
 * rows filtered.csv keeps.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datasel.h"
#include "resultdir.h"
#include "testutil.h"

static const char *const states[] = { "POLL", "C1" };
static const struct wultfw_column cols[] = {
	{ .name = "WakeLatency", .unit = "us", .type = WULTFW_COL_INT, .divisor = 1000 },
	{ .name = "ReqCState", .unit = "", .type = WULTFW_COL_ENUM, .enum_names = states, .n_enum = 2 },
};
static const struct wultfw_schema schema = { .cols = cols, .ncols = 2 };

/* Parse `text` (an experiment group's body) into c; errors into errs. */
static void parse(const char *text, struct wfw_datasel_cfg *c,
		  struct wfw_cfgerr *errs)
{
	const char *const *name;
	config_t cfg;

	config_init(&cfg);
	memset(c, 0, sizeof(*c));
	CU_ASSERT_FATAL(config_read_string(&cfg, text) == CONFIG_TRUE);
	for (name = wfw_datasel_keys; *name; name++) {
		config_setting_t *s = config_lookup(&cfg, *name);

		if (s)
			wfw_datasel_parse(c, s, *name, errs);
	}
	wfw_datasel_check(c, errs);
	config_destroy(&cfg);
}

static bool errs_have(const struct wfw_cfgerr *errs, const char *text)
{
	size_t i;

	for (i = 0; i < errs->n; i++)
		if (strstr(errs->msgs[i], text))
			return true;
	return false;
}

static void test_parse_errors(void)
{
	struct wfw_datasel_cfg c;
	struct wfw_cfgerr errs = { 0 };

	parse("include = \"WakeLatency > 5us\";\nexclude = \"ReqCState == 'POLL'\";", &c, &errs);
	CU_ASSERT_EQUAL(errs.n, 0);
	CU_ASSERT_STRING_EQUAL(c.include.text, "WakeLatency > 5us");
	CU_ASSERT_PTR_NOT_NULL(strstr(c.include.where, ":1: include"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.exclude.where, ":2: exclude"));
	wfw_datasel_cfg_free(&c);

	/* A syntax error shows the expression with a caret under the fault. */
	parse("\ninclude = \"LDist > && 5\";", &c, &errs);
	CU_ASSERT_EQUAL(errs.n, 1);
	CU_ASSERT_TRUE(errs_have(&errs, ":2: include: "));
	CU_ASSERT_TRUE(errs_have(&errs, "\n  LDist > && 5\n          ^"));
	wfw_datasel_cfg_free(&c);
	wfw_cfgerr_free(&errs);

	parse("include = 5;\nkeep_filtered = \"yes\";", &c, &errs);
	CU_ASSERT_EQUAL(errs.n, 2);
	CU_ASSERT_TRUE(errs_have(&errs, "include: expected an expression in quotes"));
	CU_ASSERT_TRUE(errs_have(&errs, "keep_filtered: expected true or false"));
	wfw_datasel_cfg_free(&c);
	wfw_cfgerr_free(&errs);

	parse("keep_filtered = true;", &c, &errs);
	CU_ASSERT_EQUAL(errs.n, 1);
	CU_ASSERT_TRUE(errs_have(&errs, "give include or exclude too"));
	wfw_datasel_cfg_free(&c);
	wfw_cfgerr_free(&errs);
}

static void test_compile(void)
{
	struct wfw_datasel_cfg c;
	struct wfw_cfgerr errs = { 0 };
	struct wfw_datasel d;

	/* Columns are checked against the source's schema at run time. */
	parse("include = \"WakeLatncy > 5us\";", &c, &errs);
	CU_ASSERT_EQUAL(errs.n, 0);
	CU_ASSERT_EQUAL(wfw_datasel_compile(&d, &c, &schema), -EINVAL);
	wfw_datasel_free(&d);
	wfw_datasel_cfg_free(&c);

	parse("", &c, &errs);
	CU_ASSERT_EQUAL(wfw_datasel_compile(&d, &c, &schema), 0);
	CU_ASSERT_FALSE(wfw_select_active(&d.sel));
	wfw_datasel_free(&d);
	wfw_datasel_cfg_free(&c);
}

/* 20 rows: WakeLatency r us, ReqCState POLL on even rows, C1 on odd. */
static void fill(struct wultfw_batch *b, union wultfw_cell *cells)
{
	size_t r;

	b->cells = cells;
	b->ncols = 2;
	b->capacity = 20;
	b->rows = 20;
	for (r = 0; r < 20; r++) {
		cells[r * 2].i = (int64_t)r * 1000;
		cells[r * 2 + 1].i = (int64_t)(r % 2);
	}
}

static bool want(size_t r)
{
	return r >= 5 && r % 2;		/* include, and not exclude POLL */
}

static void test_batch(void)
{
	char dir[] = "/tmp/wfw-datasel-XXXXXX", path[64], line[64];
	struct wfw_datasel_cfg c;
	struct wfw_cfgerr errs = { 0 };
	struct wultfw_batch b;
	union wultfw_cell cells[40];
	struct wfw_datasel d;
	size_t r, kept = 0, left = 0, last = 0;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	parse("include = \"WakeLatency >= 0.005ms\";\nexclude = \"ReqCState == \\\"POLL\\\"\";\nkeep_filtered = true;",
	      &c, &errs);
	CU_ASSERT_EQUAL_FATAL(errs.n, 0);
	CU_ASSERT_EQUAL_FATAL(wfw_datasel_compile(&d, &c, &schema), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_datasel_open(&d, dir, &schema), 0);

	/* Room for 4: the first 4 selected rows, in order. */
	fill(&b, cells);
	CU_ASSERT_EQUAL(wfw_datasel_batch(&d, &b, 4), 0);
	CU_ASSERT_EQUAL_FATAL(b.rows, 4);
	for (r = 0; r < 20 && kept < 4; r++) {
		if (!want(r)) {
			left++;
			continue;
		}
		CU_ASSERT_EQUAL(b.cells[kept * 2].i, (int64_t)r * 1000);
		kept++;
		last = r;
	}
	CU_ASSERT_EQUAL(d.sel.kept, 4);
	CU_ASSERT_EQUAL(d.sel.dropped, left);
	CU_ASSERT_EQUAL(wfw_datasel_close(&d, 0), 0);

	/* filtered.csv: the rows left out before the last one kept. */
	snprintf(path, sizeof(path), "%s/%s", dir, WFW_DATASEL_FILE);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_STRING_EQUAL(line, "WakeLatency,ReqCState\n");
	for (r = 0; r <= last; r++) {
		char expect[64];

		if (want(r))
			continue;
		snprintf(expect, sizeof(expect), "%zu.000,%s\n", r, states[r % 2]);
		CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
		CU_ASSERT_STRING_EQUAL(line, expect);
	}
	CU_ASSERT_PTR_NULL(fgets(line, sizeof(line), f));
	fclose(f);
	wfw_datasel_free(&d);
	wfw_datasel_cfg_free(&c);
	unlink(path);
	rmdir(dir);
}

/* Without include/exclude only the limit clips. */
static void test_no_selection(void)
{
	struct wfw_datasel_cfg c = { 0 };
	struct wultfw_batch b;
	union wultfw_cell cells[40];
	struct wfw_datasel d;

	CU_ASSERT_EQUAL_FATAL(wfw_datasel_compile(&d, &c, &schema), 0);
	fill(&b, cells);
	CU_ASSERT_EQUAL(wfw_datasel_batch(&d, &b, UINT64_MAX), 0);
	CU_ASSERT_EQUAL(b.rows, 20);
	CU_ASSERT_EQUAL(wfw_datasel_batch(&d, &b, 7), 0);
	CU_ASSERT_EQUAL(b.rows, 7);
	CU_ASSERT_EQUAL(b.cells[6 * 2].i, 6000);
	wfw_datasel_free(&d);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("datasel", NULL, NULL);
	CU_add_test(s, "include/exclude/keep_filtered parsed", test_parse_errors);
	CU_add_test(s, "compiled against the schema", test_compile);
	CU_add_test(s, "batches split, clipped to the room", test_batch);
	CU_add_test(s, "no selection: the limit only", test_no_selection);
	return tu_run();
}
