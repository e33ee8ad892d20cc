/* SPDX-License-Identifier: MIT */
/*
 * wultfw report [-o DIR] RESULT...: a self-contained HTML report (index.html,
 * its data and the charting library, copied in) that opens from file://.
 * This file reads the results; lib/report writes data.js, and the page in
 * lib/report/assets/ draws it with plotly.js.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "datafmt/locate.h"
#include "datafmt/runstate.h"
#include "datafmt/reader.h"
#include "datafmt/wultunits.h"
#include "expr/expr.h"
#include "report/report.h"
#include "report/assets.h"
#include "toolopts.h"
#include <suggest/suggest.h>

#define REP_MAX 64

/* A comma-separated option: its copy and the names in it. */
struct rep_list {
	char *buf;
	const char *v[REP_MAX];
	size_t n;
};

struct rep_cli {
	const char *out, *title, *descr, *include, *exclude, *group_by;
	struct rep_list ids, metrics, xaxes, yaxes;
	bool list, force, jobs_given;
	unsigned jobs;
};

/* Scatter plots' x axes unless --xaxes says otherwise; a sampler's: Time. */
static const char *const default_xaxes[] = { "LDist", "SilentTime" };
static const char *const sampler_xaxis = "Time";
/* Groups of the tables, colours and histograms, unless --group-by says. */
static const char *const default_groups[] = { "ReqCState", "Precise" };
/* The main result's time column, for the timeline of its collectors. */
static const char *const timeline_col = "LTime";

static void usage(FILE *f)
{
	fputs("Usage: wultfw report [OPTION]... RESULT...\n"
	      "\n"
	      "An HTML report of one or more results (result directories, ours or\n"
	      "wult's, CSV or binary files): a tab per metric with summary tables\n"
	      "(all datapoints and per requested C-state), scatter plots against\n"
	      "LDist and SilentTime, a histogram and a percentile (CCDF) plot. With\n"
	      "several results every table and plot compares them with the first.\n"
	      "The directory opens from file:// without network: open index.html.\n"
	      "\n"
	      "  -o, --outdir DIR      where to write (default: wultfw-report)\n"
	      "      --reportids LIST  names of the results, comma-separated\n"
	      "      --title TEXT      the report's title\n"
	      "      --descr TEXT      a description shown under the title\n"
	      "  -m, --metrics LIST    metrics, comma-separated names or patterns\n"
	      "                        (default: the latency metrics)\n"
	      "      --xaxes LIST      x axes of the scatter plots, names or patterns\n"
	      "                        (default: LDist,SilentTime)\n"
	      "      --yaxes LIST      metrics that get scatter plots (default: every\n"
	      "                        metric shown; named ones get a tab too)\n"
	      "  -g, --group-by COL    a name column giving the groups of the tables,\n"
	      "                        colours and histograms (default: ReqCState,\n"
	      "                        or Precise for skid results)\n"
	      "      --list-metrics    list the metrics of the results and exit\n"
	      "      --include=EXPR    only datapoints where EXPR holds\n"
	      "      --exclude=EXPR    leave out datapoints where EXPR holds\n"
	      "  -j, --jobs N          threads reading one file (default: the online\n"
	      "                        CPUs, at most 8; one for files under 8 MiB)\n"
	      "  -f, --force           replace DIR if it holds a report\n"
	      "  -h, --help            this help\n", f);
}

/* Split a comma-separated list into l->v[] (pointers into l->buf). */
static int split(const char *list, struct rep_list *l)
{
	char *save = NULL, *tok;

	free(l->buf);
	l->buf = strdup(list);
	l->n = 0;
	if (!l->buf)
		return -ENOMEM;
	for (tok = strtok_r(l->buf, ",", &save); tok && l->n < REP_MAX;
	     tok = strtok_r(NULL, ",", &save))
		l->v[l->n++] = tok;
	return 0;
}

static int parse_jobs(struct rep_cli *c, const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (*end || !*arg || n < 1 || n > 256) {
		fprintf(stderr, "wultfw report: --jobs %s: use 1 to 256 threads\n", arg);
		return -EINVAL;
	}
	c->jobs = (unsigned)n;
	c->jobs_given = true;
	return 0;
}

static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

static int report_option(void *ctx, int opt, const char *arg)
{
	struct rep_cli *c = ctx;
	int ret = 0;

	switch (opt) {
	case 'o': c->out = arg; break;
	case 'R': ret = split(arg, &c->ids); break;
	case 'T': c->title = arg; break;
	case 'D': c->descr = arg; break;
	case 'm': ret = split(arg, &c->metrics); break;
	case 'x': ret = split(arg, &c->xaxes); break;
	case 'y': ret = split(arg, &c->yaxes); break;
	case 'g': c->group_by = arg; break;
	case 'L': c->list = true; break;
	case 'I': c->include = arg; break;
	case 'X': c->exclude = arg; break;
	case 'f': c->force = true; break;
	case 'j': ret = parse_jobs(c, arg); break;
	}
	return ret ? 1 : 0;
}

/* The results named: at least one, at most REP_MAX, one per --reportids. */
static int check_results(const struct rep_cli *c, int argc)
{
	if (optind >= argc) {
		fprintf(stderr, "wultfw report: no RESULT given\n");
		usage(stderr);
		return 2;
	}
	if (argc - optind > REP_MAX) {
		fprintf(stderr, "wultfw report: at most %d results\n", REP_MAX);
		return 2;
	}
	if (c->ids.n && c->ids.n != (size_t)(argc - optind)) {
		fprintf(stderr, "wultfw report: --reportids names %zu results, %d given\n",
			c->ids.n, argc - optind);
		return 2;
	}
	return -1;
}

static int parse_args(struct rep_cli *c, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "outdir", required_argument, NULL, 'o' },
		{ "reportids", required_argument, NULL, 'R' },
		{ "title", required_argument, NULL, 'T' },
		{ "descr", required_argument, NULL, 'D' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "xaxes", required_argument, NULL, 'x' },
		{ "yaxes", required_argument, NULL, 'y' },
		{ "group-by", required_argument, NULL, 'g' },
		{ "list-metrics", no_argument, NULL, 'L' },
		{ "include", required_argument, NULL, 'I' },
		{ "exclude", required_argument, NULL, 'X' },
		{ "force", no_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct wfw_tool t = {
		.name = "report", .shortopts = "o:m:g:fhj:", .longopts = lopts,
		.usage = usage, .option = report_option, .ctx = c,
	};
	int ret;

	c->out = "wultfw-report";
	c->jobs = online_cpus();
	ret = wfw_tool_parse(&t, argc, argv);
	return ret == WFW_TOOL_GO ? check_results(c, argc) : ret;
}

/* The metrics a report shows by default: latencies, and skid's Skid. */
static bool default_metric(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "RTD") || !strcmp(name, "Skid") ||
	       (n > 7 && !strcmp(name + n - 7, "Latency"));
}

static bool in_list(const struct rep_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!fnmatch(l->v[i], name, 0))
			return true;
	return false;
}

/* A tab: chosen with -m (default: the latency metrics) or --yaxes. */
static bool chosen(const struct rep_cli *c, const char *name)
{
	return (c->metrics.n ? in_list(&c->metrics, name) : default_metric(name)) ||
	       in_list(&c->yaxes, name);
}

/* Add `name` to list[] unless there already. */
static void add_name(const char **list, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(list[i], name))
			return;
	if (*n < REP_MAX)
		list[(*n)++] = name;
}

/* Every pattern of an option must match a column of some result. */
static int check_list(const struct rep_list *l, const char *opt,
		      struct wfw_rep_result *res, size_t nres,
		      struct wfw_reader **rd)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *names[256] = { NULL }, *near;
		size_t n = 0;
		bool found = false;

		for (size_t r = 0; r < nres; r++) {
			const struct wultfw_schema *s = wfw_reader_schema(rd[r]);

			for (size_t k = 0; k < s->ncols; k++) {
				found |= !fnmatch(l->v[i], s->cols[k].name, 0);
				if (n < 256)
					names[n++] = s->cols[k].name;
			}
		}
		if (found)
			continue;
		near = wfw_suggest(l->v[i], names, n);
		fprintf(stderr, "wultfw report: --%s: no metric '%s' in %s%s%s%s ('wultfw report --list-metrics RESULT...' lists them)\n",
			opt, l->v[i], nres > 1 ? "any result" : res[0].path,
			near ? " (did you mean '" : "", near ? near : "",
			near ? "'?)" : "");
		return -EINVAL;
	}
	return 0;
}

static void list_metrics(const struct wfw_rep_result *res, size_t nres,
			 struct wfw_reader **rd)
{
	for (size_t r = 0; r < nres; r++) {
		const struct wultfw_schema *s = wfw_reader_schema(rd[r]);

		printf("%s (%s):\n", res[r].id, res[r].path);
		for (size_t k = 0; k < s->ncols; k++)
			printf("  %-16s %-4s %s%s%s%s\n", s->cols[k].name,
			       s->cols[k].unit ? s->cols[k].unit : "",
			       s->cols[k].type == WULTFW_COL_ENUM ? "names" : "numbers",
			       default_metric(s->cols[k].name) ?
			       ", reported by default" : "",
			       *wfw_wult_descr(s->cols[k].name) ? ": " : "",
			       wfw_wult_descr(s->cols[k].name));
	}
}

/* What the report shows: tabs, scatter x axes, metrics with scatters. */
struct rep_names {
	const char *metrics[REP_MAX], *xaxes[REP_MAX], *yaxes[REP_MAX];
	size_t nmetrics, nxaxes, nyaxes;
};

/* The numeric columns of any result that pass keep(), added to out. */
static void add_columns(struct wfw_reader **rd, size_t nres,
			bool (*keep)(const void *arg, const char *name),
			const void *arg, const char **out, size_t *n)
{
	for (size_t i = 0; i < nres; i++) {
		const struct wultfw_schema *s = wfw_reader_schema(rd[i]);

		for (size_t k = 0; k < s->ncols; k++)
			if (s->cols[k].type != WULTFW_COL_ENUM &&
			    keep(arg, s->cols[k].name))
				add_name(out, n, s->cols[k].name);
	}
}

static bool keep_chosen(const void *c, const char *name)
{
	return chosen(c, name);
}

static bool keep_matching(const void *pattern, const char *name)
{
	return !fnmatch(pattern, name, 0);
}

/* Columns matching l's patterns, in the order the patterns are given. */
static void pick_names(const struct rep_list *l, struct wfw_reader **rd,
		       size_t nres, const char **out, size_t *n)
{
	for (size_t i = 0; i < l->n; i++)
		add_columns(rd, nres, keep_matching, l->v[i], out, n);
}

static bool any_has(struct wfw_reader **rd, size_t nres, const char *name)
{
	for (size_t i = 0; i < nres; i++)
		if (wfw_schema_find(wfw_reader_schema(rd[i]), name) >= 0)
			return true;
	return false;
}

/* LDist and SilentTime; Time for samplers, which have neither. */
static void default_axes(struct wfw_reader **rd, size_t nres,
			 struct rep_names *nm)
{
	for (size_t i = 0; i < 2; i++)
		nm->xaxes[nm->nxaxes++] = default_xaxes[i];
	if (!any_has(rd, nres, default_xaxes[0]) &&
	    !any_has(rd, nres, default_xaxes[1]) &&
	    any_has(rd, nres, sampler_xaxis)) {
		nm->xaxes[0] = sampler_xaxis;
		nm->nxaxes = 1;
	}
}

static int choose_names(const struct rep_cli *c, struct wfw_rep_result *res,
			size_t nres, struct wfw_reader **rd, struct rep_names *nm)
{
	int ret = check_list(&c->metrics, "metrics", res, nres, rd);

	if (!ret)
		ret = check_list(&c->xaxes, "xaxes", res, nres, rd);
	if (!ret)
		ret = check_list(&c->yaxes, "yaxes", res, nres, rd);
	if (ret)
		return ret;
	add_columns(rd, nres, keep_chosen, c, nm->metrics, &nm->nmetrics);
	if (!nm->nmetrics) {
		fprintf(stderr, "wultfw report: no latency metric in the results: choose some with -m (--list-metrics lists them)\n");
		return -ENOENT;
	}
	if (c->xaxes.n)
		pick_names(&c->xaxes, rd, nres, nm->xaxes, &nm->nxaxes);
	else
		default_axes(rd, nres, nm);
	if (c->yaxes.n)
		pick_names(&c->yaxes, rd, nres, nm->yaxes, &nm->nyaxes);
	return 0;
}

/* Columns to keep in memory: the metrics and the scatter x axes. */
static int keep_columns(struct wfw_rep_result *r, const struct wultfw_schema *s,
			const struct rep_names *nm, bool timeline)
{
	size_t n = nm->nmetrics + nm->nxaxes + timeline;

	r->colnames = calloc(n, sizeof(*r->colnames));
	r->units = calloc(n, sizeof(*r->units));
	r->vals = calloc(n, sizeof(*r->vals));
	if (!r->colnames || !r->units || !r->vals)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *name = i < nm->nmetrics ? nm->metrics[i] :
				   i < nm->nmetrics + nm->nxaxes ?
				   nm->xaxes[i - nm->nmetrics] : timeline_col;
		int k = wfw_schema_find(s, name);

		r->colnames[r->ncols] = name;
		r->units[r->ncols] = k >= 0 && s->cols[k].unit ? s->cols[k].unit : "";
		r->ncols++;
		if (k >= 0 && s->cols[k].type == WULTFW_COL_ENUM)
			r->units[r->ncols - 1] = "";
	}
	r->ntails = nm->nmetrics;
	return 0;
}

/*
 * One kept cell as a float: LTime (CLOCK_MONOTONIC ns, too large for a
 * float's precision) as ns after the first row's.
 */
static float kept_value(struct wfw_rep_result *r, size_t c,
			const struct wultfw_column *col, union wultfw_cell cell)
{
	double v = wfw_cell_value(col, cell);

	if (r->colnames[c] != timeline_col)
		return (float)v;
	if (!r->nsel && !r->time0_ns)
		r->time0_ns = v;
	return (float)(v - r->time0_ns);
}

/* How rows are kept while reading: where each kept column is, scratch. */
struct rep_keep {
	struct wfw_reservoir res;
	size_t cap;		/* rows r->vals and r->state have room for */
	int *kcol;		/* schema column of each kept column, or -1 */
	float *row;		/* one row of kept columns */
};

/* Room for rows up to `need` (at most WFW_REPORT_KEEP_ROWS). */
static int grow_rows(struct wfw_rep_result *r, struct rep_keep *k, size_t need)
{
	size_t ncap = (k->cap ? k->cap * 2 : 65536) + need;
	int32_t *st;

	if (need > k->res.cap)
		need = k->res.cap;
	if (need <= k->cap)
		return 0;
	if (ncap > k->res.cap)
		ncap = k->res.cap;
	st = realloc(r->state, ncap * sizeof(*st));
	if (!st)
		return -ENOMEM;
	r->state = st;
	for (size_t c = 0; c < r->ncols; c++) {
		float *v;

		if (k->kcol[c] < 0)
			continue;
		v = realloc(r->vals[c], ncap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		r->vals[c] = v;
	}
	k->cap = ncap;
	return 0;
}

/* The batch's schema columns of r's kept columns (a type may change). */
static void kept_columns(struct wfw_rep_result *r, const struct wultfw_schema *s,
			 struct rep_keep *k)
{
	for (size_t c = 0; c < r->ncols; c++) {
		int i = wfw_schema_find(s, r->colnames[c]);

		k->kcol[c] = i >= 0 && s->cols[i].type != WULTFW_COL_ENUM ? i : -1;
	}
}

/* The row's kept columns into k->row. */
static void row_values(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       const struct rep_keep *k, const union wultfw_cell *cells)
{
	for (size_t c = 0; c < r->ncols; c++)
		k->row[c] = k->kcol[c] < 0 ? NAN :
			kept_value(r, c, &s->cols[k->kcol[c]], cells[k->kcol[c]]);
}

static int32_t row_state(int scol, const union wultfw_cell *cells)
{
	return scol >= 0 ? (int32_t)cells[scol].i : -1;
}

/* wfw_cell_value() as a float, inline: it runs on every row. */
static inline float cell_float(const struct wultfw_column *col,
			       union wultfw_cell c)
{
	if (col->type == WULTFW_COL_FLOAT)
		return (float)c.f;
	if (col->type != WULTFW_COL_INT)
		return (float)c.i;
	if (c.i == WULTFW_CELL_EMPTY)
		return NAN;
	return (float)((double)c.i / (col->divisor ? col->divisor : 1));
}

/*
 * The batch's rows into metric m's tail, its largest rows: one
 * comparison a row, the whole row read only for the few kept.
 */
static void batch_tail(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       const struct rep_keep *k, int scol,
		       const struct wultfw_batch *b, size_t m)
{
	struct wfw_topk *t = &r->tails[m];
	size_t ci = (size_t)k->kcol[m];
	const struct wultfw_column *col = &s->cols[ci];

	for (size_t i = 0; i < b->rows; i++) {
		const union wultfw_cell *cells = wultfw_crow(b, i);
		float v = cell_float(col, cells[ci]);

		if (!wfw_topk_wants(t, v))
			continue;
		row_values(r, s, k, cells);
		wfw_topk_add(t, v, k->row, row_state(scol, cells));
	}
}

/*
 * The statistics keep values for exact percentiles up to the cap in all:
 * past it, a result is sampled and its percentiles come from histograms.
 */
static void drop_exact(struct wfw_statset *set)
{
	set->exact_limit = 0;
	for (size_t i = 0; i < set->nmetrics * set->ngroups; i++)
		set->acc[i].exact_limit = 0;
}

static int32_t mapped(const int32_t *map, int32_t st)
{
	return st < 0 ? st : map[st];
}

/* Row `from` of src (or dst itself) into row `to` of dst. */
static void move_row(struct wfw_rep_result *dst, const struct wfw_rep_result *src,
		     size_t from, size_t to, const int32_t *map)
{
	for (size_t c = 0; c < dst->ncols; c++)
		if (dst->vals[c])
			dst->vals[c][to] = src->vals[c][from];
	dst->state[to] = map ? mapped(map, src->state[from]) : src->state[from];
}

/*
 * Over the cap: the statistics' percentiles from histograms from now on,
 * and the sample down to WFW_REPORT_SAMPLE_ROWS (uniformly).
 */
static int cross_cap(struct wfw_rep_result *r, struct rep_keep *k)
{
	size_t m = wfw_reservoir_shrink(&k->res, WFW_REPORT_SAMPLE_ROWS);
	size_t need = m, left = r->nrows, j = 0;

	r->sampled = true;
	drop_exact(&r->set);
	for (size_t i = 0; i < r->nrows; i++)	/* moving down, in place */
		if (wfw_pick_next(&k->res.rng, &need, &left))
			move_row(r, r, i, j++, NULL);
	r->nrows = m;
	for (size_t c = 0; c < r->ncols; c++) {
		float *v = r->vals[c] ? realloc(r->vals[c], (m + 1) * sizeof(*v)) : NULL;

		r->vals[c] = v ? v : r->vals[c];
	}
	k->cap = m;
	return 0;
}

/* Row i of the batch into slot `slot` of the sample, and the tails. */
static void take_row(struct wfw_rep_result *r, const struct wultfw_schema *s,
		     int scol, const union wultfw_cell *cells,
		     const struct rep_keep *k, size_t slot)
{
	row_values(r, s, k, cells);
	for (size_t c = 0; c < r->ncols; c++)
		if (r->vals[c])
			r->vals[c][slot] = k->row[c];
	r->state[slot] = row_state(scol, cells);
	if (slot == r->nrows)
		r->nrows++;
}

/* Keep the batch's rows: into the sample, and into the tails. */
static int keep_rows(struct wfw_rep_result *r, const struct wultfw_schema *s,
		     int scol, const struct wultfw_batch *b, struct rep_keep *k)
{
	size_t i = 0;
	int ret;

	kept_columns(r, s, k);
	ret = grow_rows(r, k, r->nrows + b->rows);
	while (i < b->rows && !ret) {
		uint64_t skip = wfw_reservoir_skip(&k->res, b->rows - i);

		wfw_reservoir_skipped(&k->res, skip);
		i += (size_t)skip;
		if (i < b->rows) {
			take_row(r, s, scol, wultfw_crow(b, i), k,
				 wfw_reservoir_take(&k->res));
			i++;
		}
	}
	for (size_t m = 0; m < r->ntails && !ret; m++)
		if (k->kcol[m] >= 0)
			batch_tail(r, s, k, scol, b, m);
	r->nsel += b->rows;
	return ret;
}

static int keep_init(struct wfw_rep_result *r, struct rep_keep *k, uint64_t seed)
{
	wfw_reservoir_init(&k->res, WFW_REPORT_KEEP_ROWS, seed);
	k->kcol = calloc(r->ncols + 1, sizeof(*k->kcol));
	k->row = calloc(r->ncols + 1, sizeof(*k->row));
	r->tails = calloc(r->ntails + 1, sizeof(*r->tails));
	if (!k->kcol || !k->row || !r->tails)
		return -ENOMEM;
	for (size_t m = 0; m < r->ntails; m++)
		if (wfw_topk_init(&r->tails[m], WFW_REPORT_TAIL_POINTS, r->ncols))
			return -ENOMEM;
	return 0;
}

static void keep_free(struct rep_keep *k)
{
	free(k->kcol);
	free(k->row);
}

/*
 * The column giving the groups: --group-by's (-EINVAL if it is not a
 * name column), else the first default one there is, else -1.
 */
static int group_col(const struct rep_cli *c, const struct wultfw_schema *s)
{
	int k;

	if (c->group_by) {
		k = wfw_schema_find(s, c->group_by);
		return k >= 0 && s->cols[k].type == WULTFW_COL_ENUM ? k : -EINVAL;
	}
	for (size_t i = 0; i < 2; i++) {
		k = wfw_schema_find(s, default_groups[i]);
		if (k >= 0 && s->cols[k].type == WULTFW_COL_ENUM)
			return k;
	}
	return -1;
}

/* The collectors' files, in the directory of r's data file. */
static int load_timeline(struct wfw_rep_result *r)
{
	char dir[sizeof(r->path)], *slash;
	int ret;

	snprintf(dir, sizeof(dir), "%s", r->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	ret = wfw_timeline_load(&r->timeline, dir, r->collectors);
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw report: %s: out of memory\n", r->path);
	else if (r->timeline.notes[0])
		fprintf(stderr, "wultfw report: warning: %s: %s\n", r->path, r->timeline.notes);
	return ret;
}

/* Every row of rd through the selection into r; 0 or an error said. */
static int read_rows(struct wfw_rep_result *r, struct wfw_reader *rd,
		     struct wfw_select *sel, int scol)
{
	const struct wultfw_schema *s = wfw_reader_schema(rd);
	struct wultfw_batch b = { 0 };
	struct rep_keep k = { 0 };
	long n = 0;
	int ret = wfw_batch_alloc(&b, s->ncols, 8192);

	if (!ret)
		ret = keep_init(r, &k, WFW_REPORT_SEED);
	while (!ret && (n = wfw_reader_read(rd, &b)) > 0) {
		r->rows_read += b.rows;
		wfw_select_batch(sel, &b);
		ret = wfw_statset_add(&r->set, &b);
		if (!ret)
			ret = keep_rows(r, s, scol, &b, &k);
		if (!ret && !r->sampled && r->nsel > WFW_REPORT_KEEP_ROWS)
			ret = cross_cap(r, &k);
		b.rows = 0;
	}
	keep_free(&k);
	if (scol >= 0) {	/* a one-pass reader learns names as it goes */
		r->state_names = s->cols[scol].enum_names;
		r->nstates = s->cols[scol].n_enum;
	}
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw report: %s: out of memory\n", r->path);
	else if (!ret && n < 0) {
		fprintf(stderr, "wultfw report: %s\n", wfw_reader_error(rd));
		ret = (int)n;
	}
	wfw_batch_free(&b);
	return ret;
}

/* ---- several threads over parts of one file, as calc reads it ---- */

/* Below this, a second thread costs more than it saves (calc's limit). */
#define PART_MIN_BYTES (8u << 20)

struct rep_part {
	const struct rep_cli *c;
	const struct rep_names *nm;
	struct wfw_rep_result res;
	struct wfw_reader *rd;
	unsigned k, n;
	int ret;
	pthread_t th;
};

/* The kept rows, tails and statistics of r (not its file's info). */
static void free_kept(struct wfw_rep_result *r)
{
	if (r->have_set)
		wfw_statset_free(&r->set);
	r->have_set = false;
	for (size_t k = 0; r->vals && k < r->ncols; k++)
		free(r->vals[k]);
	free(r->vals);
	free(r->colnames);
	free(r->units);
	free(r->state);
	for (size_t m = 0; r->tails && m < r->ntails; m++)
		wfw_topk_free(&r->tails[m]);
	free(r->tails);
	r->vals = NULL;
	r->colnames = r->units = NULL;
	r->state = NULL;
	r->tails = NULL;
}

static int part_open(struct rep_part *p, int *scol)
{
	struct wfw_reader_opts o = { .one_pass = true, .part = p->k, .nparts = p->n };
	struct wfw_statset_cfg cfg = { .exact_limit = WFW_REPORT_KEEP_ROWS,
				       .exact_memory = (size_t)256 << 20,
				       .metrics = p->nm->metrics,
				       .nmetrics = p->nm->nmetrics,
				       .pending_text = true };
	const struct wultfw_schema *s;
	char err[1024];
	int ret = wfw_reader_open_opts(&p->rd, p->res.path, &o, err, sizeof(err));

	if (ret)
		return ret;
	s = wfw_reader_schema(p->rd);
	*scol = group_col(p->c, s);
	if (*scol == -EINVAL)
		return -EINVAL;
	cfg.group_by = *scol >= 0 ? s->cols[*scol].name : NULL;
	if (wfw_statset_init(&p->res.set, s, &cfg, err, sizeof(err)))
		return -EAGAIN;
	p->res.have_set = true;
	p->res.group_by = cfg.group_by;
	return keep_columns(&p->res, s, p->nm, false);
}

/*
 * A part past its share of the cap shrinks its sample: memory as with one
 * reader, and the same report every time (a shared count would depend on
 * the threads' timing). Should the whole turn out under the cap, the file
 * is read again by one reader (merge_parts()).
 */
static int past_share(struct rep_part *p, struct rep_keep *k)
{
	if (p->res.sampled || p->res.nsel <= WFW_REPORT_KEEP_ROWS / p->n)
		return 0;
	return cross_cap(&p->res, k);
}

static void *part_main(void *arg)
{
	struct rep_part *p = arg;
	struct wfw_rep_result *r = &p->res;
	struct wultfw_batch b = { 0 };
	struct rep_keep k = { 0 };
	const struct wultfw_schema *s;
	int scol = -1;
	long n = 0;

	p->ret = part_open(p, &scol);
	if (p->ret)
		return NULL;
	s = wfw_reader_schema(p->rd);
	p->ret = wfw_batch_alloc(&b, s->ncols, 8192);
	if (!p->ret)
		p->ret = keep_init(r, &k, WFW_REPORT_SEED + p->k);
	while (!p->ret && (n = wfw_reader_read(p->rd, &b)) > 0) {
		r->rows_read += b.rows;
		p->ret = wfw_statset_add(&r->set, &b);
		if (!p->ret)
			p->ret = keep_rows(r, s, scol, &b, &k);
		if (!p->ret)
			p->ret = past_share(p, &k);
		b.rows = 0;
	}
	if (!p->ret && n < 0)
		p->ret = (int)n;
	if (scol >= 0) {
		r->state_names = s->cols[scol].enum_names;
		r->nstates = s->cols[scol].n_enum;
	}
	keep_free(&k);
	wfw_batch_free(&b);
	return NULL;
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
			move_row(dst, dst, i, j++, NULL);
	ret = resize_rows(dst, src, k1 + k2);
	if (ret)
		return ret;
	need = k2;
	left = src->nrows;
	for (size_t i = 0; i < src->nrows; i++)
		if (wfw_pick_next(rng, &need, &left))
			move_row(dst, src, i, j++, map);
	dst->nrows = k1 + k2;
	dst->nsel = total;
	dst->sampled = !all;
	return 0;
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
				     mapped(map, t->group[s]));
		}
	}
}

/* Parts 1.. into part 0. */
static int merge_parts(struct rep_part *p, unsigned n)
{
	struct wfw_rep_result *dst = &p[0].res;
	size_t names = 0;
	uint64_t rng = WFW_REPORT_SEED, total = 0;
	bool sampled = false;
	int ret = 0;

	for (unsigned k = 0; k < n; k++) {
		names += p[k].res.nstates;
		total += p[k].res.nsel;
		sampled |= p[k].res.sampled;
	}
	if (sampled && total <= WFW_REPORT_KEEP_ROWS)
		return -EAGAIN;	/* a part sampled what one reader keeps whole */
	dst->merged_names = calloc(names + 1, sizeof(*dst->merged_names));
	if (!dst->merged_names)
		return -ENOMEM;
	for (size_t i = 0; i < dst->nstates; i++)
		dst->merged_names[i] = dst->state_names[i];
	for (unsigned k = 1; k < n && !ret; k++) {
		struct wfw_rep_result *src = &p[k].res;
		int32_t *map = calloc(src->nstates + 1, sizeof(*map));

		ret = map ? map_states(dst, src, map) : -ENOMEM;
		if (!ret)
			ret = wfw_statset_merge(&dst->set, &src->set);
		if (!ret)
			ret = merge_sample(dst, src, map, &rng);
		if (!ret)
			merge_tails(dst, src, map);
		dst->rows_read += src->rows_read;
		free(map);
		free_kept(src);
	}
	dst->state_names = dst->merged_names;
	return ret;
}

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
	for (unsigned k = 0; k < n; k++)
		r->part_rd[k] = p[k].rd;
	r->nparts = n;
}

/* 0, or anything else: read the file with one reader instead. */
static int load_parts(const struct rep_cli *c, struct wfw_rep_result *r,
		      const struct rep_names *nm, unsigned n)
{
	struct rep_part p[WFW_REPORT_MAX_PARTS] = { 0 };
	unsigned started = 0;
	int ret = 0;

	for (unsigned k = 0; k < n; k++) {
		p[k] = (struct rep_part){ .c = c, .nm = nm, .k = k, .n = n };
		memcpy(p[k].res.path, r->path, sizeof(r->path));
		if (pthread_create(&p[k].th, NULL, part_main, &p[k]))
			break;
		started++;
	}
	for (unsigned k = 0; k < started; k++) {
		pthread_join(p[k].th, NULL);
		ret = ret ? ret : p[k].ret;
	}
	if (started < n)
		ret = -EAGAIN;
	if (!ret)
		ret = merge_parts(p, n);
	if (!ret) {
		take_parts(r, p, n);
		return 0;
	}
	for (unsigned k = 0; k < n; k++) {
		free_kept(&p[k].res);
		if (p[k].rd)
			wfw_reader_close(p[k].rd);
	}
	free(p[0].res.merged_names);
	return ret;
}

/* Threads for r: -j; one for small files, to select rows, or a timeline. */
static unsigned jobs_for(const struct rep_cli *c, const struct wfw_rep_result *r)
{
	struct stat st;
	unsigned n = c->jobs < WFW_REPORT_MAX_PARTS ? c->jobs : WFW_REPORT_MAX_PARTS;

	if (n < 2 || c->include || c->exclude || r->collectors || stat(r->path, &st))
		return 1;
	return c->jobs_given || st.st_size >= PART_MIN_BYTES ? n : 1;
}

static int load(const struct rep_cli *c, struct wfw_rep_result *r,
		struct wfw_reader *rd, const struct rep_names *nm)
{
	const struct wultfw_schema *s = wfw_reader_schema(rd);
	struct wfw_statset_cfg cfg = { .exact_limit = WFW_REPORT_KEEP_ROWS,
				       .exact_memory = (size_t)256 << 20 };
	struct wfw_select sel;
	int scol = group_col(c, s);
	char err[2048];
	int ret;

	if (scol == -EINVAL) {
		fprintf(stderr, "wultfw report: %s: --group-by: no name column '%s' (--list-metrics lists the columns)\n",
			r->path, c->group_by);
		return -EINVAL;
	}
	cfg.group_by = scol >= 0 ? s->cols[scol].name : NULL;
	cfg.metrics = nm->metrics;
	cfg.nmetrics = nm->nmetrics;
	if (scol >= 0)
		r->group_by = s->cols[scol].name;
	if (jobs_for(c, r) > 1 && !load_parts(c, r, nm, jobs_for(c, r)))
		return 0;
	ret = wfw_select_init(&sel, c->include, c->exclude, s, err, sizeof(err));
	if (!ret)
		ret = wfw_statset_init(&r->set, s, &cfg, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw report: %s: %s\n", r->path, err);
		wfw_select_free(&sel);
		return ret;
	}
	r->have_set = true;
	ret = keep_columns(r, s, nm, r->collectors != NULL);
	if (ret)
		fprintf(stderr, "wultfw report: %s: out of memory\n", r->path);
	else
		ret = read_rows(r, rd, &sel, scol);
	wfw_select_free(&sel);
	if (!ret && r->collectors)
		ret = load_timeline(r);
	return ret;
}

/* The report id: --reportids, info.yml's reportid, or the argument. */
static const char *result_id(const struct rep_cli *c, struct wfw_rep_result *r,
			     size_t i, const char *arg, char **owned)
{
	const char *slash;

	if (c->ids.n)
		return c->ids.v[i];
	*owned = wfw_infoyml_get(&r->info, "reportid");
	if (*owned)
		return *owned;
	slash = strrchr(arg, '/');
	while (slash && !slash[1] && slash > arg) {	/* "dir/" */
		const char *p = slash - 1;

		while (p > arg && *p != '/')
			p--;
		return *p == '/' ? p + 1 : p;
	}
	return slash ? slash + 1 : arg;
}

static int open_all(const struct rep_cli *c, char **args, size_t nres,
		    struct wfw_rep_result *res, struct wfw_reader **rd,
		    char **owned)
{
	/* One pass unless a selection must resolve names at its set-up. */
	struct wfw_reader_opts o = { .one_pass = !c->include && !c->exclude };
	char err[1024];
	int ret;

	for (size_t i = 0; i < nres; i++) {
		struct wfw_rep_result *r = &res[i];

		ret = wfw_result_locate(args[i], r->path, sizeof(r->path), err,
					sizeof(err));
		if (!ret) {
			wfw_run_end_warn("report", r->path);
			ret = wfw_reader_open_opts(&rd[i], r->path, &o, err, sizeof(err));
		}
		if (!ret)
			ret = wfw_infoyml_read(&r->info, r->path);
		if (ret) {
			fprintf(stderr, "wultfw report: %s\n", err);
			return ret;
		}
		r->id = result_id(c, r, i, args[i], &owned[i]);
		r->collectors = wfw_infoyml_get(&r->info, "collectors");
	}
	return 0;
}

static int write_report(const struct rep_cli *c, const struct wfw_report *rep)
{
	char err[1024], path[PATH_MAX];
	FILE *f;
	int ret = wfw_report_prepare_dir(c->out, c->force, err, sizeof(err));

	if (!ret)
		ret = wfw_report_copy_assets(c->out, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw report: %s\n", err);
		return ret;
	}
	snprintf(path, sizeof(path), "%s/data.js", c->out);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "wultfw report: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	ret = wfw_report_write_data(rep, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "wultfw report: writing %s: %s\n", path,
			strerror(-ret));
	return ret;
}

static void free_results(struct wfw_rep_result *res, struct wfw_reader **rd,
			 char **owned, size_t nres)
{
	for (size_t i = 0; i < nres; i++) {
		struct wfw_rep_result *r = &res[i];

		free_kept(r);
		for (unsigned k = 0; k < r->nparts; k++)
			wfw_reader_close(r->part_rd[k]);
		free(r->merged_names);
		wfw_infoyml_free(&r->info);
		wfw_timeline_free(&r->timeline);
		free(r->collectors);
		if (rd[i])
			wfw_reader_close(rd[i]);
		free(owned[i]);
	}
}

int wfw_cmd_report(int argc, char **argv)
{
	struct rep_cli c = { 0 };
	struct wfw_rep_result res[REP_MAX] = { 0 };
	struct wfw_reader *rd[REP_MAX] = { 0 };
	char *owned[REP_MAX] = { 0 };
	struct rep_names nm = { 0 };
	struct wfw_report rep = { 0 };
	size_t nres;
	int ret = parse_args(&c, argc, argv);

	if (ret >= 0)
		goto out;
	nres = (size_t)(argc - optind);
	ret = open_all(&c, argv + optind, nres, res, rd, owned);
	if (!ret && c.list) {
		list_metrics(res, nres, rd);
		goto done;
	}
	if (!ret)
		ret = choose_names(&c, res, nres, rd, &nm);
	for (size_t i = 0; i < nres && !ret; i++)
		ret = load(&c, &res[i], rd[i], &nm);
	if (!ret) {
		rep = (struct wfw_report){ .title = c.title, .descr = c.descr,
			.metrics = nm.metrics, .nmetrics = nm.nmetrics,
			.xaxes = nm.xaxes, .nxaxes = nm.nxaxes,
			.yaxes = nm.yaxes, .nyaxes = nm.nyaxes,
			.res = res, .nres = nres };
		ret = write_report(&c, &rep);
	}
	if (!ret)
		fprintf(stderr, "wultfw report: %s/index.html (%zu result%s, %zu metric%s)\n",
			c.out, nres, nres > 1 ? "s" : "", nm.nmetrics,
			nm.nmetrics > 1 ? "s" : "");
done:
	free_results(res, rd, owned, nres);
	ret = ret ? 1 : 0;
out:
	free(c.ids.buf);
	free(c.metrics.buf);
	free(c.xaxes.buf);
	free(c.yaxes.buf);
	return ret;
}
