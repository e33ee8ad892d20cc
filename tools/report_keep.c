/* SPDX-License-Identifier: MIT */
/*
 * The rows a report keeps, in memory that does not grow with the file:
 * every row up to WFW_REPORT_KEEP_ROWS, then a uniform sample of
 * WFW_REPORT_SAMPLE_ROWS; and per metric its largest rows, exactly.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_load.h"

const char *const rep_timeline_col = "LTime";

/*
 * One kept cell as a float: LTime (CLOCK_MONOTONIC ns, too large for a
 * float's precision) as ns after the first row's.
 */
static float kept_value(struct wfw_rep_result *r, size_t c,
			const struct wultfw_column *col, union wultfw_cell cell)
{
	double v = wfw_cell_value(col, cell);

	if (r->colnames[c] != rep_timeline_col)
		return wfw_rep_float(v);
	if (!r->nsel && !r->time0_ns && wfw_value_ok(v))
		r->time0_ns = v;
	return wfw_rep_float(v - r->time0_ns);
}


/* Room for rows up to `need` (at most the sample's size). */
int rep_keep_grow(struct wfw_rep_result *r, struct rep_keep *k, size_t need)
{
	size_t ncap = (k->cap ? k->cap * 2 : 65536) + need;
	int32_t *st;

	if (need > k->res.cap)
		need = k->res.cap;
	if (need <= k->cap)
		return 0;
	if (ncap > k->res.cap)
		ncap = k->res.cap;
	st = realloc(r->state, ncap * sizeof(*st));
	if (!st)
		return -ENOMEM;
	r->state = st;
	for (size_t c = 0; c < r->ncols; c++) {
		float *v;

		if (k->kcol[c] < 0)
			continue;
		v = realloc(r->vals[c], ncap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		r->vals[c] = v;
	}
	k->cap = ncap;
	return 0;
}

/* The batch's schema columns of r's kept columns (a type may change). */
void rep_keep_map(struct wfw_rep_result *r, const struct wultfw_schema *s,
		  struct rep_keep *k)
{
	for (size_t c = 0; c < r->ncols; c++) {
		int i = wfw_schema_find(s, r->colnames[c]);

		k->kcol[c] = i >= 0 && s->cols[i].type != WULTFW_COL_ENUM ? i : -1;
	}
}

/* The row's kept columns into k->row. */
static void row_values(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       const struct rep_keep *k, const union wultfw_cell *cells)
{
	for (size_t c = 0; c < r->ncols; c++)
		k->row[c] = k->kcol[c] < 0 ? NAN :
			kept_value(r, c, &s->cols[k->kcol[c]], cells[k->kcol[c]]);
}

static int32_t row_state(int scol, const union wultfw_cell *cells)
{
	return scol >= 0 ? (int32_t)cells[scol].i : -1;
}

/* wfw_cell_value() as a float, inline: it runs on every row. */
static inline float cell_float(const struct wultfw_column *col,
			       union wultfw_cell c)
{
	if (col->type == WULTFW_COL_FLOAT)
		return wfw_rep_float(c.f);
	if (col->type != WULTFW_COL_INT)
		return (float)c.i;
	if (c.i == WULTFW_CELL_EMPTY)
		return NAN;
	return (float)((double)c.i / (col->divisor ? col->divisor : 1));
}

/*
 * The batch's rows into metric m's tail, its largest rows: one
 * comparison a row, the whole row read only for the few kept.
 */
static void batch_tail(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       const struct rep_keep *k, int scol,
		       const struct wultfw_batch *b, size_t m)
{
	struct wfw_topk *t = &r->tails[m];
	size_t ci = (size_t)k->kcol[m];
	const struct wultfw_column *col = &s->cols[ci];

	for (size_t i = 0; i < b->rows; i++) {
		const union wultfw_cell *cells = wultfw_crow(b, i);
		float v = cell_float(col, cells[ci]);

		if (!wfw_topk_wants(t, v))
			continue;
		row_values(r, s, k, cells);
		wfw_topk_add(t, v, k->row, row_state(scol, cells));
	}
}

/*
 * The statistics keep values for exact percentiles up to the cap in all:
 * past it, a result is sampled and its percentiles come from histograms.
 */
static void drop_exact(struct wfw_statset *set)
{
	set->exact_limit = 0;
	for (size_t i = 0; i < set->nmetrics * set->gcap; i++)
		set->acc[i].exact_limit = 0;
}

/* Row `from` of src (or dst itself) into row `to` of dst. */
void rep_move_row(struct wfw_rep_result *dst, const struct wfw_rep_result *src,
		     size_t from, size_t to, const int32_t *map)
{
	for (size_t c = 0; c < dst->ncols; c++)
		if (dst->vals[c])
			dst->vals[c][to] = src->vals[c][from];
	dst->state[to] = map ? rep_mapped(map, src->state[from]) : src->state[from];
}

/*
 * Over the cap: the statistics' percentiles from histograms from now on,
 * and the sample down to WFW_REPORT_SAMPLE_ROWS (uniformly).
 */
int rep_cross_cap(struct wfw_rep_result *r, struct rep_keep *k)
{
	size_t m = wfw_reservoir_shrink(&k->res, WFW_REPORT_SAMPLE_ROWS);
	size_t need = m, left = r->nrows, j = 0;

	r->sampled = true;
	drop_exact(&r->set);
	for (size_t i = 0; i < r->nrows; i++)	/* moving down, in place */
		if (wfw_pick_next(&k->res.rng, &need, &left))
			rep_move_row(r, r, i, j++, NULL);
	r->nrows = m;
	for (size_t c = 0; c < r->ncols; c++) {
		float *v = r->vals[c] ? realloc(r->vals[c], (m + 1) * sizeof(*v)) : NULL;

		r->vals[c] = v ? v : r->vals[c];
	}
	k->cap = m;
	return 0;
}

int rep_cross_past(struct wfw_rep_result *r, struct rep_keep *k, uint64_t share)
{
	if (r->nsel <= share || k->exact_dropped)
		return 0;
	k->exact_dropped = true;
	if (!k->planned)
		return rep_cross_cap(r, k);
	drop_exact(&r->set);	/* a planned sample is the size it ends at */
	return 0;
}

/* Row i of the batch into slot `slot` of the sample, and the tails. */
static void take_row(struct wfw_rep_result *r, const struct wultfw_schema *s,
		     int scol, const union wultfw_cell *cells,
		     const struct rep_keep *k, size_t slot)
{
	row_values(r, s, k, cells);
	for (size_t c = 0; c < r->ncols; c++)
		if (r->vals[c])
			r->vals[c][slot] = k->row[c];
	r->state[slot] = row_state(scol, cells);
	if (slot == r->nrows)
		r->nrows++;
}

/* Keep the batch's rows: into the sample, and into the tails. */
int rep_keep_rows(struct wfw_rep_result *r, const struct wultfw_schema *s,
		     int scol, const struct wultfw_batch *b, struct rep_keep *k)
{
	size_t i = 0;
	int ret;

	rep_keep_map(r, s, k);
	ret = rep_keep_grow(r, k, r->nrows + b->rows);
	while (i < b->rows && !ret) {
		uint64_t skip = wfw_reservoir_skip(&k->res, b->rows - i);

		wfw_reservoir_skipped(&k->res, skip);
		i += (size_t)skip;
		if (i < b->rows) {
			take_row(r, s, scol, wultfw_crow(b, i), k,
				 wfw_reservoir_take(&k->res));
			i++;
		}
	}
	for (size_t m = 0; m < r->ntails && !ret; m++)
		if (k->kcol[m] >= 0)
			batch_tail(r, s, k, scol, b, m);
	if (r->attrib && !ret)
		wfw_attrib_rows(r->attrib, s, b);
	r->nsel += b->rows;
	return ret;
}

int rep_keep_init(struct wfw_rep_result *r, struct rep_keep *k, uint64_t seed)
{
	wfw_reservoir_init(&k->res, WFW_REPORT_KEEP_ROWS, seed);
	k->kcol = calloc(r->ncols + 1, sizeof(*k->kcol));
	k->row = calloc(r->ncols + 1, sizeof(*k->row));
	k->src = calloc(r->ncols + 1, sizeof(*k->src));
	k->div = calloc(r->ncols + 1, sizeof(*k->div));
	r->tails = calloc(r->ntails + 1, sizeof(*r->tails));
	if (!k->kcol || !k->row || !k->src || !k->div || !r->tails)
		return -ENOMEM;
	for (size_t m = 0; m < r->ntails; m++)
		if (wfw_topk_init(&r->tails[m], WFW_REPORT_TAIL_POINTS, r->ncols))
			return -ENOMEM;
	return 0;
}

void rep_keep_free(struct rep_keep *k)
{
	free(k->kcol);
	free(k->row);
	free(k->src);
	free(k->div);
}

/* The kept rows, tails and statistics of r (not its file's info). */
void rep_free_kept(struct wfw_rep_result *r)
{
	if (r->have_set)
		wfw_statset_free(&r->set);
	r->have_set = false;
	for (size_t k = 0; r->vals && k < r->ncols; k++)
		free(r->vals[k]);
	free(r->vals);
	free(r->colnames);
	free(r->units);
	free(r->state);
	for (size_t m = 0; r->tails && m < r->ntails; m++)
		wfw_topk_free(&r->tails[m]);
	free(r->tails);
	r->vals = NULL;
	r->colnames = r->units = NULL;
	r->state = NULL;
	r->tails = NULL;
}

