/* SPDX-License-Identifier: MIT */
/* Selection expressions: operators, precedence, units, names, bad input. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "expr/expr.h"
#include "expr/seen.h"
#include "testutil.h"

static const char *const cstates[] = { "POLL", "C1", "C6" };

/* WakeLatency in ns shown as us, as kside writes it; LDist a plain double. */
static const struct wultfw_column cols[] = {
	{ .name = "WakeLatency", .unit = "us", .type = WULTFW_COL_INT,
	  .divisor = 1000 },
	{ .name = "LDist", .unit = "us", .type = WULTFW_COL_FLOAT },
	{ .name = "ReqCState", .unit = "", .type = WULTFW_COL_ENUM,
	  .enum_names = cstates, .n_enum = 3 },
	{ .name = "SMICnt", .unit = "", .type = WULTFW_COL_INT, .divisor = 1 },
	{ .name = "IntrLatency", .unit = "ns", .type = WULTFW_COL_INT,
	  .divisor = 1 },
};
static const struct wultfw_schema schema = { 5, cols };

/* WakeLatency 150us, LDist 20.5us, C6, no SMI, IntrLatency 2000ns */
static const union wultfw_cell row[] = {
	{ .i = 150000 }, { .f = 20.5 }, { .i = 2 }, { .i = 0 }, { .i = 2000 },
};

static char err[2048];

/* 1: matches, 0: does not, -1: does not compile (err says why). */
static int eval(const char *text)
{
	struct wfw_expr *e;
	int m;

	err[0] = '\0';
	if (wfw_expr_compile(&e, text, &schema, err, sizeof(err)))
		return -1;
	m = wfw_expr_match(e, row);
	wfw_expr_free(e);
	return m;
}

static void test_comparisons(void)
{
	CU_ASSERT_EQUAL(eval("WakeLatency == 150"), 1);
	CU_ASSERT_EQUAL(eval("WakeLatency != 150"), 0);
	CU_ASSERT_EQUAL(eval("WakeLatency < 150"), 0);
	CU_ASSERT_EQUAL(eval("WakeLatency <= 150"), 1);
	CU_ASSERT_EQUAL(eval("WakeLatency > 149.999"), 1);
	CU_ASSERT_EQUAL(eval("WakeLatency >= 150.001"), 0);
	CU_ASSERT_EQUAL(eval("LDist>20"), 1);
	CU_ASSERT_EQUAL(eval("LDist < .5e2"), 1);
	/* The number first: mirrored. */
	CU_ASSERT_EQUAL(eval("100 < WakeLatency"), 1);
	CU_ASSERT_EQUAL(eval("100 >= WakeLatency"), 0);
	/* Two columns. */
	CU_ASSERT_EQUAL(eval("WakeLatency > LDist"), 1);
	CU_ASSERT_EQUAL(eval("LDist >= WakeLatency"), 0);
}

static void test_logic(void)
{
	CU_ASSERT_EQUAL(eval("SMICnt == 0 && LDist > 20"), 1);
	CU_ASSERT_EQUAL(eval("SMICnt == 1 && LDist > 20"), 0);
	CU_ASSERT_EQUAL(eval("SMICnt == 1 || LDist > 20"), 1);
	CU_ASSERT_EQUAL(eval("SMICnt == 1 || LDist > 30"), 0);
	CU_ASSERT_EQUAL(eval("!(SMICnt == 1)"), 1);
	CU_ASSERT_EQUAL(eval("!!(SMICnt == 1)"), 0);
	/* ! takes the whole comparison, as Python's not. */
	CU_ASSERT_EQUAL(eval("!SMICnt > 0"), 1);
	CU_ASSERT_EQUAL(eval("not SMICnt == 0 or LDist > 20 and SMICnt < 1"), 1);
}

static void test_precedence(void)
{
	/* && binds tighter than ||: true || (false && false) */
	CU_ASSERT_EQUAL(eval("SMICnt == 0 || SMICnt == 1 && LDist > 99"), 1);
	CU_ASSERT_EQUAL(eval("(SMICnt == 0 || SMICnt == 1) && LDist > 99"), 0);
	/* ! binds tighter than &&: (!true) && true */
	CU_ASSERT_EQUAL(eval("!SMICnt == 0 && LDist > 20"), 0);
	CU_ASSERT_EQUAL(eval("!(SMICnt == 1 && LDist > 20)"), 1);
	CU_ASSERT_EQUAL(eval("((((LDist > 20))))"), 1);
}

/* pandas' query spelling, as wult's users write --include. */
static void test_pandas(void)
{
	CU_ASSERT_EQUAL(eval("WakeLatency > 100 & ReqCState == \"C6\""), 1);
	CU_ASSERT_EQUAL(eval("WakeLatency > 100 & ReqCState == \"C1\""), 0);
	CU_ASSERT_EQUAL(eval("(WakeLatency < 10000) | (SMICnt < 1)"), 1);
	CU_ASSERT_EQUAL(eval("SMICnt == 1 | LDist > 30"), 0);
	/* & binds tighter than |, as and/or, also mixed with && and or */
	CU_ASSERT_EQUAL(eval("SMICnt == 0 | SMICnt == 1 & LDist > 99"), 1);
	CU_ASSERT_EQUAL(eval("(SMICnt == 0 | SMICnt == 1) & LDist > 99"), 0);
	CU_ASSERT_EQUAL(eval("SMICnt == 0 && LDist > 20 | LDist > 99 and SMICnt == 1"), 1);
	CU_ASSERT_EQUAL(eval("~(SMICnt == 1)"), 1);
	CU_ASSERT_EQUAL(eval("~(SMICnt == 0) | ~(LDist > 20)"), 0);
	CU_ASSERT_EQUAL(eval("~~(SMICnt == 0)"), 1);
	CU_ASSERT_EQUAL(eval("~~SMICnt == 0"), -1);
	CU_ASSERT_EQUAL(eval("~(~(SMICnt == 0))"), 1);
	CU_ASSERT_EQUAL(eval("~ (ReqCState == 'C6' & WakeLatency>0.1ms)"), 0);
	/* pandas' ~ inverts the value after it: only ~(...) means "not" there */
	CU_ASSERT_EQUAL(eval("~SMICnt > 0"), -1);
	TU_ASSERT_CONTAINS(err, "'~' negates a parenthesised expression only");
	TU_ASSERT_CONTAINS(err, "\n  ~SMICnt > 0\n   ^");
	CU_ASSERT_EQUAL(eval("LDist > 1 | | LDist < 2"), -1);
	TU_ASSERT_CONTAINS(err, "\n  LDist > 1 | | LDist < 2\n              ^");
	CU_ASSERT_EQUAL(eval("LDist > 1 ~ LDist < 2"), -1);
	TU_ASSERT_CONTAINS(err, "'&&' or '||' expected");
	TU_ASSERT_CONTAINS(err, "\n  LDist > 1 ~ LDist < 2\n            ^");
}

static void test_units(void)
{
	CU_ASSERT_EQUAL(eval("WakeLatency > 0.1ms"), 1);
	CU_ASSERT_EQUAL(eval("WakeLatency > 0.2ms"), 0);
	CU_ASSERT_EQUAL(eval("WakeLatency == 150000ns"), 1);
	CU_ASSERT_EQUAL(eval("WakeLatency == 150us"), 1);
	CU_ASSERT_EQUAL(eval("WakeLatency < 0.000151s"), 1);
	CU_ASSERT_EQUAL(eval("0.1ms < WakeLatency"), 1);
	CU_ASSERT_EQUAL(eval("IntrLatency == 2us"), 1);
	/* Columns in different duration units compare in ns. */
	CU_ASSERT_EQUAL(eval("IntrLatency < WakeLatency"), 1);
	CU_ASSERT_EQUAL(eval("SMICnt < 1ms"), -1);
	TU_ASSERT_CONTAINS(err, "no unit");
	CU_ASSERT_EQUAL(eval("WakeLatency > 5%"), -1);
	TU_ASSERT_CONTAINS(err, "unit '%' for column 'WakeLatency' (in us)");
	CU_ASSERT_EQUAL(eval("IntrLatency < 1parsec"), -1);
	TU_ASSERT_CONTAINS(err, "unknown unit 'parsec' for column 'IntrLatency'");
}

static void test_strings(void)
{
	CU_ASSERT_EQUAL(eval("ReqCState == \"C6\""), 1);
	CU_ASSERT_EQUAL(eval("ReqCState == 'C6'"), 1);
	CU_ASSERT_EQUAL(eval("ReqCState != \"POLL\""), 1);
	CU_ASSERT_EQUAL(eval("\"C1\" == ReqCState"), 0);
	/* A name no row holds matches nothing. */
	CU_ASSERT_EQUAL(eval("ReqCState == \"C10\""), 0);
	CU_ASSERT_EQUAL(eval("ReqCState != \"C10\""), 1);
	CU_ASSERT_EQUAL(eval("ReqCState == \"C6\" && WakeLatency > 100"), 1);
	CU_ASSERT_EQUAL(eval("ReqCState < \"C6\""), -1);
	TU_ASSERT_CONTAINS(err, "== or != only");
	CU_ASSERT_EQUAL(eval("ReqCState == 6"), -1);
	TU_ASSERT_CONTAINS(err, "holds names");
	CU_ASSERT_EQUAL(eval("LDist == \"C6\""), -1);
	TU_ASSERT_CONTAINS(err, "holds numbers");
}

/* Syntax only: any column name passes, a syntax error has its caret. */
static void test_syntax_only(void)
{
	char e[512];

	CU_ASSERT_EQUAL(wfw_expr_check_syntax("Nowhere > 1us && !(X == \"y\")", e, sizeof(e)), 0);
	CU_ASSERT_EQUAL(wfw_expr_check_syntax("LDist > && 1", e, sizeof(e)), -EINVAL);
	TU_ASSERT_CONTAINS(e, "\n  LDist > && 1\n          ^");
	CU_ASSERT_EQUAL(wfw_expr_check_syntax("(LDist > 1", e, sizeof(e)), -EINVAL);
	TU_ASSERT_CONTAINS(e, "')' expected");
}

/* wfw_expr_names(): the names compared, in order, before any schema. */
static int add_name(const char *name, void *arg)
{
	char *out = arg;

	strcat(out, name);
	strcat(out, ",");
	return 0;
}

static void test_names(void)
{
	char got[128] = "", e[512];

	CU_ASSERT_EQUAL(wfw_expr_names("A > 1us && (B == \"x\" || !(5 < C))", add_name,
				       got, e, sizeof(e)), 0);
	CU_ASSERT_STRING_EQUAL(got, "A,B,C,");
	CU_ASSERT_EQUAL(wfw_expr_names("A > > 1", add_name, got, e, sizeof(e)), -EINVAL);
	TU_ASSERT_CONTAINS(e, "^");
}

static void test_bad_input(void)
{
	CU_ASSERT_EQUAL(eval("WakeLatncy > 1"), -1);
	TU_ASSERT_CONTAINS(err, "unknown column 'WakeLatncy' (did you mean 'WakeLatency'?)");
	TU_ASSERT_CONTAINS(err, "WakeLatency, LDist, ReqCState, SMICnt, IntrLatency");
	TU_ASSERT_CONTAINS(err, "\n  WakeLatncy > 1\n  ^");
	CU_ASSERT_EQUAL(eval("LDist > 1 && Bogus == 2"), -1);
	TU_ASSERT_CONTAINS(err, "unknown column 'Bogus';");
	TU_ASSERT_CONTAINS(err, "\n  LDist > 1 && Bogus == 2\n               ^");
	CU_ASSERT_EQUAL(eval("WakeLatency >> 3"), -1);
	TU_ASSERT_CONTAINS(err, "\n  WakeLatency >> 3\n               ^");
	CU_ASSERT_EQUAL(eval("WakeLatency = 3"), -1);
	TU_ASSERT_CONTAINS(err, "use '=='");
	TU_ASSERT_CONTAINS(err, "\n  WakeLatency = 3\n              ^");
	CU_ASSERT_EQUAL(eval("(LDist > 1"), -1);
	TU_ASSERT_CONTAINS(err, "')' expected");
	TU_ASSERT_CONTAINS(err, "\n  (LDist > 1\n            ^");
	CU_ASSERT_EQUAL(eval("LDist > 1)"), -1);
	TU_ASSERT_CONTAINS(err, "')' without a matching '('");
	CU_ASSERT_EQUAL(eval("LDist > 1 LDist"), -1);
	TU_ASSERT_CONTAINS(err, "'&&' or '||' expected");
	CU_ASSERT_EQUAL(eval("ReqCState == \"C6"), -1);
	TU_ASSERT_CONTAINS(err, "string never closed");
	CU_ASSERT_EQUAL(eval(""), -1);
	TU_ASSERT_CONTAINS(err, "ends where a value is expected");
	CU_ASSERT_EQUAL(eval("LDist"), -1);
	TU_ASSERT_CONTAINS(err, "a comparison (== != < <= > >=) is expected");
	CU_ASSERT_EQUAL(eval("1 < 2"), -1);
	TU_ASSERT_CONTAINS(err, "needs a column");
	CU_ASSERT_EQUAL(eval("LDist > 0x10"), -1);
	CU_ASSERT_EQUAL(eval("LDist > 1 &"), -1);
	TU_ASSERT_CONTAINS(err, "ends where a value is expected");
	TU_ASSERT_CONTAINS(err, "\n  LDist > 1 &\n             ^");
	CU_ASSERT_EQUAL(eval("LDist > 1 &&"), -1);
	CU_ASSERT_EQUAL(eval("LDist > 1 && ()"), -1);
	/* A name of an enum column left without quotes, on either side. */
	CU_ASSERT_EQUAL(eval("ReqCState == C6"), -1);
	TU_ASSERT_CONTAINS(err, "'C6' is no column: a name of 'ReqCState' is a string, in quotes: ReqCState == \"C6\"");
	TU_ASSERT_CONTAINS(err, "\n  ReqCState == C6\n               ^");
	CU_ASSERT_EQUAL(eval("C1 != ReqCState"), -1);
	TU_ASSERT_CONTAINS(err, "in quotes: ReqCState != \"C1\"");
	CU_ASSERT_EQUAL(eval("C1 < LDist"), -1);
	TU_ASSERT_CONTAINS(err, "unknown column 'C1'");
}

/* Rows 0..9 with LDist = row number, ReqCState cycling. */
static void test_select(void)
{
	struct wultfw_batch b = { 0 };
	union wultfw_cell cells[10 * 5];
	struct wfw_select sel;

	for (int r = 0; r < 10; r++) {
		cells[r * 5 + 0].i = r * 1000;
		cells[r * 5 + 1].f = r;
		cells[r * 5 + 2].i = r % 3;
		cells[r * 5 + 3].i = r == 7;
		cells[r * 5 + 4].i = 0;
	}
	b.cells = cells;
	b.ncols = 5;
	b.rows = b.capacity = 10;
	CU_ASSERT_EQUAL(wfw_select_init(&sel, "LDist >= 2", "SMICnt > 0 || ReqCState == \"POLL\"",
					&schema, err, sizeof(err)), 0);
	wfw_select_batch(&sel, &b);
	/* Kept: 2, 4, 5, 8 (3, 6, 9 are POLL; 7 had an SMI). */
	CU_ASSERT_EQUAL(b.rows, 4);
	CU_ASSERT_EQUAL(sel.kept, 4);
	CU_ASSERT_EQUAL(sel.dropped, 6);
	CU_ASSERT_EQUAL(cells[0 * 5 + 1].f, 2);
	CU_ASSERT_EQUAL(cells[1 * 5 + 1].f, 4);
	CU_ASSERT_EQUAL(cells[2 * 5 + 1].f, 5);
	CU_ASSERT_EQUAL(cells[3 * 5 + 1].f, 8);
	CU_ASSERT_EQUAL(cells[3 * 5 + 0].i, 8000);
	wfw_select_free(&sel);

	CU_ASSERT_EQUAL(wfw_select_init(&sel, NULL, "Nope > 1", &schema, err,
					sizeof(err)), -EINVAL);
	CU_ASSERT(!strncmp(err, "--exclude: unknown column 'Nope'", 32));
	CU_ASSERT_EQUAL(wfw_select_init(&sel, NULL, NULL, &schema, err,
					sizeof(err)), 0);
	CU_ASSERT(!wfw_select_active(&sel));
}

/*
 * A one-pass reader's schema, changed between batches as csvread.c does:
 * State gains the name "C10" late; Late is empty (untyped) at first and
 * then turns INT; Tag turns to names; Lat turns from INT to FLOAT.
 */
static const char *late_names[] = { "C1", "C10" };
static const char *tag_names[] = { "x" };
static struct wultfw_column lcols[4];
static const struct wultfw_schema lschema = { 4, lcols };

static void late_schema(void)
{
	lcols[0] = (struct wultfw_column){ .name = "Lat", .unit = "us",
		.type = WULTFW_COL_INT, .divisor = 1000 };
	lcols[1] = (struct wultfw_column){ .name = "State", .unit = "",
		.type = WULTFW_COL_ENUM, .enum_names = late_names, .n_enum = 1 };
	lcols[2] = (struct wultfw_column){ .name = "Late", .unit = "",
		.type = WULTFW_COL_ENUM };
	lcols[3] = (struct wultfw_column){ .name = "Tag", .unit = "",
		.type = WULTFW_COL_ENUM };
}

/* One row through sel: 1 kept, 0 dropped, -1 an error (err copied). */
static int late_row(struct wfw_select *sel, int64_t lat, int64_t state,
		    int64_t late, int64_t tag)
{
	union wultfw_cell c[4] = { { .i = lat }, { .i = state }, { .i = late },
				   { .i = tag } };
	struct wultfw_batch b = { .cells = c, .ncols = 4, .rows = 1,
				  .capacity = 1 };

	if (wfw_select_batch(sel, &b)) {
		snprintf(err, sizeof(err), "%s", sel->err);
		return -1;
	}
	return (int)b.rows;
}

static int late_select(struct wfw_select *sel, const char *include)
{
	late_schema();
	return wfw_select_init(sel, include, NULL, &lschema, err, sizeof(err));
}

static void test_late_names(void)
{
	struct wfw_select sel;

	CU_ASSERT_EQUAL(late_select(&sel, "State == \"C10\""), 0);
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, -1, -1), 0);
	lcols[1].n_enum = 2;	/* "C10" first seen in this batch */
	CU_ASSERT_EQUAL(late_row(&sel, 0, 1, -1, -1), 1);
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, -1, -1), 0);
	wfw_select_free(&sel);
	/* Empty so far, then names: == and != follow. */
	CU_ASSERT_EQUAL(late_select(&sel, "Tag != \"x\""), 0);
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, -1, -1), 1);
	lcols[3].enum_names = tag_names;
	lcols[3].n_enum = 1;
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, -1, 0), 0);
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, -1, -1), 1);
	wfw_select_free(&sel);
}

static void test_late_types(void)
{
	struct wfw_select sel;

	CU_ASSERT_EQUAL(late_select(&sel, "Lat > 20 && Late > 5"), 0);
	CU_ASSERT_EQUAL(late_row(&sel, 30000, 0, -1, -1), 0);
	lcols[2].type = WULTFW_COL_INT;	/* Late's first number */
	lcols[2].divisor = 1;
	CU_ASSERT_EQUAL(late_row(&sel, 30000, 0, 7, -1), 1);
	CU_ASSERT_EQUAL(late_row(&sel, 20000, 0, 7, -1), 0);
	lcols[0].type = WULTFW_COL_FLOAT;	/* Lat: more decimals */
	lcols[0].divisor = 0;
	CU_ASSERT_EQUAL(late_row(&sel, (union wultfw_cell){ .f = 20.25 }.i, 0, 7, -1), 1);
	wfw_select_free(&sel);
	/* != holds for an empty cell, as for a NaN. */
	CU_ASSERT_EQUAL(late_select(&sel, "Late != 5"), 0);
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, -1, -1), 1);
	wfw_select_free(&sel);
	/* A unit the column cannot take is still an error up front. */
	CU_ASSERT_EQUAL(late_select(&sel, "Late > 5us"), -EINVAL);
	TU_ASSERT_CONTAINS(err, "no unit");
}

static void test_late_misfit(void)
{
	struct wfw_select sel;

	CU_ASSERT_EQUAL(late_select(&sel, "Late == \"x\""), 0);
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, -1, -1), 0);
	lcols[2].type = WULTFW_COL_INT;
	lcols[2].divisor = 1;
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, 3, -1), -1);
	TU_ASSERT_CONTAINS(err, "--include: in the rows after the first 1: column 'Late' holds numbers");
	TU_ASSERT_CONTAINS(err, "\n  Late == \"x\"\n          ^");
	/* and it stays failed */
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, 3, -1), -1);
	wfw_select_free(&sel);
	CU_ASSERT_EQUAL(late_select(&sel, "Lat > Tag"), 0);
	lcols[3].enum_names = tag_names;
	lcols[3].n_enum = 1;
	CU_ASSERT_EQUAL(late_row(&sel, 0, 0, -1, 0), -1);
	TU_ASSERT_CONTAINS(err, "'Lat' and 'Tag' cannot be compared");
	wfw_select_free(&sel);
}

/* seen's warnings for sel after noting schemas s[0, n), into msg. */
static size_t seen_lines(const struct wfw_select *sel, const struct wultfw_schema *const *s,
			 size_t n, char *msg, size_t len)
{
	struct wfw_seen z;
	FILE *f = fmemopen(msg, len, "w");
	size_t lines = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(wfw_seen_init(&z, sel), 0);
	for (size_t i = 0; i < n; i++)
		wfw_seen_note(&z, s[i]);
	lines = wfw_seen_warn(&z, "t", "p", f);
	fclose(f);
	wfw_seen_free(&z);
	return lines;
}

/* Names compared with that no part's column held, a line each. */
static void test_unmatched_names(void)
{
	static const char *const part_a[] = { "POLL", "C1" }, *const part_b[] = { "C6" };
	struct wultfw_column ca[5], cb[5];
	const struct wultfw_schema sa = { 5, ca }, sb = { 5, cb };
	const struct wultfw_schema *both[] = { &sa, &sb }, *one[] = { &schema };
	struct wfw_select sel;
	char msg[1024];

	CU_ASSERT_EQUAL_FATAL(wfw_select_init(&sel, "ReqCState == \"c6\" || ReqCState == \"C1\"",
					      "ReqCState != \"POL\"", &schema, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(seen_lines(&sel, one, 1, msg, sizeof(msg)), 2);
	TU_ASSERT_CONTAINS(msg, "wultfw t: warning: p: --include: no row has ReqCState \"c6\" (did you mean \"C6\"?); its names: POLL, C1, C6\n");
	TU_ASSERT_CONTAINS(msg, "--exclude: no row has ReqCState \"POL\" (did you mean \"POLL\"?)");
	CU_ASSERT_PTR_NULL(strstr(msg, "\"C1\" "));
	wfw_select_free(&sel);
	/* Two parts' readers: C6 only in the second, POLL only in the first. */
	memcpy(ca, cols, sizeof(ca));
	memcpy(cb, cols, sizeof(cb));
	ca[2].enum_names = part_a;
	ca[2].n_enum = 2;
	cb[2].enum_names = part_b;
	cb[2].n_enum = 1;
	CU_ASSERT_EQUAL_FATAL(wfw_select_init(&sel, "ReqCState == \"C6\" || ReqCState == \"C7\"",
					      "ReqCState == \"POLL\"", &sa, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(seen_lines(&sel, both, 2, msg, sizeof(msg)), 1);
	TU_ASSERT_CONTAINS(msg, "no row has ReqCState \"C7\" (did you mean ");
	TU_ASSERT_CONTAINS(msg, "; its names: POLL, C1, C6\n");
	wfw_select_free(&sel);
	/* Names seen late (a one-pass reader) count; an empty column warns. */
	CU_ASSERT_EQUAL(late_select(&sel, "State == \"C10\""), 0);
	one[0] = &lschema;
	CU_ASSERT_EQUAL(seen_lines(&sel, one, 1, msg, sizeof(msg)), 1);
	lcols[1].n_enum = 2;
	CU_ASSERT_EQUAL(seen_lines(&sel, one, 1, msg, sizeof(msg)), 0);
	wfw_select_free(&sel);
}

/*
 * wfw_select_cols() keeps what wfw_expr_match() keeps, row by row, over
 * more rows than one tile, with empty INT cells, NaNs and every operator.
 */
static void test_select_cols(void)
{
	static const char *const exprs[][2] = {
		{ "WakeLatency > 100 && !(ReqCState == \"C1\")", "SMICnt != 0" },
		{ "LDist <= 20.5 || IntrLatency >= 2000ns", NULL },
		{ NULL, "ReqCState != \"C6\" || WakeLatency < 50us" },
		{ "!(LDist == 3 || SMICnt == 1) and 100 > WakeLatency", "LDist < 0" },
		/* rows numbered from 7000 (a part's first row) */
		{ "index < 7300 | index >= 7900", "index == 7010 or SMICnt == 1" },
		{ "~(7100 < index & index <= 7600) & LDist > 10", NULL },
	};
	enum { N = 1000 };
	static union wultfw_cell col[5][N], rowcells[N * 5];
	const union wultfw_cell *at[5];
	uint32_t keep[N];
	unsigned seed = 5;

	for (size_t r = 0; r < N; r++) {
		seed = seed * 1103515245 + 12345;
		col[0][r].i = r % 17 ? (int64_t)(seed % 300000) : WULTFW_CELL_EMPTY;
		col[1][r].f = r % 23 ? (double)(seed % 40) : NAN;
		col[2][r].i = (int64_t)(seed >> 8) % 3;
		col[3][r].i = r % 5 == 0;
		col[4][r].i = (int64_t)(seed >> 4) % 4000;
		for (size_t c = 0; c < 5; c++)
			rowcells[r * 5 + c] = col[c][r];
	}
	for (size_t c = 0; c < 5; c++)
		at[c] = col[c];
	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		struct wfw_select sel;
		size_t k = 0, n, bad = 0;

		CU_ASSERT_EQUAL_FATAL(wfw_select_init(&sel, exprs[i][0], exprs[i][1],
						      &schema, err, sizeof(err)), 0);
		n = wfw_select_cols(&sel, at, 5, N, 7000, keep);
		for (size_t r = 0; r < N; r++) {
			const union wultfw_cell *cells = &rowcells[r * 5];
			bool m = (!sel.include || wfw_expr_match_at(sel.include, cells, 7000 + r)) &&
				 (!sel.exclude || !wfw_expr_match_at(sel.exclude, cells, 7000 + r));

			if (m)
				bad += k >= n || keep[k++] != r;
		}
		CU_ASSERT_EQUAL(n, k);
		CU_ASSERT_EQUAL(bad, 0);
		CU_ASSERT(n > 0 && n < N);
		wfw_select_free(&sel);
	}
}

/* 1: row numbered idx matches, 0: not, -1: no compile. */
static int eval_at(const char *text, uint64_t idx)
{
	struct wfw_expr *e;
	int m;

	err[0] = '\0';
	if (wfw_expr_compile(&e, text, &schema, err, sizeof(err)))
		return -1;
	m = wfw_expr_match_at(e, row, idx);
	wfw_expr_free(e);
	return m;
}

/* pandas' index: the row's number from 0, before any selection. */
static void test_index(void)
{
	static const struct wultfw_column named[] = {
		{ .name = "index", .unit = "", .type = WULTFW_COL_INT, .divisor = 1 },
	};
	static const struct wultfw_schema ns = { 1, named };
	union wultfw_cell cells[10 * 5], one = { .i = 42 };
	struct wultfw_batch b = { .cells = cells, .ncols = 5, .capacity = 10 };
	struct wfw_select sel;
	struct wfw_expr *e;

	CU_ASSERT_EQUAL(eval_at("index == 5", 5), 1);
	CU_ASSERT_EQUAL(eval_at("index == 5", 6), 0);
	CU_ASSERT_EQUAL(eval_at("3 < index", 4), 1);	/* mirrored */
	CU_ASSERT_EQUAL(eval_at("index >= 5000000000", 5000000000u), 1);
	CU_ASSERT_EQUAL(eval_at("index < 10 and ReqCState == \"C6\"", 9), 1);
	CU_ASSERT_EQUAL(eval_at("index < 1ms", 0), -1);
	CU_ASSERT(strstr(err, "without a unit ('ms')") != NULL);
	CU_ASSERT_EQUAL(eval_at("index == \"C6\"", 0), -1);
	CU_ASSERT(strstr(err, "compares with a number only") != NULL);
	CU_ASSERT_EQUAL(eval_at("index < LDist", 0), -1);
	CU_ASSERT_EQUAL(eval_at("LDist > index", 0), -1);
	CU_ASSERT(strstr(err, "compares with a number only") != NULL);
	/* A column named index is that column. */
	CU_ASSERT_EQUAL_FATAL(wfw_expr_compile(&e, "index == 42", &ns, err, sizeof(err)), 0);
	CU_ASSERT(wfw_expr_match_at(e, &one, 0));
	CU_ASSERT(!wfw_expr_uses_index(e));
	wfw_expr_free(e);
	CU_ASSERT(wfw_expr_text_uses_index("LDist > 1 || !(index < 3)"));
	CU_ASSERT(!wfw_expr_text_uses_index("LDist > 1"));
	CU_ASSERT(!wfw_expr_text_uses_index(NULL));
	/* Batches continue the numbering; the kept rows leave no gap. */
	CU_ASSERT_EQUAL_FATAL(wfw_select_init(&sel, "index % 2", NULL, &schema, err,
					      sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(wfw_select_init(&sel, "index >= 8 && index < 13", NULL,
					      &schema, err, sizeof(err)), 0);
	CU_ASSERT(wfw_select_uses_index(&sel));
	for (int k = 0; k < 2; k++) {
		for (size_t r = 0; r < 10; r++) {
			memcpy(&cells[r * 5], row, sizeof(row));
			cells[r * 5 + 3].i = (int64_t)(k * 10 + r);	/* SMICnt: the number */
		}
		b.rows = 10;
		CU_ASSERT_EQUAL(wfw_select_batch(&sel, &b), 0);
		CU_ASSERT_EQUAL(b.rows, k ? 3 : 2);
		CU_ASSERT_EQUAL(cells[3].i, k ? 10 : 8);
	}
	CU_ASSERT_EQUAL(sel.next_index, 20);
	CU_ASSERT_EQUAL(sel.kept, 5);
	wfw_select_free(&sel);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("expr", NULL, NULL);
	CU_add_test(s, "comparisons", test_comparisons);
	CU_add_test(s, "the names an expression compares", test_names);
	CU_add_test(s, "&& || !", test_logic);
	CU_add_test(s, "precedence", test_precedence);
	CU_add_test(s, "units", test_units);
	CU_add_test(s, "enum names", test_strings);
	CU_add_test(s, "bad input with a caret", test_bad_input);
	CU_add_test(s, "syntax only", test_syntax_only);
	CU_add_test(s, "include and exclude", test_select);
	CU_add_test(s, "column by column", test_select_cols);
	CU_add_test(s, "names first seen late", test_late_names);
	CU_add_test(s, "types learned late", test_late_types);
	CU_add_test(s, "a late type that does not fit", test_late_misfit);
	CU_add_test(s, "names no row has", test_unmatched_names);
	CU_add_test(s, "pandas' & | ~", test_pandas);
	CU_add_test(s, "pandas' index", test_index);
	return tu_run();
}
