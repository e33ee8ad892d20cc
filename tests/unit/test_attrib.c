/* SPDX-License-Identifier: MIT */
/*
 * The report's attribution while reading (lib/report/attrib.c): the bins,
 * the largest rows kept (ties in row order), parts merged in order giving
 * what one reader gives, rows by rows and by columns alike, lost and
 * mismatched rows counted; the same per requested C-state, and no more
 * C-states than WFW_ATTRIB_GROUPS.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/attrib.h"
#include "testutil.h"

static const char *const causes[] = { "idle-exit", "irq:24 eth0", "thread" };
static const char *const states[] = { "POLL", "C1", "C6" };

/* WakeLatency, the five times (FLOAT), Cause, CausePID (INT), LTime (INT ns). */
static const struct wultfw_column cols[] = {
	{ .name = "WakeLatency", .unit = "us", .type = WULTFW_COL_FLOAT },
	{ .name = "IRQTime", .unit = "us", .type = WULTFW_COL_INT, .divisor = 1000 },
	{ .name = "SoftIRQTime", .unit = "us", .type = WULTFW_COL_INT, .divisor = 1000 },
	{ .name = "ThreadTime", .unit = "us", .type = WULTFW_COL_INT, .divisor = 1000 },
	{ .name = "NMITime", .unit = "us", .type = WULTFW_COL_INT, .divisor = 1000 },
	{ .name = "ExitTime", .unit = "us", .type = WULTFW_COL_INT, .divisor = 1000 },
	{ .name = "Cause", .type = WULTFW_COL_ENUM, .enum_names = causes, .n_enum = 3 },
	{ .name = "CausePID", .type = WULTFW_COL_INT },
	{ .name = "LTime", .unit = "ns", .type = WULTFW_COL_INT },
	{ .name = "ReqCState", .type = WULTFW_COL_ENUM, .enum_names = states, .n_enum = 3 },
};
#define NCOLS 10
static const struct wultfw_schema schema = { .ncols = NCOLS, .cols = cols };

/* Row i: latency from a fixed pseudo-random sequence, many ties. */
static void make_row(union wultfw_cell *c, uint64_t i)
{
	uint64_t x = (i * 2654435761u) % 100003;
	int64_t irq = x % 7 == 0 ? (int64_t)(x % 5000) * 1000 : 0;
	int64_t exit = 5000 + (int64_t)(x % 97) * 10;

	c[0].f = (double)(irq + exit) / 1000;
	c[1].i = irq;
	c[2].i = c[3].i = c[4].i = 0;
	c[5].i = exit;
	c[6].i = irq > exit ? 1 : 0;
	c[7].i = WULTFW_CELL_EMPTY;
	c[8].i = 1000000000 + (int64_t)i * 1000;
	c[9].i = (int64_t)(i % 7 % 3);	/* C6 the least often */
	if (i % 1000 == 999)		/* no breakdown */
		c[1].i = WULTFW_CELL_EMPTY;
	if (i % 5000 == 17)		/* parts that do not add up */
		c[0].f += 1;
}

/* Rows [from, to) fed as row batches of 777. */
static void feed_rows(struct wfw_attrib *a, uint64_t from, uint64_t to)
{
	struct wultfw_batch b;

	CU_ASSERT_FATAL(wfw_batch_alloc(&b, schema.ncols, 777) == 0);
	while (from < to) {
		for (b.rows = 0; b.rows < b.capacity && from < to; b.rows++)
			make_row(wultfw_row(&b, b.rows), from++);
		wfw_attrib_rows(a, &schema, &b);
	}
	wfw_batch_free(&b);
}

/* The same as column batches holding numbers, as a binary file reads. */
static void feed_cols(struct wfw_attrib *a, uint64_t from, uint64_t to)
{
	struct wfw_col_batch b;
	union wultfw_cell row[NCOLS];

	CU_ASSERT_FATAL(wfw_col_batch_alloc(&b, schema.ncols, 1000, NULL) == 0);
	b.numbers = true;
	while (from < to) {
		for (b.rows = 0; b.rows < b.capacity && from < to; b.rows++) {
			make_row(row, from++);
			for (size_t c = 0; c < schema.ncols; c++) {
				bool num = cols[c].type == WULTFW_COL_INT;

				b.col[c][b.rows] = row[c];
				if (num && row[c].i == WULTFW_CELL_EMPTY)
					b.col[c][b.rows].i = WULTFW_FLOAT_EMPTY_BITS;
				else if (num)
					b.col[c][b.rows].f = (double)row[c].i;
			}
		}
		wfw_attrib_cols(a, &schema, &b);
	}
	wfw_col_batch_free(&b);
}

static void same_set(const struct wfw_attrib_set *a, const struct wfw_attrib_set *b)
{
	CU_ASSERT_EQUAL(a->values, b->values);
	CU_ASSERT_EQUAL(a->explained, b->explained);
	CU_ASSERT_EQUAL(a->mismatched, b->mismatched);
	CU_ASSERT_EQUAL(a->ntop, b->ntop);
	CU_ASSERT(!memcmp(a->bins, b->bins, WFW_ATTRIB_NBINS * sizeof(*a->bins)));
	for (size_t i = 0; i < a->ntop && i < b->ntop; i++) {
		CU_ASSERT_EQUAL(a->top[i].x.row, b->top[i].x.row);
		CU_ASSERT_EQUAL(a->top[i].x.lat, b->top[i].x.lat);
		CU_ASSERT_EQUAL(a->top[i].ltime_ns, b->top[i].ltime_ns);
		CU_ASSERT_STRING_EQUAL(a->top[i].x.cause, b->top[i].x.cause);
	}
}

static void same(const struct wfw_attrib *a, const struct wfw_attrib *b)
{
	same_set(&a->all, &b->all);
	CU_ASSERT_EQUAL(a->ngroups, b->ngroups);
	for (size_t g = 0; g < 3; g++) {
		const struct wfw_attrib_set *x = wfw_attrib_group(a, states[g]);
		const struct wfw_attrib_set *y = wfw_attrib_group(b, states[g]);

		CU_ASSERT_FATAL(x && y);
		same_set(x, y);
	}
}

/*
 * Each C-state's rows: all of them counted, binned, and its largest kept
 * (checked against the rows made), largest first, each of its C-state.
 */
static void check_groups(const struct wfw_attrib *a, uint64_t rows)
{
	uint64_t values = 0, explained = 0;

	CU_ASSERT_EQUAL(a->ngroups, 3);
	CU_ASSERT_EQUAL(a->ungrouped, 0);
	for (size_t g = 0; g < 3; g++) {
		const struct wfw_attrib_set *s = wfw_attrib_group(a, states[g]);
		uint64_t n = 0, want = 0, bigger = 0;
		union wultfw_cell c[NCOLS];

		CU_ASSERT_FATAL(s != NULL);
		values += s->values;
		explained += s->explained;
		for (size_t i = 0; i < WFW_ATTRIB_NBINS; i++)
			n += s->bins[i].n;
		CU_ASSERT_EQUAL(n, s->explained);
		CU_ASSERT_EQUAL(s->ntop, WFW_ATTRIB_GROUP_KEEP);
		for (size_t i = 0; i < s->ntop; i++) {
			CU_ASSERT_STRING_EQUAL(s->top[i].x.cstate, states[g]);
			if (i)
				CU_ASSERT(s->top[i - 1].x.lat >= s->top[i].x.lat);
		}
		for (uint64_t i = 0; i < rows; i++) {
			make_row(c, i);
			want += c[9].i == (int64_t)g;
			bigger += c[9].i == (int64_t)g && c[0].f > s->top[s->ntop - 1].x.lat;
		}
		CU_ASSERT_EQUAL(s->values, want);
		CU_ASSERT(bigger < s->ntop);	/* nothing bigger left out */
	}
	CU_ASSERT_EQUAL(values, a->all.values);
	CU_ASSERT_EQUAL(explained, a->all.explained);
}

#define ROWS 60000

/* One reader by rows, one by columns, three parts merged: one result. */
static void test_parts(void)
{
	struct wfw_attrib one, bycol, p[3];
	uint64_t n = 0;

	CU_ASSERT_FATAL(wfw_attrib_init(&one, "WakeLatency") == 0);
	CU_ASSERT_FATAL(wfw_attrib_init(&bycol, "WakeLatency") == 0);
	feed_rows(&one, 0, ROWS);
	feed_cols(&bycol, 0, ROWS);
	for (int k = 0; k < 3; k++) {
		CU_ASSERT_FATAL(wfw_attrib_init(&p[k], "WakeLatency") == 0);
		feed_rows(&p[k], k * 17000, k < 2 ? (k + 1) * 17000 : ROWS);
		if (k)
			wfw_attrib_merge(&p[0], &p[k]);
	}
	wfw_attrib_finish(&one);
	wfw_attrib_finish(&bycol);
	wfw_attrib_finish(&p[0]);
	same(&one, &bycol);
	same(&one, &p[0]);
	CU_ASSERT_EQUAL(one.all.values, ROWS);
	CU_ASSERT_EQUAL(one.all.explained, ROWS - ROWS / 1000);
	CU_ASSERT_EQUAL(one.all.mismatched, ROWS / 5000);
	CU_ASSERT_EQUAL(one.all.ntop, WFW_ATTRIB_KEEP);
	for (size_t i = 0; i < WFW_ATTRIB_NBINS; i++)
		n += one.all.bins[i].n;
	CU_ASSERT_EQUAL(n, one.all.explained);
	/* largest first, ties in row order; every row left out is smaller */
	for (size_t i = 1; i < one.all.ntop; i++)
		CU_ASSERT(one.all.top[i - 1].x.lat > one.all.top[i].x.lat ||
			  (one.all.top[i - 1].x.lat == one.all.top[i].x.lat &&
			   one.all.top[i - 1].x.row < one.all.top[i].x.row));
	check_groups(&one, ROWS);
	for (int k = 0; k < 3; k++)
		wfw_attrib_free(&p[k]);
	wfw_attrib_free(&one);
	wfw_attrib_free(&bycol);
}

/* A kept row: its parts, cause and LTime as the file has them. */
static void test_row(void)
{
	struct wfw_attrib a;
	union wultfw_cell c[NCOLS];
	const struct wfw_attrib_row *r;

	CU_ASSERT_FATAL(wfw_attrib_init(&a, "WakeLatency") == 0);
	feed_rows(&a, 0, 2000);
	wfw_attrib_finish(&a);
	r = &a.all.top[0];
	make_row(c, r->x.row);
	CU_ASSERT_DOUBLE_EQUAL(r->x.lat, c[0].f, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->x.t[WFW_XP_IRQ], (double)c[1].i / 1000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->x.t[WFW_XP_EXIT], (double)c[5].i / 1000, 1e-9);
	CU_ASSERT_STRING_EQUAL(r->x.cause, causes[c[6].i]);
	CU_ASSERT_EQUAL(r->x.pid, -1);
	CU_ASSERT_STRING_EQUAL(r->x.cstate, states[c[9].i]);
	CU_ASSERT_EQUAL(r->ltime_ns, (double)c[8].i);
	CU_ASSERT(isnan(r->x.cnt[0]));
	CU_ASSERT(!a.smi);
	wfw_attrib_free(&a);
}

/* 20 C-states: the first 16 get theirs, the rows of the rest are counted. */
static void test_many_states(void)
{
	static char names[20][8];
	const char *np[20];
	struct wultfw_column mc[NCOLS];
	struct wultfw_schema ms = { .ncols = NCOLS, .cols = mc };
	struct wfw_attrib a;
	struct wultfw_batch b;

	for (int i = 0; i < 20; i++) {
		snprintf(names[i], sizeof(names[i]), "C%d", i);
		np[i] = names[i];
	}
	memcpy(mc, cols, sizeof(mc));
	mc[9].enum_names = np;
	mc[9].n_enum = 20;
	CU_ASSERT_FATAL(wfw_attrib_init(&a, "WakeLatency") == 0);
	CU_ASSERT_FATAL(wfw_batch_alloc(&b, NCOLS, 1000) == 0);
	for (b.rows = 0; b.rows < 1000; b.rows++) {
		union wultfw_cell *c = wultfw_row(&b, b.rows);

		make_row(c, b.rows);
		c[9].i = (int64_t)(b.rows % 20);
	}
	wfw_attrib_rows(&a, &ms, &b);
	CU_ASSERT_EQUAL(a.ngroups, WFW_ATTRIB_GROUPS);
	CU_ASSERT_EQUAL(a.ungrouped, 4 * 50);
	CU_ASSERT_EQUAL(wfw_attrib_group(&a, "C15")->values, 50);
	CU_ASSERT_PTR_NULL(wfw_attrib_group(&a, "C16"));
	CU_ASSERT_EQUAL(a.all.values, 1000);
	wfw_batch_free(&b);
	wfw_attrib_free(&a);
}

/* Bins: 128 an octave (0.4-0.8% wide) from 2^-10 to 2^30, every value in its own. */
static void test_bins(void)
{
	static const double v[] = { 0.001, 0.5, 1, 9.99, 10, 17.3, 1234.5, 1e6, 1e9 };

	CU_ASSERT_EQUAL(wfw_attrib_bin(0), 0);
	CU_ASSERT_EQUAL(wfw_attrib_bin(-5), 0);
	CU_ASSERT_EQUAL(wfw_attrib_bin(NAN), 0);
	CU_ASSERT_EQUAL(wfw_attrib_bin(1e30), WFW_ATTRIB_NBINS - 1);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t b = wfw_attrib_bin(v[i]);
		double lo = wfw_attrib_bin_lo(b), hi = wfw_attrib_bin_lo(b + 1);

		CU_ASSERT(lo <= (float)v[i] && (float)v[i] < hi);
		CU_ASSERT(hi / lo <= 1 + 1.0 / 128);
	}
	CU_ASSERT_EQUAL(wfw_attrib_milli(2.0004), 2000);
	CU_ASSERT_EQUAL(wfw_attrib_milli(2.0006), 2001);
	CU_ASSERT_EQUAL((int64_t)wfw_attrib_milli(-0.0016), -2);
	CU_ASSERT_EQUAL(wfw_attrib_milli(1e300), (uint64_t)(int64_t)9e15);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("attrib", NULL, NULL);
	CU_add_test(s, "parts", test_parts);
	CU_add_test(s, "row", test_row);
	CU_add_test(s, "bins", test_bins);
	CU_add_test(s, "many C-states", test_many_states);
	return tu_run();
}
