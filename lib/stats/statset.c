/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/statset.h"

static bool is_timestamp(const char *name)
{
	static const char *const stamps[] = { "LTime", "TBI", "TAI", "TIntr" };

	for (size_t i = 0; i < sizeof(stamps) / sizeof(stamps[0]); i++)
		if (!strcmp(name, stamps[i]))
			return true;
	return false;
}

static bool wanted(const struct wfw_statset_cfg *cfg, const char *name)
{
	if (!cfg->metrics || !cfg->nmetrics)
		return !is_timestamp(name);
	for (size_t i = 0; i < cfg->nmetrics; i++)
		if (!fnmatch(cfg->metrics[i], name, 0))
			return true;
	return false;
}

int wfw_statset_init(struct wfw_statset *s, const struct wultfw_schema *schema,
		     const struct wfw_statset_cfg *cfg, char *err, size_t errlen)
{
	size_t nacc, limit = cfg->exact_limit;

	memset(s, 0, sizeof(*s));
	s->schema = schema;
	s->gcol = -1;
	s->ngroups = 1;
	if (cfg->group_by && *cfg->group_by) {
		for (size_t c = 0; c < schema->ncols; c++) {
			if (schema->cols[c].type == WULTFW_COL_ENUM &&
			    !strcmp(schema->cols[c].name, cfg->group_by)) {
				s->gcol = (int)c;
				s->ngroups = schema->cols[c].n_enum + 1;
			}
		}
	}
	s->mcol = calloc(schema->ncols ? schema->ncols : 1, sizeof(*s->mcol));
	if (!s->mcol)
		return -ENOMEM;
	for (size_t c = 0; c < schema->ncols; c++) {
		if (schema->cols[c].type != WULTFW_COL_ENUM &&
		    wanted(cfg, schema->cols[c].name))
			s->mcol[s->nmetrics++] = c;
	}
	if (!s->nmetrics) {
		snprintf(err, errlen, "no numeric column matches the metrics "
			 "asked for");
		wfw_statset_free(s);
		return -ENOENT;
	}
	nacc = s->nmetrics * s->ngroups;
	/* Keep the kept values of all accumulators within the budget. */
	if (limit > cfg->exact_memory / sizeof(double) / nacc)
		limit = cfg->exact_memory / sizeof(double) / nacc;
	s->exact_limit = limit;
	s->acc = calloc(nacc, sizeof(*s->acc));
	s->nans = calloc(s->nmetrics, sizeof(*s->nans));
	s->gcount = calloc(s->ngroups, sizeof(*s->gcount));
	if (!s->acc || !s->nans || !s->gcount) {
		wfw_statset_free(s);
		return -ENOMEM;
	}
	for (size_t m = 0; m < s->nmetrics; m++) {
		bool ints = schema->cols[s->mcol[m]].type == WULTFW_COL_INT;

		for (size_t g = 0; g < s->ngroups; g++)
			wfw_acc_init(&s->acc[m * s->ngroups + g], limit, ints);
	}
	return 0;
}

void wfw_statset_free(struct wfw_statset *s)
{
	if (s->acc)
		for (size_t i = 0; i < s->nmetrics * s->ngroups; i++)
			wfw_acc_free(&s->acc[i]);
	free(s->acc);
	free(s->mcol);
	free(s->nans);
	free(s->tmp);
	free(s->order);
	free(s->grow);
	free(s->gcount);
	memset(s, 0, sizeof(*s));
	s->gcol = -1;
}

static int ensure_scratch(struct wfw_statset *s, size_t rows)
{
	if (rows <= s->scratch)
		return 0;
	free(s->tmp);
	free(s->order);
	free(s->grow);
	s->tmp = malloc(rows * sizeof(*s->tmp));
	s->order = malloc(rows * sizeof(*s->order));
	s->grow = malloc(rows * sizeof(*s->grow));
	if (!s->tmp || !s->order || !s->grow) {
		s->scratch = 0;
		return -ENOMEM;
	}
	s->scratch = rows;
	return 0;
}

/*
 * Copy column c of the rows listed in `order` (all rows when NULL) into
 * s->tmp as doubles, dropping NaNs. Returns how many were kept.
 */
static size_t gather(struct wfw_statset *s, const struct wultfw_batch *b,
		     size_t m, const uint32_t *order, size_t n)
{
	const union wultfw_cell *cells = b->cells;
	size_t c = s->mcol[m], nc = b->ncols, k = 0;
	double *t = s->tmp;

	if (s->schema->cols[c].type == WULTFW_COL_INT) {
		if (order)
			for (size_t i = 0; i < n; i++)
				t[i] = (double)cells[order[i] * nc + c].i;
		else
			for (size_t i = 0; i < n; i++)
				t[i] = (double)cells[i * nc + c].i;
		return n;
	}
	for (size_t i = 0; i < n; i++) {
		double v = cells[(order ? order[i] : i) * nc + c].f;

		t[k] = v;
		k += !isnan(v);
	}
	s->nans[m] += n - k;
	return k;
}

/* Sort row numbers by group (counting sort); true if only one group. */
static bool group_rows(struct wfw_statset *s, const struct wultfw_batch *b,
		       size_t *only)
{
	size_t gc = (size_t)s->gcol, ng = s->ngroups, nc = b->ncols;
	uint32_t *cnt = s->gcount;
	size_t pos = 0;

	memset(cnt, 0, ng * sizeof(*cnt));
	for (size_t r = 0; r < b->rows; r++) {
		int64_t e = b->cells[r * nc + gc].i;
		uint32_t g = (e >= 0 && (uint64_t)e < ng - 1) ?
			(uint32_t)e : (uint32_t)(ng - 1);

		s->grow[r] = g;
		cnt[g]++;
	}
	for (size_t g = 0; g < ng; g++) {
		uint32_t n = cnt[g];

		if (n == b->rows) {
			*only = g;
			return true;
		}
		cnt[g] = (uint32_t)pos;	/* now the start offset */
		pos += n;
	}
	for (size_t r = 0; r < b->rows; r++)
		s->order[cnt[s->grow[r]]++] = (uint32_t)r;
	/* cnt[g] is now the end of group g */
	return false;
}

int wfw_statset_add(struct wfw_statset *s, const struct wultfw_batch *b)
{
	size_t only = 0;
	bool one = true;

	if (!b->rows)
		return 0;
	if (b->rows > UINT32_MAX || ensure_scratch(s, b->rows))
		return -ENOMEM;
	if (s->gcol >= 0)
		one = group_rows(s, b, &only);
	for (size_t m = 0; m < s->nmetrics; m++) {
		struct wfw_acc *acc = &s->acc[m * s->ngroups];
		size_t start = 0;

		if (one) {
			size_t n = gather(s, b, m, NULL, b->rows);

			if (wfw_acc_add_many(&acc[only], s->tmp, n))
				return -ENOMEM;
			continue;
		}
		for (size_t g = 0; g < s->ngroups; g++) {
			size_t end = s->gcount[g], n;

			if (end == start)
				continue;
			n = gather(s, b, m, s->order + start, end - start);
			if (wfw_acc_add_many(&acc[g], s->tmp, n))
				return -ENOMEM;
			start = end;
		}
	}
	s->rows += b->rows;
	return 0;
}

const char *wfw_statset_group_name(const struct wfw_statset *s, size_t g)
{
	const struct wultfw_column *col;

	if (s->gcol < 0 || g >= s->ngroups - 1)
		return "-";
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
		uint64_t c = s->acc[m * s->ngroups + g].n;

		n = c > n ? c : n;
	}
	return n;
}

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
	for (size_t i = 0; i < np; i++)
		out->pct[i] = wfw_acc_percentile(a, p[i]) / div;
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
	if (col->type == WULTFW_COL_INT && col->divisor > 1)
		div = col->divisor;
	if (g != SIZE_MAX) {
		summarize(&s->acc[m * s->ngroups + g], div, p, np, out);
		return 0;
	}
	wfw_acc_init(&all, s->exact_limit, col->type == WULTFW_COL_INT);
	for (size_t i = 0; i < s->ngroups && !ret; i++)
		ret = wfw_acc_merge(&all, &s->acc[m * s->ngroups + i]);
	if (!ret)
		summarize(&all, div, p, np, out);
	wfw_acc_free(&all);
	return ret;
}

size_t wfw_statset_bytes(const struct wfw_statset *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nmetrics * s->ngroups; i++)
		n += wfw_acc_bytes(&s->acc[i]);
	return n;
}
