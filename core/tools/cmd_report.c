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
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "datafmt/locate.h"
#include "datafmt/runstate.h"
#include "datafmt/reader.h"
#include "datafmt/wultunits.h"
#include "expr/expr.h"
#include "report/report.h"
#include "report/assets.h"
#include <suggest/suggest.h>

#define REP_MAX 64

struct rep_cli {
	const char *out, *title, *descr, *include, *exclude;
	char *ids_buf, *metrics_buf;
	const char *ids[REP_MAX], *metrics[REP_MAX];
	size_t nids, nmetrics;
	bool list, force;
};

static const char *const xaxes[] = { "LDist", "SilentTime" };

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
	      "      --list-metrics    list the metrics of the results and exit\n"
	      "      --include=EXPR    only datapoints where EXPR holds\n"
	      "      --exclude=EXPR    leave out datapoints where EXPR holds\n"
	      "  -f, --force           replace DIR if it holds a report\n"
	      "  -h, --help            this help\n", f);
}

/* Split a comma-separated list into out[] (pointers into *buf). */
static int split(const char *list, char **buf, const char **out, size_t *n)
{
	char *save = NULL, *tok;

	free(*buf);
	*buf = strdup(list);
	*n = 0;
	if (!*buf)
		return -ENOMEM;
	for (tok = strtok_r(*buf, ",", &save); tok && *n < REP_MAX;
	     tok = strtok_r(NULL, ",", &save))
		out[(*n)++] = tok;
	return 0;
}

static int parse_args(struct rep_cli *c, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "outdir", required_argument, NULL, 'o' },
		{ "reportids", required_argument, NULL, 'R' },
		{ "title", required_argument, NULL, 'T' },
		{ "descr", required_argument, NULL, 'D' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "list-metrics", no_argument, NULL, 'L' },
		{ "include", required_argument, NULL, 'I' },
		{ "exclude", required_argument, NULL, 'X' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret = 0;

	optind = 1;
	c->out = "wultfw-report";
	while ((opt = getopt_long(argc, argv, "o:m:fh", lopts, NULL)) != -1 && !ret) {
		switch (opt) {
		case 'o': c->out = optarg; break;
		case 'R': ret = split(optarg, &c->ids_buf, c->ids, &c->nids); break;
		case 'T': c->title = optarg; break;
		case 'D': c->descr = optarg; break;
		case 'm': ret = split(optarg, &c->metrics_buf, c->metrics, &c->nmetrics); break;
		case 'L': c->list = true; break;
		case 'I': c->include = optarg; break;
		case 'X': c->exclude = optarg; break;
		case 'f': c->force = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (ret)
		return 1;
	if (optind >= argc) {
		fprintf(stderr, "wultfw report: no RESULT given\n");
		usage(stderr);
		return 2;
	}
	if (argc - optind > REP_MAX) {
		fprintf(stderr, "wultfw report: at most %d results\n", REP_MAX);
		return 2;
	}
	if (c->nids && c->nids != (size_t)(argc - optind)) {
		fprintf(stderr, "wultfw report: --reportids names %zu results, %d given\n",
			c->nids, argc - optind);
		return 2;
	}
	return -1;
}

/* The latency metrics a report shows by default. */
static bool default_metric(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "RTD") ||
	       (n > 7 && !strcmp(name + n - 7, "Latency"));
}

static bool chosen(const struct rep_cli *c, const char *name)
{
	if (!c->nmetrics)
		return default_metric(name);
	for (size_t i = 0; i < c->nmetrics; i++)
		if (!fnmatch(c->metrics[i], name, 0))
			return true;
	return false;
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

/* Every -m pattern must match a column of some result. */
static int check_metrics(const struct rep_cli *c, struct wfw_rep_result *res,
			 size_t nres, struct wfw_reader **rd)
{
	for (size_t i = 0; i < c->nmetrics; i++) {
		const char *names[256], *near;
		size_t n = 0;
		bool found = false;

		for (size_t r = 0; r < nres; r++) {
			const struct wultfw_schema *s = wfw_reader_schema(rd[r]);

			for (size_t k = 0; k < s->ncols; k++) {
				found |= !fnmatch(c->metrics[i], s->cols[k].name, 0);
				if (n < 256)
					names[n++] = s->cols[k].name;
			}
		}
		if (found)
			continue;
		near = wfw_suggest(c->metrics[i], names, n);
		fprintf(stderr, "wultfw report: --metrics: no metric '%s' in %s%s%s%s ('wultfw report --list-metrics RESULT...' lists them)\n",
			c->metrics[i], nres > 1 ? "any result" : res[0].path,
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

/* Columns to keep in memory: the metrics and the scatter x axes. */
static int keep_columns(struct wfw_rep_result *r, const struct wultfw_schema *s,
			const char *const *metrics, size_t nmetrics)
{
	size_t n = nmetrics + 2;

	r->colnames = calloc(n, sizeof(*r->colnames));
	r->units = calloc(n, sizeof(*r->units));
	r->vals = calloc(n, sizeof(*r->vals));
	if (!r->colnames || !r->units || !r->vals)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *name = i < nmetrics ? metrics[i] : xaxes[i - nmetrics];
		int k = wfw_schema_find(s, name);

		r->colnames[r->ncols] = name;
		r->units[r->ncols] = k >= 0 && s->cols[k].unit ? s->cols[k].unit : "";
		r->ncols++;
		if (k >= 0 && s->cols[k].type == WULTFW_COL_ENUM)
			r->units[r->ncols - 1] = "";
	}
	return 0;
}

/* Append the batch's kept columns to r's arrays. */
static int append_rows(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       const struct wultfw_batch *b, size_t *cap)
{
	int scol = wfw_schema_find(s, "ReqCState");

	if (r->nrows + b->rows > *cap) {
		size_t ncap = (*cap ? *cap * 2 : 65536) + b->rows;
		int32_t *st = realloc(r->state, ncap * sizeof(*st));

		if (!st)
			return -ENOMEM;
		r->state = st;
		for (size_t c = 0; c < r->ncols; c++) {
			int k = wfw_schema_find(s, r->colnames[c]);
			float *v;

			if (k < 0 || s->cols[k].type == WULTFW_COL_ENUM)
				continue;
			v = realloc(r->vals[c], ncap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			r->vals[c] = v;
		}
		*cap = ncap;
	}
	for (size_t c = 0; c < r->ncols; c++) {
		int k = wfw_schema_find(s, r->colnames[c]);

		if (k < 0 || !r->vals[c])
			continue;
		for (size_t i = 0; i < b->rows; i++)
			r->vals[c][r->nrows + i] = (float)wfw_cell_value(
				&s->cols[k], wultfw_crow(b, i)[k]);
	}
	for (size_t i = 0; i < b->rows; i++)
		r->state[r->nrows + i] = scol >= 0 ?
			(int32_t)wultfw_crow(b, i)[scol].i : -1;
	r->nrows += b->rows;
	return 0;
}

static int load(const struct rep_cli *c, struct wfw_rep_result *r,
		struct wfw_reader *rd, const char *const *metrics, size_t nmetrics)
{
	const struct wultfw_schema *s = wfw_reader_schema(rd);
	struct wfw_statset_cfg cfg = { .exact_limit = 1000000,
				       .exact_memory = (size_t)256 << 20 };
	struct wultfw_batch b = { 0 };
	struct wfw_select sel;
	int scol = wfw_schema_find(s, "ReqCState");
	size_t cap = 0;
	char err[2048];
	long n = 0;
	int ret;

	cfg.group_by = scol >= 0 && s->cols[scol].type == WULTFW_COL_ENUM ?
		       "ReqCState" : NULL;
	cfg.metrics = metrics;
	cfg.nmetrics = nmetrics;
	if (scol >= 0 && cfg.group_by) {
		r->state_names = s->cols[scol].enum_names;
		r->nstates = s->cols[scol].n_enum;
	}
	ret = wfw_select_init(&sel, c->include, c->exclude, s, err, sizeof(err));
	if (!ret)
		ret = wfw_statset_init(&r->set, s, &cfg, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw report: %s: %s\n", r->path, err);
		wfw_select_free(&sel);
		return ret;
	}
	r->have_set = true;
	ret = keep_columns(r, s, metrics, nmetrics);
	if (!ret)
		ret = wfw_batch_alloc(&b, s->ncols, 8192);
	while (!ret && (n = wfw_reader_read(rd, &b)) > 0) {
		r->rows_read += b.rows;
		wfw_select_batch(&sel, &b);
		ret = wfw_statset_add(&r->set, &b);
		if (!ret)
			ret = append_rows(r, s, &b, &cap);
		b.rows = 0;
	}
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw report: %s: out of memory\n", r->path);
	else if (!ret && n < 0) {
		fprintf(stderr, "wultfw report: %s\n", wfw_reader_error(rd));
		ret = (int)n;
	}
	wfw_batch_free(&b);
	wfw_select_free(&sel);
	return ret;
}

/* The report id: --reportids, info.yml's reportid, or the argument. */
static const char *result_id(const struct rep_cli *c, struct wfw_rep_result *r,
			     size_t i, const char *arg, char **owned)
{
	const char *slash;

	if (c->nids)
		return c->ids[i];
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
	char err[1024];
	int ret;

	for (size_t i = 0; i < nres; i++) {
		struct wfw_rep_result *r = &res[i];

		ret = wfw_result_locate(args[i], r->path, sizeof(r->path), err,
					sizeof(err));
		if (!ret) {
			wfw_run_end_warn("report", r->path);
			ret = wfw_reader_open(&rd[i], r->path, err, sizeof(err));
		}
		if (!ret)
			ret = wfw_infoyml_read(&r->info, r->path);
		if (ret) {
			fprintf(stderr, "wultfw report: %s\n", err);
			return ret;
		}
		r->id = result_id(c, r, i, args[i], &owned[i]);
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

		if (r->have_set)
			wfw_statset_free(&r->set);
		for (size_t k = 0; r->vals && k < r->ncols; k++)
			free(r->vals[k]);
		free(r->vals);
		free(r->colnames);
		free(r->units);
		free(r->state);
		wfw_infoyml_free(&r->info);
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
	const char *metrics[REP_MAX];
	struct wfw_report rep = { 0 };
	size_t nres, nmetrics = 0;
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
		ret = check_metrics(&c, res, nres, rd);
	for (size_t i = 0; i < nres && !ret; i++) {
		const struct wultfw_schema *s = wfw_reader_schema(rd[i]);

		for (size_t k = 0; k < s->ncols; k++)
			if (s->cols[k].type != WULTFW_COL_ENUM &&
			    chosen(&c, s->cols[k].name))
				add_name(metrics, &nmetrics, s->cols[k].name);
	}
	if (!ret && !nmetrics) {
		fprintf(stderr, "wultfw report: no latency metric in the results: choose some with -m (--list-metrics lists them)\n");
		ret = -ENOENT;
	}
	for (size_t i = 0; i < nres && !ret; i++)
		ret = load(&c, &res[i], rd[i], metrics, nmetrics);
	if (!ret) {
		rep = (struct wfw_report){ .title = c.title, .descr = c.descr,
			.metrics = metrics, .nmetrics = nmetrics,
			.xaxes = xaxes, .nxaxes = 2, .res = res, .nres = nres };
		ret = write_report(&c, &rep);
	}
	if (!ret)
		fprintf(stderr, "wultfw report: %s/index.html (%zu result%s, %zu metric%s)\n",
			c.out, nres, nres > 1 ? "s" : "", nmetrics,
			nmetrics > 1 ? "s" : "");
done:
	free_results(res, rd, owned, nres);
	ret = ret ? 1 : 0;
out:
	free(c.ids_buf);
	free(c.metrics_buf);
	return ret;
}
