/* SPDX-License-Identifier: MIT */
/*
 * calc --explain: the passes over a result file's parts, on lib/par. Each
 * part is read by a thread of its own into its own counts, which the
 * in-order step adds to the result's (explain_impl.h): the histograms that
 * find each group's percentile, then the rows at or above it.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "explain_read.h"
#include "par/par.h"

/* ---- pass 1: histograms, the identity, the maxima ---- */

struct lgrp {
	uint64_t *hist;		/* log buckets */
	uint64_t n;
	int64_t maxv;
	uint64_t maxrow;	/* in the part */
};

struct p1 {
	struct xreader *rd;
	struct lgrp *lg;
	size_t nlg;
	uint64_t nolat, none, broken, first_broken;
};

struct p1ctx {
	struct xres *x;
	struct p1 *p;
	struct xreader **rd;
};

static int lg_add(struct p1 *p, size_t lg, int64_t lat, uint64_t row)
{
	struct lgrp *g;

	if (lg >= p->nlg && xgrow(&p->lg, &p->nlg, lg + 1, sizeof(*p->lg)))
		return -ENOMEM;
	g = &p->lg[lg];
	if (!g->hist && !(g->hist = calloc(XR_LOG_BUCKETS, sizeof(*g->hist))))
		return -ENOMEM;
	g->hist[xr_log_bucket(lat)]++;
	if (!g->n++ || lat > g->maxv) {
		g->maxv = lat;
		g->maxrow = row;
	}
	return 0;
}

/* A group column of more values than XMAX_GROUPS: said in the part's err. */
static int too_many(const struct xres *x, struct p1 *p)
{
	snprintf(p->rd->err, sizeof(p->rd->err), "%s: %s has more than %d values: -c and -g "
		 "group --explain by a column of few, such as the C-state", x->r->path,
		 x->scolname, XMAX_GROUPS);
	return -E2BIG;
}

/*
 * xrow_kind() of row i, for every row of the file: parts of 0 to 2^60
 * cannot overflow their sum, so one test of their bits says most rows
 * are fine.
 */
static enum xkind kind_of(const struct xbatch *b, size_t i)
{
	int64_t t0 = b->t[0][i], t1 = b->t[1][i], t2 = b->t[2][i], t3 = b->t[3][i],
		t4 = b->t[4][i];
	struct xrow r;

	if (!((uint64_t)(t0 | t1 | t2 | t3 | t4) >> 60))
		return t0 + t1 + t2 + t3 + t4 == b->lat[i] ? XROW_OK : XROW_BROKEN;
	r.lat = b->lat[i];
	for (int k = 0; k < WFW_XP_NCAT; k++)
		r.t[k] = b->t[k][i];
	return xrow_kind(&r);
}

static int p1_batch(struct xres *x, void *arg)
{
	struct p1 *p = arg;
	const struct xbatch *b = &p->rd->b;

	for (size_t i = 0; i < b->n; i++) {
		int64_t lat = b->lat[i];
		enum xkind k;

		if (lat == XEMPTY || lat == XBAD) {
			p->nolat++;
			continue;
		}
		k = kind_of(b, i);
		p->none += k == XROW_NONE;
		if (k == XROW_BROKEN && !p->broken++)
			p->first_broken = b->row[i];
		if (xpart_group(x, b, i) > XMAX_GROUPS + 1)
			return too_many(x, p);
		if (lg_add(p, 0, lat, b->row[i]) ||
		    (x->gcol >= 0 && lg_add(p, xpart_group(x, b, i), lat, b->row[i])))
			return -ENOMEM;
	}
	return 0;
}

static int p1_work(void *ctx, unsigned slot, uint64_t k)
{
	struct p1ctx *c = ctx;

	(void)slot;
	return xread_part(c->x, c->p[k].rd, (unsigned)k, false, p1_batch, &c->p[k]);
}

static void p1_free(struct p1 *p)
{
	for (size_t i = 0; i < p->nlg; i++)
		free(p->lg[i].hist);
	free(p->lg);
	p->lg = NULL;
	p->nlg = 0;
	xread_close(p->rd);
}

static int p1_emit(void *ctx, unsigned slot, uint64_t k)
{
	struct p1ctx *c = ctx;
	struct xres *x = c->x;
	struct p1 *p = &c->p[k];
	uint64_t off = x->rows;
	int ret = 0;

	(void)slot;
	x->offset[k] = off;
	x->rows += p->rd->rows;
	x->nolat += p->nolat;
	x->none += p->none;
	if (!x->broken && p->broken)
		x->first_broken = off + p->first_broken + 1;
	x->broken += p->broken;
	for (size_t lg = 0; lg < p->nlg && !ret; lg++) {
		struct lgrp *l = &p->lg[lg];
		size_t gi;
		struct xgroup *g;

		if (!l->n)
			continue;
		gi = xres_group(x, xpart_group_name(x, p->rd, lg));
		if (gi == SIZE_MAX) {
			ret = -ENOMEM;
			break;
		}
		if (x->ng > XMAX_GROUPS + 1) {
			ret = too_many(x, p);
			break;
		}
		g = &x->g[gi];
		for (size_t b = 0; b < XR_LOG_BUCKETS; b++)
			g->hist[b] += l->hist[b];
		if (!g->n || l->maxv > g->maxv) {
			g->maxv = l->maxv;
			g->maxrow = off + l->maxrow + 1;
		}
		g->n += l->n;
	}
	/* the names each part's reader saw, for the warnings */
	if (!k) {
		wfw_seen_free(&x->r->seen);
		if (wfw_select_active(&p->rd->sel))
			wfw_seen_init(&x->r->seen, &p->rd->sel);
	}
	wfw_seen_note(&x->r->seen, wfw_reader_schema(p->rd->rd));
	p1_free(p);
	return ret;
}

static const struct wfw_par_ops p1_ops = { .work = p1_work, .emit = p1_emit };

int xpass_hist(struct xres *x)
{
	struct p1ctx c = { .x = x, .p = calloc(x->nparts, sizeof(*c.p)),
			   .rd = xreaders(x) };
	int ret = -ENOMEM;

	if (c.p && c.rd) {
		for (unsigned k = 0; k < x->nparts; k++)
			c.p[k].rd = c.rd[k];
		ret = xpass_run(x, &p1_ops, &c, c.rd);
		for (unsigned k = 0; k < x->nparts; k++)
			p1_free(&c.p[k]);
	} else {
		snprintf(x->err, sizeof(x->err), "%s: out of memory", x->r->path);
	}
	free(c.p);
	xreaders_free(x, c.rd);
	return ret;
}

/* ---- narrower histograms, for groups whose range holds too many ---- */

struct p2 {
	struct xreader *rd;
	uint64_t **hist;	/* per result group in XR_HIST: linear buckets */
	size_t *map;		/* part group -> result group, SIZE_MAX - 1: not yet */
	size_t nmap;
};

struct p2ctx {
	struct xres *x;
	struct p2 *p;
	struct xreader **rd;
};

static int p2_add(struct xres *x, struct p2 *p, size_t gi, int64_t lat)
{
	struct xr *r = gi == SIZE_MAX ? NULL : &x->g[gi].rank;
	size_t b;

	if (!r || r->state != XR_HIST)
		return 0;
	b = xr_bucket(r, lat);
	if (b == SIZE_MAX)
		return 0;
	if (!p->hist[gi] && !(p->hist[gi] = calloc(xr_buckets(r), sizeof(**p->hist))))
		return -ENOMEM;
	p->hist[gi][b]++;
	return 0;
}

static int p2_batch(struct xres *x, void *arg)
{
	struct p2 *p = arg;
	const struct xbatch *b = &p->rd->b;
	bool nomem = false;
	int ret = 0;

	for (size_t i = 0; !ret && i < b->n; i++) {
		if (b->lat[i] == XEMPTY || b->lat[i] == XBAD)
			continue;
		ret = p2_add(x, p, 0, b->lat[i]);
		if (!ret && x->gcol >= 0)
			ret = p2_add(x, p, xpart_map(x, p->rd, &p->map, &p->nmap,
						     xpart_group(x, b, i), &nomem),
				     b->lat[i]);
		ret = nomem ? -ENOMEM : ret;
	}
	return ret;
}

static int p2_work(void *ctx, unsigned slot, uint64_t k)
{
	struct p2ctx *c = ctx;

	(void)slot;
	return xread_part(c->x, c->p[k].rd, (unsigned)k, false, p2_batch, &c->p[k]);
}

static void p2_free(struct xres *x, struct p2 *p)
{
	for (size_t g = 0; p->hist && g < x->ng; g++)
		free(p->hist[g]);
	free(p->hist);
	free(p->map);
	p->hist = NULL;
	p->map = NULL;
	xread_close(p->rd);
}

static int p2_emit(void *ctx, unsigned slot, uint64_t k)
{
	struct p2ctx *c = ctx;
	struct p2 *p = &c->p[k];

	(void)slot;
	for (size_t g = 0; g < c->x->ng; g++) {
		size_t nb = c->x->g[g].rank.state == XR_HIST ? xr_buckets(&c->x->g[g].rank) : 0;

		for (size_t b = 0; p->hist[g] && b < nb; b++)
			c->x->g[g].hist[b] += p->hist[g][b];
	}
	p2_free(c->x, p);
	return 0;
}

static const struct wfw_par_ops p2_ops = { .work = p2_work, .emit = p2_emit };

int xpass_refine(struct xres *x)
{
	struct p2ctx c = { .x = x, .p = calloc(x->nparts, sizeof(*c.p)), .rd = xreaders(x) };
	int ret = c.p && c.rd ? 0 : -ENOMEM;

	for (size_t g = 0; !ret && g < x->ng; g++) {
		struct xgroup *gr = &x->g[g];

		free(gr->hist);
		gr->hist = NULL;
		if (gr->rank.state == XR_HIST &&
		    !(gr->hist = calloc(xr_buckets(&gr->rank), sizeof(*gr->hist))))
			ret = -ENOMEM;
	}
	for (unsigned k = 0; !ret && k < x->nparts; k++) {
		c.p[k].rd = c.rd[k];
		if (!(c.p[k].hist = calloc(x->ng, sizeof(*c.p[k].hist))))
			ret = -ENOMEM;
	}
	if (ret)
		snprintf(x->err, sizeof(x->err), "%s: out of memory", x->r->path);
	else
		ret = xpass_run(x, &p2_ops, &c, c.rd);
	for (unsigned k = 0; c.p && k < x->nparts; k++)
		p2_free(x, &c.p[k]);
	for (size_t g = 0; !ret && g < x->ng; g++)
		if (x->g[g].rank.state == XR_HIST)
			xr_narrow(&x->g[g].rank, x->g[g].hist);
	free(c.p);
	xreaders_free(x, c.rd);
	return ret;
}
