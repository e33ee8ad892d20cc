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
	bool per_cstate, json;
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
"  -j, --json           print JSON instead of a table\n"
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

	if (!c->per_cstate || r->set.gcol < 0)
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
	ret = wfw_reader_open(&r->rd, r->path, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "wultfw calc: %s\n", err);
		return ret;
	}
	cfg.exact_limit = c->exact_limit;
	cfg.exact_memory = c->exact_memory;
	cfg.group_by = c->per_cstate ? "ReqCState" : NULL;
	cfg.metrics = c->nmetrics ? c->metrics : NULL;
	cfg.nmetrics = c->nmetrics;
	ret = wfw_statset_init(&r->set, wfw_reader_schema(r->rd), &cfg, err,
			       sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw calc: %s: %s\n", r->path, err);
		return ret;
	}
	r->have_set = true;
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

static void fmt_func(char *buf, size_t len, const struct calc_func *f,
		     const struct wfw_summary *s, int dec)
{
	double v;

	switch (f->fn) {
	case FN_COUNT:
		snprintf(buf, len, "%llu", (unsigned long long)s->count);
		return;
	case FN_MIN: v = s->min; break;
	case FN_MAX: v = s->max; break;
	case FN_MEAN: v = s->mean; break;
	case FN_STD: v = s->stddev; break;
	default: v = s->pct[f->pidx]; break;
	}
	wfw_fmt_value(buf, len, v, dec);
}

/* Rows for one metric and one group name ("all": every row). */
static int table_rows(struct calc *c, struct wfw_table *t, const char *metric,
		      const char *group)
{
	struct wfw_summary sum[c->nres];
	bool have[c->nres];
	char (*buf)[48] = calloc(c->nres + 3, sizeof(*buf));
	const char **cells = calloc(c->nres + 3, sizeof(*cells));
	bool any = false;
	int ret = 0;

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
		any |= have[i];
	}
	for (size_t k = 0; k < c->nfuncs && any && !ret; k++) {
		size_t n = 0;

		cells[n++] = k ? "" : metric;
		if (c->per_cstate)
			cells[n++] = k ? "" : group;
		cells[n++] = c->funcs[k].label;
		for (size_t i = 0; i < c->nres; i++) {
			struct wfw_statset *s = &c->res[i].set;

			if (have[i])
				fmt_func(buf[i], sizeof(buf[i]), &c->funcs[k],
					 &sum[i], wfw_report_decimals(
					   wfw_statset_metric(s,
					     find_metric(s, metric))));
			else
				snprintf(buf[i], sizeof(buf[i]), "-");
			cells[n++] = buf[i];
		}
		ret = wfw_table_add(t, cells);
	}
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

static int print_table(struct calc *c)
{
	struct wfw_table t;
	size_t ncols = c->nres + 2 + c->per_cstate;
	const char **hdr = calloc(ncols, sizeof(*hdr));
	char align[64];
	int ret = 0;

	if (!hdr)
		return -ENOMEM;
	memset(align, 'r', sizeof(align));
	align[0] = align[1] = align[2] = 'l';
	align[ncols < 63 ? ncols : 63] = '\0';
	wfw_table_init(&t, ncols, align);
	{
		size_t n = 0;

		hdr[n++] = "Metric";
		if (c->per_cstate)
			hdr[n++] = "ReqCState";
		hdr[n++] = "Function";
		for (size_t i = 0; i < c->nres; i++)
			hdr[n++] = c->res[i].arg;
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
		wfw_table_print(&t, stdout);
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
		{ "json", no_argument, NULL, 'j' },
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
	while ((opt = getopt_long(argc, argv, "f:m:cje:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			ret = parse_funcs(&c, optarg);
			break;
		case 'm':
			ret = parse_metrics(&c, optarg);
			break;
		case 'c':
			c.per_cstate = true;
			break;
		case 'j':
			c.json = true;
			break;
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
		ret = c.json ? print_json(&c) : print_table(&c);
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
