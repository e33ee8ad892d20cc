/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datasel.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "resultdir.h"

const char *const wfw_datasel_keys[] = { "include", "exclude", "keep_filtered", NULL };

static void parse_expr(struct wfw_datasel_text *t, const config_setting_t *s,
		       const char *key, struct wfw_cfgerr *errs)
{
	char err[1024];
	const char *text;

	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		wfw_cfgerr_at(errs, s, key,
			      "expected an expression in quotes such as \"WakeLatency < 1ms && ReqCState != 'POLL'\"");
		return;
	}
	text = config_setting_get_string(s);
	/* Columns are known only once the source is open: syntax now. */
	if (wfw_expr_check_syntax(text, err, sizeof(err))) {
		wfw_cfgerr_at(errs, s, key, "%s", err);
		return;
	}
	/* No row has a number yet: the result numbers the rows it keeps. */
	if (wfw_expr_text_uses_index(text)) {
		wfw_cfgerr_at(errs, s, key, "'index' (a result's row number) means nothing while measuring: rows are numbered in the result, after this selection; select by index afterwards (wultfw filter RESULT --include 'index < 1000')");
		return;
	}
	free(t->text);
	t->text = strdup(text);
	snprintf(t->where, sizeof(t->where), "%s:%d: %s", wfw_setting_file(s),
		 config_setting_source_line(s), key);
	t->setting = s;
	snprintf(t->key, sizeof(t->key), "%s", key);
}

void wfw_datasel_parse(struct wfw_datasel_cfg *c, const config_setting_t *s,
		       const char *key, struct wfw_cfgerr *errs)
{
	const char *name = config_setting_name(s);

	c->expr_given |= strcmp(name, "keep_filtered") != 0;
	if (!strcmp(name, "include")) {
		parse_expr(&c->include, s, key, errs);
	} else if (!strcmp(name, "exclude")) {
		parse_expr(&c->exclude, s, key, errs);
	} else if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
		wfw_cfgerr_at(errs, s, key, "expected true or false");
	} else {
		c->keep_filtered = config_setting_get_bool(s);
		c->keep_setting = s;
		snprintf(c->keep_key, sizeof(c->keep_key), "%s", key);
	}
}

void wfw_datasel_check(const struct wfw_datasel_cfg *c, struct wfw_cfgerr *errs)
{
	if (c->keep_filtered && !c->expr_given)
		wfw_cfgerr_at(errs, c->keep_setting, c->keep_key,
			      "keep_filtered = true keeps the datapoints include/exclude leave out: give include or exclude too");
}

void wfw_datasel_cfg_free(struct wfw_datasel_cfg *c)
{
	free(c->include.text);
	free(c->exclude.text);
	memset(c, 0, sizeof(*c));
}

static int compile_one(struct wfw_expr **e, const struct wfw_datasel_text *t,
		       const struct wultfw_schema *s)
{
	char err[2048];

	if (!t->text)
		return 0;
	if (!wfw_expr_compile(e, t->text, s, err, sizeof(err)))
		return 0;
	wfw_err("%s: %s", t->where, err);
	return -EINVAL;
}

int wfw_datasel_compile(struct wfw_datasel *d, const struct wfw_datasel_cfg *c,
			const struct wultfw_schema *s)
{
	memset(d, 0, sizeof(*d));
	d->cfg = c;
	if (compile_one(&d->sel.include, &c->include, s) ||
	    compile_one(&d->sel.exclude, &c->exclude, s)) {
		wfw_select_free(&d->sel);
		return -EINVAL;
	}
	return 0;
}

int wfw_datasel_open(struct wfw_datasel *d, const char *dir,
		     const struct wultfw_schema *s)
{
	char path[PATH_MAX];
	int ret;

	if (!d->cfg || !d->cfg->keep_filtered)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, WFW_DATASEL_FILE);
	ret = wfw_csvw_open(&d->filtered, path, s, 0);
	if (ret) {
		wfw_err("%s", d->filtered.out.msg);
		return ret;
	}
	/* Its header on the disk before anything is measured. */
	(void)fdatasync(d->filtered.out.fd);
	d->filtered_open = true;
	d->rest.ncols = s->ncols;
	return 0;
}

static bool selected(const struct wfw_select *sel, const union wultfw_cell *row)
{
	return (!sel->include || wfw_expr_match(sel->include, row)) &&
	       (!sel->exclude || !wfw_expr_match(sel->exclude, row));
}

/* Move the rows not selected to d->rest (grown as needed). */
static int set_aside(struct wfw_datasel *d, const union wultfw_cell *row)
{
	struct wultfw_batch *r = &d->rest;
	size_t nc = r->ncols;

	if (r->rows == r->capacity) {
		size_t cap = r->capacity ? r->capacity * 2 : 1024;
		union wultfw_cell *cells = realloc(r->cells, cap * nc * sizeof(*cells));

		if (!cells) {
			wfw_err("out of memory for the rows %s keeps", WFW_DATASEL_FILE);
			return -ENOMEM;
		}
		r->cells = cells;
		r->capacity = cap;
	}
	memcpy(&r->cells[r->rows++ * nc], row, nc * sizeof(*row));
	return 0;
}

int wfw_datasel_batch(struct wfw_datasel *d, struct wultfw_batch *b,
		      uint64_t room)
{
	size_t keep = 0, nc = b->ncols, r;
	int ret = 0;

	if (!wfw_select_active(&d->sel)) {
		if (b->rows > room)
			b->rows = (size_t)room;
		d->sel.kept += b->rows;
		return 0;
	}
	d->rest.rows = 0;
	for (r = 0; r < b->rows && keep < room; r++) {
		const union wultfw_cell *row = &b->cells[r * nc];

		if (!selected(&d->sel, row)) {
			d->sel.dropped++;
			if (d->filtered_open && !ret)
				ret = set_aside(d, row);
			continue;
		}
		if (keep != r)
			memmove(&b->cells[keep * nc], row, nc * sizeof(*row));
		keep++;
	}
	d->sel.kept += keep;
	b->rows = keep;
	if (!ret && d->rest.rows) {
		ret = wfw_csvw_write(&d->filtered, &d->rest);
		if (ret)
			wfw_err("%s", d->filtered.out.msg);
	}
	return ret;
}

int wfw_datasel_close(struct wfw_datasel *d, int failed)
{
	int ret = 0;

	if (d->filtered_open) {
		bool said = d->filtered.out.err != 0;	/* when it failed */

		(void)wfw_csvw_flush(&d->filtered);
		d->filtered_failed = d->filtered.out.err != 0;
		d->in_file = wfw_csvw_in_file(&d->filtered);
		ret = wfw_csvw_close(&d->filtered);
		if (ret && !said && ret == failed)	/* the run's own failure */
			wfw_info("%s", d->filtered.out.msg);
		else if (ret && !said)
			wfw_err("%s", d->filtered.out.msg);
		d->filtered_open = false;
	}
	return ret;
}

void wfw_datasel_info(const struct wfw_datasel *d, struct wfw_info *info)
{
	const struct wfw_datasel_cfg *c = d->cfg;

	if (!c || !wfw_datasel_wanted(c))
		return;
	if (c->include.text)
		wfw_info_str(info, "select_include", c->include.text);
	if (c->exclude.text)
		wfw_info_str(info, "select_exclude", c->exclude.text);
	wfw_info_fmt(info, "select_kept", "%" PRIu64, d->sel.kept);
	wfw_info_fmt(info, "select_left_out", "%" PRIu64, d->sel.dropped);
	if (c->keep_filtered)
		wfw_info_str(info, "select_left_out_file", WFW_DATASEL_FILE);
	if (d->filtered_failed)	/* what a full disk left of it */
		wfw_info_fmt(info, "filtered_rows_in_file", "%" PRIu64, d->in_file);
}

void wfw_datasel_free(struct wfw_datasel *d)
{
	wfw_datasel_close(d, 0);
	wfw_select_free(&d->sel);
	free(d->rest.cells);
	d->rest.cells = NULL;
}
