/* SPDX-License-Identifier: MIT */
/*
 * calc --explain, the last pass: every group's rows at or above its
 * percentile into its tail, the rows of a range still too wide to decide
 * kept as candidates, and each group's largest row taken whole. A part's
 * causes are its own enum indexes until the in-order step names them.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "explain_read.h"
#include "par/par.h"

struct p3 {
	struct xreader *rd;
	struct xtail *tail;	/* per result group, the part's cause keys */
	struct xrow **cand;	/* per result group: candidates */
	size_t *ncand, *capcand;
	struct xmax *max;	/* per result group */
	size_t *map, nmap;	/* part group -> result group */
	signed char *cat;	/* per Cause index: its category, -1 not yet */
	size_t ncat;
	uint64_t off;		/* rows before the part */
};

struct p3ctx {
	struct xres *x;
	struct p3 *p;
	struct xreader **rd;
};

/* The key and category of part row r's cause. */
static int part_key(struct p3 *p, const struct xres *x, const struct xrow *r,
		    uint64_t *key, int *cat)
{
	const struct wultfw_column *col;
	size_t i = (size_t)r->cause, old = p->ncat;

	*key = XKEY_NONE;
	*cat = WFW_XP_OTHER;
	if (r->cause < 0)
		return 0;
	if (xgrow(&p->cat, &p->ncat, i + 1, 1))
		return -ENOMEM;
	memset(p->cat + old, -1, p->ncat - old);
	if (p->cat[i] < 0) {
		col = &wfw_reader_schema(p->rd->rd)->cols[x->cause];
		p->cat[i] = (signed char)wfw_xp_cause_cat(col->enum_names[i]);
	}
	*cat = p->cat[i];
	*key = *cat != WFW_XP_THREAD ? (uint64_t)r->cause + 1 :
	       XKEY_THREAD | (r->pid >= 0 ? (uint64_t)r->pid : XKEY_NOPID);
	return 0;
}

static char *enum_name(const struct xreader *p, int col, int64_t i)
{
	if (col < 0 || i < 0)
		return NULL;
	return strdup(wfw_reader_schema(p->rd)->cols[col].enum_names[i]);
}

/* Row r of group gi taken whole: the group's largest. */
static int capture(struct xres *x, struct p3 *p, size_t gi, const struct xrow *r)
{
	struct xmax *m = &p->max[gi];

	m->have = true;
	m->r = *r;
	m->cause = enum_name(p->rd, x->cause, r->cause);
	m->state = enum_name(p->rd, x->scol, r->state);
	return (r->cause >= 0 && !m->cause) || (r->state >= 0 && !m->state) ? -ENOMEM : 0;
}

static int keep(struct p3 *p, size_t gi, const struct xrow *r)
{
	if (xgrow(&p->cand[gi], &p->capcand[gi], p->ncand[gi] + 1, sizeof(*r)))
		return -ENOMEM;
	p->cand[gi][p->ncand[gi]++] = *r;
	return 0;
}

/* Row i of the batch into group gi's tail, candidates or maximum. */
static int take(struct xres *x, struct p3 *p, size_t gi, size_t i, struct xrow *r)
{
	const struct xr *rk = &x->g[gi].rank;
	uint64_t row = p->off + p->rd->b.row[i] + 1, key;
	bool tail = false, cand = false;
	int cat, ret = 0;

	if (rk->state == XR_KNOWN)
		tail = r->lat >= xr_tail_from(rk);
	else if (rk->state == XR_KEEP)
		cand = !(tail = r->lat > rk->hi) && r->lat >= rk->lo;
	if (!tail && !cand && row != x->g[gi].maxrow)
		return 0;
	if (r->row == UINT64_MAX) {	/* not yet taken from the batch */
		xbatch_row(&p->rd->b, i, r);
		r->row = row;
	}
	if (row == x->g[gi].maxrow)
		ret = capture(x, p, gi, r);
	if (!ret && cand)
		ret = keep(p, gi, r);
	if (!ret && tail)
		ret = part_key(p, x, r, &key, &cat);
	if (!ret && tail)
		ret = xtail_add(&p->tail[gi], r, key, cat);
	return ret;
}

/* The least latency group g takes a row of (its max is one of them). */
static int64_t from(const struct xgroup *g)
{
	return g->rank.state == XR_KNOWN ? xr_tail_from(&g->rank) :
	       g->rank.state == XR_KEEP ? g->rank.lo : INT64_MAX;
}

static int p3_batch(struct xres *x, void *arg)
{
	struct p3 *p = arg;
	const struct xbatch *b = &p->rd->b;
	int64_t least = INT64_MAX;
	bool nomem = false;
	int ret = 0;

	for (size_t g = 0; g < x->ng; g++)
		least = from(&x->g[g]) < least ? from(&x->g[g]) : least;
	for (size_t i = 0; i < b->n && !ret; i++) {
		int64_t lat = b->lat[i];
		struct xrow r;	/* filled by take() when a group takes it */
		size_t gi;

		if (lat == XEMPTY || lat == XBAD || lat < least)
			continue;
		r.lat = lat;
		r.row = UINT64_MAX;
		ret = take(x, p, 0, i, &r);
		if (ret || x->gcol < 0)
			continue;
		gi = xpart_map(x, p->rd, &p->map, &p->nmap, xpart_group(x, b, i), &nomem);
		ret = nomem ? -ENOMEM : gi == SIZE_MAX ? 0 : take(x, p, gi, i, &r);
	}
	return ret;
}

static int p3_work(void *ctx, unsigned slot, uint64_t k)
{
	struct p3ctx *c = ctx;

	(void)slot;
	return xread_part(c->x, c->p[k].rd, (unsigned)k, true, p3_batch, &c->p[k]);
}

static void p3_free(struct xres *x, struct p3 *p)
{
	for (size_t g = 0; g < x->ng; g++) {
		if (p->tail)
			xtail_free(&p->tail[g]);
		if (p->cand)
			free(p->cand[g]);
		if (p->max) {
			free(p->max[g].cause);
			free(p->max[g].state);
		}
	}
	free(p->tail);
	free(p->cand);
	free(p->ncand);
	free(p->capcand);
	free(p->max);
	free(p->map);
	free(p->cat);
	memset(p, 0, sizeof(*p));
}

/* The part's Cause indexes as the result's name numbers; NULL: none. */
static size_t *name_map(struct xres *x, struct p3 *p, size_t *n, int *ret)
{
	const struct wultfw_column *col;
	size_t *map;

	*n = 0;
	*ret = 0;
	if (x->cause < 0)
		return NULL;
	col = &wfw_reader_schema(p->rd->rd)->cols[x->cause];
	if (col->type != WULTFW_COL_ENUM || !col->n_enum)
		return NULL;
	map = malloc(col->n_enum * sizeof(*map));
	for (size_t i = 0; map && i < col->n_enum; i++)
		if ((map[i] = xres_name(x, col->enum_names[i])) == SIZE_MAX)
			*ret = -ENOMEM;
	*ret = map ? *ret : -ENOMEM;
	*n = col->n_enum;
	return map;
}

static int p3_merge_group(struct xres *x, struct p3 *p, size_t g, const size_t *map, size_t n)
{
	struct xgroup *gr = &x->g[g];
	int ret = xtail_merge(&gr->tail, &p->tail[g], map, n);

	for (size_t i = 0; !ret && i < p->ncand[g]; i++) {
		struct xrow *r = &p->cand[g][i];

		if (r->cause >= 0)
			r->cause = (int64_t)map[r->cause];
		if (xgrow(&gr->cand, &gr->capcand, gr->ncand + 1, sizeof(*r)))
			ret = -ENOMEM;
		else
			gr->cand[gr->ncand++] = *r;
	}
	if (!ret && p->max[g].have) {
		gr->max = p->max[g];
		p->max[g] = (struct xmax){ 0 };
	}
	return ret;
}

static int p3_emit(void *ctx, unsigned slot, uint64_t k)
{
	struct p3ctx *c = ctx;
	struct p3 *p = &c->p[k];
	size_t n;
	int ret;
	size_t *map = name_map(c->x, p, &n, &ret);

	(void)slot;
	for (size_t g = 0; g < c->x->ng && !ret; g++)
		ret = p3_merge_group(c->x, p, g, map, n);
	free(map);
	p3_free(c->x, p);
	xread_close(c->rd[k]);
	return ret;
}

static const struct wfw_par_ops p3_ops = { .work = p3_work, .emit = p3_emit };

static int p3_alloc(struct xres *x, struct p3 *p, struct xreader *rd, uint64_t off)
{
	size_t ng = x->ng;

	p->rd = rd;
	p->off = off;
	p->tail = calloc(ng, sizeof(*p->tail));
	p->cand = calloc(ng, sizeof(*p->cand));
	p->ncand = calloc(ng, sizeof(*p->ncand));
	p->capcand = calloc(ng, sizeof(*p->capcand));
	p->max = calloc(ng, sizeof(*p->max));
	if (!p->tail || !p->cand || !p->ncand || !p->capcand || !p->max)
		return -ENOMEM;
	for (size_t g = 0; g < ng; g++)
		xtail_init(&p->tail[g], x->c->exact_limit);
	return 0;
}

int xpass_tail(struct xres *x)
{
	struct p3ctx c = { .x = x, .p = calloc(x->nparts, sizeof(*c.p)), .rd = xreaders(x) };
	int ret = c.p && c.rd ? 0 : -ENOMEM;

	for (unsigned k = 0; !ret && k < x->nparts; k++)
		ret = p3_alloc(x, &c.p[k], c.rd[k], x->offset[k]);
	if (ret)
		snprintf(x->err, sizeof(x->err), "%s: out of memory", x->r->path);
	else
		ret = xpass_run(x, &p3_ops, &c, c.rd);
	for (unsigned k = 0; c.p && k < x->nparts; k++)
		p3_free(x, &c.p[k]);
	free(c.p);
	xreaders_free(x, c.rd);
	return ret;
}
