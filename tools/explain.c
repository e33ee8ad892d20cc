/* SPDX-License-Identifier: MIT */
/*
 * wultfw calc --explain: one result's latency explained (doc/attribution.md).
 * Its columns are found and checked, its info.yml and threads file read,
 * then the passes over its parts find each group's percentile exactly and
 * gather the rows at or above it (explain_pass.c, explain_collect.c).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_impl.h"
#include "datafmt/infoyml.h"
#include "datafmt/locate.h"
#include "datafmt/reader.h"
#include "datafmt/runstate.h"
#include "par/par.h"
#include "stats/report.h"

/* Narrowings after the first pass: 12 of 64 bits each (4096 buckets). */
#define MAX_REFINE 8

size_t xres_group(struct xres *x, const char *name)
{
	struct xgroup *g;

	for (size_t i = 0; i < x->ng; i++)
		if (!strcmp(x->g[i].name, name))
			return i;
	g = realloc(x->g, (x->ng + 1) * sizeof(*g));
	if (!g)
		return SIZE_MAX;
	x->g = g;
	g = &x->g[x->ng];
	*g = (struct xgroup){ .name = strdup(name),
			      .hist = calloc(XR_LOG_BUCKETS, sizeof(*g->hist)) };
	xtail_init(&g->tail, x->c->exact_limit);
	if (!g->name || !g->hist) {
		free(g->name);
		free(g->hist);
		return SIZE_MAX;
	}
	return x->ng++;
}

size_t xres_name(struct xres *x, const char *name)
{
	char **n;

	for (size_t i = 0; i < x->nnames; i++)
		if (!strcmp(x->names[i], name))
			return i;
	n = realloc(x->names, (x->nnames + 1) * sizeof(*n));
	if (!n)
		return SIZE_MAX;
	x->names = n;
	if (!(n[x->nnames] = strdup(name)))
		return SIZE_MAX;
	return x->nnames++;
}

/* What the passes found, gone: for a second try with one part. */
static void xres_reset(struct xres *x)
{
	for (size_t i = 0; i < x->ng; i++) {
		struct xgroup *g = &x->g[i];

		free(g->name);
		free(g->hist);
		free(g->cand);
		xtail_free(&g->tail);
		free(g->max.cause);
		free(g->max.state);
	}
	free(x->g);
	for (size_t i = 0; i < x->nnames; i++)
		free(x->names[i]);
	free(x->names);
	free(x->offset);
	x->g = NULL;
	x->names = NULL;
	x->offset = NULL;
	x->ng = x->nnames = 0;
	x->rows = x->kept = x->nolat = x->none = x->broken = x->first_broken = 0;
}

static void xres_free(struct xres *x)
{
	xres_reset(x);
	wfw_xp_threads_free(&x->th.t);
	free(x->smi_why);
	free(x->lost);
}

static int fail(struct xres *x, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct xres *x, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->err, sizeof(x->err), fmt, ap);
	va_end(ap);
	return err;
}

/* ---- the columns ---- */

/* The attribution's columns; what lacks them said as the contract asks. */
static int find_parts(struct xres *x, const struct wultfw_schema *s)
{
	const char *need[WFW_XP_NCAT + 2];
	char list[512] = "";
	size_t n = 0, missing = 0, at = 0;

	for (int i = 0; i < WFW_XP_NCAT; i++) {
		int k = wfw_xp_col_order[i];

		x->t[k] = wfw_schema_find(s, need[n++] = wfw_xp_time_cols[k]);
	}
	for (int k = 0; k < WFW_XP_NCNT; k++)
		x->cnt[k] = wfw_schema_find(s, wfw_xp_count_cols[k]);
	x->cause = wfw_schema_find(s, need[n++] = "Cause");
	x->pid = wfw_schema_find(s, need[n++] = "CausePID");
	for (size_t i = 0; i < n; i++) {
		if (wfw_schema_find(s, need[i]) >= 0)
			continue;
		missing++;
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
				       at ? ", " : "", need[i]);
	}
	if (missing == n)
		return fail(x, -ENOENT, "%s has no attribution columns (%s): measure with "
			    "latency attribution on, see doc/attribution.md", x->r->path, list);
	if (missing)
		return fail(x, -ENOENT, "%s lacks the attribution columns %s (see doc/attribution.md)",
			    x->r->path, list);
	return 0;
}

/* The latency explained: -m's one name, else info.yml's attrib_latency. */
static int find_latency(struct xres *x, const struct wultfw_schema *s,
			const struct wfw_infoyml *y)
{
	const struct wfw_names *m = &x->c->metrics;
	char *name = NULL;
	int ret = 0;

	if (m->n > 1 || (m->n && wfw_names_is_pattern(m->v[0])))
		return fail(x, -EINVAL, "--explain explains one latency column: give -m one "
			    "column name, not '%s'", m->n > 1 ? m->v[1] : m->v[0]);
	name = m->n ? strdup(m->v[0]) : wfw_infoyml_get(y, "attrib_latency");
	if (!name)
		return fail(x, -ENOENT, "%s: its info.yml names no attrib_latency: give the "
			    "explained latency column with -m (WakeLatency for timer, IntrLatency "
			    "for the others; see doc/attribution.md)", x->r->path);
	x->lat = wfw_schema_find(s, name);
	if (x->lat < 0)
		ret = fail(x, -ENOENT, "%s: no column %s (%s) to explain", x->r->path, name,
			   m->n ? "-m" : "info.yml attrib_latency");
	else if (s->cols[x->lat].type == WULTFW_COL_ENUM && s->cols[x->lat].n_enum)
		ret = fail(x, -EINVAL, "%s: %s holds text, not a latency", x->r->path, name);
	else
		snprintf(x->latname, sizeof(x->latname), "%s", s->cols[x->lat].name);
	wfw_xp_escape(x->lattxt, sizeof(x->lattxt), x->latname);
	free(name);
	return ret;
}

/* -c, -g: the group column; the max's C-state column either way. */
static int find_groups(struct xres *x, const struct wultfw_schema *s)
{
	struct calc *c = x->c;
	int st = wfw_schema_find(s, "ReqCState");

	x->gcol = c->per_cstate ? wfw_schema_find(s, c->group_by) : -1;
	if (x->gcol >= 0 && s->cols[x->gcol].type != WULTFW_COL_ENUM)
		x->gcol = -1;
	if (c->per_cstate && x->gcol < 0 && strcmp(c->group_by, "ReqCState")) {
		calc_no_group_column(x->r->path, c->group_by, s, x->err, sizeof(x->err));
		return -ENOENT;
	}
	if (c->per_cstate && x->gcol < 0)
		calc_no_cstates_note(x->r->path);
	x->scol = x->gcol >= 0 ? x->gcol :
		  st >= 0 && s->cols[st].type == WULTFW_COL_ENUM ? st : -1;
	if (x->scol >= 0)
		snprintf(x->scolname, sizeof(x->scolname), "%s", s->cols[x->scol].name);
	return 0;
}

/* s (malloc'ed or NULL) as wfw_xp_escape() shows it, in place of s. */
static char *escaped(char *s)
{
	size_t len = s ? 4 * strlen(s) + 1 : 0;
	char *e = s ? malloc(len) : NULL;

	if (e)
		wfw_xp_escape(e, len, s);
	free(s);
	return e;
}

/* The columns, from a first look at the file and its info.yml. */
static int find_columns(struct xres *x)
{
	struct wfw_reader_opts o = { .one_pass = true };
	struct wfw_reader *rd;
	struct wfw_infoyml y;
	const struct wultfw_schema *s;
	int ret = wfw_reader_open_opts(&rd, x->r->path, &o, x->err, sizeof(x->err));

	if (ret)
		return ret;
	if (explain_info_read(&y, x->r->path) == -ENOMEM) {
		wfw_reader_close(rd);
		return fail(x, -ENOMEM, "out of memory");
	}
	s = wfw_reader_schema(rd);
	ret = find_parts(x, s);
	if (!ret)
		ret = find_latency(x, s, &y);
	if (!ret)
		ret = find_groups(x, s);
	if (!ret) {
		const struct wultfw_column *col = &s->cols[x->lat];

		wfw_xp_escape(x->unit, sizeof(x->unit), col->unit ? col->unit : "");
		x->decimals = wfw_report_decimals(col);
		if (x->cnt[WFW_XP_CNT_SMI] < 0)
			x->smi_why = escaped(wfw_infoyml_get(&y, "attrib_smi"));
		x->lost = escaped(wfw_infoyml_get(&y, "attrib_lost"));
	}
	wfw_infoyml_free(&y);
	wfw_reader_close(rd);
	return ret;
}

/* ---- the passes ---- */

static bool any_hist(const struct xres *x)
{
	for (size_t g = 0; g < x->ng; g++)
		if (x->g[g].rank.state == XR_HIST)
			return true;
	return false;
}

/* The key and category of merged row r's cause (xres.names). */
static void row_key(const struct xres *x, const struct xrow *r, uint64_t *key, int *cat)
{
	*key = XKEY_NONE;
	*cat = WFW_XP_OTHER;
	if (r->cause < 0)
		return;
	*cat = wfw_xp_cause_cat(x->names[r->cause]);
	*key = *cat != WFW_XP_THREAD ? (uint64_t)r->cause + 1 :
	       XKEY_THREAD | (r->pid >= 0 ? (uint64_t)r->pid : XKEY_NOPID);
}

/* A group whose range was kept: its percentile, then its rows at or above. */
static int settle(struct xres *x, struct xgroup *g)
{
	int64_t *v = malloc((g->ncand ? g->ncand : 1) * sizeof(*v)), from;
	int ret = v ? 0 : -ENOMEM;

	for (size_t i = 0; v && i < g->ncand; i++)
		v[i] = g->cand[i].lat;
	if (!ret && xr_pick(&g->rank, v, g->ncand))
		ret = fail(x, -EIO, "%s: the file changed while it was read", x->r->path);
	free(v);
	from = ret ? 0 : xr_tail_from(&g->rank);
	for (size_t i = 0; !ret && i < g->ncand; i++) {
		const struct xrow *r = &g->cand[i];
		uint64_t key;
		int cat;

		row_key(x, r, &key, &cat);
		if (r->lat >= from)
			ret = xtail_add(&g->tail, r, key, cat);
	}
	free(g->cand);
	g->cand = NULL;
	g->ncand = g->capcand = 0;
	return ret == -ENOMEM ? fail(x, ret, "out of memory") : ret;
}

static int analyse(struct xres *x)
{
	int ret;

	x->offset = calloc(x->nparts, sizeof(*x->offset));
	if (!x->offset || xres_group(x, "all") == SIZE_MAX)
		return fail(x, -ENOMEM, "out of memory");
	ret = xpass_hist(x);
	for (size_t g = 0; !ret && g < x->ng; g++)
		xr_start(&x->g[g].rank, x->g[g].n, x->c->explain_pct, x->g[g].hist);
	for (int i = 0; !ret && any_hist(x) && i < MAX_REFINE; i++)
		ret = xpass_refine(x);
	if (!ret && any_hist(x))
		ret = fail(x, -EIO, "%s: the percentile did not settle (the file changed?)",
			   x->r->path);
	if (!ret)
		ret = xpass_tail(x);
	for (size_t g = 0; !ret && g < x->ng; g++)
		if (x->g[g].rank.state == XR_KEEP)
			ret = settle(x, &x->g[g]);
	x->kept = x->g[0].n + x->nolat;
	return ret;
}

/* The passes on every CPU asked for; any failure: again with one part. */
static int passes(struct xres *x)
{
	struct calc *c = x->c;
	int ret;

	x->threads = wfw_par_file_threads(x->r->path, c->jobs, c->jobs_given);
	x->nparts = x->threads;
	ret = analyse(x);
	if (!ret || x->nparts < 2 || ret == -ENOMEM)
		return ret;
	xres_reset(x);
	x->threads = x->nparts = 1;
	return analyse(x);
}

/* ---- one result ---- */

static int explain(struct xres *x, bool *opened)
{
	struct calc *c = x->c;
	int ret;

	ret = wfw_result_locate(x->r->arg, x->r->path, sizeof(x->r->path), x->err,
				sizeof(x->err));
	if (ret)
		return ret;
	wfw_run_end_warn("calc", x->r->path);
	if (calc_killed_before_data(x->r->path))
		return -ENODATA;
	ret = find_columns(x);
	if (!ret)
		ret = explain_threads_read(&x->th, x->r->path);
	if (ret == -ENOMEM)
		return fail(x, ret, "out of memory");
	x->one_pass = !c->include && !c->exclude;
	if (!ret)
		ret = passes(x);
	if (!ret)
		xnotes(x);
	if (!ret && c->format == CALC_JSON)
		ret = xprint_json(x, !*opened);
	else if (!ret)
		ret = xprint_text(x, !*opened);
	*opened |= !ret;
	return ret;
}

int calc_explain(struct calc *c, struct calc_result *r, bool *opened)
{
	struct xres x = { .c = c, .r = r, .lat = -1, .gcol = -1, .scol = -1 };
	int ret;

	ret = explain(&x, opened);
	if (ret && x.err[0])
		fprintf(stderr, "wultfw calc: %s\n", x.err);
	xres_free(&x);
	return ret;
}

void calc_explain_end(struct calc *c, bool opened)
{
	if (c->format == CALC_JSON && opened)
		printf("\n  ]\n}\n");
}
