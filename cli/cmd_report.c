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
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "datafmt/likeness.h"
#include "datafmt/locate.h"
#include "datafmt/runstate.h"
#include "datafmt/reader.h"
#include "datafmt/metricdoc.h"
#include "units/wultunits.h"
#include "expr/expr.h"
#include "report/report.h"
#include "report/assets.h"
#include "tools/report_load.h"
#include "toolopts.h"
#include <suggest/suggest.h>

/* Scatter plots' x axes unless --xaxes says otherwise; a sampler's: Time. */
static const char *const default_xaxes[] = { "LDist", "SilentTime" };
static const char *const sampler_xaxis = "Time";
/* Groups of the tables, colours and histograms, unless --group-by says. */
static const char *const default_groups[] = { "ReqCState", "Precise" };
/* The main result's time column, for the timeline of its collectors. */

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
	      "      --list-metrics    list the metrics of the results, their units and\n"
	      "                        what each is as the result's source measured it,\n"
	      "                        and exit\n"
	      "      --include=EXPR    only datapoints where EXPR holds\n"
	      "      --exclude=EXPR    leave out datapoints where EXPR holds\n"
	      "  -j, --jobs N          threads reading one file (default: the online\n"
	      "                        CPUs, at most 8; one for files under 8 MiB),\n"
	      "                        and writing the metrics' plots\n"
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
		fprintf(stderr, "wultfw report: --reportids gives %zu name%s for %d results: give one per result\n",
			c->ids.n, c->ids.n > 1 ? "s" : "", argc - optind);
		return 2;
	}
	for (size_t i = 0; i < c->ids.n; i++)
		for (size_t k = 0; k < i; k++)
			if (!strcmp(c->ids.v[i], c->ids.v[k])) {
				fprintf(stderr, "wultfw report: --reportids: '%s' twice: give each result its own name\n",
					c->ids.v[i]);
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

/* The unit of a column as listed: none for names. */
static const char *listed_unit(const struct wultfw_column *col)
{
	return col->type == WULTFW_COL_ENUM ? "" :
	       wfw_metric_unit(col->name, col->unit);
}

/* One column of a result: name, unit, kind and what it is (as the page says). */
static void list_metric(const struct wfw_rep_result *r,
			const struct wultfw_column *col, int uwidth)
{
	const char *descr = wfw_metric_descr(col->name, r->source);

	printf("  %-16s %-*s %s%s%s%s\n", col->name, uwidth, listed_unit(col),
	       col->type == WULTFW_COL_ENUM ? "names" : "numbers",
	       default_metric(col->name) ? ", reported by default" : "",
	       *descr ? ": " : "", descr);
}

static void list_metrics(const struct wfw_rep_result *res, size_t nres,
			 struct wfw_reader **rd)
{
	for (size_t r = 0; r < nres; r++) {
		const struct wultfw_schema *s = wfw_reader_schema(rd[r]);
		int uwidth = 4;

		for (size_t k = 0; k < s->ncols; k++)
			if ((int)strlen(listed_unit(&s->cols[k])) > uwidth)
				uwidth = (int)strlen(listed_unit(&s->cols[k]));
		printf("%s (%s%s%s):\n", res[r].id, res[r].path,
		       res[r].source ? ", source " : "",
		       res[r].source ? res[r].source : "");
		for (size_t k = 0; k < s->ncols; k++)
			list_metric(&res[r], &s->cols[k], uwidth);
	}
}

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
int rep_keep_columns(struct wfw_rep_result *r, const struct wultfw_schema *s,
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
				   nm->xaxes[i - nm->nmetrics] : rep_timeline_col;
		int k = wfw_schema_find(s, name);

		r->colnames[r->ncols] = name;
		r->units[r->ncols] = k >= 0 ? wfw_metric_unit(name, s->cols[k].unit) : "";
		r->ncols++;
		if (k >= 0 && s->cols[k].type == WULTFW_COL_ENUM)
			r->units[r->ncols - 1] = "";
	}
	r->ntails = nm->nmetrics;
	return 0;
}

/*
 * The column giving the groups: --group-by's (-EINVAL if it is not a
 * name column), else the first default one there is, else -1.
 */
int rep_group_col(const struct rep_cli *c, const struct wultfw_schema *s)
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

/* Say why reading r failed (ret: -ENOMEM, or the reader's error). */
static int read_failed(const struct wfw_rep_result *r, struct wfw_reader *rd, int ret)
{
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw report: %s: out of memory\n", r->path);
	else if (ret)
		fprintf(stderr, "wultfw report: %s\n", wfw_reader_error(rd));
	return ret;
}

/* Every row of rd through the selection into r; 0 or an error said. */
static int read_batches(struct wfw_rep_result *r, struct wfw_reader *rd,
			struct wfw_select *sel, int scol, struct rep_keep *k)
{
	const struct wultfw_schema *s = wfw_reader_schema(rd);
	struct wultfw_batch b = { 0 };
	long n = 0;
	int ret = wfw_batch_alloc(&b, s->ncols, 8192);

	while (!ret && (n = wfw_reader_read(rd, &b)) > 0) {
		r->rows_read += b.rows;
		ret = wfw_select_batch(sel, &b);
		if (ret) {
			fprintf(stderr, "wultfw report: %s: %s\n", r->path, sel->err);
			wfw_batch_free(&b);
			return ret;
		}
		ret = wfw_statset_add(&r->set, &b);
		if (!ret)
			ret = rep_keep_rows(r, s, scol, &b, k);
		if (!ret)
			ret = rep_cross_past(r, k, WFW_REPORT_KEEP_ROWS);
		b.rows = 0;
	}
	wfw_batch_free(&b);
	return read_failed(r, rd, ret ? ret : n < 0 ? (int)n : 0);
}

/* A binary file, column by column: over the cap, sampled as rows pass. */
static int read_cols(struct wfw_rep_result *r, struct wfw_reader *rd, int scol,
		     struct rep_keep *k)
{
	uint64_t rows = wfw_reader_rows(rd);

	if (rows > WFW_REPORT_KEEP_ROWS)
		rep_keep_plan(r, k, rows, 0, rows);
	return rep_read_cols(r, rd, scol, k, WFW_REPORT_KEEP_ROWS);
}

/*
 * Every row of rd through the selection into r; 0 or an error said. A
 * binary file without a selection is read column by column.
 */
static int read_rows(struct wfw_rep_result *r, struct wfw_reader *rd,
		     struct wfw_select *sel, int scol)
{
	const struct wultfw_schema *s = wfw_reader_schema(rd);
	struct rep_keep k = { 0 };
	int ret = rep_keep_init(r, &k, WFW_REPORT_SEED);

	if (ret)
		ret = read_failed(r, rd, ret);
	else if (!wfw_select_active(sel) && wfw_reader_native_cols(rd))
		ret = read_failed(r, rd, read_cols(r, rd, scol, &k));
	else
		ret = read_batches(r, rd, sel, scol, &k);
	rep_keep_free(&k);
	if (scol >= 0) {	/* a one-pass reader learns names as it goes */
		r->state_names = s->cols[scol].enum_names;
		r->nstates = s->cols[scol].n_enum;
	}
	return ret;
}

/* Names the selection looks for in vain, and a selection of nothing. */
static void warn_selection(const struct wfw_rep_result *r, struct wfw_reader *rd,
			   const struct wfw_select *sel)
{
	char msg[1024];

	if (wfw_select_unmatched(sel, wfw_reader_schema(rd), msg, sizeof(msg)))
		fprintf(stderr, "wultfw report: warning: %s: %s\n", r->path, msg);
	if (wfw_select_active(sel) && !r->nsel)
		fprintf(stderr, "wultfw report: warning: %s: no datapoint selected (of %llu): its plots and tables are empty\n",
			r->path, (unsigned long long)r->rows_read);
}

static int load(const struct rep_cli *c, struct wfw_rep_result *r,
		struct wfw_reader *rd, const struct rep_names *nm)
{
	const struct wultfw_schema *s = wfw_reader_schema(rd);
	struct wfw_statset_cfg cfg = { .exact_limit = WFW_REPORT_KEEP_ROWS,
				       .exact_memory = (size_t)256 << 20 };
	struct wfw_select sel;
	int scol = rep_group_col(c, s);
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
	if (rep_jobs_for(c, r) > 1 && !rep_load_parts(c, r, nm, rep_jobs_for(c, r)))
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
	ret = rep_keep_columns(r, s, nm, r->collectors != NULL);
	if (ret)
		fprintf(stderr, "wultfw report: %s: out of memory\n", r->path);
	else
		ret = read_rows(r, rd, &sel, scol);
	if (!ret)
		warn_selection(r, rd, &sel);
	wfw_select_free(&sel);
	if (!ret && r->collectors)
		ret = load_timeline(r);
	return ret;
}

/* The report id: --reportids, info.yml's reportid, or the argument. */
/* The last part of a path, "dir/" included. */
static const char *path_base(const char *arg)
{
	const char *slash = strrchr(arg, '/');

	while (slash && !slash[1] && slash > arg) {	/* "dir/" */
		const char *p = slash - 1;

		while (p > arg && *p != '/')
			p--;
		return *p == '/' ? p + 1 : p;
	}
	return slash ? slash + 1 : arg;
}

static const char *result_id(const struct rep_cli *c, struct wfw_rep_result *r,
			     size_t i, const char *arg, char **owned)
{
	if (c->ids.n)
		return c->ids.v[i];
	*owned = wfw_infoyml_get(&r->info, "reportid");
	return *owned ? *owned : path_base(arg);
}

/*
 * Two results with one reportid (a filtered result keeps its original's)
 * would be told apart by nothing: the later one is named by its path.
 */
static void unique_id(struct wfw_rep_result *res, size_t i, const char *arg)
{
	for (size_t k = 0; k < i; k++) {
		if (strcmp(res[k].id, res[i].id))
			continue;
		fprintf(stderr, "wultfw report: note: %s has the reportid '%s' of %s: shown as '%s' (--reportids names them)\n",
			res[i].path, res[i].id, res[k].path, path_base(arg));
		res[i].id = path_base(arg);
		return;
	}
}

/* A line per latency setting in which a result differs from the first. */
static void warn_unlike(const struct wfw_rep_result *res, size_t n)
{
	const char **files = calloc(n, sizeof(*files)), **names = calloc(n, sizeof(*names));

	for (size_t i = 0; files && names && i < n; i++) {
		files[i] = res[i].path;
		names[i] = res[i].id;
	}
	if (files && names)
		wfw_likeness_warn(stderr, "report", files, names, n);
	free(files);
	free(names);
}

static int open_all(const struct rep_cli *c, char **args, size_t nres,
		    struct wfw_rep_result *res, struct wfw_reader **rd,
		    char **owned)
{
	/* One pass: the selection follows the types learned as rows come. */
	struct wfw_reader_opts o = { .one_pass = true };
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
		unique_id(res, i, args[i]);
		r->collectors = wfw_infoyml_get(&r->info, "collectors");
		r->source = wfw_infoyml_get(&r->info, "source");
	}
	warn_unlike(res, nres);
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

		rep_free_kept(r);
		for (unsigned k = 0; k < r->nparts; k++)
			wfw_reader_close(r->part_rd[k]);
		free(r->merged_names);
		wfw_infoyml_free(&r->info);
		wfw_timeline_free(&r->timeline);
		free(r->collectors);
		free(r->source);
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
			.res = res, .nres = nres, .jobs = c.jobs };
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
