/* SPDX-License-Identifier: MIT */
/*
 * One file read by several threads (lib/par), each over a part of it that
 * starts and ends at row boundaries (as calc reads it): per part its
 * statistics, sample and tails, merged in part order (statistics by group
 * name, samples in proportion to the parts' rows, tails by value).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "par/par.h"
#include "report_load.h"

struct rep_part {
	const struct rep_cli *c;
	const struct rep_names *nm;
	struct wfw_rep_result res;
	struct wfw_reader *rd;
	unsigned k, n;
	/* A binary file over the cap: its rows, this part's first row. */
	bool planned;
	bool attrib;		/* keep the attribution of r->attrib_latency */
	uint64_t total, first;
};

/* The parts, and what merging them so far gathered into part 0. */
struct rep_parts {
	struct rep_part *p;
	unsigned n;
	uint64_t rng;		/* the samples' merging draws */
	uint64_t total;		/* rows selected */
	bool sampled;		/* a part sampled its rows */
};

/* The part's reader (before the threads: the parts' rows are counted). */
static int part_reader(struct rep_part *p)
{
	struct wfw_reader_opts o = { .one_pass = true, .part = p->k, .nparts = p->n };
	char err[1024];

	return wfw_reader_open_opts(&p->rd, p->res.path, &o, err, sizeof(err));
}

/*
 * Binary parts count their rows when opened: over the cap, each chooses
 * the sample's rows in its range as one reader would (rep_keep_plan()).
 */
static void plan_parts(struct rep_part *p, unsigned n)
{
	uint64_t total = 0;

	for (unsigned k = 0; k < n; k++)
		if (!wfw_reader_native_cols(p[k].rd))
			return;
	for (unsigned k = 0; k < n; k++) {
		p[k].first = total;
		total += wfw_reader_rows(p[k].rd);
	}
	for (unsigned k = 0; k < n; k++) {
		p[k].total = total;
		p[k].planned = total > WFW_REPORT_KEEP_ROWS;
	}
}

static int part_open(struct rep_part *p, int *scol)
{
	struct wfw_statset_cfg cfg = { .exact_limit = WFW_REPORT_KEEP_ROWS,
				       .exact_memory = (size_t)256 << 20,
				       .metrics = p->nm->metrics,
				       .nmetrics = p->nm->nmetrics,
				       .pending_text = true };
	const struct wultfw_schema *s = wfw_reader_schema(p->rd);
	char err[1024];

	*scol = rep_group_col(p->c, s);
	if (*scol == -EINVAL)
		return -EINVAL;
	cfg.group_by = *scol >= 0 ? s->cols[*scol].name : NULL;
	if (wfw_statset_init(&p->res.set, s, &cfg, err, sizeof(err)))
		return -EAGAIN;
	p->res.have_set = true;
	p->res.group_by = cfg.group_by;
	if (p->attrib && rep_attrib_init(&p->res, p->res.attrib_latency))
		return -ENOMEM;
	return rep_keep_columns(&p->res, s, p->nm, false);
}

/*
 * A part past its share of the cap shrinks its sample: memory as with one
 * reader, and the same report every time (a shared count would depend on
 * the threads' timing). Should the whole turn out under the cap, the file
 * is read again by one reader (rep_load_parts()).
 */
static uint64_t part_share(const struct rep_part *p)
{
	return WFW_REPORT_KEEP_ROWS / p->n;
}

/* The part's rows, a batch of rows at a time. */
static int part_rows(struct rep_part *p, int scol, struct rep_keep *k)
{
	struct wfw_rep_result *r = &p->res;
	const struct wultfw_schema *s = wfw_reader_schema(p->rd);
	struct wultfw_batch b = { 0 };
	long n = 0;
	int ret = wfw_batch_alloc(&b, s->ncols, 8192);

	while (!ret && (n = wfw_reader_read(p->rd, &b)) > 0) {
		r->rows_read += b.rows;
		ret = wfw_statset_add(&r->set, &b);
		if (!ret)
			ret = rep_keep_rows(r, s, scol, &b, k);
		if (!ret)
			ret = rep_cross_past(r, k, part_share(p));
		b.rows = 0;
	}
	wfw_batch_free(&b);
	return ret ? ret : n < 0 ? (int)n : 0;
}

/* Part k read into its own statistics, sample and tails. */
static int part_read(void *ctx, unsigned slot, uint64_t part)
{
	struct rep_part *p = &((struct rep_parts *)ctx)->p[part];
	struct wfw_rep_result *r = &p->res;
	struct rep_keep k = { 0 };
	const struct wultfw_schema *s;
	int scol = -1;
	int ret = part_open(p, &scol);

	if (ret)
		return ret;
	s = wfw_reader_schema(p->rd);
	ret = rep_keep_init(r, &k, WFW_REPORT_SEED + p->k);
	if (!ret && p->planned)
		rep_keep_plan(r, &k, p->total, p->first, wfw_reader_rows(p->rd));
	if (!ret && wfw_reader_native_cols(p->rd))
		ret = rep_read_cols(r, p->rd, scol, &k, part_share(p));
	else if (!ret)
		ret = part_rows(p, scol, &k);
	if (scol >= 0) {
		r->state_names = s->cols[scol].enum_names;
		r->nstates = s->cols[scol].n_enum;
	}
	rep_keep_free(&k);
	return ret;
}

/* src's state numbers to dst's (by name; names dst lacks are added). */
static int map_states(struct wfw_rep_result *dst, const struct wfw_rep_result *src,
		      int32_t *map)
{
	for (size_t i = 0; i < src->nstates; i++) {
		size_t j = 0;

		while (j < dst->nstates && strcmp(dst->merged_names[j], src->state_names[i]))
			j++;
		if (j == dst->nstates)
			dst->merged_names[dst->nstates++] = src->state_names[i];
		map[i] = (int32_t)j;
	}
	return 0;
}

/* Room for n rows in dst; -EAGAIN when the parts kept other columns. */
static int resize_rows(struct wfw_rep_result *dst, const struct wfw_rep_result *src,
		       size_t n)
{
	int32_t *st = realloc(dst->state, (n ? n : 1) * sizeof(*st));

	if (!st)
		return -ENOMEM;
	dst->state = st;
	for (size_t c = 0; c < dst->ncols; c++) {
		float *v;

		if (!dst->vals[c] != !src->vals[c])
			return -EAGAIN;
		if (!dst->vals[c])
			continue;
		v = realloc(dst->vals[c], (n ? n : 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		dst->vals[c] = v;
	}
	return 0;
}

/*
 * Two uniform samples of disjoint parts into one of the whole: how many
 * from each drawn by their counts (all of both while under the cap).
 */
static int merge_sample(struct wfw_rep_result *dst, const struct wfw_rep_result *src,
			const int32_t *map, uint64_t *rng)
{
	uint64_t total = dst->nsel + src->nsel;
	bool all = total <= WFW_REPORT_KEEP_ROWS && !dst->sampled && !src->sampled;
	size_t k1 = all ? dst->nrows :
		wfw_reservoir_split(rng, dst->nsel, src->nsel, WFW_REPORT_SAMPLE_ROWS);
	size_t k2 = all ? src->nrows : WFW_REPORT_SAMPLE_ROWS - k1;
	size_t need = k1, left = dst->nrows, j = 0;
	int ret;

	for (size_t i = 0; i < dst->nrows; i++)	/* moving down, in place */
		if (wfw_pick_next(rng, &need, &left))
			rep_move_row(dst, dst, i, j++, NULL);
	ret = resize_rows(dst, src, k1 + k2);
	if (ret)
		return ret;
	need = k2;
	left = src->nrows;
	for (size_t i = 0; i < src->nrows; i++)
		if (wfw_pick_next(rng, &need, &left))
			rep_move_row(dst, src, i, j++, map);
	dst->nrows = k1 + k2;
	dst->nsel = total;
	dst->sampled = !all;
	return 0;
}

/* A planned sample of the next part: its rows after dst's, in order. */
static int append_sample(struct wfw_rep_result *dst,
			 const struct wfw_rep_result *src, const int32_t *map)
{
	int ret = resize_rows(dst, src, dst->nrows + src->nrows);

	for (size_t i = 0; !ret && i < src->nrows; i++)
		rep_move_row(dst, src, i, dst->nrows + i, map);
	dst->nrows += ret ? 0 : src->nrows;
	dst->nsel += src->nsel;
	return ret;
}

static void merge_tails(struct wfw_rep_result *dst, const struct wfw_rep_result *src,
			const int32_t *map)
{
	for (size_t m = 0; m < dst->ntails; m++) {
		const struct wfw_topk *t = &src->tails[m];

		for (size_t i = 0; i < t->n; i++) {
			uint32_t s = t->slot[i];

			wfw_topk_add(&dst->tails[m], t->key[i],
				     &t->rows[(size_t)s * t->width],
				     rep_mapped(map, t->group[s]));
		}
	}
}

/* Room in part 0's merged names for those of a part with n names. */
static int names_room(struct wfw_rep_result *dst, size_t n)
{
	const char **m = realloc(dst->merged_names,
				 (dst->nstates + n + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	dst->merged_names = m;
	return 0;
}

/* Part k into part 0, in order (part 0: its names start the merged ones). */
static int part_merge(void *ctx, unsigned slot, uint64_t part)
{
	struct rep_parts *ps = ctx;
	struct wfw_rep_result *dst = &ps->p[0].res, *src = &ps->p[part].res;
	int32_t *map;
	int ret;

	ps->total += src->nsel;
	ps->sampled |= src->sampled;
	if (!part) {
		ret = names_room(dst, 0);
		for (size_t i = 0; !ret && i < dst->nstates; i++)
			dst->merged_names[i] = dst->state_names[i];
		return ret;
	}
	map = calloc(src->nstates + 1, sizeof(*map));
	ret = map ? names_room(dst, src->nstates) : -ENOMEM;
	if (!ret)
		ret = map_states(dst, src, map);
	if (!ret)
		ret = wfw_statset_merge(&dst->set, &src->set);
	if (!ret)
		ret = ps->p[0].planned ? append_sample(dst, src, map) :
					 merge_sample(dst, src, map, &ps->rng);
	if (!ret)
		merge_tails(dst, src, map);
	if (!ret && dst->attrib)
		wfw_attrib_merge(dst->attrib, src->attrib);
	dst->rows_read += src->rows_read;
	free(map);
	rep_free_kept(src);
	rep_attrib_free(src);
	return ret;
}

static const struct wfw_par_ops part_ops = { .work = part_read, .emit = part_merge };

/* What part 0 gathered becomes r's; r keeps the parts' readers. */
static void take_parts(struct wfw_rep_result *r, struct rep_part *p, unsigned n)
{
	const struct wfw_rep_result *m = &p[0].res;

	r->set = m->set;
	r->have_set = true;
	r->rows_read = m->rows_read;
	r->nsel = m->nsel;
	r->nrows = m->nrows;
	r->sampled = m->sampled;
	r->ncols = m->ncols;
	r->colnames = m->colnames;
	r->units = m->units;
	r->vals = m->vals;
	r->state = m->state;
	r->tails = m->tails;
	r->ntails = m->ntails;
	r->group_by = m->group_by;
	r->state_names = m->state_names;
	r->nstates = m->nstates;
	r->merged_names = m->merged_names;
	r->attrib = m->attrib;
	for (unsigned k = 0; k < n; k++)
		r->part_rd[k] = p[k].rd;
	r->nparts = n;
}

/* 0, or anything else: read the file with one reader instead. */
int rep_load_parts(const struct rep_cli *c, struct wfw_rep_result *r,
		   const struct rep_names *nm, unsigned n, bool attrib)
{
	struct rep_part p[WFW_REPORT_MAX_PARTS] = { 0 };
	struct rep_parts ps = { .p = p, .n = n, .rng = WFW_REPORT_SEED };
	struct wfw_par par = { .ops = &part_ops, .ctx = &ps, .nparts = n, .threads = n };
	int ret = 0;

	for (unsigned k = 0; k < n && !ret; k++) {
		p[k] = (struct rep_part){ .c = c, .nm = nm, .k = k, .n = n, .attrib = attrib };
		memcpy(p[k].res.path, r->path, sizeof(r->path));
		p[k].res.attrib_latency = r->attrib_latency;
		ret = part_reader(&p[k]);
	}
	if (!ret)
		plan_parts(p, n);
	if (!ret)
		ret = wfw_par_run(&par);
	/* a part sampled what one reader keeps whole */
	if (!ret && ps.sampled && ps.total <= WFW_REPORT_KEEP_ROWS)
		ret = -EAGAIN;
	if (!ret) {
		p[0].res.state_names = p[0].res.merged_names;
		take_parts(r, p, n);
		return 0;
	}
	for (unsigned k = 0; k < n; k++) {
		rep_free_kept(&p[k].res);
		rep_attrib_free(&p[k].res);
		if (p[k].rd)
			wfw_reader_close(p[k].rd);
	}
	free(p[0].res.merged_names);
	return ret;
}

/* Threads for r: -j; one for small files, to select rows, or a timeline. */
unsigned rep_jobs_for(const struct rep_cli *c, const struct wfw_rep_result *r)
{
	unsigned n = c->jobs < WFW_REPORT_MAX_PARTS ? c->jobs : WFW_REPORT_MAX_PARTS;

	if (c->include || c->exclude || r->collectors || wfw_rep_is_telemetry(r))
		return 1;
	return wfw_par_file_threads(r->path, n, c->jobs_given);
}

