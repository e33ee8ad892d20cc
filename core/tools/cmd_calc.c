/* SPDX-License-Identifier: MIT */
/*
 * wultfw calc: statistics of result directories, datapoints.csv files
 * (ours or wult's) and binary files, side by side in one table or as JSON.
 * The statistics are those of the stats sink (lib/stats), computed while
 * the file streams through, so memory stays bounded whatever its size.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "datafmt/locate.h"
#include "datafmt/runstate.h"
#include "datafmt/reader.h"
#include "expr/expr.h"
#include "stats/report.h"
#include "stats/statset.h"
#include "stats/table.h"

#define CALC_MAX_FUNCS 40
#define CALC_DEF_FUNCS "count,min,mean,std,median,p90,p99,p99.9,p99.99,p99.999,max"

enum calc_fn { FN_COUNT, FN_MIN, FN_MAX, FN_MEAN, FN_STD, FN_PCT };

struct calc_func {
	enum calc_fn fn;
	double p;		/* FN_PCT */
	size_t pidx;		/* index into the percentile list */
	char label[24];
};

struct calc_result {
	const char *arg;	/* as given on the command line */
	char path[4096];	/* the file read */
	struct wfw_reader *rd;
	struct wfw_statset set;
	struct wfw_select sel;
	bool have_set;
	bool no_states;		/* ReqCState empty in every row */
};

struct calc {
	struct calc_func funcs[CALC_MAX_FUNCS];
	size_t nfuncs;
	double pct[WFW_SUMMARY_MAX_PCT];
	size_t npct;
	char *metric_buf;
	const char *metrics[64];
	size_t nmetrics;
	const char *include, *exclude;	/* selection expressions */
	bool per_cstate, estimated;	/* per_cstate: per value of group_by */
	const char *group_by;	/* an ENUM column: ReqCState (-c) or -g's */
	enum { CALC_TABLE, CALC_MARKDOWN, CALC_CSV, CALC_JSON } format;
	size_t exact_limit, exact_memory;
	struct calc_result *res;
	size_t nres;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: wultfw calc [OPTION]... RESULT...\n"
"Statistics of measured datapoints. A RESULT is a result directory (its\n"
"datapoints.csv, or else datapoints.wfb), a CSV file (written by wultfw or\n"
"by wult) or a binary file. Several results are shown side by side.\n"
"\n"
"  -f, --funcs=LIST     functions, comma-separated (default\n"
"                       " CALC_DEF_FUNCS "):\n"
"                       count (N), min, max, mean (avg), std (stddev),\n"
"                       median (med), pNN or NN%% (percentile NN, 0-100)\n"
"  -m, --metrics=LIST   metrics (column names or glob patterns such as\n"
"                       '*Latency'), comma-separated; default all numeric\n"
"  -c, --per-cstate     also per requested C-state (ReqCState column)\n"
"  -g, --group-by=COL   also per value of another text column: Precise\n"
"                       (skid per precise level), Where (skid: hits vs\n"
"                       skids)\n"
"  -F, --format=FMT     table (aligned text, default), markdown, csv or json\n"
"  -j, --json           same as --format=json\n"
"      --list-funcs     list the functions, with wult's names for them\n"
"      --include=EXPR   only rows where EXPR holds, e.g.\n"
"                       'ReqCState == \"C6\" && WakeLatency > 0.1ms'\n"
"      --exclude=EXPR   leave out rows where EXPR holds\n"
"                       (expressions: see wultfw(1), SELECTING DATAPOINTS)\n"
"  -e, --exact-limit=N  values per metric and C-state kept for exact\n"
"                       percentiles (default %d); beyond, a histogram\n"
"                       within %.3f%% relative error\n"
"  -h, --help           show this help\n"
"\n"
"Values are in the column's unit (latencies in microseconds). Percentiles\n"
"interpolate linearly between ranks (like numpy and pandas); std is the\n"
"sample standard deviation.\n",
		1000000, WFW_HIST_REL_ERROR * 100);
}

static int parse_funcs(struct calc *c, const char *list)
{
	char *dup = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!dup)
		return -ENOMEM;
	c->nfuncs = c->npct = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		struct calc_func *f = &c->funcs[c->nfuncs];
		size_t l = strlen(tok);

		if (c->nfuncs == CALC_MAX_FUNCS) {
			fprintf(stderr, "wultfw calc: -f: at most %d functions\n",
				CALC_MAX_FUNCS);
			ret = -EINVAL;
			break;
		}
		snprintf(f->label, sizeof(f->label), "%s", tok);
		if (!strcmp(tok, "count") || !strcmp(tok, "N"))
			f->fn = FN_COUNT;
		else if (!strcmp(tok, "min"))
			f->fn = FN_MIN;
		else if (!strcmp(tok, "max"))
			f->fn = FN_MAX;
		else if (!strcmp(tok, "mean") || !strcmp(tok, "avg"))
			f->fn = FN_MEAN;
		else if (!strcmp(tok, "std") || !strcmp(tok, "stddev"))
			f->fn = FN_STD;
		else {
			char *end;
			const char *num = tok;

			f->fn = FN_PCT;
			if (!strcmp(tok, "median") || !strcmp(tok, "med")) {
				f->p = 50;
			} else {
				if (tok[0] == 'p')
					num = tok + 1;
				else if (l < 2 || tok[l - 1] != '%')
					num = "";
				f->p = strtod(num, &end);
				if (!*num || end == num ||
				    (*end && strcmp(end, "%")) ||
				    !(f->p >= 0 && f->p <= 100)) {
					fprintf(stderr, "wultfw calc: -f: unknown "
						"function '%s' (count, min, max, "
						"mean, std, median, pNN, NN%%)\n",
						tok);
					ret = -EINVAL;
					break;
				}
			}
			if (c->npct == WFW_SUMMARY_MAX_PCT) {
				fprintf(stderr, "wultfw calc: -f: at most %d "
					"percentiles\n", WFW_SUMMARY_MAX_PCT);
				ret = -EINVAL;
				break;
			}
			f->pidx = c->npct;
			c->pct[c->npct++] = f->p;
		}
		c->nfuncs++;
	}
	free(dup);
	if (!ret && !c->nfuncs) {
		fprintf(stderr, "wultfw calc: -f: no function given\n");
		ret = -EINVAL;
	}
	return ret;
}

static int parse_metrics(struct calc *c, const char *list)
{
	char *save = NULL, *tok;

	free(c->metric_buf);
	c->metric_buf = strdup(list);
	c->nmetrics = 0;
	if (!c->metric_buf)
		return -ENOMEM;
	for (tok = strtok_r(c->metric_buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (c->nmetrics == 64) {
			fprintf(stderr, "wultfw calc: -m: at most 64 names\n");
			return -EINVAL;
		}
		c->metrics[c->nmetrics++] = tok;
	}
	return 0;
}

/*
 * A result measured without cpuidle states by an older wultfw has a
 * ReqCState column with every cell empty: one "-" group equal to "all".
 */
static void note_no_states(struct calc *c, struct calc_result *r)
{
	uint64_t total = 0, none = 0;
	size_t g;

	if (!c->per_cstate || r->set.gcol < 0 ||
	    strcmp(c->group_by, "ReqCState"))
		return;
	for (g = 0; g < r->set.ngroups; g++) {
		total += wfw_statset_group_count(&r->set, g);
		if (!strcmp(wfw_statset_group_name(&r->set, g), "-"))
			none += wfw_statset_group_count(&r->set, g);
	}
	if (!total || none != total)
		return;
	r->no_states = true;
	fprintf(stderr, "wultfw calc: %s: ReqCState is empty in every row "
		"(measured without cpuidle states), --per-cstate shows all rows only\n",
		r->path);
}

/* -g names a column the result lacks: say which ones it has. */
static int no_group_column(const char *path, const char *name,
			   const struct wultfw_schema *s)
{
	size_t n = 0;

	fprintf(stderr, "wultfw calc: %s: no text column '%s' to group by; it has:",
		path, name);
	for (size_t k = 0; k < s->ncols; k++)
		if (s->cols[k].type == WULTFW_COL_ENUM)
			fprintf(stderr, "%s %s", n++ ? "," : "", s->cols[k].name);
	fprintf(stderr, "%s\n", n ? "" : " none");
	return -ENOENT;
}

static int load(struct calc *c, struct calc_result *r)
{
	struct wfw_statset_cfg cfg = { 0 };
	struct wultfw_batch b = { 0 };
	char err[600];
	long n;
	int ret;

	ret = wfw_result_locate(r->arg, r->path, sizeof(r->path), err,
				sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw calc: %s\n", err);
		return ret;
	}
	wfw_run_end_warn("calc", r->path);
	ret = wfw_reader_open(&r->rd, r->path, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "wultfw calc: %s\n", err);
		return ret;
	}
	cfg.exact_limit = c->exact_limit;
	cfg.exact_memory = c->exact_memory;
	cfg.group_by = c->per_cstate ? c->group_by : NULL;
	cfg.metrics = c->nmetrics ? c->metrics : NULL;
	cfg.nmetrics = c->nmetrics;
	ret = wfw_statset_init(&r->set, wfw_reader_schema(r->rd), &cfg, err,
			       sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw calc: %s: %s\n", r->path, err);
		return ret;
	}
	r->have_set = true;
	if (c->per_cstate && r->set.gcol < 0 && strcmp(c->group_by, "ReqCState"))
		return no_group_column(r->path, c->group_by, wfw_reader_schema(r->rd));
	ret = wfw_select_init(&r->sel, c->include, c->exclude,
			      wfw_reader_schema(r->rd), err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw calc: %s: %s\n", r->path, err);
		return ret;
	}
	if (c->per_cstate && r->set.gcol < 0)
		fprintf(stderr, "wultfw calc: %s: no ReqCState column, "
			"--per-cstate shows all rows only\n", r->path);
	if (wfw_batch_alloc(&b, wfw_reader_schema(r->rd)->ncols, 8192)) {
		fprintf(stderr, "wultfw calc: out of memory\n");
		return -ENOMEM;
	}
	while ((n = wfw_reader_read(r->rd, &b)) > 0) {
		wfw_select_batch(&r->sel, &b);
		if (wfw_statset_add(&r->set, &b)) {
			fprintf(stderr, "wultfw calc: %s: out of memory\n",
				r->path);
			n = -ENOMEM;
			break;
		}
		b.rows = 0;
	}
	wfw_batch_free(&b);
	if (n < 0) {
		if (n != -ENOMEM)
			fprintf(stderr, "wultfw calc: %s\n",
				wfw_reader_error(r->rd));
		return (int)n;
	}
	note_no_states(c, r);
	if (wfw_select_active(&r->sel))
		fprintf(stderr, "wultfw calc: %s: %llu of %llu rows selected\n",
			r->path, (unsigned long long)r->sel.kept,
			(unsigned long long)(r->sel.kept + r->sel.dropped));
	if (wfw_reader_ignored_bytes(r->rd))
		fprintf(stderr, "wultfw calc: %s: ignored %llu bytes after the "
			"last whole record (file cut short)\n", r->path,
			(unsigned long long)wfw_reader_ignored_bytes(r->rd));
	return 0;
}

/* Index of metric `name` in a result's set, or SIZE_MAX. */
static size_t find_metric(const struct wfw_statset *s, const char *name)
{
	for (size_t m = 0; m < s->nmetrics; m++)
		if (!strcmp(wfw_statset_metric(s, m)->name, name))
			return m;
	return SIZE_MAX;
}

static size_t find_group(const struct wfw_statset *s, const char *name)
{
	for (size_t g = 0; g < s->ngroups; g++)
		if (!strcmp(wfw_statset_group_name(s, g), name))
			return g;
	return SIZE_MAX;
}

static double func_value(const struct calc_func *f, const struct wfw_summary *s)
{
	switch (f->fn) {
	case FN_COUNT: return (double)s->count;
	case FN_MIN: return s->min;
	case FN_MAX: return s->max;
	case FN_MEAN: return s->mean;
	case FN_STD: return s->stddev;
	default: return s->pct[f->pidx];
	}
}

/* A value; "~" marks a percentile estimated from the histogram. */
static void fmt_func(char *buf, size_t len, const struct calc_func *f,
		     const struct wfw_summary *s, int dec)
{
	bool est = f->fn == FN_PCT && !s->exact;

	if (f->fn == FN_COUNT) {
		snprintf(buf, len, "%llu", (unsigned long long)s->count);
		return;
	}
	buf[0] = '~';
	wfw_fmt_value(buf + est, len - est, func_value(f, s), dec);
}

/* The difference to the first result: "+1.250 (+3.1%)". */
static void fmt_diff(char *buf, size_t len, const struct calc_func *f,
		     const struct wfw_summary *s, const struct wfw_summary *base,
		     int dec)
{
	double v = func_value(f, s), b = func_value(f, base), d = v - b;
	char num[40];

	wfw_fmt_value(num, sizeof(num), fabs(d), f->fn == FN_COUNT ? 0 : dec);
	if (b != 0 && isfinite(b))
		snprintf(buf, len, "%s%s (%+.1f%%)", d < 0 ? "-" : "+", num,
			 100 * d / fabs(b));
	else
		snprintf(buf, len, "%s%s", d < 0 ? "-" : "+", num);
}

/* Leading cells of a row: metric, unit, [C-state], [result]. */
static size_t lead_cells(struct calc *c, const char **cells,
			 const char *metric, const char *unit,
			 const char *group, const char *result)
{
	size_t n = 0;

	cells[n++] = metric;
	cells[n++] = unit;
	if (c->per_cstate)
		cells[n++] = group;
	if (c->nres > 1)
		cells[n++] = result;
	return n;
}

/*
 * Rows for one metric and one group name ("all": every row): one per
 * result, and under each later result its difference to the first.
 */
static int table_rows(struct calc *c, struct wfw_table *t, const char *metric,
		      const char *group)
{
	struct wfw_summary sum[c->nres];
	bool have[c->nres];
	const struct wultfw_column *col = NULL;
	char (*buf)[64] = calloc(c->nfuncs + 1, sizeof(*buf));
	const char **cells = calloc(c->nfuncs + 6, sizeof(*cells));
	char diffname[300];
	int ret = 0, dec = 3;

	if (!buf || !cells) {
		free(buf);
		free(cells);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->nres && !ret; i++) {
		struct wfw_statset *s = &c->res[i].set;
		size_t m = find_metric(s, metric);
		size_t g = strcmp(group, "all") ? find_group(s, group) : SIZE_MAX;

		have[i] = m != SIZE_MAX && (g != SIZE_MAX || !strcmp(group, "all"));
		if (have[i])
			ret = wfw_statset_summary(s, m, g, c->pct, c->npct,
						  &sum[i]);
		if (have[i] && !ret && !sum[i].count && strcmp(group, "all"))
			have[i] = false;
		if (have[i] && !col) {
			col = wfw_statset_metric(s, m);
			dec = wfw_report_decimals(col);
		}
	}
	snprintf(diffname, sizeof(diffname), "diff vs %s", c->res[0].arg);
	for (size_t i = 0; i < c->nres && !ret; i++) {
		size_t n;

		if (!have[i])
			continue;
		n = lead_cells(c, cells, metric, col->unit ? col->unit : "",
			       group, c->res[i].arg);
		for (size_t k = 0; k < c->nfuncs; k++) {
			fmt_func(buf[k], sizeof(buf[k]), &c->funcs[k], &sum[i], dec);
			cells[n++] = buf[k];
		}
		ret = wfw_table_add(t, cells);
		if (ret || !i || !have[0])
			continue;
		n = lead_cells(c, cells, "", "", "", diffname);
		for (size_t k = 0; k < c->nfuncs; k++) {
			fmt_diff(buf[k], sizeof(buf[k]), &c->funcs[k], &sum[i],
				 &sum[0], dec);
			cells[n++] = buf[k];
		}
		ret = wfw_table_add(t, cells);
	}
	for (size_t i = 0; i < c->nres; i++)
		c->estimated |= have[i] && !sum[i].exact;
	free(buf);
	free(cells);
	return ret;
}

static bool seen_before(struct calc *c, size_t upto, size_t m_res,
			const char *name, bool group)
{
	(void)m_res;
	for (size_t i = 0; i < upto; i++) {
		struct wfw_statset *s = &c->res[i].set;

		if (group ? find_group(s, name) != SIZE_MAX :
			    find_metric(s, name) != SIZE_MAX)
			return true;
	}
	return false;
}

static void print_rows(struct calc *c, const struct wfw_table *t)
{
	if (c->format == CALC_MARKDOWN)
		wfw_table_print_markdown(t, stdout);
	else if (c->format == CALC_CSV)
		wfw_table_print_csv(t, stdout);
	else
		wfw_table_print(t, stdout);
	if (c->estimated && c->format != CALC_CSV)
		printf("\n~ estimated from a histogram (more values than "
		       "--exact-limit), within %.3f%%\n",
		       WFW_HIST_REL_ERROR * 100);
}

static int print_table(struct calc *c)
{
	struct wfw_table t;
	size_t nlead = 2 + c->per_cstate + (c->nres > 1);
	size_t ncols = nlead + c->nfuncs;
	const char **hdr = calloc(ncols, sizeof(*hdr));
	char align[64];
	int ret = 0;

	if (!hdr)
		return -ENOMEM;
	memset(align, 'r', sizeof(align));
	memset(align, 'l', nlead);
	align[ncols < 63 ? ncols : 63] = '\0';
	wfw_table_init(&t, ncols, align);
	{
		size_t n = lead_cells(c, hdr, "Metric", "Unit", c->group_by,
				      "Result");

		for (size_t k = 0; k < c->nfuncs; k++)
			hdr[n++] = c->funcs[k].label;
	}
	ret = wfw_table_add(&t, hdr);
	/* Metrics and groups in order of first appearance over results. */
	for (size_t i = 0; i < c->nres && !ret; i++) {
		struct wfw_statset *s = &c->res[i].set;

		for (size_t m = 0; m < s->nmetrics && !ret; m++) {
			const char *name = wfw_statset_metric(s, m)->name;

			if (seen_before(c, i, m, name, false))
				continue;
			ret = table_rows(c, &t, name, "all");
			for (size_t j = 0; c->per_cstate && j < c->nres &&
			     !ret; j++) {
				struct wfw_statset *sj = &c->res[j].set;

				for (size_t g = 0; g < sj->ngroups && !ret;
				     g++) {
					const char *gn =
						wfw_statset_group_name(sj, g);

					if (sj->gcol < 0 || c->res[j].no_states ||
					    seen_before(c, j, 0, gn, true))
						continue;
					ret = table_rows(c, &t, name, gn);
				}
			}
		}
	}
	if (!ret)
		print_rows(c, &t);
	wfw_table_free(&t);
	free(hdr);
	return ret;
}

static int print_json(struct calc *c)
{
	int ret = 0;

	printf("{\n  \"percentile_method\": \"linear\",\n"
	       "  \"stddev\": \"sample\",\n"
	       "  \"histogram_relative_error\": %.6g,\n  \"results\": [",
	       WFW_HIST_REL_ERROR);
	for (size_t i = 0; i < c->nres && !ret; i++) {
		printf("%s\n    {\n      \"result\": ", i ? "," : "");
		wfw_json_string(stdout, c->res[i].arg);
		printf(",\n      \"file\": ");
		wfw_json_string(stdout, c->res[i].path);
		printf(",\n      \"stats\": ");
		ret = wfw_report_json(&c->res[i].set, c->pct, c->npct, 6,
				      stdout);
		printf("\n    }");
	}
	printf("\n  ]\n}\n");
	return ret;
}

static int parse_format(struct calc *c, const char *name)
{
	static const char *const names[] = { "table", "markdown", "csv", "json" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(name, names[i])) {
			c->format = (int)i;
			return 0;
		}
	}
	fprintf(stderr, "wultfw calc: --format %s: use table, markdown, csv or json\n",
		name);
	return -EINVAL;
}

static void list_funcs(void)
{
	puts("Functions of -f (wult's calc names in parentheses):\n"
	     "  count     number of datapoints (N)\n"
	     "  min       smallest value\n"
	     "  max       largest value\n"
	     "  mean      arithmetic mean (avg)\n"
	     "  std       sample standard deviation (stddev)\n"
	     "  median    50th percentile (med, p50, 50%)\n"
	     "  pNN       NNth percentile, 0 <= NN <= 100 (NN%: 99%, 99.9%, 99.99%)\n"
	     "Percentiles are exact up to --exact-limit values per metric and C-state,\n"
	     "then estimated from a histogram and marked '~' (JSON: \"exact\": false).");
}

static int parse_size(const char *opt, const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-') {
		fprintf(stderr, "wultfw calc: %s: '%s' is not a count\n", opt, s);
		return -EINVAL;
	}
	*out = (size_t)v;
	return 0;
}

int wfw_cmd_calc(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "funcs", required_argument, NULL, 'f' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "per-cstate", no_argument, NULL, 'c' },
		{ "group-by", required_argument, NULL, 'g' },
		{ "json", no_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'F' },
		{ "list-funcs", no_argument, NULL, 'l' },
		{ "exact-limit", required_argument, NULL, 'e' },
		{ "include", required_argument, NULL, 'I' },
		{ "exclude", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct calc c = { 0 };
	int opt, ret = 0;

	c.exact_limit = 1000000;
	c.exact_memory = (size_t)256 << 20;
	if (parse_funcs(&c, CALC_DEF_FUNCS))
		return 2;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:m:cg:jF:e:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			ret = parse_funcs(&c, optarg);
			break;
		case 'm':
			ret = parse_metrics(&c, optarg);
			break;
		case 'c':
			c.per_cstate = true;
			c.group_by = "ReqCState";
			break;
		case 'g':
			c.per_cstate = true;
			c.group_by = optarg;
			break;
		case 'j':
			c.format = CALC_JSON;
			break;
		case 'F':
			ret = parse_format(&c, optarg);
			break;
		case 'l':
			list_funcs();
			free(c.metric_buf);
			return 0;
		case 'e':
			ret = parse_size("--exact-limit", optarg,
					 &c.exact_limit);
			break;
		case 'I':
			c.include = optarg;
			break;
		case 'X':
			c.exclude = optarg;
			break;
		case 'h':
			usage(stdout);
			free(c.metric_buf);
			return 0;
		default:
			usage(stderr);
			free(c.metric_buf);
			return 2;
		}
		if (ret) {
			free(c.metric_buf);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "wultfw calc: no RESULT given\n");
		usage(stderr);
		free(c.metric_buf);
		return 2;
	}
	/* The memory budget must not cut below what was asked for. */
	if (c.exact_limit > c.exact_memory / sizeof(double) / 16)
		c.exact_memory = c.exact_limit * sizeof(double) * 16;
	c.nres = (size_t)(argc - optind);
	c.res = calloc(c.nres, sizeof(*c.res));
	if (!c.res) {
		free(c.metric_buf);
		return 1;
	}
	for (size_t i = 0; i < c.nres && !ret; i++) {
		c.res[i].arg = argv[optind + (int)i];
		ret = load(&c, &c.res[i]);
	}
	if (!ret)
		ret = c.format == CALC_JSON ? print_json(&c) : print_table(&c);
	if (!ret && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "wultfw calc: writing the output: %s\n",
			strerror(errno));
		ret = -EIO;
	}
	for (size_t i = 0; i < c.nres; i++) {
		if (c.res[i].have_set)
			wfw_statset_free(&c.res[i].set);
		wfw_select_free(&c.res[i].sel);
		if (c.res[i].rd)
			wfw_reader_close(c.res[i].rd);
	}
	free(c.res);
	free(c.metric_buf);
	return ret ? 1 : 0;
}
