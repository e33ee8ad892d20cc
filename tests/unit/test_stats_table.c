/* SPDX-License-Identifier: MIT */
/*
 * lib/stats/table.c: many rows (the cells in one growing buffer come back
 * as given), hostile cells (huge, empty, NULL, control and high bytes):
 * cut and masked in the aligned and markdown forms, whole in CSV; the
 * same rows streamed (wfw_table_stream) print the same bytes; values
 * format as printf's "%.*f" does (its fast path against printf).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
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

/* Row r of a table whose cells are hostile and uneven. */
static void row_of(size_t r, char buf[5][80], const char **cells)
{
	snprintf(buf[0], 80, "g%zu%s", r * 7919 % 1000, r % 97 ? "" : ",\"q\"");
	snprintf(buf[1], 80, "%zu", r * r);
	snprintf(buf[2], 80, "%s", r % 13 ? "x" : "a very long cell that is cut at sixty bytes, ending in three dots");
	snprintf(buf[3], 80, "%c", r % 31 ? 'y' : '\t');
	for (int c = 0; c < 4; c++)
		cells[c] = buf[c];
	cells[4] = r % 5 ? "" : NULL;
}

/* A held table and a streamed one print the same bytes, in each form. */
static void test_stream_same(void)
{
	static const enum wfw_table_form forms[] = { WFW_TABLE_TEXT, WFW_TABLE_MARKDOWN,
						     WFW_TABLE_CSV };
	struct wfw_table t;
	char buf[5][80];
	const char *cells[5];

	wfw_table_init(&t, 5, "lrlr");
	for (size_t r = 0; r < 500; r++) {
		row_of(r, buf, cells);
		CU_ASSERT_EQUAL_FATAL(wfw_table_add(&t, cells), 0);
	}
	for (int form = 0; form < 3; form++) {
		struct wfw_table_stream st;
		char *held = printed(&t, form), *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);

		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		wfw_table_stream_init(&st, 5, "lrlr", forms[form], f);
		do {
			if (st.row)
				wfw_table_stream_print(&st);
			for (size_t r = 0; r < 500; r++) {
				row_of(r, buf, cells);
				wfw_table_stream_row(&st, cells);
			}
		} while (wfw_table_stream_measuring(&st));
		fclose(f);
		CU_ASSERT_STRING_EQUAL(out, held);
		free(out);
		free(held);
	}
	wfw_table_free(&t);
}

/* What wfw_fmt_value() prints without its shortcut. */
static void by_printf(char *buf, size_t len, double v, int dec)
{
	if (fabs(v) > 0x1p53) {
		snprintf(buf, len, "%.15g", v);
		return;
	}
	snprintf(buf, len, "%.*f", dec, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}

/*
 * Values as printf's "%.*f" prints them: halves (0.125 at 2 decimals),
 * those a hair off one, -0, values that round up a digit (9.9996), and
 * a million random ones of every magnitude up to 2^52.
 */
static void test_fmt_value_printf(void)
{
	static const double odd[] = { 0.125, 0.375, 2.5, -2.5, 0.0005, 1.0005, -0.0, 0.0,
				      9.9996, 99.9995, -0.0004, 4503599627370495.5,
				      0x1p52, 0x1p53, 1e-300, 0.1 + 0.2, 1.0 / 3 };
	uint64_t x = 88172645463325252ULL;
	char a[64], b[64];
	unsigned bad = 0;

	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		for (int d = 0; d <= 9; d++) {
			wfw_fmt_value(a, sizeof(a), odd[i], d);
			by_printf(b, sizeof(b), odd[i], d);
			if (strcmp(a, b) && bad++ < 5)
				fprintf(stderr, "%.17g at %d: %s, printf %s\n", odd[i], d, a, b);
			wfw_fmt_value(a, sizeof(a), nextafter(odd[i], 1e300), d);
			by_printf(b, sizeof(b), nextafter(odd[i], 1e300), d);
			if (strcmp(a, b) && bad++ < 5)
				fprintf(stderr, "next %.17g at %d: %s, printf %s\n", odd[i], d, a, b);
		}
	for (int i = 0; i < 1000000; i++) {
		double v, m;
		int d;

		x ^= x << 13;	/* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		m = ldexp((double)(x >> 11), -53);	/* [0, 1) */
		v = m * pow(10, (double)(x % 17)) * ((x >> 5) & 1 ? -1 : 1);
		if ((x >> 7) % 4 == 0)	/* on a grid of thousandths, as data are */
			v = round(v * 1000) / 1000;
		d = (int)((x >> 20) % 10);
		wfw_fmt_value(a, sizeof(a), v, d);
		by_printf(b, sizeof(b), v, d);
		if (strcmp(a, b) && bad++ < 5)
			fprintf(stderr, "%.17g at %d: %s, printf %s\n", v, d, a, b);
	}
	CU_ASSERT_EQUAL(bad, 0);
	wfw_fmt_value(a, 4, 123.456, 3);	/* too small a buffer: printf's cut */
	CU_ASSERT_STRING_EQUAL(a, "123");
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
	CU_add_test(s, "streamed rows print as held ones", test_stream_same);
	CU_add_test(s, "values print as printf prints them", test_fmt_value_printf);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
