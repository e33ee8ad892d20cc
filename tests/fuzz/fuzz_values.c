// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for what consumes read values (issue 29): the input is
 * a CSV file (a memfd) read in one pass, as calc and report read it, and
 * its values go through
 *   - the statistics (lib/stats) as calc keeps them, with an exact limit
 *     taken from the input so that histograms come into play, whole and
 *     as two parts merged; every summary is checked: the count is the
 *     number of values in range (wfw_value_ok(), counted here apart), and
 *     min <= percentiles <= max, mean and std are finite numbers; calc's
 *     table and JSON are written, the JSON holding no non-number;
 *   - report's whole path (tools/report_keep.c, lib/report): rows kept,
 *     tails, data.js written into memory, which must hold no NaN or
 *     Infinity outside its strings;
 *   - report's reductions (lib/report/reduce.c, sample.c) directly, with
 *     the kept floats and with raw ones (infinities and NaN included),
 *     a small point budget so the dense scatter runs: weights add up to
 *     the plottable points, every point finite, histogram counts add up,
 *     the CCDF is ordered, the top-k never keeps a NaN;
 *   - the stats sink's histograms (sinks/stats binhist.c, cychist.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binfmt.h"
#include "binhist.h"
#include "cychist.h"
#include "fuzz_read.h"
#include "report/reduce.h"
#include "report/report.h"
#include "report/sample.h"
#include "report_load.h"
#include "stats/report.h"
#include "stats/statset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Rows looked at by the direct checks; columns kept for them. */
#define MAX_ROWS 40000
#define MAX_COLS 8

static void broken(const char *what, double a, double b)
{
	fprintf(stderr, "fuzz_values: %s (%.17g, %.17g)\n", what, a, b);
	abort();
}

/* ---- the values of a file, as the checks need them ---- */

struct cols {
	size_t ncols;			/* numeric columns kept (<= MAX_COLS) */
	int col[MAX_COLS];		/* their schema columns */
	uint64_t ok[MAX_COLS];		/* values in range, counted here */
	float *kept[MAX_COLS];		/* wfw_rep_float() of each value */
	float *raw[MAX_COLS];		/* the same, infinities and NaN kept */
	size_t n, cap;			/* rows in kept/raw, room for */
};

/* The double as a float without a cast out of a float's range. */
static float raw_float(double v)
{
	if (isnan(v) || isinf(v))
		return (float)v;
	return wfw_rep_float(v);
}

/* Room for n more rows in kept/raw (up to MAX_ROWS); doubling. */
static void room(struct cols *c, size_t n)
{
	size_t cap = c->cap ? c->cap : 256;

	while (cap < c->n + n && cap < MAX_ROWS)
		cap *= 2;
	cap = cap < MAX_ROWS ? cap : MAX_ROWS;
	if (cap == c->cap)
		return;
	for (size_t k = 0; k < c->ncols; k++) {
		c->kept[k] = realloc(c->kept[k], cap * sizeof(float));
		c->raw[k] = realloc(c->raw[k], cap * sizeof(float));
		if (!c->kept[k] || !c->raw[k])
			abort();
	}
	c->cap = cap;
}

static void take_batch(struct cols *c, const struct wultfw_schema *s,
		       const struct wultfw_batch *b)
{
	room(c, b->rows);
	for (size_t r = 0; r < b->rows; r++) {
		const union wultfw_cell *row = wultfw_crow(b, r);

		for (size_t k = 0; k < c->ncols; k++) {
			const struct wultfw_column *col = &s->cols[c->col[k]];
			double v = col->type == WULTFW_COL_ENUM ? NAN :
				   wfw_cell_value(col, row[c->col[k]]);

			c->ok[k] += col->type != WULTFW_COL_ENUM && wfw_value_ok(v);
			if (c->n < MAX_ROWS) {
				c->kept[k][c->n] = wfw_rep_float(v);
				c->raw[k][c->n] = raw_float(v);
			}
		}
		c->n += c->n < MAX_ROWS;
	}
}

/* ---- the statistics, as calc keeps them ---- */

static const double pcts[] = { 0, 1, 50, 90, 99.9, 99.999, 100 };
#define NPCTS (sizeof(pcts) / sizeof(pcts[0]))

static void check_summary(const struct wfw_summary *s)
{
	if (!s->count)
		return;
	if (!isfinite(s->min) || !isfinite(s->max) || !isfinite(s->mean) ||
	    !(s->stddev >= 0) || !isfinite(s->stddev))
		broken("a summary of values in range is no number", s->mean, s->stddev);
	if (s->min > s->max)
		broken("min above max", s->min, s->max);
	for (size_t i = 0; i < s->npct; i++)
		if (!(s->pct[i] >= s->min && s->pct[i] <= s->max))
			broken("a percentile outside [min, max]", s->pct[i], s->min);
	/* The mean of values in [min, max], but for rounding. */
	if (s->mean < s->min - 1e-9 * fabs(s->min) - 1e-300 ||
	    s->mean > s->max + 1e-9 * fabs(s->max) + 1e-300)
		broken("the mean outside [min, max]", s->mean, s->min);
}

/* Every summary of s; the whole's count of metric m checked. */
static void check_set(struct wfw_statset *s, const struct cols *c,
		      const struct wultfw_schema *schema)
{
	for (size_t m = 0; m < s->nmetrics; m++) {
		struct wfw_summary sum;

		if (wfw_statset_pending(s, m))
			continue;
		for (size_t g = 0; g <= s->ngroups; g++) {
			size_t gg = g == s->ngroups ? SIZE_MAX : g;

			if (wfw_statset_summary(s, m, gg, pcts, NPCTS, &sum))
				continue;	/* out of memory */
			check_summary(&sum);
			if (gg != SIZE_MAX)
				continue;
			for (size_t k = 0; k < c->ncols; k++)
				if ((size_t)c->col[k] == s->mcol[m] &&
				    schema->cols[c->col[k]].type != WULTFW_COL_ENUM &&
				    sum.count != c->ok[k])
					broken("count differs from the values in range",
					       (double)sum.count, (double)c->ok[k]);
		}
	}
}

/*
 * JSON text (after data.js's "window.WFW_REPORT =") holding no word
 * outside its strings but true, false, null and a number's exponent: no
 * NaN, Infinity, inf or nan.
 */
static void only_numbers(const char *t, size_t len, const char *what)
{
	static const char js[] = "window.WFW_REPORT =";
	const char *p = t, *end = t + len;

	if (len >= sizeof(js) - 1 && !memcmp(t, js, sizeof(js) - 1))
		p += sizeof(js) - 1;
	for (; p < end; p++) {
		const char *w = p;

		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				p += *p == '\\';
			continue;
		}
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			continue;
		while (p + 1 < end && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z')))
			p++;
		if ((p == w && (*w == 'e' || *w == 'E') && w > t &&
		     w[-1] >= '0' && w[-1] <= '9') ||
		    (p - w == 3 && (!strncmp(w, "true", 4) || !strncmp(w, "null", 4))) ||
		    (p - w == 4 && !strncmp(w, "false", 5)))
			continue;
		fprintf(stderr, "fuzz_values: %s: '%.*s' outside a string\n", what,
			(int)(p - w + 1), w);
		abort();
	}
}

static const char *group_col(const struct wultfw_schema *s)
{
	for (size_t c = 0; c < s->ncols; c++)
		if (s->cols[c].type == WULTFW_COL_ENUM)
			return s->cols[c].name;
	return NULL;
}

/*
 * A statset over part `part` of `nparts` (0 of 1: whole), as calc reads
 * it: 0 with the reader and the set held, or -1 with neither.
 */
static int calc_read(const char *path, unsigned part, unsigned nparts, size_t limit,
		     struct wfw_reader **rd, struct wfw_statset *set)
{
	struct wfw_reader_opts o = { .one_pass = true, .part = part, .nparts = nparts };
	struct wfw_statset_cfg cfg = { .exact_limit = limit, .exact_memory = 1 << 20,
				       .pending_text = true };
	struct wultfw_batch b;
	char err[512];
	long n;

	if (wfw_reader_open_opts(rd, path, &o, err, sizeof(err)))
		return -1;
	cfg.group_by = limit % 2 ? group_col(wfw_reader_schema(*rd)) : NULL;
	if (wfw_statset_init(set, wfw_reader_schema(*rd), &cfg, err, sizeof(err))) {
		wfw_reader_close(*rd);
		return -1;
	}
	if (wfw_batch_alloc(&b, wfw_reader_schema(*rd)->ncols, 97))
		abort();
	while ((n = wfw_reader_read(*rd, &b)) > 0) {
		if (wfw_statset_add(set, &b))
			break;
		b.rows = 0;
	}
	wfw_batch_free(&b);
	if (!n)
		return 0;
	wfw_statset_free(set);
	wfw_reader_close(*rd);
	return -1;
}

static void calc_like(const char *path, size_t size, const struct cols *c,
		      const struct wultfw_schema *schema)
{
	static const double p[] = { 50, 99, 99.99 };
	struct wfw_reader *rd, *rd2;
	struct wfw_statset set, set2;
	size_t limit = size % 61;	/* 0: histograms from the first value */
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (calc_read(path, 0, 1, limit, &rd, &set))
		return;
	check_set(&set, c, schema);
	f = open_memstream(&text, &len);
	wfw_report_table(&set, p, 3, f);
	fclose(f);
	free(text);
	f = open_memstream(&text, &len);
	wfw_report_json(&set, p, 3, 2, f);
	fclose(f);
	only_numbers(text, len, "calc's JSON");
	free(text);
	/* Two parts merged, as calc -j 2 does; a part may refuse (a quote). */
	wfw_statset_free(&set);
	wfw_reader_close(rd);
	if (calc_read(path, 0, 2, limit, &rd, &set))
		return;
	if (!calc_read(path, 1, 2, limit, &rd2, &set2)) {
		if (!wfw_statset_merge(&set, &set2))
			check_set(&set, c, schema);
		wfw_statset_free(&set2);
		wfw_reader_close(rd2);
	}
	wfw_statset_free(&set);
	wfw_reader_close(rd);
}

/* ---- report's reductions, directly ---- */

static void check_scatter(const float *x, const float *y, size_t n,
			  size_t budget, double ytail, size_t grid)
{
	struct wfw_wpoint *p;
	uint64_t want = 0, got = 0;
	size_t np;

	for (size_t i = 0; i < n; i++)
		want += isfinite(x[i]) && isfinite(y[i]);
	if (wfw_reduce_scatter(x, y, n, budget, ytail, grid, &p, &np))
		return;
	for (size_t i = 0; i < np; i++) {
		if (!isfinite(p[i].x) || !isfinite(p[i].y) || !p[i].weight)
			broken("a plotted point is no number", p[i].x, p[i].y);
		got += p[i].weight;
	}
	free(p);
	if (got != want)
		broken("the scatter's weights differ from its points", (double)got, (double)want);
}

static void check_dist(const float *v, size_t n, double span)
{
	float *s = malloc((n + 1) * sizeof(*s)), x[600];
	double lo = INFINITY, hi = -INFINITY, ccdf[600];
	uint64_t counts[WFW_REPORT_BINS + 1], total = 0, want = 0;
	struct wfw_bins b;
	size_t m = 0, k;

	for (size_t i = 0; i < n; i++) {
		want += !isnan(v[i]);
		if (!isnan(v[i])) {
			s[m++] = v[i];
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
	}
	wfw_reduce_bins(m ? lo : 0, m ? s[m / 2] : 0, m ? hi : 0, span,
			WFW_REPORT_BINS, &b);
	wfw_reduce_histogram_at(v, n, &b, counts);
	for (size_t i = 0; i <= WFW_REPORT_BINS; i++)
		total += counts[i];
	if (total != want)
		broken("histogram counts differ from the values", (double)total, (double)want);
	if (!wfw_sort_floats(s, m)) {
		for (size_t i = 1; i < m; i++)
			if (s[i - 1] > s[i])
				broken("sorted floats out of order", s[i - 1], s[i]);
		k = wfw_reduce_ccdf(s, m, 50, x, ccdf, 600);
		for (size_t i = 0; i < k; i++)
			if (!(ccdf[i] > 0 && ccdf[i] <= 1) || (i && x[i] < x[i - 1]))
				broken("a CCDF point out of order", x[i], ccdf[i]);
	}
	free(s);
}

static void check_topk(const float *v, size_t n, size_t cap)
{
	struct wfw_topk t;
	float row[1];

	if (wfw_topk_init(&t, cap, 1))
		return;
	for (size_t i = 0; i < n; i++) {
		row[0] = v[i];
		if (wfw_topk_wants(&t, v[i]))
			wfw_topk_add(&t, v[i], row, 0);
	}
	for (size_t i = 0; i < t.n; i++)
		if (isnan(t.key[i]) || t.key[i] < wfw_topk_min(&t))
			broken("the top-k kept a NaN or below its minimum", t.key[i], wfw_topk_min(&t));
	wfw_topk_free(&t);
}

static void reductions(const struct cols *c, size_t size)
{
	size_t budget = size % 50, grid = 1 + size % 64;

	for (size_t k = 0; k < c->ncols && c->n; k++) {
		const float *y = c->kept[k], *x = c->kept[(k + 1) % c->ncols];

		check_scatter(x, y, c->n, budget, y[c->n / 2], grid);
		check_scatter(c->raw[(k + 1) % c->ncols], c->raw[k], c->n, budget,
			      c->n ? c->raw[k][0] : 0, grid);
		check_scatter(x, y, c->n, c->n + 1, INFINITY, grid);
		check_dist(c->kept[k], c->n, 1 + (double)(size % 7));
		check_dist(c->raw[k], c->n, 2);
		check_topk(c->raw[k], c->n, 1 + size % 17);
	}
}

/* ---- report's whole path: rows kept, data.js ---- */

static void report_like(const char *path, size_t size)
{
	struct wfw_rep_result r = { .id = "fuzz" };
	struct wfw_statset_cfg cfg = { .exact_limit = WFW_REPORT_KEEP_ROWS,
				       .exact_memory = 16 << 20 };
	struct wfw_reader_opts o = { .one_pass = true };
	const char *names[MAX_COLS + 1];
	struct rep_names nm = { 0 };
	struct rep_cli cli = { 0 };
	struct rep_keep k = { 0 };
	struct wfw_reader *rd;
	const struct wultfw_schema *s;
	struct wultfw_batch b;
	char err[512], *text = NULL;
	size_t len = 0, nn = 0;
	int scol, ret;
	long n;
	FILE *f;

	snprintf(r.path, sizeof(r.path), "%s", path);
	if (wfw_reader_open_opts(&rd, path, &o, err, sizeof(err)))
		return;
	s = wfw_reader_schema(rd);
	for (size_t c = 0; c < s->ncols && nn < MAX_COLS; c++)
		if (s->cols[c].type != WULTFW_COL_ENUM)
			names[nn++] = s->cols[c].name;
	scol = rep_group_col(&cli, s);
	if (!nn || scol == -EINVAL)
		goto out;
	for (size_t i = 0; i < nn; i++)
		nm.metrics[nm.nmetrics++] = names[i];
	for (size_t i = 0; i < nn && i < 2; i++)
		nm.xaxes[nm.nxaxes++] = names[(i + size) % nn];
	cfg.group_by = scol >= 0 ? s->cols[scol].name : NULL;
	cfg.metrics = nm.metrics;
	cfg.nmetrics = nm.nmetrics;
	r.group_by = cfg.group_by;
	if (wfw_statset_init(&r.set, s, &cfg, err, sizeof(err)))
		goto out;
	r.have_set = true;
	if (rep_keep_columns(&r, s, &nm, false) || rep_keep_init(&r, &k, WFW_REPORT_SEED))
		goto free;
	if (wfw_batch_alloc(&b, s->ncols, 8192))
		abort();
	ret = 0;
	while (!ret && (n = wfw_reader_read(rd, &b)) > 0) {
		r.rows_read += b.rows;
		ret = wfw_statset_add(&r.set, &b);
		if (!ret)
			ret = rep_keep_rows(&r, s, scol, &b, &k);
		if (!ret)
			ret = rep_cross_past(&r, &k, WFW_REPORT_KEEP_ROWS);
		b.rows = 0;
	}
	wfw_batch_free(&b);
	if (scol >= 0) {
		r.state_names = s->cols[scol].enum_names;
		r.nstates = s->cols[scol].n_enum;
	}
	if (!ret) {
		struct wfw_report rep = { .metrics = nm.metrics, .nmetrics = nm.nmetrics,
					  .xaxes = nm.xaxes, .nxaxes = nm.nxaxes,
					  .res = &r, .nres = 1, .jobs = 1 };

		f = open_memstream(&text, &len);
		ret = wfw_report_write_data(&rep, f);
		fclose(f);
		if (!ret)
			only_numbers(text, len, "data.js");
		free(text);
	}
free:
	rep_keep_free(&k);
	rep_free_kept(&r);
out:
	wfw_reader_close(rd);
}

/* ---- the stats sink's histograms ---- */

static void sink_histograms(const char *path, size_t size)
{
	struct wfw_reader_opts o = { 0 };
	struct wfw_reader *rd;
	const struct wultfw_schema *s;
	struct stats_binhist bh;
	struct stats_cychist ch;
	const char *metric = NULL;
	struct wultfw_batch b;
	char err[512], *text = NULL;
	size_t len = 0;
	bool have_b, have_c;
	FILE *f;

	if (wfw_reader_open_opts(&rd, path, &o, err, sizeof(err)))
		return;
	s = wfw_reader_schema(rd);
	for (size_t c = 0; c < s->ncols && !metric; c++)
		if (s->cols[c].type != WULTFW_COL_ENUM)
			metric = s->cols[c].name;
	have_b = metric && !stats_binhist_init(&bh, s, metric, group_col(s),
					       size % 3 ? 1e-9 * (double)(size % 1000) + 1e-9 : 10,
					       err, sizeof(err));
	have_c = metric && !stats_cychist_init(&ch, s, &metric, 1, 1 + size % 100,
					       err, sizeof(err));
	if (wfw_batch_alloc(&b, s->ncols, 256))
		abort();
	while (wfw_reader_read(rd, &b) > 0) {
		if (have_b && stats_binhist_add(&bh, &b))
			break;
		if (have_c)
			stats_cychist_add(&ch, &b);
		b.rows = 0;
	}
	wfw_batch_free(&b);
	f = open_memstream(&text, &len);
	if (have_b)
		stats_binhist_write(&bh, f);
	if (have_c)
		stats_cychist_write(&ch, f);
	fclose(f);
	free(text);
	if (have_b)
		stats_binhist_free(&bh);
	if (have_c)
		stats_cychist_free(&ch);
	wfw_reader_close(rd);
}

/* ---- the input ---- */

static void fuzz_values(const char *path, size_t size)
{
	struct wfw_reader_opts o = { .one_pass = true };
	struct cols c = { 0 };
	struct wfw_reader *rd;
	const struct wultfw_schema *s;
	struct wultfw_batch b;
	char err[512];
	long n;

	if (wfw_reader_open_opts(&rd, path, &o, err, sizeof(err)))
		return;
	s = wfw_reader_schema(rd);
	for (size_t k = 0; k < s->ncols && c.ncols < MAX_COLS; k++)
		c.col[c.ncols++] = (int)k;
	if (wfw_batch_alloc(&b, s->ncols, 64))
		abort();
	while ((n = wfw_reader_read(rd, &b)) > 0) {
		take_batch(&c, s, &b);
		b.rows = 0;
	}
	wfw_batch_free(&b);
	if (!n && c.ncols) {	/* read whole: the others read it as it is */
		calc_like(path, size, &c, s);
		reductions(&c, size);
		report_like(path, size);
		sink_histograms(path, size);
	}
	for (size_t k = 0; k < c.ncols; k++) {
		free(c.kept[k]);
		free(c.raw[k]);
	}
	wfw_reader_close(rd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	if (size && data[0] == (uint8_t)WFW_BIN_MAGIC[0])
		return -1;	/* the binary reader's: fuzz_binary */
	fd = fuzz_memfd("", 0, data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	fuzz_values(path, size);
	close(fd);
	return 0;
}
