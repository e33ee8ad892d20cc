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

#include "cliopts.h"
#include "commands.h"
#include "expr/seen.h"
#include "datafmt/reader.h"
#include "expr/expr.h"
#include "report/report.h"
#include "stats/report.h"
#include "tools/report_load.h"
#include "tools/report_prep.h"


#define AT(field) .off = offsetof(struct rep_cli, field)
static const struct wfw_cli_opt report_opts[] = {
	{ "outdir", 'o', WFW_CLI_STRING, "DIR", "where to write", .def = "wultfw-report", AT(out) },
	{ "reportids", 0, WFW_CLI_NAMES, "LIST", "names of the results, comma-separated (one per RESULT; an experiment of several CPUs: NAME/cpuN)",
	  AT(ids) },
	{ "title", 0, WFW_CLI_STRING, "TEXT", "the report's title (plain text, no markup)", AT(title) },
	{ "descr", 0, WFW_CLI_STRING, "TEXT", "a description shown under the title; markup: a blank line between paragraphs, [text](https://...) or a relative link, *emphasis*, `code`, \\ before one of \\`*[]() for itself; anything else shown as typed", AT(descr) },
	{ "metrics", 'm', WFW_CLI_NAMES, "LIST", "metrics, comma-separated names or patterns; by default the latency metrics (Skid, SampleWindow for samplers)",
	  AT(metrics) },
	{ "xaxes", 0, WFW_CLI_NAMES, "LIST", "x axes of the scatter plots, names or patterns; by default LDist,SilentTime",
	  AT(xaxes) },
	{ "yaxes", 0, WFW_CLI_NAMES, "LIST", "metrics that get scatter plots; by default every metric shown; named ones get a tab too",
	  AT(yaxes) },
	{ "hist", 0, WFW_CLI_NAMES, "LIST", "metrics that get a histogram, names or patterns, or none; by default every metric shown; named ones get a tab too",
	  AT(hist) },
	{ "chist", 0, WFW_CLI_NAMES, "LIST", "metrics that get a CCDF (wult's cumulative distribution), names or patterns, or none; by default every metric shown; named ones get a tab too",
	  AT(chist) },
	{ "group-by", 'g', WFW_CLI_STRING, "COL", "a name column giving the groups of the tables, colours and histograms; by default ReqCState, or Precise for skid results",
	  AT(group_by) },
	{ "list-metrics", 0, WFW_CLI_FLAG, NULL, "list the metrics of the results, their units and what each is as the result's source measured it, and exit",
	  AT(list) },
	WFW_CLI_SELECT(struct rep_cli, include, exclude),
	{ "explain-top", 0, WFW_CLI_UINT, "N", "datapoints the explanation section of a latency with attribution lists, largest first, with their breakdown, C-state and the collectors' counters around them",
	  .def = "20", .min = "0", .max = "1000", .unit = "datapoints", AT(explain_top) },
	WFW_CLI_JOBS(struct rep_cli, jobs, "threads reading one file (by default the online CPUs, at most 8; one for files under 8 MiB), and writing the metrics' plots"),
	{ "fleet", 0, WFW_CLI_FLAG, NULL, "the results are SUTs of a fleet: DIR/index.html compares them (calc --fleet's table, a plot per C-state, outlying SUTs flagged) and links to each SUT's own report in DIR/SUT/; -m names the one metric compared; a RESULT may be a remote run's -o directory",
	  AT(fleet) },
	{ "force", 'f', WFW_CLI_FLAG, NULL, "replace DIR if it holds a report", AT(force) },
	WFW_CLI_END
};

static const struct wfw_cli report_cli = {
	.name = "report",
	.usage = "Usage: wultfw report [OPTION]... RESULT...\n"
		 "\n"
		 "An HTML report of one or more results (result directories, ours or\n"
		 "wult's, CSV or binary files): a tab per metric with summary tables\n"
		 "(all datapoints and per requested C-state), scatter plots against\n"
		 "LDist and SilentTime, a histogram and a percentile (CCDF) plot, each\n"
		 "C-state in one colour across the page. With several results every\n"
		 "table and plot compares them with the first.\n"
		 "A result with latency attribution also gets, in the tab of the latency\n"
		 "it explains, where the time went: its composition by percentile band,\n"
		 "the tail's causes in words (as calc --explain) and its largest\n"
		 "datapoints; a result with collectors, a Timeline tab.\n"
		 "The directory opens from file:// without network: open index.html.\n"
		 "With --fleet, the results are SUTs of a lab: one page of a row per SUT\n"
		 "per C-state, outliers flagged, each SUT's own report linked.\n",
	.opts = report_opts,
	.operand = "RESULT", .min_operands = 1, .max_operands = REP_MAX,
};

/* One name per result given to --reportids, each its own. */
static int check_ids(const struct rep_cli *c, int nres)
{
	if (c->ids.n && c->ids.n != (size_t)nres) {
		wfw_cli_error(&report_cli, "--reportids gives %zu name%s for %d results: give one per result",
			      c->ids.n, c->ids.n > 1 ? "s" : "", nres);
		return 2;
	}
	for (size_t i = 0; i < c->ids.n; i++)
		for (size_t k = 0; k < i; k++)
			if (!strcmp(c->ids.v[i], c->ids.v[k])) {
				wfw_cli_error(&report_cli, "--reportids: '%s' twice: give each result its own name",
					      c->ids.v[i]);
				return 2;
			}
	return -1;
}

/* --fleet: what of report's other options it takes; -1 to go on. */
static int check_fleet(const struct rep_cli *c)
{
	const char *bad = c->ids.n ? "--reportids (each SUT is named by its info.yml host)" :
			  c->list ? "--list-metrics (list one SUT's)" :
			  c->include || c->exclude ? "--include/--exclude (wultfw filter first)" :
			  c->xaxes.n || c->yaxes.n || c->hist.n || c->chist.n || c->group_by ?
			  "--xaxes, --yaxes, --hist, --chist and -g (each SUT's report has its defaults)" :
			  NULL;

	if (bad) {
		wfw_cli_error(&report_cli, "--fleet takes no %s", bad);
		return 2;
	}
	if (c->metrics.n > 1 || (c->metrics.n && strpbrk(c->metrics.v[0], "*?["))) {
		wfw_cli_error(&report_cli, "--fleet compares one metric: give -m one column name");
		return 2;
	}
	return -1;
}

/* Returns -1 to go on with optind at the first RESULT, else the exit status. */
static int parse_args(struct rep_cli *c, int argc, char **argv)
{
	enum wfw_cli_next next = wfw_cli_parse(&report_cli, c, argc, argv);

	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	c->jobs_given = c->jobs != 0;
	if (!c->jobs)
		c->jobs = wfw_cli_online_cpus();
	return c->fleet ? check_fleet(c) : check_ids(c, argc - optind);
}

/* The collectors' files, in the directory of r's data file. */
static int load_timeline(struct wfw_rep_result *r)
{
	char dir[sizeof(r->path)], *slash;
	const char *base = strrchr(r->path, '/');
	int ret;

	snprintf(dir, sizeof(dir), "%s", r->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (wfw_rep_is_telemetry(r))	/* its own counters too */
		ret = wfw_telemetry_load(&r->timeline, dir, base ? base + 1 : r->path,
					 r->collectors, &r->info);
	else
		ret = wfw_timeline_load(&r->timeline, dir, r->collectors);
	if (!ret)
		wfw_timeline_kinds(&r->timeline, &r->info);
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
	struct wfw_seen z = { 0 };

	if (wfw_select_active(sel) && !wfw_seen_init(&z, sel)) {
		wfw_seen_note(&z, wfw_reader_schema(rd));
		wfw_seen_warn(&z, "report", r->path, stderr);
	}
	wfw_seen_free(&z);
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
	bool attrib = rep_attrib_wanted(r, s, nm, true);
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
	if (rep_jobs_for(c, r) > 1 &&
	    !rep_load_parts(c, r, nm, rep_jobs_for(c, r), attrib)) {
		rep_attrib_finish(r);
		return 0;
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
	ret = rep_keep_columns(r, s, nm, r->collectors != NULL);
	if (!ret && attrib)
		ret = rep_attrib_init(r, r->attrib_latency);
	if (ret)
		fprintf(stderr, "wultfw report: %s: out of memory\n", r->path);
	else
		ret = read_rows(r, rd, &sel, scol);
	if (!ret)
		warn_selection(r, rd, &sel);
	wfw_select_free(&sel);
	if (!ret && (r->collectors || wfw_rep_is_telemetry(r)))
		ret = load_timeline(r);
	if (!ret)
		rep_attrib_finish(r);
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
		rep_attrib_free(r);
		free(r->collectors);
		free(r->source);
		free(r->attrib_latency);
		free(r->attrib_smi);
		free(r->attrib_lost);
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
	struct rep_args args = { 0 };
	char *note = NULL;
	size_t nres = 0;
	int ret = parse_args(&c, argc, argv);

	if (ret >= 0)
		goto out;
	if (c.fleet) {
		ret = rep_fleet(&c, argv + optind, (size_t)(argc - optind), wfw_cmd_report) ? 1 : 0;
		goto out;
	}
	/* Each CPU of an experiment of several CPUs is a result of its own. */
	ret = rep_cpu_args(argv + optind, (size_t)(argc - optind), &c.ids, &args);
	nres = args.n;
	if (!ret)
		ret = rep_open_all(&args, res, rd, owned);
	if (!ret && c.list) {
		rep_list_metrics(res, nres, rd);
		goto done;
	}
	if (!ret)
		ret = rep_choose_names(&c, res, nres, rd, &nm);
	for (size_t i = 0; i < nres && !ret; i++) {
		ret = load(&c, &res[i], rd[i], &nm);
		/* Empty, NaN and out-of-range cells are in no number, no plot. */
		if (!ret)
			wfw_report_skipped(stderr, "report", res[i].path, &res[i].set);
	}
	if (!ret)
		note = rep_cpu_note(&c, argv + optind, (size_t)(argc - optind));
	if (!ret) {
		rep = (struct wfw_report){ .title = c.title, .descr = note ? note : c.descr,
			.metrics = nm.metrics, .nmetrics = nm.nmetrics,
			.xaxes = nm.xaxes, .nxaxes = nm.nxaxes,
			.yaxes = nm.yaxes, .nyaxes = nm.nyaxes,
			.hist = nm.hist, .nhist = nm.nhist, .hist_given = nm.hist_given,
			.chist = nm.chist, .nchist = nm.nchist, .chist_given = nm.chist_given,
			.res = res, .nres = nres, .jobs = c.jobs,
			.explain_top = c.explain_top };
		ret = rep_write(&c, &rep);
	}
	if (!ret)
		fprintf(stderr, "wultfw report: %s/index.html (%zu result%s, %zu metric%s)\n",
			c.out, nres, nres > 1 ? "s" : "", nm.nmetrics,
			nm.nmetrics > 1 ? "s" : "");
done:
	free_results(res, rd, owned, nres);
	ret = ret ? 1 : 0;
	rep_args_free(&args);
	free(note);
out:
	wfw_names_free(&c.ids);
	wfw_names_free(&c.metrics);
	wfw_names_free(&c.xaxes);
	wfw_names_free(&c.yaxes);
	wfw_names_free(&c.hist);
	wfw_names_free(&c.chist);
	return ret;
}
