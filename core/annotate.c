/* SPDX-License-Identifier: MIT */
/* Annotators: columns added to each datapoint (annotate.h). */
#include "config.h"

#include "annotate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* Keys of an annotator group the core reads; the rest are the plugin's. */
static const char *const annot_core_keys[] = { "plugin", NULL };

void wfw_annot_parse(struct wfw_annot_list *al, const config_setting_t *list,
		     const char *key, struct wfw_cfgerr *errs)
{
	char ekey[192];
	int n, i;

	if (config_setting_type(list) != CONFIG_TYPE_LIST) {
		wfw_cfgerr_at(errs, list, key,
			      "expected a list of annotators such as ( { plugin = \"attrib\"; } )");
		return;
	}
	n = config_setting_length(list);
	al->pi = calloc((size_t)n + 1, sizeof(*al->pi));
	if (!al->pi)
		return;
	for (i = 0; i < n; i++) {
		snprintf(ekey, sizeof(ekey), "%s[%d]", key, i);
		if (!wfw_load_plugin(&al->pi[al->n], config_setting_get_elem(list, (unsigned)i),
				     ekey, WULTFW_KIND_ANNOTATOR, annot_core_keys, errs))
			al->n++;
		else
			wfw_plugin_inst_free(&al->pi[al->n]);
	}
}

void wfw_annot_free(struct wfw_annot_list *al)
{
	for (size_t i = 0; i < al->n; i++)
		wfw_plugin_inst_free(&al->pi[i]);
	free(al->pi);
	al->pi = NULL;
	al->n = 0;
}

/* ---- the wide schema ---- */

static int column_index(const struct wultfw_schema *s, const char *name)
{
	for (size_t i = 0; name && i < s->ncols; i++)
		if (!strcmp(s->cols[i].name, name))
			return (int)i;
	return -1;
}

/* The source's interval columns: INT, ns. */
static int find_interval(struct wfw_annotators *as, const struct wultfw_run_info *ri,
			 const char *annot)
{
	const struct wultfw_source_info *si = ri->source;
	const char *src = ri->source->devid ? ri->source->devid : "the source";

	if (!si->interval_start || !si->interval_latency) {
		wfw_err("annotator '%s': %s names no interval (LTime and a latency) for its datapoints, so nothing can be joined to them: annotators work beside sources that measure a CPU (timer, hrt, tdt, i210)",
			annot, src);
		return -EINVAL;
	}
	as->c_start = column_index(ri->schema, si->interval_start);
	as->c_latency = column_index(ri->schema, si->interval_latency);
	if (as->c_start < 0 || as->c_latency < 0 ||
	    ri->schema->cols[as->c_start].type != WULTFW_COL_INT ||
	    ri->schema->cols[as->c_latency].type != WULTFW_COL_INT) {
		wfw_err("annotator '%s': %s names %s and %s as its interval, but they are not both integer columns of its datapoints: a plugin bug",
			annot, src, si->interval_start, si->interval_latency);
		return -EINVAL;
	}
	return 0;
}

/* Room for the source's columns and every annotator's, after their open. */
static int build_schema(struct wfw_annotators *as, const struct wultfw_schema *src,
			const struct wultfw_annotator_info *ai, size_t capacity)
{
	size_t i, n = src->ncols, widest = 0;

	for (i = 0; i < as->nopen; i++) {
		as->first[i] = n;
		n += ai[i].schema->ncols;
		if (ai[i].schema->ncols > widest)
			widest = ai[i].schema->ncols;
	}
	as->cols = calloc(n, sizeof(*as->cols));
	as->start = calloc(capacity, sizeof(*as->start));
	as->latency = calloc(capacity, sizeof(*as->latency));
	as->wide.cells = calloc(capacity * n, sizeof(*as->wide.cells));
	as->out.cells = calloc(capacity * (widest ? widest : 1), sizeof(*as->out.cells));
	if (!as->cols || !as->start || !as->latency || !as->wide.cells || !as->out.cells)
		return -ENOMEM;
	memcpy(as->cols, src->cols, src->ncols * sizeof(*as->cols));
	for (i = 0; i < as->nopen; i++)
		memcpy(&as->cols[as->first[i]], ai[i].schema->cols,
		       ai[i].schema->ncols * sizeof(*as->cols));
	as->schema.cols = as->cols;
	as->schema.ncols = n;
	as->src_ncols = src->ncols;
	as->wide.ncols = n;
	as->wide.capacity = as->out.capacity = capacity;
	return 0;
}

/* An annotator's columns: named, none clashing with one before it. */
static int check_columns(const struct wfw_annotators *as, const struct wultfw_schema *src,
			 size_t i, const struct wultfw_schema *mine)
{
	const char *name = as->al->pi[i].h.desc->name;

	if (!mine || !mine->ncols) {
		wfw_err("annotator '%s' declared no columns: a plugin bug", name);
		return -EINVAL;
	}
	for (size_t c = 0; c < mine->ncols; c++) {
		if (!mine->cols[c].name || column_index(src, mine->cols[c].name) >= 0) {
			wfw_err("annotator '%s': its column %s is the source's already: one of them must go",
				name, mine->cols[c].name ? mine->cols[c].name : "(unnamed)");
			return -EINVAL;
		}
	}
	return 0;
}

int wfw_annot_open(struct wfw_annotators *as, struct wfw_annot_list *al,
		   const struct wultfw_run_info *ri, size_t capacity)
{
	struct wultfw_annotator_info *ai;
	char what[192];
	int ret = 0;

	memset(as, 0, sizeof(*as));
	as->al = al;
	ai = calloc(al->n + 1, sizeof(*ai));
	as->first = calloc(al->n + 1, sizeof(*as->first));
	if (!ai || !as->first) {
		free(ai);
		return -ENOMEM;
	}
	for (; !ret && as->nopen < al->n; as->nopen++) {
		struct wfw_plugin_inst *pi = &al->pi[as->nopen];

		ret = find_interval(as, ri, pi->h.desc->name);
		if (ret)
			break;
		ai[as->nopen].size = sizeof(*ai);
		ret = pi->h.desc->annotator->open(&pi->ctx, ri, &ai[as->nopen]);
		if (ret < 0) {
			snprintf(what, sizeof(what), "annotator '%s' (%s) cannot run here",
				 pi->h.desc->name, pi->key);
			wfw_plugin_error(pi, ret, what);
			break;
		}
		ret = check_columns(as, ri->schema, as->nopen, ai[as->nopen].schema);
	}
	if (!ret)
		ret = build_schema(as, ri->schema, ai, capacity);
	free(ai);
	return ret;
}

int wfw_annot_start(struct wfw_annotators *as)
{
	char what[192];
	int ret;

	for (; as->nstarted < as->nopen; as->nstarted++) {
		struct wfw_plugin_inst *pi = &as->al->pi[as->nstarted];

		ret = pi->h.desc->annotator->start(&pi->ctx);
		if (ret < 0) {
			snprintf(what, sizeof(what), "annotator '%s' (%s) cannot start",
				 pi->h.desc->name, pi->key);
			wfw_plugin_error(pi, ret, what);
			return ret;
		}
	}
	return 0;
}

/* ---- each batch ---- */

/* What a cell of a column holds when nothing is known. */
static union wultfw_cell empty_cell(const struct wultfw_column *c)
{
	union wultfw_cell v;

	if (c->type == WULTFW_COL_FLOAT)
		v.i = WULTFW_FLOAT_EMPTY_BITS;
	else if (c->type == WULTFW_COL_ENUM)
		v.i = -1;
	else
		v.i = WULTFW_CELL_EMPTY;
	return v;
}

/* The source's rows into the wide batch, and their intervals. */
static void widen(struct wfw_annotators *as, const struct wultfw_batch *b)
{
	for (size_t r = 0; r < b->rows; r++) {
		const union wultfw_cell *src = wultfw_crow(b, r);

		memcpy(wultfw_row(&as->wide, r), src, as->src_ncols * sizeof(*src));
		as->start[r] = src[as->c_start].i;
		as->latency[r] = src[as->c_latency].i;
	}
	as->wide.rows = b->rows;
	as->wide.discarded = b->discarded;
}

/* Annotator i's columns of every row: empty, then what it knows. */
static int annotate_one(struct wfw_annotators *as, size_t i,
			const struct wultfw_intervals *iv)
{
	struct wfw_plugin_inst *pi = &as->al->pi[i];
	const struct wultfw_column *cols = &as->cols[as->first[i]];
	size_t n = (i + 1 < as->nopen ? as->first[i + 1] : as->schema.ncols) - as->first[i];
	char what[192];
	int ret;

	as->out.ncols = n;
	as->out.rows = iv->n;
	for (size_t r = 0; r < iv->n; r++)
		for (size_t c = 0; c < n; c++)
			wultfw_row(&as->out, r)[c] = empty_cell(&cols[c]);
	ret = pi->h.desc->annotator->annotate(&pi->ctx, iv, &as->out);
	if (ret < 0) {
		snprintf(what, sizeof(what), "annotator '%s' (%s)", pi->h.desc->name, pi->key);
		wfw_plugin_error(pi, ret, what);
		return ret;
	}
	for (size_t r = 0; r < iv->n; r++)
		memcpy(&wultfw_row(&as->wide, r)[as->first[i]], wultfw_row(&as->out, r),
		       n * sizeof(union wultfw_cell));
	return 0;
}

struct wultfw_batch *wfw_annot_batch(struct wfw_annotators *as,
				     const struct wultfw_batch *b)
{
	struct wultfw_intervals iv = {
		.n = b->rows, .start = as->start, .latency = as->latency,
	};

	widen(as, b);
	for (size_t i = 0; b->rows && i < as->nopen; i++)
		if (annotate_one(as, i, &iv))
			return NULL;
	return &as->wide;
}

int wfw_annot_stop(struct wfw_annotators *as)
{
	char what[192];
	int ret, first = 0;

	while (as->nstarted) {
		struct wfw_plugin_inst *pi = &as->al->pi[--as->nstarted];

		ret = pi->h.desc->annotator->stop(&pi->ctx);
		if (ret < 0) {
			snprintf(what, sizeof(what), "annotator '%s' (%s): stop",
				 pi->h.desc->name, pi->key);
			wfw_plugin_error(pi, ret, what);
			if (!first)
				first = ret;
		}
	}
	return first;
}

void wfw_annot_close(struct wfw_annotators *as)
{
	while (as->nopen) {
		struct wfw_plugin_inst *pi = &as->al->pi[--as->nopen];

		pi->h.desc->annotator->close(&pi->ctx);
	}
	free(as->cols);
	free(as->first);
	free(as->start);
	free(as->latency);
	free(as->wide.cells);
	free(as->out.cells);
	memset(as, 0, sizeof(*as));
}
