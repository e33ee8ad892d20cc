/* SPDX-License-Identifier: MIT */
/* A result's attribution while the report reads it (attrib.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/attrib.h"
#include "stats/stats.h"

#define COUNT_COLS_SMI 3	/* wfw_xp_count_cols[]'s SMICnt */

bool wfw_attrib_columns(const struct wultfw_schema *s, const char *latency)
{
	if (!latency || wfw_schema_find(s, latency) < 0 ||
	    wfw_schema_find(s, "Cause") < 0)
		return false;
	for (int c = 0; c < WFW_XP_NCAT; c++)
		if (wfw_schema_find(s, wfw_xp_time_cols[c]) < 0)
			return false;
	return true;
}

int wfw_attrib_init(struct wfw_attrib *a, const char *latency)
{
	memset(a, 0, sizeof(*a));
	a->latency = latency;
	a->bins = calloc(WFW_ATTRIB_NBINS, sizeof(*a->bins));
	a->top = calloc(WFW_ATTRIB_KEEP, sizeof(*a->top));
	if (!a->bins || !a->top) {
		wfw_attrib_free(a);
		return -ENOMEM;
	}
	for (size_t i = 0; i < WFW_ATTRIB_NBINS; i++) {
		a->bins[i].min = INFINITY;
		a->bins[i].max = -INFINITY;
	}
	return 0;
}

void wfw_attrib_free(struct wfw_attrib *a)
{
	free(a->bins);
	free(a->top);
	a->bins = NULL;
	a->top = NULL;
}

size_t wfw_attrib_bin(double v)
{
	float f = (float)v;
	uint32_t bits;

	if (!(f > 0))
		return 0;
	memcpy(&bits, &f, sizeof(bits));
	bits >>= 16;
	if (bits < WFW_ATTRIB_BIN_BASE)
		return 0;
	bits -= WFW_ATTRIB_BIN_BASE;
	return bits < WFW_ATTRIB_NBINS ? bits : WFW_ATTRIB_NBINS - 1;
}

double wfw_attrib_bin_lo(size_t i)
{
	uint32_t bits = (uint32_t)(i + WFW_ATTRIB_BIN_BASE) << 16;
	float f;

	if (!i)
		return 0;
	memcpy(&f, &bits, sizeof(f));
	return f;
}

uint64_t wfw_attrib_milli(double v)
{
	double m = v * 1000;

	if (!(m > -9e15 && m < 9e15))	/* NaN too: never for a kept value */
		m = m > 0 ? 9e15 : -9e15;
	return (uint64_t)(int64_t)(m + (m >= 0 ? 0.5 : -0.5));
}

/* Row a before row b when the largest come first (ties: the earlier row). */
static bool before(const struct wfw_attrib_row *a, const struct wfw_attrib_row *b)
{
	return a->x.lat > b->x.lat || (a->x.lat == b->x.lat && a->x.row < b->x.row);
}

/* ---- the kept rows: a heap whose root is the one to drop next ---- */

static void sift_down(struct wfw_attrib_row *h, size_t n, size_t i)
{
	for (;;) {
		size_t k = i, l = 2 * i + 1, r = l + 1;
		struct wfw_attrib_row t;

		if (l < n && before(&h[k], &h[l]))
			k = l;
		if (r < n && before(&h[k], &h[r]))
			k = r;
		if (k == i)
			return;
		t = h[i];
		h[i] = h[k];
		h[k] = t;
		i = k;
	}
}

static void sift_up(struct wfw_attrib_row *h, size_t i)
{
	while (i > 0 && before(&h[(i - 1) / 2], &h[i])) {
		struct wfw_attrib_row t = h[i];

		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* Would a row of latency lat (and a later index) be kept? */
static bool wanted(const struct wfw_attrib *a, double lat)
{
	return a->ntop < WFW_ATTRIB_KEEP || lat > a->top[0].x.lat;
}

static void keep(struct wfw_attrib *a, const struct wfw_attrib_row *r)
{
	if (a->ntop < WFW_ATTRIB_KEEP) {
		a->top[a->ntop] = *r;
		sift_up(a->top, a->ntop++);
	} else if (before(r, &a->top[0])) {
		a->top[0] = *r;
		sift_down(a->top, a->ntop, 0);
	}
}

/* ---- one row, whichever way the batch holds it ---- */

struct at {
	const struct wultfw_schema *s;
	const union wultfw_cell *row;	/* a row batch's row, or NULL */
	const struct wfw_col_batch *cb;	/* a column batch */
	size_t i;
};

static union wultfw_cell cell(const struct at *at, int c)
{
	return at->row ? at->row[c] : at->cb->col[c][at->i];
}

/* Column c as a number in its unit; NaN: empty, a name, or no column. */
static double num(const struct at *at, int c)
{
	const struct wultfw_column *col;
	union wultfw_cell v;

	if (c < 0)
		return NAN;
	col = &at->s->cols[c];
	v = cell(at, c);
	if (col->type == WULTFW_COL_ENUM)
		return NAN;
	if (at->row || col->type == WULTFW_COL_FLOAT || !at->cb->numbers)
		return wfw_cell_value(col, v);
	return v.f / (col->divisor ? col->divisor : 1);	/* numbers: .f is raw */
}

/* A name column's name, or NULL (empty, or not a name column). */
static const char *name(const struct at *at, int c)
{
	const struct wultfw_column *col;
	int64_t i;

	if (c < 0)
		return NULL;
	col = &at->s->cols[c];
	i = cell(at, c).i;
	if (col->type != WULTFW_COL_ENUM || i < 0 || (uint64_t)i >= col->n_enum)
		return NULL;
	return col->enum_names[i];
}

/* The whole row, to be kept. */
static void whole_row(const struct wfw_attrib *a, const struct at *at,
		      struct wfw_attrib_row *r)
{
	double pid = num(at, a->pid);

	r->x.cause = name(at, a->cause);
	r->x.pid = pid >= 0 && pid <= INT32_MAX ? (int64_t)pid : -1;
	r->x.cstate = name(at, a->cstate);
	r->x.row = a->row0 + a->seen;
	for (int k = 0; k < WFW_XP_NCNT; k++)
		r->cnt[k] = num(at, a->cnt[k]);
	r->ltime_ns = num(at, a->ltime);
}

/* An explained row into its bin; do its parts add up (to 0.003)? */
static void bin_row(struct wfw_attrib *a, const struct wfw_attrib_row *r)
{
	struct wfw_attrib_bin *b = &a->bins[wfw_attrib_bin(r->x.lat)];
	uint64_t sum = 0;

	b->n++;
	b->lat += wfw_attrib_milli(r->x.lat);
	if (r->x.lat < b->min)
		b->min = r->x.lat;
	if (r->x.lat > b->max)
		b->max = r->x.lat;
	for (int c = 0; c < WFW_XP_NCAT; c++) {
		uint64_t m = wfw_attrib_milli(r->x.t[c]);

		b->t[c] += m;
		sum += m;
	}
	a->explained++;
	a->mismatched += (uint64_t)llabs((long long)(sum - wfw_attrib_milli(r->x.lat))) > 3;
}

/*
 * A row whose latency and parts (NaN: empty) are read: binned, and kept
 * whole if among the largest (the rest of it read from at then).
 */
static void add_row(struct wfw_attrib *a, const struct at *at, double lat,
		    const double *t)
{
	struct wfw_attrib_row r;

	if (!wfw_value_ok(lat)) {
		a->seen++;
		return;
	}
	a->values++;
	r.x.lat = lat;
	for (int c = 0; c < WFW_XP_NCAT; c++)
		r.x.t[c] = wfw_value_ok(t[c]) ? t[c] : NAN;
	if (wfw_xp_explained(&r.x))
		bin_row(a, &r);
	if (wanted(a, lat)) {
		whole_row(a, at, &r);
		keep(a, &r);
	}
	a->seen++;
}

/* The columns of s (a one-pass reader's types change between batches). */
static void map(struct wfw_attrib *a, const struct wultfw_schema *s)
{
	a->lat = wfw_schema_find(s, a->latency);
	for (int c = 0; c < WFW_XP_NCAT; c++)
		a->t[c] = wfw_schema_find(s, wfw_xp_time_cols[c]);
	for (int k = 0; k < WFW_XP_NCNT; k++)
		a->cnt[k] = wfw_schema_find(s, wfw_xp_count_cols[k]);
	a->smi = a->cnt[COUNT_COLS_SMI] >= 0;
	a->cause = wfw_schema_find(s, "Cause");
	a->pid = wfw_schema_find(s, "CausePID");
	a->cstate = wfw_schema_find(s, "ReqCState");
	a->ltime = wfw_schema_find(s, "LTime");
}

void wfw_attrib_want(struct wfw_attrib *a, const struct wultfw_schema *s,
		     bool *want)
{
	int cols[5];

	map(a, s);
	cols[0] = a->lat;
	cols[1] = a->cause;
	cols[2] = a->pid;
	cols[3] = a->cstate;
	cols[4] = a->ltime;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (cols[i] >= 0)
			want[cols[i]] = true;
	for (int c = 0; c < WFW_XP_NCAT; c++)
		if (a->t[c] >= 0)
			want[a->t[c]] = true;
	for (int k = 0; k < WFW_XP_NCNT; k++)
		if (a->cnt[k] >= 0)
			want[a->cnt[k]] = true;
}

void wfw_attrib_rows(struct wfw_attrib *a, const struct wultfw_schema *s,
		     const struct wultfw_batch *b)
{
	struct at at = { .s = s };
	double t[WFW_XP_NCAT];

	map(a, s);
	for (size_t i = 0; i < b->rows; i++) {
		at.row = wultfw_crow(b, i);
		for (int c = 0; c < WFW_XP_NCAT; c++)
			t[c] = num(&at, a->t[c]);
		add_row(a, &at, num(&at, a->lat), t);
	}
}

/* A column of a column batch as numbers: raw cells and their divisor. */
struct numcol {
	const union wultfw_cell *v;	/* NULL: NaN (none, or names) */
	double div;
};

static struct numcol numcol(const struct wultfw_schema *s,
			    const struct wfw_col_batch *b, int c)
{
	const struct wultfw_column *col = c >= 0 ? &s->cols[c] : NULL;
	struct numcol n = { .div = 1 };

	if (!col || col->type == WULTFW_COL_ENUM || !b->col[c])
		return n;
	n.v = b->col[c];
	if (col->type == WULTFW_COL_INT && col->divisor)
		n.div = (double)col->divisor;
	return n;
}

static inline double numcol_at(const struct numcol *n, size_t i)
{
	return n->v ? n->v[i].f / n->div : NAN;
}

void wfw_attrib_cols(struct wfw_attrib *a, const struct wultfw_schema *s,
		     const struct wfw_col_batch *b)
{
	struct at at = { .s = s, .cb = b };
	struct numcol lat, t[WFW_XP_NCAT];
	double v[WFW_XP_NCAT];

	map(a, s);
	if (!b->numbers) {	/* cells as stored: read through num() */
		for (at.i = 0; at.i < b->rows; at.i++) {
			for (int c = 0; c < WFW_XP_NCAT; c++)
				v[c] = num(&at, a->t[c]);
			add_row(a, &at, num(&at, a->lat), v);
		}
		return;
	}
	lat = numcol(s, b, a->lat);
	for (int c = 0; c < WFW_XP_NCAT; c++)
		t[c] = numcol(s, b, a->t[c]);
	for (at.i = 0; at.i < b->rows; at.i++) {
		for (int c = 0; c < WFW_XP_NCAT; c++)
			v[c] = numcol_at(&t[c], at.i);
		add_row(a, &at, numcol_at(&lat, at.i), v);
	}
}

void wfw_attrib_merge(struct wfw_attrib *dst, const struct wfw_attrib *src)
{
	uint64_t off = dst->row0 + dst->seen - src->row0;

	for (size_t i = 0; i < WFW_ATTRIB_NBINS; i++) {
		struct wfw_attrib_bin *d = &dst->bins[i];
		const struct wfw_attrib_bin *s = &src->bins[i];

		d->n += s->n;
		d->lat += s->lat;
		for (int c = 0; c < WFW_XP_NCAT; c++)
			d->t[c] += s->t[c];
		d->min = fmin(d->min, s->min);
		d->max = fmax(d->max, s->max);
	}
	for (size_t i = 0; i < src->ntop; i++) {
		struct wfw_attrib_row r = src->top[i];

		r.x.row += off;
		keep(dst, &r);
	}
	dst->values += src->values;
	dst->explained += src->explained;
	dst->mismatched += src->mismatched;
	dst->seen += src->seen;
	dst->smi |= src->smi;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct wfw_attrib_row *a = pa, *b = pb;

	return before(a, b) ? -1 : before(b, a);
}

void wfw_attrib_finish(struct wfw_attrib *a)
{
	if (!a->sorted)
		qsort(a->top, a->ntop, sizeof(*a->top), cmp_rows);
	a->sorted = true;
}
