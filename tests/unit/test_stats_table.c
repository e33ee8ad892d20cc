/* SPDX-License-Identifier: MIT */
/*
 * lib/stats/table.c: many rows (the cells in one growing buffer come back
 * as given), hostile cells (huge, empty, NULL, control and high bytes):
 * cut and masked in the aligned and markdown forms, whole in CSV.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "stats/table.h"

/* The table in form `form` (0 aligned, 1 markdown, 2 CSV), malloc'ed. */
static char *printed(const struct wfw_table *t, int form)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (form == 0)
		wfw_table_print(t, f);
	else if (form == 1)
		wfw_table_print_markdown(t, f);
	else
		wfw_table_print_csv(t, f);
	fclose(f);
	return buf;
}

static void test_many_rows(void)
{
	struct wfw_table t;
	char name[32], want[64], *out, *line;
	size_t n = 0;

	wfw_table_init(&t, 3, "lrr");
	for (size_t r = 0; r < 100000; r++) {
		const char *cells[3] = { name, "", NULL };

		snprintf(name, sizeof(name), "g%zu", r);
		CU_ASSERT_EQUAL_FATAL(wfw_table_add(&t, cells), 0);
	}
	CU_ASSERT_EQUAL(t.nrows, 100000);
	out = printed(&t, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		snprintf(want, sizeof(want), "g%zu,,", n++);
		if (strcmp(line, want))
			break;
	}
	CU_ASSERT_EQUAL(n, 100000);
	free(out);
	wfw_table_free(&t);
	CU_ASSERT_EQUAL(t.nrows, 0);
}

static void test_hostile_cells(void)
{
	static char huge[100001];
	const char *row1[2] = { huge, "1" };
	const char *row2[2] = { "a\001b\177c\377", "" };
	struct wfw_table t;
	char *out;

	memset(huge, 'x', sizeof(huge) - 1);
	wfw_table_init(&t, 2, "lr");
	CU_ASSERT_EQUAL_FATAL(wfw_table_add(&t, row1), 0);
	CU_ASSERT_EQUAL_FATAL(wfw_table_add(&t, row2), 0);
	out = printed(&t, 0);	/* cut to the widest cell, masked */
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT(strlen(out) < 2 * (WFW_TABLE_MAX_WIDTH + 8));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "xxx...  1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "a?b?c\377"));
	free(out);
	out = printed(&t, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "| a?b?c\377 |  |"));
	free(out);
	out = printed(&t, 2);	/* CSV: whole */
	CU_ASSERT_EQUAL(strlen(out), sizeof(huge) - 1 + 3 + strlen(row2[0]) + 2);
	free(out);
	wfw_table_free(&t);
	wfw_table_init(&t, 2, "lr");
	out = printed(&t, 0);	/* empty: nothing */
	CU_ASSERT_STRING_EQUAL(out, "");
	free(out);
	wfw_table_free(&t);
}

int main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();
	s = CU_add_suite("table", NULL, NULL);
	CU_add_test(s, "100 000 rows come back as given", test_many_rows);
	CU_add_test(s, "huge, empty, control and high bytes", test_hostile_cells);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
