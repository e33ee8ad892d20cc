/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/cstate.h"
#include "stats/statset.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * Numbers that are no measure: timestamps, and identifiers (CausePID, a
 * thread's pid): left out of the default metrics, computed when named.
 */
static bool not_a_measure(const char *name)
{
	static const char *const labels[] = { "LTime", "TBI", "TAI", "TIntr", "CausePID" };

	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (!strcmp(name, labels[i]))
			return true;
	return false;
}

static bool wanted(const struct wfw_statset_cfg *cfg, const char *name)
{
	if (!cfg->metrics || !cfg->nmetrics)
		return !not_a_measure(name);
	for (size_t i = 0; i < cfg->nmetrics; i++)
		if (!fnmatch(cfg->metrics[i], name, 0))
			return true;
	return false;
}

/* The ENUM column called cfg->group_by, or -1. */
static int group_column(const struct wultfw_schema *schema,
			const struct wfw_statset_cfg *cfg)
{
	if (!cfg->group_by || !*cfg->group_by)
		return -1;
	for (size_t c = 0; c < schema->ncols; c++)
		if (schema->cols[c].type == WULTFW_COL_ENUM &&
		    !strcmp(schema->cols[c].name, cfg->group_by))
			return (int)c;
	return -1;
}

/* Numeric columns asked for, and with pending_text the empty text ones. */
static bool is_metric(const struct wfw_statset *s, const struct wfw_statset_cfg *cfg,
		      size_t c)
{
	const struct wultfw_column *col = &s->schema->cols[c];
	bool pending = cfg->pending_text && col->type == WULTFW_COL_ENUM &&
		       !col->n_enum && (int)c != s->gcol;

	return (col->type != WULTFW_COL_ENUM || pending) && wanted(cfg, col->name);
}

static int alloc_metrics(struct wfw_statset *s)
{
	size_t nacc = s->nmetrics * s->gcap;

	s->acc = calloc(nacc, sizeof(*s->acc));
	s->nans = calloc(s->nmetrics, sizeof(*s->nans));
	s->empties = calloc(s->nmetrics, sizeof(*s->empties));
	s->outs = calloc(s->nmetrics, sizeof(*s->outs));
	s->mtype = calloc(s->nmetrics, sizeof(*s->mtype));
	s->mdiv = calloc(s->nmetrics, sizeof(*s->mdiv));
	s->gcount = calloc(s->gcap, sizeof(*s->gcount));
	s->is_staged = calloc(s->gcap, sizeof(*s->is_staged));
	s->staged = malloc(s->gcap * sizeof(*s->staged));
	s->pool = calloc(s->nmetrics, sizeof(*s->pool));
	s->settled = calloc(s->nmetrics, sizeof(*s->settled));
	if (!s->acc || !s->nans || !s->empties || !s->outs || !s->mtype || !s->mdiv ||
	    !s->gcount || !s->is_staged || !s->staged || !s->pool || !s->settled)
		return -ENOMEM;
	for (size_t m = 0; m < s->nmetrics; m++) {
		const struct wultfw_column *col = &s->schema->cols[s->mcol[m]];

		s->mtype[m] = (int)col->type;
		s->mdiv[m] = col->divisor;
		for (size_t g = 0; g < s->gcap; g++)
			wfw_acc_init(&s->acc[m * s->gcap + g], s->exact_limit,
				     col->type == WULTFW_COL_INT);
		wfw_acc_pool_init(&s->pool[m], s->budget, s->exact_limit,
				  &s->acc[m * s->gcap], s->gcap);
	}
	return 0;
}

struct named {
	const char *name;
	size_t g;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int d = wfw_cstate_cmp(x->name, y->name);

	return d ? d : (x->g > y->g) - (x->g < y->g);
}

/* s->gorder: the groups in wfw_cstate_cmp() order. */
static int sort_groups(struct wfw_statset *s)
{
	size_t *o = realloc(s->gorder, s->ngroups * sizeof(*o));
	struct named *v = malloc(s->ngroups * sizeof(*v));

	if (o)
		s->gorder = o;
	if (!o || !v) {
		free(v);
		return -ENOMEM;
	}
	for (size_t g = 0; g < s->ngroups; g++)
		v[g] = (struct named){ wfw_statset_group_name(s, g), g };
	qsort(v, s->ngroups, sizeof(*v), cmp_named);
	for (size_t i = 0; i < s->ngroups; i++)
		o[i] = v[i].g;
	free(v);
	__atomic_store_n(&s->gsorted, true, __ATOMIC_RELEASE);
	return 0;
}

/* One sort at a time: report's threads ask a finished statset together. */
static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Sorted when first asked after the groups changed, not per new name
 * (a CSV file names its groups as rows come). Out of memory: file order.
 */
static const size_t *group_order(const struct wfw_statset *s)
{
	if (!__atomic_load_n(&s->gsorted, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&sort_lock);
		if (!s->gsorted)
			sort_groups((struct wfw_statset *)s);
		pthread_mutex_unlock(&sort_lock);
	}
	return __atomic_load_n(&s->gsorted, __ATOMIC_ACQUIRE) ? s->gorder : NULL;
}

size_t wfw_statset_group_find(const struct wfw_statset *s, const char *name)
{
	size_t lo = 0, hi = s->ngroups;
	const size_t *order = group_order(s);

	if (!order)
		return SIZE_MAX;
	while (lo < hi) {	/* the first in order not before name */
		size_t mid = lo + (hi - lo) / 2;

		if (wfw_cstate_cmp(wfw_statset_group_name(s, order[mid]), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->ngroups && !strcmp(wfw_statset_group_name(s, order[lo]), name))
		return order[lo];
	return SIZE_MAX;
}

size_t wfw_statset_group_at(const struct wfw_statset *s, size_t i)
{
	const size_t *order = group_order(s);

	return order ? order[i] : i;
}

int wfw_statset_init(struct wfw_statset *s, const struct wultfw_schema *schema,
		     const struct wfw_statset_cfg *cfg, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->schema = schema;
	s->gcol = group_column(schema, cfg);
	s->ngroups = s->gcol < 0 ? 1 : schema->cols[s->gcol].n_enum + 1;
	s->gcap = s->ngroups;
	s->mcol = calloc(schema->ncols ? schema->ncols : 1, sizeof(*s->mcol));
	if (!s->mcol)
		return -ENOMEM;
	for (size_t c = 0; c < schema->ncols; c++)
		if (is_metric(s, cfg, c))
			s->mcol[s->nmetrics++] = c;
	if (!s->nmetrics) {
		snprintf(err, errlen, "no numeric column matches the metrics asked for");
		wfw_statset_free(s);
		return -ENOENT;
	}
	/*
	 * Each metric's share of the memory for kept values, shared by its
	 * groups however many names the group column has (a binary file
	 * keeps names no row uses; a CSV file's names come as rows do).
	 */
	s->budget = cfg->exact_memory / sizeof(double) / s->nmetrics;
	s->exact_limit = cfg->exact_limit < s->budget ? cfg->exact_limit : s->budget;
	s->mem_limit = cfg->mem_limit;
	if (alloc_metrics(s) || wfw_statset_choose_sketch(s)) {
		wfw_statset_free(s);
		return -ENOMEM;
	}
	return 0;
}

void wfw_statset_free(struct wfw_statset *s)
{
	if (s->acc)
		for (size_t i = 0; i < s->nmetrics * s->gcap; i++)
			wfw_acc_free(&s->acc[i]);
	free(s->acc);
	free(s->pool);
	free(s->settled);
	free(s->mcol);
	free(s->nans);
	free(s->empties);
	free(s->outs);
	free(s->mtype);
	free(s->mdiv);
	free(s->order);
	free(s->slot);
	free(s->touched);
	free(s->tstart);
	free(s->tcount);
	free(s->staged);
	free(s->is_staged);
	free(s->colp);
	free(s->smms);
	free(s->gcount);
	free(s->gorder);
	for (size_t g = 0; s->gmerged && g < s->ngroups; g++)
		free(s->gmerged[g]);
	free(s->gmerged);
	memset(s, 0, sizeof(*s));
	s->gcol = -1;
}

/*
 * Rows per pass: a chunk's cells stay in the L1 cache for every metric,
 * and its values fit the room an accumulator's stage has.
 */
#define CHUNK_ROWS WFW_ACC_STAGE_ROOM

static int ensure_scratch(struct wfw_statset *s, size_t ncols)
{
	if (ncols > s->ncolp) {
		free(s->colp);
		s->colp = malloc(ncols * sizeof(*s->colp));
		s->ncolp = s->colp ? ncols : 0;
		if (!s->colp)
			return -ENOMEM;
	}
	if (!s->order) {	/* a chunk's worth each, however many groups */
		s->order = malloc(CHUNK_ROWS * sizeof(*s->order));
		s->slot = malloc(CHUNK_ROWS * sizeof(*s->slot));
		s->touched = malloc(CHUNK_ROWS * sizeof(*s->touched));
		s->tstart = malloc(CHUNK_ROWS * sizeof(*s->tstart));
		s->tcount = malloc(CHUNK_ROWS * sizeof(*s->tcount));
	}
	return s->order && s->slot && s->touched && s->tstart && s->tcount ? 0 : -ENOMEM;
}

/* Rare: some cells are empty. Keep the others. */
static size_t compact_int(double *t, const union wultfw_cell *col, size_t st,
			  const uint32_t *order, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t v = col[order ? order[i] : i * st].i;

		t[k] = (double)v;
		k += v != WULTFW_CELL_EMPTY;
	}
	return k;
}

/*
 * INT cells as doubles, empty cells left out; returns how many kept. The
 * common case, no empty cell, copies without a data dependency on a count:
 * one loop with an order and one without, so no test is made per cell.
 */
static size_t gather_int(double *t, const union wultfw_cell *col, size_t st,
			 const uint32_t *order, size_t n)
{
	bool empty = false;

	if (order) {
		for (size_t i = 0; i < n; i++) {
			int64_t v = col[order[i]].i;

			t[i] = (double)v;
			empty |= v == WULTFW_CELL_EMPTY;
		}
	} else {
		for (size_t i = 0; i < n; i++) {
			int64_t v = col[i * st].i;

			t[i] = (double)v;
			empty |= v == WULTFW_CELL_EMPTY;
		}
	}
	return empty ? compact_int(t, col, st, order, n) : n;
}

/*
 * Numbers of a column of their own, no order (the common chunk of
 * wfw_statset_add_nums()): a copy into t, values statistics leave out
 * (wfw_value_ok(): NaN, the infinities, beyond FLT_MAX) noted on the
 * way; with t NULL only the look for them (inlined, so each use gets its
 * own loop).
 */
static inline bool copy_nums(double *t, const union wultfw_cell *col, size_t n)
{
	size_t i = 0;
	bool bad = false;
#ifdef __SSE2__
	const __m128d mag = _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX));
	const __m128d lim = _mm_set1_pd(WFW_VALUE_MAX);
	__m128d any = _mm_setzero_pd();

	for (; i + 2 <= n; i += 2) {
		__m128d v = _mm_loadu_pd(&col[i].f);

		if (t)
			_mm_storeu_pd(t + i, v);
		/* |v| > lim, or unordered (NaN) */
		any = _mm_or_pd(any, _mm_cmpnle_pd(_mm_and_pd(v, mag), lim));
	}
	bad = _mm_movemask_pd(any) != 0;
#endif
	for (; i < n; i++) {
		if (t)
			t[i] = col[i].f;
		bad |= !wfw_value_ok(col[i].f);
	}
	return bad;
}

/*
 * FLOAT cells, those statistics leave out (wfw_value_ok(): NaN, the
 * empty cells among them, the infinities, beyond FLT_MAX) dropped.
 */
static size_t gather_float(double *t, const union wultfw_cell *col, size_t st,
			   const uint32_t *order, size_t n)
{
	bool bad = false;
	size_t k = 0;

	if (order) {
		for (size_t i = 0; i < n; i++) {
			t[i] = col[order[i]].f;
			bad |= !wfw_value_ok(t[i]);
		}
	} else if (st == 1) {
		bad = copy_nums(t, col, n);
	} else {
		for (size_t i = 0; i < n; i++) {
			t[i] = col[i * st].f;
			bad |= !wfw_value_ok(t[i]);
		}
	}
	if (!bad)
		return n;
	for (size_t i = 0; i < n; i++) {	/* rare: drop them */
		t[k] = t[i];
		k += wfw_value_ok(t[i]);
	}
	return k;
}

/* Why each of cells [0, n) was left out: empty, NaN or out of range. */
static void count_left_out(struct wfw_statset *s, size_t m,
			   const union wultfw_cell *col, size_t st,
			   const uint32_t *order, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		union wultfw_cell c = col[order ? order[i] : i * st];

		if (c.i == WULTFW_FLOAT_EMPTY_BITS)
			s->empties[m]++;
		else if (isnan(c.f))
			s->nans[m]++;
		else if (!wfw_value_ok(c.f))
			s->outs[m]++;
	}
}

/*
 * Copy cells [0, n) of metric m's column `col` (stride `st` cells), or
 * those at the cell offsets in `order`, into t as doubles, dropping empty
 * cells, NaNs and values out of range (counted). Returns how many were
 * kept.
 */
static size_t gather(struct wfw_statset *s, size_t m, double *t,
		     const union wultfw_cell *col, size_t st,
		     const uint32_t *order, size_t n)
{
	size_t k;

	if (s->nums && s->may_nan && !s->may_nan[s->mcol[m]] && order) {
		for (size_t i = 0; i < n; i++)	/* nothing to drop: a copy */
			t[i] = col[order[i]].f;
		return n;
	}
	/* With s->nums an INT column's empty cells are the empty NaN. */
	if (s->mtype[m] == WULTFW_COL_INT && !s->nums) {
		k = gather_int(t, col, st, order, n);
		s->empties[m] += n - k;
		return k;
	}
	k = gather_float(t, col, st, order, n);
	if (k != n)	/* rare */
		count_left_out(s, m, col, st, order, n);
	return k;
}

/* Slot g has values staged in this batch: flushed at its end. */
static void mark_staged(struct wfw_statset *s, uint32_t g)
{
	if (!s->is_staged[g]) {
		s->is_staged[g] = 1;
		s->staged[s->nstaged++] = g;
	}
}

/*
 * The chunk's rows per group, as cell offsets (row * stride, so that
 * gathering by them multiplies nothing), by a counting sort over the
 * slots the chunk has rows of, never over all groups: slot touched[i] has
 * tcount[i] rows at order + tstart[i]. True if only one group has rows
 * (*only: its slot).
 */
static bool group_rows(struct wfw_statset *s, const union wultfw_cell *gc,
		       size_t st, size_t n, size_t *only)
{
	uint64_t last = s->ngroups - 1;
	uint32_t dash = (uint32_t)(s->gcap - 1), *cnt = s->gcount, at = 0;
	size_t nt = 0;

	for (size_t r = 0; r < n; r++) {
		uint64_t e = (uint64_t)gc[r * st].i;	/* below 0: above last */
		uint32_t g = e < last ? (uint32_t)e : dash;

		s->slot[r] = g;
		if (!cnt[g]++)
			s->touched[nt++] = g;
	}
	for (size_t i = 0; i < nt; i++) {
		uint32_t g = s->touched[i];

		s->tstart[i] = at;
		s->tcount[i] = cnt[g];
		at += cnt[g];
		cnt[g] = s->tstart[i];	/* now where its next row goes */
		mark_staged(s, g);
	}
	for (size_t r = 0; r < n; r++)
		s->order[cnt[s->slot[r]]++] = (uint32_t)(r * st);
	for (size_t i = 0; i < nt; i++)
		cnt[s->touched[i]] = 0;
	s->ntouched = nt;
	*only = s->touched[0];
	return nt == 1;
}

/* *p grown to n elements of size sz, the new ones zero. */
static int grow_zeroed(void *p, size_t old, size_t n, size_t sz)
{
	char *q = realloc(*(void **)p, n * sz);

	if (!q)
		return -ENOMEM;
	memset(q + old * sz, 0, (n - old) * sz);
	*(void **)p = q;
	return 0;
}

/*
 * Metric m's block of accumulators moved from m * old to m * cap, "-"
 * from its slot old - 1 to cap - 1, the slots between new and empty.
 */
static void move_block(struct wfw_statset *s, size_t m, size_t old, size_t cap)
{
	size_t live = s->ngroups - 1;
	struct wfw_acc *src = &s->acc[m * old], *dst = &s->acc[m * cap];
	struct wfw_acc dash = src[old - 1];

	memmove(dst, src, live * sizeof(*dst));
	for (size_t g = live; g < cap - 1; g++)
		wfw_acc_init(&dst[g], s->exact_limit, s->mtype[m] == WULTFW_COL_INT);
	dst[cap - 1] = dash;
}

/*
 * Per-slot arrays for cap slots. Grown in place (realloc): a large
 * block is remapped, not copied, so a million groups never have their
 * accumulators twice, as a new array beside the old one had them (a
 * third of calc -g's peak). The blocks move up in it, the last first,
 * so that none lands on one not yet moved.
 */
static int grow_slots(struct wfw_statset *s, size_t cap)
{
	size_t old = s->gcap, nm = s->nmetrics;
	uint32_t *staged;

	if (cap > SIZE_MAX / sizeof(struct wfw_acc) / nm || cap > UINT32_MAX)
		return -ENOMEM;
	staged = realloc(s->staged, cap * sizeof(*staged));
	if (staged)
		s->staged = staged;
	if (!staged || grow_zeroed(&s->gcount, old, cap, sizeof(*s->gcount)) ||
	    grow_zeroed(&s->is_staged, old, cap, sizeof(*s->is_staged)) ||
	    (s->gmerged && grow_zeroed(&s->gmerged, old, cap, sizeof(*s->gmerged))) ||
	    grow_zeroed(&s->acc, nm * old, nm * cap, sizeof(*s->acc)))
		return -ENOMEM;
	/* "-" moves: nothing is staged between batches, nor counted */
	memset(s->gcount, 0, cap * sizeof(*s->gcount));
	memset(s->is_staged, 0, cap * sizeof(*s->is_staged));
	s->nstaged = 0;
	for (size_t m = nm; m-- > 0;)
		move_block(s, m, old, cap);
	for (size_t m = 0; m < nm; m++)
		wfw_acc_pool_init(&s->pool[m], s->budget, s->exact_limit,
				  &s->acc[m * cap], cap);
	s->gcap = cap;
	return 0;
}

/*
 * The group column got names: one group per name, "-" stays last. The
 * slots between are empty accumulators already: only past them do the
 * arrays move, doubling.
 */
static int grow_groups(struct wfw_statset *s, size_t ng)
{
	size_t more = s->gcap + s->gcap / 4;	/* not doubled: less to spare */

	if (ng > s->gcap && grow_slots(s, ng > more ? ng : more))
		return -ENOMEM;
	s->ngroups = ng;
	s->gsorted = false;
	/* the caller names the new groups */
	return wfw_statset_choose_sketch(s);
}

/* Metric m's column changed type: convert what it holds. */
static int retype_metric(struct wfw_statset *s, size_t m,
			 const struct wultfw_column *col)
{
	double from = s->mtype[m] == WULTFW_COL_INT && s->mdiv[m] ? s->mdiv[m] : 1;
	double to = col->type == WULTFW_COL_INT && col->divisor ? col->divisor : 1;
	bool ints = col->type == WULTFW_COL_INT;

	s->mtype[m] = (int)col->type;
	s->mdiv[m] = col->divisor;
	for (size_t g = 0; g < s->gcap; g++)	/* empty slots too: their kind */
		if (wfw_acc_scale(&s->acc[m * s->gcap + g], to, from, ints))
			return -ENOMEM;
	return 0;
}

int wfw_statset_sync(struct wfw_statset *s)
{
	const struct wultfw_column *cols = s->schema->cols;

	if (s->gcol >= 0 && cols[s->gcol].n_enum + 1 > s->ngroups &&
	    grow_groups(s, cols[s->gcol].n_enum + 1))
		return -ENOMEM;
	for (size_t m = 0; m < s->nmetrics; m++) {
		const struct wultfw_column *col = &cols[s->mcol[m]];

		if ((int)col->type == s->mtype[m] && col->divisor == s->mdiv[m])
			continue;
		if (retype_metric(s, m, col))
			return -ENOMEM;
	}
	return 0;
}

bool wfw_statset_pending(const struct wfw_statset *s, size_t m)
{
	return s->mtype[m] == WULTFW_COL_ENUM;
}

/*
 * Up to this many group slots keep their stages between batches (at most
 * 8 KiB each per metric): a C-state's stage was otherwise grown from 16
 * values by realloc and freed again in every batch, a sixth of calc -c's
 * time on a binary file.
 */
#define KEEP_STAGES_SLOTS 16

/*
 * Numbers with nothing to drop, few groups: each stage's extremes and sum
 * are taken as its values are gathered (stagemms.h), not in another pass
 * at the flush: 8% of calc -c's instructions on a binary file.
 */
static bool gather_mms(const struct wfw_statset *s, size_t m)
{
	return s->smms && s->nums && s->may_nan && !s->may_nan[s->mcol[m]];
}

/* A stage taken by stagemms.h: flushed with what it found. */
static int flush_mms(struct wfw_acc *a, struct wfw_stage_mms *g)
{
	bool mine = g->on && g->size == a->nstage;
	double lo, hi, sum;

	g->on = false;
	if (!mine)
		return wfw_acc_flush(a);
	sum = wfw_stage_mms_end(g, a->stage, &lo, &hi);
	return wfw_acc_flush_known(a, lo, hi, sum);
}

/* k cells of col (at the offsets in order, or NULL: in a row) into a's stage. */
static int stage_mms(struct wfw_acc *a, struct wfw_stage_mms *g,
		     const union wultfw_cell *col, const uint32_t *order, size_t k)
{
	double *t = wfw_acc_stage_n(a, k);

	if (!t)
		return -ENOMEM;
	if (!a->nstage)
		wfw_stage_mms_start(g);
	if (!g->on || g->size != a->nstage) {	/* staged another way */
		g->on = false;	/* numbers with nothing to drop: a copy */
		for (size_t i = 0; i < k; i++)
			t[i] = col[order ? order[i] : i].f;
		return wfw_acc_staged(a, k);
	}
	wfw_stage_mms_gather(g, a->stage, col, order, k);
	a->nstage += k;
	if (a->nstage > WFW_ACC_STAGE - WFW_ACC_STAGE_ROOM)	/* as staged() */
		return flush_mms(a, g);
	return 0;
}

/* Metric m of a chunk of n rows, its groups as group_rows() left them. */
static int add_metric(struct wfw_statset *s, size_t m,
		      const union wultfw_cell *col, size_t st, size_t n,
		      bool one, size_t only)
{
	struct wfw_acc *acc = &s->acc[m * s->gcap];
	struct wfw_stage_mms *g = gather_mms(s, m) ? &s->smms[m * KEEP_STAGES_SLOTS] : NULL;
	double *t;

	if (g && one)
		return stage_mms(&acc[only], &g[only], col, NULL, n);
	if (g) {
		for (size_t i = 0; i < s->ntouched; i++) {
			uint32_t slot = s->touched[i];

			if (stage_mms(&acc[slot], &g[slot], col,
				      s->order + s->tstart[i], s->tcount[i]))
				return -ENOMEM;
		}
		return 0;
	}
	if (one) {
		t = wfw_acc_stage_n(&acc[only], n);
		return t ? wfw_acc_staged(&acc[only], gather(s, m, t, col, st, NULL, n))
			 : -ENOMEM;
	}
	for (size_t i = 0; i < s->ntouched; i++) {
		struct wfw_acc *a = &acc[s->touched[i]];
		size_t k = s->tcount[i];

		t = wfw_acc_stage_n(a, k);
		if (!t || wfw_acc_staged(a, gather(s, m, t, col, st,
						   s->order + s->tstart[i], k)))
			return -ENOMEM;
	}
	return 0;
}

/* Rows [r0, r0 + n) of the columns, n <= CHUNK_ROWS. */
static int add_chunk(struct wfw_statset *s, const union wultfw_cell *const *col,
		     size_t st, size_t r0, size_t n)
{
	size_t only = 0;
	bool one = true;

	if (s->gcol >= 0)
		one = group_rows(s, col[s->gcol] + r0 * st, st, n, &only);
	else
		mark_staged(s, 0);
	for (size_t m = 0; m < s->nmetrics; m++) {
		if (s->mtype[m] == WULTFW_COL_ENUM)
			continue;	/* no number yet */
		if (add_metric(s, m, col[s->mcol[m]] + r0 * st, st, n, one, only))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Counts, moments, percentiles: whole again after every batch. The stages
 * go back too when there are many groups, so that a million groups hold
 * none between batches.
 */
static int flush_staged(struct wfw_statset *s)
{
	bool keep = s->gcap <= KEEP_STAGES_SLOTS;

	for (size_t i = 0; i < s->nstaged; i++) {
		uint32_t g = s->staged[i];

		s->is_staged[g] = 0;
		for (size_t m = 0; m < s->nmetrics; m++) {
			struct wfw_acc *a = &s->acc[m * s->gcap + g];

			if (a->nstage && (s->smms ? flush_mms(a, &s->smms[m * KEEP_STAGES_SLOTS + g])
					  : wfw_acc_flush(a)))
				return -ENOMEM;
			if (!keep)
				wfw_acc_unstage(a);
		}
	}
	s->nstaged = 0;
	return 0;
}

/* The stages' extremes for gather_mms(): numbers, groups of few slots. */
static int mms_scratch(struct wfw_statset *s)
{
	if (!s->nums || s->gcap > KEEP_STAGES_SLOTS) {
		free(s->smms);	/* nothing staged between batches */
		s->smms = NULL;
		return 0;
	}
	if (!s->smms)
		s->smms = calloc(s->nmetrics * KEEP_STAGES_SLOTS, sizeof(*s->smms));
	return s->smms ? 0 : -ENOMEM;
}

int wfw_statset_add_cols(struct wfw_statset *s, const union wultfw_cell *const *col,
			 size_t stride, size_t rows)
{
	if (!rows)
		return 0;
	if (stride > UINT32_MAX / CHUNK_ROWS)
		return -EINVAL;	/* cell offsets of a chunk must fit order[] */
	if (wfw_statset_sync(s) || ensure_scratch(s, 0) || mms_scratch(s))
		return -ENOMEM;
	for (size_t r0 = 0; r0 < rows; r0 += CHUNK_ROWS)
		if (add_chunk(s, col, stride, r0,
			      rows - r0 < CHUNK_ROWS ? rows - r0 : CHUNK_ROWS))
			return -ENOMEM;
	s->rows += rows;
	return flush_staged(s);
}

bool wfw_statset_reads(const struct wfw_statset *s, size_t c)
{
	if ((int)c == s->gcol)
		return true;
	for (size_t m = 0; m < s->nmetrics; m++)
		if (s->mcol[m] == c)
			return true;
	return false;
}

/* Any value statistics leave out (wfw_value_ok())? */
static bool any_bad(const union wultfw_cell *col, size_t n)
{
	return copy_nums(NULL, col, n);
}

/*
 * Numbers of metric m without groups: the column itself is added, in the
 * blocks staging CHUNK_ROWS at a time would make (WFW_ACC_STAGE values,
 * the rest last), so the moments round the same; a column with NaNs to
 * drop goes through the stage.
 */
static int add_column(struct wfw_statset *s, size_t m,
		      const union wultfw_cell *col, bool may_nan, size_t rows,
		      const struct wfw_run_sums *sums)
{
	struct wfw_acc *a = &s->acc[m];
	size_t n;

	if (a->nstage || (may_nan && any_bad(col, rows))) {
		for (size_t r0 = 0; r0 < rows; r0 += n) {
			n = rows - r0 < CHUNK_ROWS ? rows - r0 : CHUNK_ROWS;
			if (add_metric(s, m, col + r0, 1, n, true, 0))
				return -ENOMEM;
		}
		return 0;
	}
	if (sums && sums->ok && rows <= WFW_ACC_STAGE)	/* one block */
		return wfw_acc_add_sums(a, &col[0].f, rows, sums);
	for (size_t r0 = 0; r0 < rows; r0 += n) {
		n = rows - r0 < WFW_ACC_STAGE ? rows - r0 : WFW_ACC_STAGE;
		if (wfw_acc_add_many(a, &col[r0].f, n))
			return -ENOMEM;
	}
	return 0;
}

_Static_assert(WFW_ACC_STAGE % CHUNK_ROWS == 0 &&
	       WFW_ACC_STAGE - WFW_ACC_STAGE_ROOM < WFW_ACC_STAGE,
	       "add_column's blocks are those staging makes");

int wfw_statset_add_nums(struct wfw_statset *s, const union wultfw_cell *const *col,
			 const bool *may_nan, size_t rows)
{
	return wfw_statset_add_nums_sums(s, col, may_nan, NULL, rows);
}

int wfw_statset_add_nums_sums(struct wfw_statset *s, const union wultfw_cell *const *col,
			      const bool *may_nan, const struct wfw_run_sums *sums,
			      size_t rows)
{
	int ret = 0;

	if (s->gcol >= 0 || !rows) {
		s->nums = true;
		s->may_nan = may_nan;
		ret = wfw_statset_add_cols(s, col, 1, rows);
		s->nums = false;
		s->may_nan = NULL;
		return ret;
	}
	if (wfw_statset_sync(s) || ensure_scratch(s, 0))
		return -ENOMEM;
	s->nums = true;
	for (size_t m = 0; m < s->nmetrics && !ret; m++)
		if (s->mtype[m] != WULTFW_COL_ENUM)	/* no number yet */
			ret = add_column(s, m, col[s->mcol[m]],
					 !may_nan || may_nan[s->mcol[m]], rows,
					 sums ? &sums[s->mcol[m]] : NULL);
	s->nums = false;
	s->rows += rows;
	for (size_t m = 0; m < s->nmetrics && !ret; m++)
		if (s->acc[m].nstage)
			ret = wfw_acc_flush(&s->acc[m]);
	return ret ? -ENOMEM : 0;
}

int wfw_statset_add(struct wfw_statset *s, const struct wultfw_batch *b)
{
	if (!b->rows)
		return 0;
	if (ensure_scratch(s, b->ncols))
		return -ENOMEM;
	for (size_t c = 0; c < b->ncols; c++)
		s->colp[c] = b->cells + c;
	return wfw_statset_add_cols(s, s->colp, b->ncols, b->rows);
}

const char *wfw_statset_group_name(const struct wfw_statset *s, size_t g)
{
	const struct wultfw_column *col;

	if (s->gcol < 0 || g >= s->ngroups - 1)
		return "-";
	if (s->gmerged && s->gmerged[g])
		return s->gmerged[g];
	col = &s->schema->cols[s->gcol];
	return col->enum_names[g] ? col->enum_names[g] : "-";
}

const struct wultfw_column *wfw_statset_metric(const struct wfw_statset *s,
					       size_t m)
{
	return &s->schema->cols[s->mcol[m]];
}

uint64_t wfw_statset_group_count(const struct wfw_statset *s, size_t g)
{
	uint64_t n = 0;

	/* Every metric sees every row of the group except its NaNs. */
	for (size_t m = 0; m < s->nmetrics; m++) {
		uint64_t c = wfw_statset_acc(s, m, g)->n;

		n = c > n ? c : n;
	}
	return n;
}

_Static_assert(WFW_SUMMARY_MAX_PCT <= WFW_ACC_MAX_PCT, "summaries' percentiles at once");

static void summarize(struct wfw_acc *a, double div, const double *p,
		      size_t np, struct wfw_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->count = a->n;
	out->exact = wfw_acc_exact(a);
	out->npct = np;
	if (!a->n) {
		out->min = out->max = out->mean = out->stddev = NAN;
		for (size_t i = 0; i < np; i++)
			out->pct[i] = NAN;
		return;
	}
	out->min = a->min / div;
	out->max = a->max / div;
	out->mean = a->mean / div;
	out->stddev = wfw_acc_stddev(a) / div;
	if (wfw_acc_percentiles(a, p, np, out->pct))
		for (size_t i = 0; i < np; i++)
			out->pct[i] = NAN;	/* out of memory */
	for (size_t i = 0; i < np; i++)
		out->pct[i] /= div;
}

/*
 * Metric m's groups as the final counts decide, whatever order the values
 * came in: those over the fair share leave exact mode.
 */
static int settle(struct wfw_statset *s, size_t m)
{
	struct wfw_acc *acc = &s->acc[m * s->gcap];

	if (s->settled[m] == s->rows + 1)
		return 0;	/* nothing added since: once per metric, not per group */
	s->settled[m] = s->rows + 1;

	for (size_t g = 0; g < s->gcap; g++)
		if (acc[g].nstage && wfw_acc_flush(&acc[g]))
			return -ENOMEM;
	return wfw_acc_pool_settle(&s->pool[m]);
}

size_t wfw_statset_switch_point(const struct wfw_statset *s)
{
	size_t t = s->exact_limit;

	for (size_t m = 0; m < s->nmetrics; m++) {
		size_t share = wfw_acc_pool_share(&s->pool[m]);

		/* below WFW_POOL_HIST_MIN values a group stays exact anyway */
		share = share >= WFW_POOL_HIST_MIN ? share : WFW_POOL_HIST_MIN - 1;
		if (!wfw_statset_pending(s, m) && share < t)
			t = share;
	}
	return t;
}

bool wfw_pct_supported(double p, uint64_t n)
{
	double side = p < 50 ? p : 100 - p;	/* the nearer end */

	/* The tolerance: 100 - 99.9 is 0.0999999... in binary. */
	return n && (side <= 0 || (double)n * side >= 100 * (1 - 1e-9));
}

void wfw_summary_shown(struct wfw_summary *sum, const double *p)
{
	if (sum->count < 2)
		sum->stddev = NAN;
	for (size_t i = 0; i < sum->npct; i++)
		if (!wfw_pct_supported(p[i], sum->count))
			sum->pct[i] = NAN;
}

int wfw_statset_summary(struct wfw_statset *s, size_t m, size_t g,
			const double *p, size_t np, struct wfw_summary *out)
{
	const struct wultfw_column *col = wfw_statset_metric(s, m);
	double div = 1.0;
	struct wfw_acc all;
	int ret = 0;

	if (np > WFW_SUMMARY_MAX_PCT)
		return -EINVAL;
	(void)col;
	if (s->mtype[m] == WULTFW_COL_INT && s->mdiv[m] > 1)
		div = s->mdiv[m];
	if (settle(s, m))
		return -ENOMEM;
	if (g != SIZE_MAX) {
		summarize(wfw_statset_acc(s, m, g), div, p, np, out);
		return 0;
	}
	wfw_acc_init(&all, s->exact_limit, s->mtype[m] == WULTFW_COL_INT);
	for (size_t i = 0; i < s->ngroups && !ret; i++)
		ret = wfw_acc_merge(&all, wfw_statset_acc(s, m, i));
	if (!ret)
		summarize(&all, div, p, np, out);
	wfw_acc_free(&all);
	return ret;
}

size_t wfw_statset_bytes(const struct wfw_statset *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nmetrics * s->gcap; i++)
		n += wfw_acc_bytes(&s->acc[i]);
	return n;
}

/* ---- merging the statistics of parts of one file ---- */

static size_t metric_of_column(const struct wfw_statset *s, size_t c)
{
	for (size_t m = 0; m < s->nmetrics; m++)
		if (s->mcol[m] == c)
			return m;
	return SIZE_MAX;
}

/* Bring metric m of a and b to one type: the same INT, else FLOAT. */
static int same_type(struct wfw_statset *a, size_t ma, struct wfw_statset *b,
		     size_t mb)
{
	struct wultfw_column fl = { .type = WULTFW_COL_FLOAT };

	if (a->mtype[ma] == WULTFW_COL_ENUM)	/* nothing seen yet */
		return retype_metric(a, ma, &(struct wultfw_column){
			.type = b->mtype[mb], .divisor = b->mdiv[mb] });
	if (b->mtype[mb] == WULTFW_COL_ENUM ||
	    (a->mtype[ma] == b->mtype[mb] && a->mdiv[ma] == b->mdiv[mb]))
		return 0;
	if (a->mtype[ma] != WULTFW_COL_FLOAT && retype_metric(a, ma, &fl))
		return -ENOMEM;
	return b->mtype[mb] != WULTFW_COL_FLOAT ? retype_metric(b, mb, &fl) : 0;
}

/*
 * map[g]: the group of dst called as src's group g (SIZE_MAX: g has no
 * values). The names dst lacks are added first, all at once, before "-":
 * one binary search per group, not a pass over dst's groups.
 */
static int map_groups(struct wfw_statset *dst, const struct wfw_statset *src,
		      size_t *map)
{
	size_t ng = dst->ngroups, nnew = 0, k = 0;

	for (size_t g = 0; g < src->ngroups; g++) {
		map[g] = SIZE_MAX;
		if (!wfw_statset_group_count(src, g))
			continue;
		map[g] = dst->gcol < 0 ? 0 :
			 wfw_statset_group_find(dst, wfw_statset_group_name(src, g));
		nnew += map[g] == SIZE_MAX;
		map[g] = map[g] == SIZE_MAX ? SIZE_MAX - 1 : map[g];
	}
	if (!nnew)
		return 0;
	if (!dst->gmerged && !(dst->gmerged = calloc(dst->gcap, sizeof(char *))))
		return -ENOMEM;
	if (grow_groups(dst, ng + nnew))
		return -ENOMEM;
	for (size_t g = 0; g < src->ngroups; g++) {
		if (map[g] == ng - 1)	/* "-": still last */
			map[g] = dst->ngroups - 1;
		if (map[g] != SIZE_MAX - 1)
			continue;
		map[g] = ng - 1 + k++;
		dst->gmerged[map[g]] = strdup(wfw_statset_group_name(src, g));
		if (!dst->gmerged[map[g]])
			return -ENOMEM;
	}
	return 0;
}

static uint64_t metric_count(const struct wfw_statset *s, size_t m)
{
	uint64_t n = 0;

	for (size_t g = 0; g < s->gcap; g++)
		n += s->acc[m * s->gcap + g].n;
	return n;
}

static int merge_metric(struct wfw_statset *dst, size_t md,
			struct wfw_statset *src, size_t ms, const size_t *map)
{
	int ret = 0;

	dst->nans[md] += src->nans[ms];
	dst->empties[md] += src->empties[ms];
	dst->outs[md] += src->outs[ms];
	/* A part without values has no say in the type. */
	if (!metric_count(src, ms))
		return 0;
	ret = same_type(dst, md, src, ms);
	for (size_t g = 0; g < src->ngroups && !ret; g++) {
		const struct wfw_acc *a = wfw_statset_acc(src, ms, g);

		if (a->n)
			ret = wfw_acc_merge(wfw_statset_acc(dst, md, map[g]), a);
	}
	return ret;
}

/* A metric of dst whose column holds names in src's part of the file. */
static bool text_in_one(const struct wfw_statset *dst, const struct wfw_statset *src)
{
	for (size_t md = 0; md < dst->nmetrics; md++) {
		const struct wultfw_column *col = &src->schema->cols[dst->mcol[md]];

		if (col->type == WULTFW_COL_ENUM && col->n_enum)
			return true;
	}
	return false;
}

int wfw_statset_merge(struct wfw_statset *dst, struct wfw_statset *src)
{
	int ret = wfw_statset_sync(dst);
	size_t *map;

	if (!ret)
		ret = wfw_statset_sync(src);
	if (ret)
		return ret;
	if ((dst->gcol < 0) != (src->gcol < 0) || text_in_one(dst, src))
		return -EAGAIN;
	map = malloc(src->ngroups * sizeof(*map));
	if (!map || map_groups(dst, src, map)) {
		free(map);
		return -ENOMEM;
	}
	for (size_t ms = 0; ms < src->nmetrics && !ret; ms++) {
		size_t md = metric_of_column(dst, src->mcol[ms]);

		if (md == SIZE_MAX && wfw_statset_pending(src, ms))
			continue;	/* text in dst's part, nothing yet here */
		if (md == SIZE_MAX) {	/* text in dst's part, numbers here */
			ret = -EAGAIN;
			break;
		}
		ret = merge_metric(dst, md, src, ms, map);
	}
	free(map);
	dst->rows += src->rows;
	return ret;
}
