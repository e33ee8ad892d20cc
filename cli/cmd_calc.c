/* SPDX-License-Identifier: MIT */
/*
 * wultfw calc: statistics of result directories, datapoints.csv files
 * (ours or wult's) and binary files, side by side in one table or as JSON.
 * The statistics are those of the stats sink (lib/stats), computed while
 * the file streams through, so memory stays bounded whatever its size.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "tools/calc.h"
#include "commands.h"
#include "stats/hist.h"
#include "toolopts.h"
#include <suggest/suggest.h>

#include "datafmt/likeness.h"

/* A bad option: one line on stderr. */
static int calc_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int calc_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("wultfw calc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

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
"      --json           same as --format=json\n"
"  -j, --jobs=N         threads reading one file (default: the online\n"
"                       CPUs, one for files under 8 MiB)\n"
"      --list-funcs     list the functions, with wult's names for them\n"
"      --include=EXPR   only rows where EXPR holds, e.g.\n"
"                       'ReqCState == \"C6\" && WakeLatency > 0.1ms'\n"
"      --exclude=EXPR   leave out rows where EXPR holds\n"
"                       (expressions: see wultfw(1), SELECTING DATAPOINTS)\n"
"  -e, --exact-limit=N  values per metric and C-state kept for exact\n"
"                       percentiles (default %d, within -M); beyond that\n"
"                       switch point, a histogram within %.3f%% relative\n"
"                       error; the output states both\n"
"  -M, --exact-memory=MiB  cap on the values kept, per thread (default %zu)\n"
"  -h, --help           show this help\n"
"\n"
"Values are in the column's unit (latencies in microseconds). Percentiles\n"
"interpolate linearly between ranks (like numpy and pandas); std is the\n"
"sample standard deviation. Empty cells and NaN are left out (and counted\n"
"on stderr).\n",
		CALC_DEF_EXACT_LIMIT, WFW_HIST_REL_ERROR * 100,
		CALC_DEF_EXACT_MEMORY >> 20);
}

/* count, min, ...: the function name `tok` names, or -1. */
static int simple_func(const char *tok)
{
	static const struct { const char *name; enum calc_fn fn; } names[] = {
		{ "count", FN_COUNT }, { "N", FN_COUNT }, { "min", FN_MIN },
		{ "max", FN_MAX }, { "mean", FN_MEAN }, { "avg", FN_MEAN },
		{ "std", FN_STD }, { "stddev", FN_STD },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(tok, names[i].name))
			return (int)names[i].fn;
	return -1;
}

/* median, pNN, NN%: the percentile, or -1. */
static double pct_func(const char *tok)
{
	size_t l = strlen(tok);
	const char *num = tok;
	char *end;
	double p;

	if (!strcmp(tok, "median") || !strcmp(tok, "med"))
		return 50;
	if (tok[0] == 'p')
		num = tok + 1;
	else if (l < 2 || tok[l - 1] != '%')
		return -1;
	p = strtod(num, &end);
	if (!*num || end == num || (*end && strcmp(end, "%")) ||
	    !(p >= 0 && p <= 100))
		return -1;
	return p;
}

static int parse_func(struct calc *c, const char *tok)
{
	struct calc_func *f = &c->funcs[c->nfuncs];
	int fn = simple_func(tok);

	if (c->nfuncs == CALC_MAX_FUNCS)
		return calc_usage_error("-f: at most %d functions", CALC_MAX_FUNCS);
	snprintf(f->label, sizeof(f->label), "%s", tok);
	f->fn = fn < 0 ? FN_PCT : (enum calc_fn)fn;
	if (fn < 0) {
		static const char *const known[] = { "count", "min", "max", "mean",
						     "std", "stddev", "median", "avg" };
		const char *near = wfw_suggest(tok, known, sizeof(known) / sizeof(known[0]));

		f->p = pct_func(tok);
		if (f->p < 0)
			return calc_usage_error("-f: unknown function '%s'%s%s%s (count, min, max, mean, std, median, pNN, NN%%)",
						tok, near ? " (did you mean '" : "", near ? near : "",
						near ? "'?)" : "");
		if (c->npct == WFW_SUMMARY_MAX_PCT)
			return calc_usage_error("-f: at most %d percentiles",
						WFW_SUMMARY_MAX_PCT);
		f->pidx = c->npct;
		c->pct[c->npct++] = f->p;
	}
	c->nfuncs++;
	return 0;
}

static int parse_funcs(struct calc *c, const char *list)
{
	char *dup = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!dup)
		return -ENOMEM;
	c->nfuncs = c->npct = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = parse_func(c, tok);
	free(dup);
	if (!ret && !c->nfuncs)
		ret = calc_usage_error("-f: no function given");
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

static int parse_format(struct calc *c, const char *name)
{
	static const char *const names[] = { "table", "markdown", "csv", "json" };
	const char *near;

	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(name, names[i])) {
			c->format = (int)i;
			return 0;
		}
	}
	near = wfw_suggest(name, names, 4);
	fprintf(stderr, "wultfw calc: --format %s: use table, markdown, csv or json%s%s%s\n",
		name, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
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
	     "Percentiles are exact up to --exact-limit values per metric and C-state\n"
	     "(within --exact-memory), then estimated from a histogram and marked '~'\n"
	     "(JSON: \"exact\": false); the table's last line states the switch point.");
}

static int parse_size(const char *opt, const char *s, size_t *out);

/* -j N: threads per CSV file, 1 to 256. */
static int parse_jobs(struct calc *c, const char *s)
{
	size_t n;

	if (parse_size("--jobs", s, &n))
		return -EINVAL;
	if (n < 1 || n > 256)
		return calc_usage_error("--jobs %s: use 1 to 256 threads", s);
	c->jobs = (unsigned)n;
	c->jobs_given = true;
	return 0;
}

/* -M MiB: the cap on kept values, per thread. */
static int parse_memory(struct calc *c, const char *s)
{
	size_t mib;

	if (parse_size("--exact-memory", s, &mib))
		return -EINVAL;
	if (mib < 1 || mib > ((size_t)1 << 20))
		return calc_usage_error("--exact-memory %s: use 1 to 1048576 (MiB)", s);
	c->exact_memory = mib << 20;
	return 0;
}

static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
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

/* One option of calc: 0 or a negative errno after saying why. */
static int set_option(struct calc *c, int opt, const char *arg)
{
	switch (opt) {
	case 'f': return parse_funcs(c, arg);
	case 'm': return parse_metrics(c, arg);
	case 'c':
		c->per_cstate = true;
		c->group_by = "ReqCState";
		return 0;
	case 'g':
		c->per_cstate = true;
		c->group_by = arg;
		return 0;
	case 'J': c->format = CALC_JSON; return 0;
	case 'F': return parse_format(c, arg);
	case 'j': return parse_jobs(c, arg);
	case 'e': return parse_size("--exact-limit", arg, &c->exact_limit);
	case 'M': return parse_memory(c, arg);
	case 'I': c->include = arg; return 0;
	case 'X': c->exclude = arg; return 0;
	default: return 0;
	}
}

/* The option callback of toolopts.h: 0, WFW_TOOL_DONE or an exit status. */
static int calc_option(void *ctx, int opt, const char *arg)
{
	int ret;

	if (opt == 'l') {
		list_funcs();
		return WFW_TOOL_DONE;
	}
	ret = set_option(ctx, opt, arg);
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw calc: out of memory\n");
	return ret == -ENOMEM ? 1 : ret ? 2 : 0;
}

/* WFW_TOOL_GO with optind at the first RESULT, or the exit status. */
static int parse_args(struct calc *c, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "funcs", required_argument, NULL, 'f' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "per-cstate", no_argument, NULL, 'c' },
		{ "group-by", required_argument, NULL, 'g' },
		{ "json", no_argument, NULL, 'J' },
		{ "format", required_argument, NULL, 'F' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "list-funcs", no_argument, NULL, 'l' },
		{ "exact-limit", required_argument, NULL, 'e' },
		{ "exact-memory", required_argument, NULL, 'M' },
		{ "include", required_argument, NULL, 'I' },
		{ "exclude", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct wfw_tool t = {
		.name = "calc", .shortopts = "f:m:cg:F:j:e:M:h", .longopts = lopts,
		.usage = usage, .option = calc_option, .ctx = c,
	};
	int ret = wfw_tool_parse(&t, argc, argv);

	return ret == WFW_TOOL_GO ? wfw_tool_inputs(&t, argc, "RESULT") : ret;
}

static void calc_free(struct calc *c)
{
	for (size_t i = 0; c->res && i < c->nres; i++)
		calc_result_free(&c->res[i]);
	free(c->res);
	free(c->metric_buf);
}

/* Differences between results measured with other settings: say which. */
static void warn_unlike(const struct calc *c)
{
	const char **files = calloc(c->nres, sizeof(*files)), **args = calloc(c->nres, sizeof(*args));

	for (size_t i = 0; files && args && i < c->nres; i++) {
		files[i] = c->res[i].path;
		args[i] = c->res[i].arg;
	}
	if (files && args)
		wfw_likeness_warn(stderr, "calc", files, args, c->nres);
	free(files);
	free(args);
}

int wfw_cmd_calc(int argc, char **argv)
{
	struct calc c = {
		.exact_limit = CALC_DEF_EXACT_LIMIT,
		.exact_memory = CALC_DEF_EXACT_MEMORY,
		.jobs = online_cpus(),
	};
	int ret = parse_funcs(&c, CALC_DEF_FUNCS) ? 1 : parse_args(&c, argc, argv);

	if (ret != WFW_TOOL_GO) {
		calc_free(&c);
		return ret;
	}
	c.nres = (size_t)(argc - optind);
	c.res = calloc(c.nres, sizeof(*c.res));
	ret = c.res ? 0 : -ENOMEM;
	for (size_t i = 0; i < c.nres && !ret; i++) {
		c.res[i].arg = argv[optind + (int)i];
		ret = calc_load(&c, &c.res[i]);
	}
	if (!ret)
		warn_unlike(&c);
	if (!ret)
		ret = c.format == CALC_JSON ? calc_print_json(&c) : calc_print_table(&c);
	if (!ret && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "wultfw calc: writing the output: %s\n", strerror(errno));
		ret = -EIO;
	}
	calc_free(&c);
	return ret ? 1 : 0;
}
