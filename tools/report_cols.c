/* SPDX-License-Identifier: MIT */
/*
 * A binary file read column by column, as calc reads it: its blocks are
 * stored that way, so only the columns the statistics and the plots need
 * are decoded, INT cells straight to doubles. The tails are those the
 * row-by-row path (report_keep.c) keeps, and so is every row under the
 * cap; above it (the file's rows are counted when it is opened) the
 * sample is chosen as the rows pass (rep_keep_plan()).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "report_load.h"

/*
 * Rows per batch: as the row-by-row path reads them, so that a reservoir
 * (a file that grew past the rows counted) crosses the cap after the same
 * row.
 */
#define COLS_BATCH_ROWS 8192
/* Rows a tail looks at together for one above its smallest kept. */
#define TAIL_STRIDE 32

/* What a kept column's values are kept after: 0, LTime's the first row's. */
static inline double col_origin(const struct wfw_rep_result *r, size_t c)
{
	return r->colnames[c] == rep_timeline_col ? r->time0_ns : 0;
}

/* Kept column c's value in row i (report_keep.c's kept_value()). */
static inline float col_value(const struct wfw_rep_result *r,
			      const struct rep_keep *k, size_t c, size_t i)
{
	double v;

	if (!k->src[c])
		return NAN;
	v = k->src[c][i] / k->div[c];
	return wfw_rep_float(v - col_origin(r, c));
}

/* This batch's arrays of the kept columns; the time origin from row 0. */
static void view_batch(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       struct rep_keep *k, const struct wfw_col_batch *b)
{
	for (size_t c = 0; c < r->ncols; c++) {
		int i = k->kcol[c];

		k->src[c] = i >= 0 ? &b->col[i][0].f : NULL;
		k->div[c] = i >= 0 && s->cols[i].type == WULTFW_COL_INT &&
			    s->cols[i].divisor ? s->cols[i].divisor : 1;
		if (r->colnames[c] == rep_timeline_col && k->src[c] && b->rows &&
		    !r->nsel && !r->time0_ns && wfw_value_ok(k->src[c][0]))
			r->time0_ns = k->src[c][0] / k->div[c];
	}
}

static int32_t col_state(const struct wfw_col_batch *b, int scol, size_t i)
{
	return scol >= 0 ? (int32_t)b->col[scol][i].i : -1;
}

/* Row i of the batch's kept columns into k->row. */
static void col_row(const struct wfw_rep_result *r, struct rep_keep *k, size_t i)
{
	for (size_t c = 0; c < r->ncols; c++)
		k->row[c] = col_value(r, k, c, i);
}

/* n values as kept (v - 0 is v: one loop for every column). */
static void put_col(float *d, const double *v, double div, double off, size_t n)
{
	for (size_t j = 0; j < n; j++)
		d[j] = wfw_rep_float(v[j] / div - off);
}

/* Rows [i, i + n) into slots from `slot` on, column after column. */
static void put_rows(struct wfw_rep_result *r, const struct rep_keep *k,
		     const struct wfw_col_batch *b, int scol, size_t i,
		     size_t n, size_t slot)
{
	for (size_t c = 0; c < r->ncols; c++)
		if (r->vals[c] && k->src[c])
			put_col(r->vals[c] + slot, k->src[c] + i, k->div[c],
				col_origin(r, c), n);
	for (size_t j = 0; j < n; j++)
		r->state[slot + j] = col_state(b, scol, i + j);
	if (slot + n > r->nrows)
		r->nrows = slot + n;
}

void rep_keep_plan(struct wfw_rep_result *r, struct rep_keep *k, uint64_t total,
		   uint64_t first, uint64_t rows)
{
	wfw_seqsample_init(&k->plan, WFW_REPORT_SEED, total, WFW_REPORT_SAMPLE_ROWS);
	while (k->plan.next < first)
		wfw_seqsample_advance(&k->plan);
	/* the reservoir's size bounds the rows kept (rep_keep_grow()) */
	wfw_reservoir_init(&k->res, WFW_REPORT_SAMPLE_ROWS, WFW_REPORT_SEED);
	k->planned = true;
	k->first = first;
	k->end = first + rows;
	r->sampled = true;
}

/* The batch's rows the plan chose, into the next slots. */
static void planned_rows(struct wfw_rep_result *r, struct rep_keep *k,
			 const struct wfw_col_batch *b, int scol)
{
	uint64_t at = k->first + r->nsel, end = at + b->rows;

	if (end > k->end)
		end = k->end;
	for (; k->plan.next < end; wfw_seqsample_advance(&k->plan))
		put_rows(r, k, b, scol, (size_t)(k->plan.next - at), 1, r->nrows);
}

/* The batch's rows into the reservoir: a run while it fills, then by skips. */
static void reservoir_rows(struct wfw_rep_result *r, struct rep_keep *k,
			   const struct wfw_col_batch *b, int scol)
{
	size_t slot = (size_t)k->res.seen;
	size_t i = wfw_reservoir_fill(&k->res, b->rows);

	if (i)
		put_rows(r, k, b, scol, 0, i, slot);
	while (i < b->rows) {
		uint64_t skip = wfw_reservoir_skip(&k->res, b->rows - i);

		wfw_reservoir_skipped(&k->res, skip);
		i += (size_t)skip;
		if (i < b->rows) {
			put_rows(r, k, b, scol, i, 1, wfw_reservoir_take(&k->res));
			i++;
		}
	}
}

static void sample_rows(struct wfw_rep_result *r, struct rep_keep *k,
			const struct wfw_col_batch *b, int scol)
{
	if (k->planned)
		planned_rows(r, k, b, scol);
	else
		reservoir_rows(r, k, b, scol);
}

/* Row i into metric m's tail, if it is among the largest. */
static void tail_row(struct wfw_rep_result *r, struct rep_keep *k,
		     const struct wfw_col_batch *b, int scol, size_t m, size_t i)
{
	float v = col_value(r, k, m, i);

	if (!wfw_topk_wants(&r->tails[m], v))
		return;
	col_row(r, k, i);
	wfw_topk_add(&r->tails[m], v, k->row, col_state(b, scol, i));
}

/*
 * A raw value at or below this never enters metric m's tail: its least
 * kept key back in the column's raw numbers, less a margin far above the
 * rounding of the division (1e-9 against 2^-52). -INFINITY: no bound.
 */
static double raw_floor(const struct wfw_rep_result *r, const struct rep_keep *k,
			size_t m)
{
	const struct wfw_topk *t = &r->tails[m];
	double lo;

	if (t->n < t->cap || col_origin(r, m) != 0)
		return -INFINITY;
	lo = (double)t->key[0] * k->div[m];
	if (isinf(lo))
		return lo;
	return lo - fabs(lo) * 1e-9;
}

/* Is any of n raw values above lo? (no branch: vectorised) */
static bool any_above(const double *v, size_t n, double lo)
{
	bool above = false;

	for (size_t j = 0; j < n; j++)
		above |= v[j] > lo;
	return above;
}

/*
 * The batch's rows into metric m's tail: once it is full, TAIL_STRIDE
 * rows at a time are passed over unless one is above its smallest.
 */
static void tail_rows(struct wfw_rep_result *r, struct rep_keep *k,
		      const struct wfw_col_batch *b, int scol, size_t m)
{
	const double *v = k->src[m];
	size_t i = 0;
	double lo;

	for (; i < b->rows && r->tails[m].n < r->tails[m].cap; i++)
		tail_row(r, k, b, scol, m, i);
	lo = raw_floor(r, k, m);
	for (; i < b->rows; i += TAIL_STRIDE) {
		size_t end = i + TAIL_STRIDE < b->rows ? i + TAIL_STRIDE : b->rows;

		if (!any_above(v + i, end - i, lo))
			continue;
		for (size_t j = i; j < end; j++) {
			if (!(v[j] > lo))
				continue;
			tail_row(r, k, b, scol, m, j);
			lo = raw_floor(r, k, m);
		}
	}
}

/* Keep the batch's rows: into the sample, and into the tails. */
static int keep_cols(struct wfw_rep_result *r, const struct wultfw_schema *s,
		     struct rep_keep *k, const struct wfw_col_batch *b, int scol)
{
	int ret = rep_keep_grow(r, k, r->nrows + b->rows);

	if (ret)
		return ret;
	view_batch(r, s, k, b);
	sample_rows(r, k, b, scol);
	for (size_t m = 0; m < r->ntails; m++)
		if (k->src[m])
			tail_rows(r, k, b, scol, m);
	if (r->attrib)
		wfw_attrib_cols(r->attrib, s, b);
	r->nsel += b->rows;
	return 0;
}

/* A batch of the columns the statistics read and the kept ones. */
static int alloc_batch(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       struct rep_keep *k, struct wfw_col_batch *b)
{
	bool *want = calloc(s->ncols + 1, sizeof(*want));
	int ret;

	if (!want)
		return -ENOMEM;
	rep_keep_map(r, s, k);
	for (size_t c = 0; c < s->ncols; c++)
		want[c] = wfw_statset_reads(&r->set, c);
	for (size_t c = 0; c < r->ncols; c++)
		if (k->kcol[c] >= 0)
			want[k->kcol[c]] = true;
	if (r->attrib)
		wfw_attrib_want(r->attrib, s, want);
	ret = wfw_col_batch_alloc(b, s->ncols, COLS_BATCH_ROWS, want);
	free(want);
	if (ret)
		return -ENOMEM;
	b->numbers = true;
	/* The decoder's extremes and sums spare the statistics a pass. */
	b->sums = calloc(s->ncols + 1, sizeof(*b->sums));
	if (!b->sums) {
		wfw_col_batch_free(b);
		return -ENOMEM;
	}
	return 0;
}

int rep_read_cols(struct wfw_rep_result *r, struct wfw_reader *rd, int scol,
		  struct rep_keep *k, uint64_t share)
{
	const struct wultfw_schema *s = wfw_reader_schema(rd);
	struct wfw_col_batch b;
	long n = 0;
	int ret = alloc_batch(r, s, k, &b);

	if (ret)
		return ret;
	while (!ret && (n = wfw_reader_read_cols(rd, &b)) > 0) {
		r->rows_read += b.rows;
		ret = wfw_statset_add_nums_sums(&r->set,
						(const union wultfw_cell *const *)b.col,
						b.may_nan, b.sums, b.rows);
		if (!ret)
			ret = keep_cols(r, s, k, &b, scol);
		if (!ret)
			ret = rep_cross_past(r, k, share);
		b.rows = 0;
	}
	free(b.sums);
	wfw_col_batch_free(&b);
	return ret ? ret : n < 0 ? (int)n : 0;
}
