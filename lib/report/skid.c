/* SPDX-License-Identifier: MIT */
/*
 * A skid result as a PMC skid tester looks at it (doc/skid.md): per
 * precise level, where the samples landed (Where: hit, runway, loop,
 * outside) and how far after the load, in instructions (Skid) and bytes
 * (SkidBytes): a histogram along the runway. Counted from every row of
 * the data file, whatever its size, in bounded memory.
 */
#include "config.h"

#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/reader.h"
#include "stats/report.h"

/* Bins a histogram keeps; past them, pairs of bins merge (width x 2). */
#define SKID_BINS 4096
/* Levels and classes (Where's names) kept apart; the rest are "other". */
#define SKID_LEVELS 16
#define SKID_CLASSES 8

/* Non-negative integers v in bins [k w, (k + 1) w), w a power of two. */
struct skid_hist {
	uint64_t c[SKID_BINS];
	uint64_t w, rows;
	double max;
};

struct skid_level {
	uint64_t samples;
	uint64_t cls[SKID_CLASSES + 1];	/* by Where's index; last: other, none */
	struct skid_hist skid, bytes;
};

struct skid_view {
	int pc, sc, bc, wc;		/* Precise, Skid, SkidBytes, Where */
	struct skid_level lv[SKID_LEVELS + 1];	/* last: other levels, none */
	uint64_t odd;			/* Skid values no bin takes: negative, huge */
};

static void merge_pairs(struct skid_hist *h)
{
	for (size_t i = 0; i < SKID_BINS / 2; i++)
		h->c[i] = h->c[2 * i] + h->c[2 * i + 1];
	memset(h->c + SKID_BINS / 2, 0, SKID_BINS / 2 * sizeof(h->c[0]));
	h->w *= 2;
}

/* A value into h: false when no bin can take it (negative, not a number, huge). */
static bool hist_add(struct skid_hist *h, double v)
{
	uint64_t u;

	if (!(v >= 0 && v < 1e15))
		return false;
	u = (uint64_t)v;
	while (u / h->w >= SKID_BINS)
		merge_pairs(h);
	h->c[u / h->w]++;
	h->rows++;
	if (v > h->max)
		h->max = v;
	return true;
}

/* A name cell's index, n when it has none or one past n. */
static size_t enum_at(const union wultfw_cell *row, int k, size_t n)
{
	int64_t i = k >= 0 ? row[k].i : 0;

	return i >= 0 && i < (int64_t)n ? (size_t)i : n;
}

static void add_row(struct skid_view *sv, const struct wultfw_schema *s,
		    const union wultfw_cell *row)
{
	const struct wultfw_column *c = s->cols;
	struct skid_level *l = &sv->lv[enum_at(row, sv->pc, SKID_LEVELS)];
	double skid = wfw_cell_value(&c[sv->sc], row[sv->sc]);

	l->samples++;
	l->cls[enum_at(row, sv->wc, SKID_CLASSES)]++;
	if (!isnan(skid))
		sv->odd += !hist_add(&l->skid, skid);
	if (sv->bc >= 0) {
		double b = wfw_cell_value(&c[sv->bc], row[sv->bc]);

		if (!isnan(b))
			hist_add(&l->bytes, b);
	}
}

/* The columns a skid view needs: Skid and Where at least, as names where names. */
static bool find_cols(struct skid_view *sv, const struct wultfw_schema *s)
{
	sv->pc = wfw_schema_find(s, "Precise");
	sv->sc = wfw_schema_find(s, "Skid");
	sv->bc = wfw_schema_find(s, "SkidBytes");
	sv->wc = wfw_schema_find(s, "Where");
	if (sv->pc >= 0 && s->cols[sv->pc].type != WULTFW_COL_ENUM)
		sv->pc = -1;
	if (sv->bc >= 0 && s->cols[sv->bc].type == WULTFW_COL_ENUM)
		sv->bc = -1;
	return sv->sc >= 0 && s->cols[sv->sc].type != WULTFW_COL_ENUM &&
	       sv->wc >= 0 && s->cols[sv->wc].type == WULTFW_COL_ENUM;
}

static void hist_json(FILE *f, const char *key, struct skid_hist *h, uint64_t w)
{
	size_t n = 0;

	while (h->w < w)
		merge_pairs(h);
	for (size_t i = 0; i < SKID_BINS; i++)
		if (h->c[i])
			n = i + 1;
	fprintf(f, ", \"%s\": {\"width\": %llu, \"rows\": %llu, \"max\": ", key,
		(unsigned long long)h->w, (unsigned long long)h->rows);
	wfw_rep_num(f, h->rows ? h->max : NAN);
	fputs(", \"counts\": [", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)h->c[i]);
	fputs("]}", f);
}

static const char *name_at(const struct wultfw_column *c, size_t i, const char *none)
{
	return c && i < c->n_enum ? c->enum_names[i] : none;
}

/* One level: {"name", "samples", "classes": [{"name", "n"}..], "skid", "bytes"}. */
static void level_json(FILE *f, const struct wultfw_schema *s, struct skid_view *sv,
		       size_t i, uint64_t ws, uint64_t wb)
{
	struct skid_level *l = &sv->lv[i];
	const struct wultfw_column *wc = &s->cols[sv->wc];
	size_t k = 0;

	fputs("{\"name\": ", f);
	wfw_json_string(f, name_at(sv->pc >= 0 && i < SKID_LEVELS ? &s->cols[sv->pc] : NULL,
				   i, sv->pc >= 0 ? "other" : "all"));
	fprintf(f, ", \"samples\": %llu, \"classes\": [", (unsigned long long)l->samples);
	for (size_t c = 0; c <= SKID_CLASSES; c++) {
		if (c == SKID_CLASSES && !l->cls[c])
			continue;
		if (c < SKID_CLASSES && c >= wc->n_enum)
			continue;
		fputs(k++ ? ", {\"name\": " : "{\"name\": ", f);
		wfw_json_string(f, name_at(c < SKID_CLASSES ? wc : NULL, c, "other"));
		fprintf(f, ", \"n\": %llu}", (unsigned long long)l->cls[c]);
	}
	fputs("]", f);
	hist_json(f, "skid", &l->skid, ws);
	hist_json(f, "bytes", &l->bytes, wb);
	fputs("}", f);
}

/* Every level with a sample, each level's bins as wide as the widest's. */
static void view_json(FILE *f, const struct wultfw_schema *s, struct skid_view *sv)
{
	uint64_t ws = 1, wb = 1;
	size_t k = 0;

	for (size_t i = 0; i <= SKID_LEVELS; i++) {
		ws = sv->lv[i].skid.w > ws ? sv->lv[i].skid.w : ws;
		wb = sv->lv[i].bytes.w > wb ? sv->lv[i].bytes.w : wb;
	}
	fputs("{\"levels\": [", f);
	for (size_t i = 0; i <= SKID_LEVELS; i++) {
		if (!sv->lv[i].samples)
			continue;
		fputs(k++ ? ", " : "", f);
		level_json(f, s, sv, i, ws, wb);
	}
	fprintf(f, "], \"odd\": %llu, \"bytes\": %s}", (unsigned long long)sv->odd,
		sv->bc >= 0 ? "true" : "false");
}

static struct skid_view *view_new(void)
{
	struct skid_view *sv = calloc(1, sizeof(*sv));

	for (size_t i = 0; sv && i <= SKID_LEVELS; i++)
		sv->lv[i].skid.w = sv->lv[i].bytes.w = 1;
	return sv;
}

/* Read r's data file into sv; the reader stays open for its names. */
static int read_all(const struct wfw_rep_result *r, struct skid_view *sv,
		    struct wfw_reader *rd)
{
	struct wultfw_batch b = { 0 };
	long n = 0;
	int ret = wfw_batch_alloc(&b, wfw_reader_schema(rd)->ncols, 4096);

	while (!ret && (n = wfw_reader_read(rd, &b)) > 0) {
		const struct wultfw_schema *s = wfw_reader_schema(rd);

		for (size_t i = 0; i < b.rows; i++)
			add_row(sv, s, wultfw_crow(&b, i));
		b.rows = 0;
	}
	wfw_batch_free(&b);
	if (!ret && n < 0)
		fprintf(stderr, "wultfw report: warning: %s: skid view: %s\n",
			r->path, wfw_reader_error(rd));
	return ret;
}

int wfw_skid_emit(const struct wfw_rep_result *r, FILE *f)
{
	struct wfw_reader *rd;
	struct skid_view *sv;
	char err[512];
	int ret;

	if (wfw_rep_col(r, "Skid") < 0 || wfw_reader_open(&rd, r->path, err, sizeof(err))) {
		fputs("null", f);
		return 0;
	}
	sv = view_new();
	ret = sv ? 0 : -ENOMEM;
	if (!ret && !find_cols(sv, wfw_reader_schema(rd))) {
		fputs("null", f);
	} else if (!ret) {
		ret = read_all(r, sv, rd);
		if (!ret)
			view_json(f, wfw_reader_schema(rd), sv);
	}
	free(sv);
	wfw_reader_close(rd);
	return ret;
}
