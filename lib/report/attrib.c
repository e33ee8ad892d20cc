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

static int set_init(struct wfw_attrib_set *set, size_t keep)
{
	memset(set, 0, sizeof(*set));
	set->keep = keep;
	set->bins = calloc(WFW_ATTRIB_NBINS, sizeof(*set->bins));
	set->top = calloc(keep, sizeof(*set->top));
	if (!set->bins || !set->top)
		return -ENOMEM;
	for (size_t i = 0; i < WFW_ATTRIB_NBINS; i++) {
		set->bins[i].min = INFINITY;
		set->bins[i].max = -INFINITY;
	}
	return 0;
}

static void set_free(struct wfw_attrib_set *set)
{
	free(set->bins);
	free(set->top);
	set->bins = NULL;
	set->top = NULL;
}

int wfw_attrib_init(struct wfw_attrib *a, const char *latency)
{
	memset(a, 0, sizeof(*a));
	a->latency = latency;
	if (set_init(&a->all, WFW_ATTRIB_KEEP)) {
		wfw_attrib_free(a);
		return -ENOMEM;
	}
	return 0;
}

void wfw_attrib_free(struct wfw_attrib *a)
{
	set_free(&a->all);
	for (size_t g = 0; g < a->ngroups; g++)
		set_free(&a->groups[g].set);
	free(a->groups);
	free(a->gmap);
	a->groups = NULL;
	a->gmap = NULL;
	a->ngroups = a->ngmap = 0;
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
static bool wanted(const struct wfw_attrib_set *set, double lat)
{
	return set->ntop < set->keep || lat > set->top[0].x.lat;
}

static void keep(struct wfw_attrib_set *set, const struct wfw_attrib_row *r)
{
	if (set->ntop < set->keep) {
		set->top[set->ntop] = *r;
		sift_up(set->top, set->ntop++);
	} else if (before(r, &set->top[0])) {
		set->top[0] = *r;
		sift_down(set->top, set->ntop, 0);
	}
}

/* ---- the C-states' rows ---- */

/* The group of C-state `name`, made when new (NULL: beyond the cap, or no memory). */
static struct wfw_attrib_group *group_of(struct wfw_attrib *a, const char *name)
{
	struct wfw_attrib_group *g;

	for (size_t i = 0; i < a->ngroups; i++)
		if (!strcmp(a->groups[i].name, name))
			return &a->groups[i];
	if (a->ngroups == WFW_ATTRIB_GROUPS)
		return NULL;
	if (!a->groups) {
		a->groups = calloc(WFW_ATTRIB_GROUPS, sizeof(*a->groups));
		if (!a->groups)
			return NULL;
	}
	g = &a->groups[a->ngroups];
	g->name = name;
	if (set_init(&g->set, WFW_ATTRIB_GROUP_KEEP)) {
		set_free(&g->set);
		return NULL;
	}
	a->ngroups++;
	return g;
}

const struct wfw_attrib_set *wfw_attrib_group(const struct wfw_attrib *a,
					      const char *name)
{
	for (size_t i = 0; name && i < a->ngroups; i++)
		if (!strcmp(a->groups[i].name, name))
			return &a->groups[i].set;
	return NULL;
}

/*
 * ReqCState's names of the current schema -> group, looked up once a name
 * (the names only grow while one reader reads; a new array starts over).
 */
static void gmap_names(struct wfw_attrib *a, const struct wultfw_schema *s)
{
	const struct wultfw_column *col = a->cstate >= 0 ? &s->cols[a->cstate] : NULL;
	size_t n = col && col->type == WULTFW_COL_ENUM ? col->n_enum : 0;
	int *m;

	if (col && col->enum_names != a->gnames) {
		a->ngmap = 0;
		a->gnames = col->enum_names;
	}
	if (n <= a->ngmap)
		return;
	m = realloc(a->gmap, n * sizeof(*m));
	if (!m)
		return;		/* the rows of the new names go to no group */
	for (size_t i = a->ngmap; i < n; i++)
		m[i] = -2;
	a->gmap = m;
	a->ngmap = n;
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
		r->x.cnt[k] = num(at, a->cnt[k]);
	r->ltime_ns = num(at, a->ltime);
}

/* An explained row into its bin; do its parts add up (to 0.003)? */
static void bin_row(struct wfw_attrib_set *set, const struct wfw_attrib_row *r)
{
	struct wfw_attrib_bin *b = &set->bins[wfw_attrib_bin(r->x.lat)];
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
	set->explained++;
	set->mismatched += (uint64_t)llabs((long long)(sum - wfw_attrib_milli(r->x.lat))) > 3;
}

/* The set of the row's C-state, or NULL. */
static struct wfw_attrib_set *row_group(struct wfw_attrib *a, const struct at *at)
{
	int64_t i = a->cstate >= 0 ? cell(at, a->cstate).i : -1;
	struct wfw_attrib_group *g;

	if (i < 0 || (uint64_t)i >= a->ngmap)
		return NULL;
	if (a->gmap[i] == -2) {
		g = group_of(a, a->gnames[i]);
		a->gmap[i] = g ? (int)(g - a->groups) : -1;
	}
	if (a->gmap[i] < 0) {
		a->ungrouped++;
		return NULL;
	}
	return &a->groups[a->gmap[i]].set;
}

/*
 * A row whose latency and parts (NaN: empty) are read: binned, and kept
 * whole if among the largest (the rest of it read from at then), in all
 * rows and in its C-state's.
 */
static void add_row(struct wfw_attrib *a, const struct at *at, double lat,
		    const double *t)
{
	struct wfw_attrib_set *g;
	struct wfw_attrib_row r;
	bool all, own;

	if (!wfw_value_ok(lat)) {
		a->seen++;
		return;
	}
	g = row_group(a, at);
	a->all.values++;
	r.x.lat = lat;
	for (int c = 0; c < WFW_XP_NCAT; c++)
		r.x.t[c] = wfw_value_ok(t[c]) ? t[c] : NAN;
	if (wfw_xp_explained(&r.x)) {
		bin_row(&a->all, &r);
		if (g)
			bin_row(g, &r);
	}
	all = wanted(&a->all, lat);
	own = g && wanted(g, lat);
	if (all || own)
		whole_row(a, at, &r);
	if (all)
		keep(&a->all, &r);
	if (g) {
		g->values++;
		if (own)
			keep(g, &r);
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
	gmap_names(a, s);
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

static void set_merge(struct wfw_attrib_set *dst, const struct wfw_attrib_set *src,
		      uint64_t off)
{
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
}

void wfw_attrib_merge(struct wfw_attrib *dst, const struct wfw_attrib *src)
{
	uint64_t off = dst->row0 + dst->seen - src->row0;

	set_merge(&dst->all, &src->all, off);
	dst->ungrouped += src->ungrouped;
	for (size_t i = 0; i < src->ngroups; i++) {
		struct wfw_attrib_group *g = group_of(dst, src->groups[i].name);

		if (g)
			set_merge(&g->set, &src->groups[i].set, off);
		else
			dst->ungrouped += src->groups[i].set.values;
	}
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
	if (a->sorted)
		return;
	qsort(a->all.top, a->all.ntop, sizeof(*a->all.top), cmp_rows);
	for (size_t i = 0; i < a->ngroups; i++)
		qsort(a->groups[i].set.top, a->groups[i].set.ntop,
		      sizeof(*a->groups[i].set.top), cmp_rows);
	a->sorted = true;
}
