/* SPDX-License-Identifier: MIT */
/*
 * wultfw calc: statistics of result directories, datapoints.csv files
 * (ours or wult's) and binary files, side by side in one table or as JSON.
 * The statistics are those of the stats sink (lib/stats), computed while
 * the file streams through (tools/calc_load.c), so memory stays bounded
 * whatever its size.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/calc.h"
#include "tools/fleet.h"
#include "cliopts.h"
#include "commands.h"
#include "stats/hist.h"

#include "datafmt/likeness.h"

/* -M's default, in the MiB it is given in. */
#define EXACT_MIB 16
_Static_assert(CALC_DEF_EXACT_MEMORY == (size_t)EXACT_MIB << 20,
	       "-M's default is CALC_DEF_EXACT_MEMORY");
_Static_assert(sizeof(((struct calc *)0)->format) == sizeof(int),
	       "--format lands in an int");

struct calc_args {
	struct calc c;
	size_t exact_mib;	/* -M */
};

static enum wfw_cli_next said(int ret)
{
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw calc: out of memory\n");
	return !ret ? WFW_CLI_NEXT : ret == -ENOMEM ? WFW_CLI_FAILED : WFW_CLI_USAGE;
}

/* -f's default, told apart from the same list given. */
static const char def_funcs[] = CALC_DEF_FUNCS;

static enum wfw_cli_next set_funcs(void *field, const char *list)
{
	struct calc *c = field;

	c->funcs_given |= list != def_funcs;
	return said(calc_parse_funcs(c, list));
}

/* A plain number ("99.9"): --explain's value, not a RESULT ("./99" is one). */
static bool explain_number(const char *word, double *p)
{
	char *end;

	if (!word || *word < '0' || *word > '9')
		return false;
	errno = 0;
	*p = strtod(word, &end);
	return !errno && !*end;
}

static bool explain_word(const char *word)
{
	double p;

	return explain_number(word, &p);
}

static enum wfw_cli_next set_explain(void *field, const char *pct)
{
	struct calc *c = field;

	c->explain = true;
	c->explain_pct = 99.9;
	if (!pct || (explain_number(pct, &c->explain_pct) && c->explain_pct <= 100))
		return WFW_CLI_NEXT;
	fprintf(stderr, "wultfw calc: --explain %s: give a percentile from 0 to 100, such as 99.9\n",
		pct);
	return WFW_CLI_USAGE;
}

static enum wfw_cli_next set_per_cstate(void *field, const char *unused)
{
	struct calc *c = field;

	(void)unused;
	c->per_cstate = true;
	c->group_by = "ReqCState";
	return WFW_CLI_NEXT;
}

static enum wfw_cli_next set_group_by(void *field, const char *col)
{
	struct calc *c = field;

	c->per_cstate = true;
	c->group_by = col;
	return WFW_CLI_NEXT;
}

static enum wfw_cli_next set_mem_limit(void *field, const char *size)
{
	struct calc *c = field;

	c->mem_given = true;
	if (!calc_mem_parse(size, &c->mem_limit))
		return WFW_CLI_NEXT;
	fprintf(stderr, "wultfw calc: --mem-limit %s: give bytes with K, M, G or T "
		"(such as 256M or 2GiB), or none\n", size);
	return WFW_CLI_USAGE;
}

static enum wfw_cli_next set_json(void *format, const char *unused)
{
	(void)unused;
	*(int *)format = CALC_JSON;
	return WFW_CLI_NEXT;
}

static enum wfw_cli_next list_funcs(void *unused, const char *none)
{
	(void)unused;
	(void)none;
	calc_list_funcs(stdout);
	return WFW_CLI_DONE;
}

/* In the order of struct calc's format values. */
static const char *const formats[] = { "table", "markdown", "csv", "json", NULL };

#define CALC offsetof(struct calc_args, c)
static const struct wfw_cli_opt calc_opts[] = {
	{ "funcs", 'f', WFW_CLI_CALL, "LIST", "functions, comma-separated: count (N), min, max, mean (avg), std (stddev), median (med), pNN or NN%: the percentile NN, 0 to 100",
	  .def = def_funcs, .off = CALC, .set = set_funcs },
	{ "metrics", 'm', WFW_CLI_NAMES, "LIST", "metrics (column names or glob patterns such as '*Latency'), comma-separated; default all numeric",
	  .off = CALC + offsetof(struct calc, metrics) },
	{ "per-cstate", 'c', WFW_CLI_CALL, NULL, "also per requested C-state (ReqCState column)",
	  .off = CALC, .set = set_per_cstate },
	{ "group-by", 'g', WFW_CLI_CALL, "COL", "also per value of another text column: Precise (skid per precise level), Where (skid: hits vs skids)",
	  .off = CALC, .set = set_group_by },
	{ "format", 'F', WFW_CLI_CHOICE, "FMT", "the output's form; table is aligned text",
	  .def = "table", .choices = formats, .off = offsetof(struct calc_args, c.format) },
	{ "json", 0, WFW_CLI_CALL, NULL, "same as --format json",
	  .off = offsetof(struct calc_args, c.format), .set = set_json },
	{ "explain", 0, WFW_CLI_CALL, "PCT", "explain the latency of the datapoints at or above percentile PCT (default 99.9) and of the largest; -m names the latency column (default: info.yml's attrib_latency), -c and -g group it; text or --json",
	  .off = CALC, .set = set_explain, .optional = explain_word },
	{ "fleet", 0, WFW_CLI_FLAG, NULL, "the results are SUTs of a fleet: one row per SUT per C-state of one metric (-m NAME; default WakeLatency, else the first *Latency), a SUT whose p99.9 is over twice the other SUTs' median (and over 1 unit) flagged OUTLIER; a RESULT may be a remote run's -o directory (HOST/EXPERIMENT/)",
	  .off = offsetof(struct calc_args, c.fleet) },
	WFW_CLI_JOBS(struct calc_args, c.jobs, "threads reading one file; by default the online CPUs, one for files under 8 MiB"),
	{ "list-funcs", 0, WFW_CLI_CALL, NULL, "list the functions, with wult's names for them",
	  .set = list_funcs },
	WFW_CLI_SELECT(struct calc_args, c.include, c.exclude),
	{ "exact-limit", 'e', WFW_CLI_SIZE, "N", "values per metric and C-state kept for exact percentiles, within -M",
	  .def = WFW_CLI_TEXT(CALC_DEF_EXACT_LIMIT), .min = "0", .unit = "values",
	  .off = offsetof(struct calc_args, c.exact_limit) },
	{ "exact-memory", 'M', WFW_CLI_SIZE, "MiB", "cap on the values kept, per thread",
	  .def = WFW_CLI_TEXT(EXACT_MIB), .min = "1", .max = "1048576", .unit = "MiB",
	  .off = offsetof(struct calc_args, exact_mib) },
	{ "mem-limit", 0, WFW_CLI_CALL, "SIZE", "bound on calc's memory (heap), such as 256M or 2G, or none; past it calc stops with an error naming it; groups too many for a histogram each within a quarter of it take sketches (same bound, said under the table); default 3/4 of MemAvailable",
	  .off = CALC, .set = set_mem_limit },
	WFW_CLI_END
};

/* Beyond -e, the histogram's error: a number, not text of the table's. */
static void calc_more(FILE *f)
{
	fprintf(f, "\nBeyond --exact-limit, percentiles come from a histogram within %.3f%%\n"
		"relative error; the output states the switch point.\n",
		WFW_HIST_REL_ERROR * 100);
}

static const struct wfw_cli calc_cli = {
	.name = "calc",
	.usage = "Usage: wultfw calc [OPTION]... RESULT...\n"
		 "       wultfw calc --explain [PCT] [OPTION]... RESULT...\n"
		 "       wultfw calc --fleet [-m METRIC] [OPTION]... RESULT...\n"
		 "Statistics of measured datapoints. A RESULT is a result directory (its\n"
		 "datapoints.csv, or else datapoints.wfb), a CSV file (written by wultfw or\n"
		 "by wult) or a binary file. Several results are shown side by side.\n"
		 "An experiment of several CPUs (EXP/cpuN/) is one RESULT with a CPU\n"
		 "column; after its statistics, its CPUs side by side (JSON: \"cpus\").\n"
		 "With --explain, where the latency of the datapoints at or above percentile\n"
		 "PCT and of the largest went instead, by cause, from the columns the\n"
		 "latency attribution adds to a result (doc/attribution.md).\n"
		 "With --fleet, the results are SUTs of a lab: a row per SUT per C-state,\n"
		 "the group's median as reference, outlying SUTs flagged OUTLIER.\n",
	.epilog = "Values are in the column's unit (latencies in microseconds). Percentiles\n"
		  "interpolate linearly between ranks (like numpy and pandas); std is the\n"
		  "sample standard deviation. Empty cells, NaN and values out of range\n"
		  "(infinite, or beyond 3.4e38 in magnitude) are left out and counted on\n"
		  "stderr.\n",
	.more = calc_more,
	.opts = calc_opts,
	.operand = "RESULT", .min_operands = 1, .max_operands = -1,
};

static void calc_free(struct calc *c)
{
	for (size_t i = 0; c->res && i < c->nres; i++)
		calc_result_free(&c->res[i]);
	free(c->res);
	wfw_names_free(&c->metrics);
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

/*
 * Experiments of several CPUs: their CPUs side by side, after the table
 * (JSON: in each result's object, calc_print_json()).
 */
static int cpus_all(struct calc *c)
{
	int ret = 0;

	for (size_t i = 0; i < c->nres && !ret && c->format != CALC_JSON; i++)
		ret = calc_cpus(c, &c->res[i], stdout);
	return ret;
}

/* The statistics of every result, side by side. */
static int stats_all(struct calc *c)
{
	int ret = 0;

	for (size_t i = 0; i < c->nres && !ret; i++)
		ret = calc_load(c, &c->res[i]);
	if (!ret)
		warn_unlike(c);
	if (!ret)
		ret = c->format == CALC_JSON ? calc_print_json(c) : calc_print_table(c);
	if (!ret)
		ret = cpus_all(c);
	return ret;
}

/* --explain: what of calc's other options it takes. */
static enum wfw_cli_next explain_opts(const struct calc *c)
{
	if (c->format == CALC_MARKDOWN || c->format == CALC_CSV)
		return wfw_cli_error(&calc_cli, "--explain prints plain words or JSON: "
				     "--format table (the default) or json");
	if (c->funcs_given)
		return wfw_cli_error(&calc_cli, "--explain prints its own numbers: leave -f out");
	return WFW_CLI_NEXT;
}

/* --fleet: what of calc's other options it takes. */
static enum wfw_cli_next fleet_opts(const struct calc *c)
{
	if (c->explain)
		return wfw_cli_error(&calc_cli, "--fleet and --explain do different jobs: give one");
	if (c->metrics.n > 1 || (c->metrics.n && strpbrk(c->metrics.v[0], "*?[")))
		return wfw_cli_error(&calc_cli, "--fleet compares one metric: give -m one column name");
	if (c->funcs_given || c->per_cstate)
		return wfw_cli_error(&calc_cli, "--fleet prints its own columns, per C-state: leave -f, -c and -g out");
	if (c->include || c->exclude)
		return wfw_cli_error(&calc_cli, "--fleet takes every datapoint: leave --include/--exclude out (wultfw filter first)");
	return WFW_CLI_NEXT;
}

/* Each result explained in turn; the first failure ends it. */
static int explain_all(struct calc *c)
{
	bool opened = false;
	int ret = 0;

	for (size_t i = 0; i < c->nres && !ret; i++)
		ret = calc_explain(c, &c->res[i], &opened);
	calc_explain_end(c, opened);
	return ret;
}

int wfw_cmd_calc(int argc, char **argv)
{
	struct calc_args a = { 0 };
	struct calc *c = &a.c;
	enum wfw_cli_next next = wfw_cli_parse(&calc_cli, &a, argc, argv);
	int ret;

	if (next == WFW_CLI_NEXT && c->fleet)
		next = fleet_opts(c);
	else if (next == WFW_CLI_NEXT && c->explain)
		next = explain_opts(c);
	if (next != WFW_CLI_NEXT) {
		calc_free(c);
		return wfw_cli_status(next);
	}
	c->exact_memory = a.exact_mib << 20;
	if (!c->mem_given)
		c->mem_limit = calc_mem_default();
	if (c->mem_given && c->mem_limit)
		calc_mem_one_arena();
	if (calc_mem_apply(c->mem_limit)) {
		calc_free(c);
		return 1;
	}
	c->jobs_given = c->jobs != 0;
	if (!c->jobs)
		c->jobs = wfw_cli_online_cpus();
	c->nres = (size_t)(argc - optind);
	c->res = calloc(c->nres, sizeof(*c->res));
	ret = c->res ? 0 : -ENOMEM;
	for (size_t i = 0; i < c->nres && c->res; i++)
		c->res[i].arg = argv[optind + (int)i];
	if (!ret)
		ret = c->fleet ? calc_fleet(c) : c->explain ? explain_all(c) : stats_all(c);
	if (!ret && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "wultfw calc: writing the output: %s\n", strerror(errno));
		ret = -EIO;
	}
	if (ret == -ENOMEM && c->mem_limit)
		calc_mem_said(c->mem_limit, c->mem_given);
	calc_free(c);
	return ret ? 1 : 0;
}
