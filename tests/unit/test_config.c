/* SPDX-License-Identifier: MIT */
/*
 * Experiment files and plugin loading: good files give the right
 * experiments, each kind of mistake gives the exact error and line.
 * Runs with WULTFW_PLUGIN_PATH pointing at tests/plugins.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "default_experiment.h"
#include "plan.h"
#include "overrides.h"
#include "remote/remote.h"
#include "plugins.h"
#include "testutil.h"

static char *dir;

static int setup(void)
{
	dir = tu_tmpdir();
	return dir ? wfw_plugins_init() : 1;
}

static int teardown(void)
{
	tu_rmtree(dir);
	free(dir);
	wfw_plugins_exit();
	return 0;
}

/* Load `text` as an experiment file; returns the joined errors or "". */
static char *load(const char *text, struct wfw_plan *plan, int *ret)
{
	struct wfw_cfgerr errs = { 0 };
	char *path = tu_write(dir, "exp.cfg", text);
	size_t i, len = 1;
	char *all;

	*ret = wfw_plan_load(plan, path, NULL, &errs);
	for (i = 0; i < errs.n; i++)
		len += strlen(errs.msgs[i]) + 1;
	all = calloc(1, len);
	for (i = 0; all && i < errs.n; i++) {
		strcat(all, errs.msgs[i]);
		strcat(all, "\n");
	}
	wfw_cfgerr_free(&errs);
	free(path);
	return all;
}

/* The errors of a bad file; the plan is freed. */
static char *errors_of(const char *text)
{
	struct wfw_plan plan;
	int ret;
	char *errs = load(text, &plan, &ret);

	CU_ASSERT_NOT_EQUAL(ret, 0);
	wfw_plan_free(&plan);
	return errs;
}

static void test_good_file(void)
{
	struct wfw_plan plan;
	int ret;
	char *errs = load(
		"outdir = \"/tmp/x\";\n"
		"limits = { datapoints = 500; };\n"
		"sinks = ( { plugin = \"testsink\"; } );\n"
		"experiments = (\n"
		"  { name = \"a\"; source = { plugin = \"testsrc\"; cpu = 0; ldist = [ \"10us\", \"4ms\" ]; total = 7; }; },\n"
		"  { name = \"b\"; source = { plugin = \"testsrc\"; cpu = 0; ldist = \"200us\"; };\n"
		"    limits = { time = \"2s\"; };\n"
		"    sinks = ( { plugin = \"testsink\"; file = \"one.txt\"; }, { plugin = \"testsink\"; } ); }\n"
		");\n", &plan, &ret);

	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_STRING_EQUAL(errs, "");
	CU_ASSERT_EQUAL_FATAL(plan.n, 2);
	CU_ASSERT_STRING_EQUAL(plan.exps[0].name, "a");
	CU_ASSERT_STRING_EQUAL(plan.exps[0].outdir, "/tmp/x");
	CU_ASSERT_EQUAL(plan.exps[0].ldist_from_ns, 10000);
	CU_ASSERT_EQUAL(plan.exps[0].ldist_to_ns, 4000000);
	CU_ASSERT_EQUAL(plan.exps[0].max_datapoints, 500);	/* inherited */
	CU_ASSERT_EQUAL(plan.exps[0].max_time_ns, 0);
	CU_ASSERT_EQUAL(plan.exps[0].nsinks, 1);
	/* option "total" = 7, option "rows_per_read" from its default */
	CU_ASSERT_EQUAL(plan.exps[0].source.opts.vals[1].i, 7);
	CU_ASSERT_EQUAL(plan.exps[0].source.opts.vals[0].i, 100);
	CU_ASSERT_EQUAL(plan.exps[1].ldist_from_ns, 200000);
	CU_ASSERT_EQUAL(plan.exps[1].ldist_to_ns, 200000);
	CU_ASSERT_EQUAL(plan.exps[1].max_datapoints, 0);	/* overridden */
	CU_ASSERT_EQUAL(plan.exps[1].max_time_ns, 2000000000ULL);
	CU_ASSERT_EQUAL(plan.exps[1].nsinks, 2);
	CU_ASSERT_STRING_EQUAL(plan.exps[1].sinks[0].opts.vals[0].s, "one.txt");
	CU_ASSERT_STRING_EQUAL(plan.exps[1].sinks[1].opts.vals[0].s, "testsink.txt");
	wfw_plan_free(&plan);
	free(errs);
}

static void test_single_experiment_form(void)
{
	struct wfw_plan plan;
	int ret;
	char *errs = load("name = \"solo\";\n"
			  "source = { plugin = \"testsrc\"; cpu = 0; };\n"
			  "sinks = ( { plugin = \"testsink\"; } );\n", &plan, &ret);

	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_STRING_EQUAL(errs, "");
	CU_ASSERT_EQUAL(plan.n, 1);
	if (plan.n)
		CU_ASSERT_STRING_EQUAL(plan.exps[0].name, "solo");
	wfw_plan_free(&plan);
	free(errs);
}

static void test_syntax_error(void)
{
	char *e = errors_of("name = \"x\";\nsource = { plugin = \"testsrc\"; cpu = ; };\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:2: syntax error: expected a setting `name = value;`");
	CU_ASSERT_PTR_NULL(strstr(e, "syntax error: syntax error"));
	CU_ASSERT_PTR_NULL(strstr(e, "\n/"));	/* nothing else reported */
	free(e);
}

static void test_empty_file_and_directory(void)
{
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	char *e = errors_of("");

	TU_ASSERT_CONTAINS(e, "exp.cfg: the experiment file is empty");
	free(e);
	CU_ASSERT_NOT_EQUAL(wfw_plan_load(&plan, dir, NULL, &errs), 0);
	CU_ASSERT_EQUAL_FATAL(errs.n, 1);
	TU_ASSERT_CONTAINS(errs.msgs[0], "is a directory");
	wfw_cfgerr_free(&errs);
	wfw_plan_free(&plan);
}

static void test_missing_file(void)
{
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;

	CU_ASSERT_NOT_EQUAL(wfw_plan_load(&plan, "/nonexistent/exp.cfg", NULL, &errs), 0);
	CU_ASSERT_EQUAL_FATAL(errs.n, 1);
	TU_ASSERT_CONTAINS(errs.msgs[0], "/nonexistent/exp.cfg: cannot read the experiment file");
	wfw_cfgerr_free(&errs);
	wfw_plan_free(&plan);
}

/* A misspelt name of a file beside it: the file it meant. */
static void test_missing_file_hint(void)
{
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	char *good = tu_write(dir, "default.cfg", "name = \"x\";\n"), *typo;

	CU_ASSERT_FATAL(asprintf(&typo, "%s/defualt.cfg", dir) > 0);
	CU_ASSERT_NOT_EQUAL(wfw_plan_load(&plan, typo, NULL, &errs), 0);
	CU_ASSERT_EQUAL_FATAL(errs.n, 1);
	TU_ASSERT_CONTAINS(errs.msgs[0], "defualt.cfg: no such file (did you mean '");
	TU_ASSERT_CONTAINS(errs.msgs[0], "/default.cfg'?)");
	wfw_cfgerr_free(&errs);
	wfw_plan_free(&plan);
	unlink(good);
	free(good);
	free(typo);
}

/* An @include of a missing file names it; an unknown key lists the known. */
static void test_include_and_key_lists(void)
{
	char *e = errors_of("name = \"x\";\n@include \"nosuch.cfg\"\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:2: @include \"nosuch.cfg\": no such file ");
	free(e);
	e = errors_of("name = \"x\";\ncstates = { foo = 1; };\n");
	TU_ASSERT_CONTAINS(e, "cstates.foo: unknown key (known here: only, disable, disable_deepest;");
	free(e);
}

/* Numbers that libconfig or the units refuse get an error saying why. */
static void test_number_errors(void)
{
	char *e = errors_of("name = \"x\";\nseed = -1;\n"
			    "limits = { datapoints = 3000000000; time = \"1.0000001us\"; };\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:2: seed: expected an integer from 0");
	TU_ASSERT_CONTAINS(e, "limits.datapoints: must be a positive number of datapoints (above 2147483647, write it with an L");
	TU_ASSERT_CONTAINS(e, "limits.time: \"1.0000001us\" is not a whole number of nanoseconds");
	free(e);
}

/* libconfig 1.5 cuts a whole number without an L to 32 bits: refused. */
static void test_big_whole_numbers(void)
{
	char *e = errors_of("name = \"x\"; # 7777777777 in a comment\n"
			    "source = { plugin = \"testsrc\"; cpu = 4294967297; };\n"
			    "limits = { datapoints = 5000000000; time = \"1s\"; };\n"
			    "seed = 0x1FFFFFFFF;\n"
			    "collect = 99999999999999999999;\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:2: cpu: 4294967297 does not fit in a whole number without an L");
	TU_ASSERT_CONTAINS(e, "exp.cfg:3: datapoints: 5000000000 does not fit");
	TU_ASSERT_CONTAINS(e, "write 5000000000L where");
	TU_ASSERT_CONTAINS(e, "exp.cfg:4: seed: 0x1FFFFFFFF does not fit");
	TU_ASSERT_CONTAINS(e, "exp.cfg:5: collect: 99999999999999999999 is beyond any whole number");
	CU_ASSERT_PTR_NULL(strstr(e, "7777777777"));
	free(e);

	/* With an L, floats, names and strings with digits: no such error. */
	e = errors_of("name = \"x-99999999999\"; seed = 5000000000L;\n"
		      "limits = { datapoints = 5000000000L; time = \"1s\"; };\n"
		      "source = { plugin = \"nosuch\"; x = 1e20; y = -2147483648; };\n");
	CU_ASSERT_PTR_NULL(strstr(e, "does not fit"));
	free(e);
}

/* --cpu, --ldist, --datapoints, --time: every experiment, over the file's. */
static void test_overrides(void)
{
	struct wfw_plan_overrides ov = { .cpu = "0", .ldist = "20us,30us",
					 .datapoints = "77", .time = "5s" };
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	char *path = tu_write(dir, "ov.cfg",
		"limits = { datapoints = 500; };\n"
		"sinks = ( { plugin = \"testsink\"; } );\n"
		"source = { plugin = \"testsrc\"; ldist = \"1ms\"; };\n"
		"experiments = ( { name = \"a\"; },\n"
		"  { name = \"b\"; source = { plugin = \"testsrc\"; cpu = 0; };\n"
		"    limits = { time = \"1h\"; }; } );\n");
	char *args;

	CU_ASSERT_EQUAL_FATAL(wfw_plan_load(&plan, path, &ov, &errs), 0);
	for (size_t i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(plan.exps[i].cpu, 0);
		CU_ASSERT_EQUAL(plan.exps[i].ldist_from_ns, 20000);
		CU_ASSERT_EQUAL(plan.exps[i].ldist_to_ns, 30000);
		CU_ASSERT_EQUAL(plan.exps[i].max_datapoints, 77);
		CU_ASSERT_EQUAL(plan.exps[i].max_time_ns, 5000000000ULL);
	}
	wfw_plan_free(&plan);
	/* A bad value: the option named, not the file. */
	ov = (struct wfw_plan_overrides){ .ldist = "9ms,1ms", .datapoints = "x" };
	CU_ASSERT_NOT_EQUAL(wfw_plan_load(&plan, path, &ov, &errs), 0);
	CU_ASSERT_EQUAL_FATAL(errs.n, 1);
	TU_ASSERT_CONTAINS(errs.msgs[0], "--datapoints 'x': expected a whole number from 1");
	wfw_cfgerr_free(&errs);
	wfw_plan_free(&plan);
	ov.datapoints = NULL;
	CU_ASSERT_NOT_EQUAL(wfw_plan_load(&plan, path, &ov, &errs), 0);
	CU_ASSERT(errs.n >= 1);
	TU_ASSERT_CONTAINS(errs.msgs[0], "--ldist: source.ldist: the range is backwards");
	wfw_cfgerr_free(&errs);
	wfw_plan_free(&plan);
	/* What a SUT is told, quoted. */
	ov = (struct wfw_plan_overrides){ .cpu = "3", .time = "1 m" };
	args = wfw_overrides_args(&ov);
	CU_ASSERT_STRING_EQUAL(args, " --cpu '3' --time '1 m'");
	free(args);
	free(path);
}

static void test_unknown_keys(void)
{
	char *e = errors_of(
		"name = \"x\";\n"
		"source = { plugin = \"testsrc\"; cpu = 0;\n"
		"  rows_per_reed = 5; };\n"
		"limits = { datapoint = 5; };\n"
		"sinks = ( { plugin = \"testsink\"; fiel = \"a\"; } );\n"
		"outdri = \"x\";\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:3: source.rows_per_reed: unknown key for plugin 'testsrc' (did you mean 'rows_per_read'?)");
	TU_ASSERT_CONTAINS(e, "exp.cfg:4: limits.datapoint: unknown key (did you mean 'datapoints'?)");
	TU_ASSERT_CONTAINS(e, "exp.cfg:5: sinks[0].fiel: unknown key for plugin 'testsink' (did you mean 'file'?)");
	TU_ASSERT_CONTAINS(e, "exp.cfg:6: outdri: unknown key (did you mean 'outdir'?)");
	free(e);
}

static void test_wrong_types(void)
{
	char *e = errors_of(
		"name = \"x\";\n"
		"source = { plugin = \"testsrc\"; cpu = 0;\n"
		"  total = \"many\";\n"
		"  delay = 5;\n"
		"  ldist = [ \"10us\", \"5 parsecs\" ]; };\n"
		"limits = { time = \"0s\"; datapoints = -3; };\n"
		"sinks = ( { plugin = \"testsink\"; fail_open = 1; } );\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:3: source.total: expected an integer");
	TU_ASSERT_CONTAINS(e, "exp.cfg:4: source.delay: expected a duration such as \"10us\"");
	TU_ASSERT_CONTAINS(e, "exp.cfg:5: source.ldist: \"5 parsecs\" is not a duration");
	TU_ASSERT_CONTAINS(e, "exp.cfg:6: limits.time: must be longer than 0s");
	TU_ASSERT_CONTAINS(e, "exp.cfg:6: limits.datapoints: must be a positive number of datapoints");
	TU_ASSERT_CONTAINS(e, "exp.cfg:7: sinks[0].fail_open: expected true or false");
	free(e);
}

static void test_plugin_validates_values(void)
{
	char *e = errors_of(
		"name = \"x\";\n"
		"source = { plugin = \"testsrc\"; cpu = 0;\n"
		"  rows_per_read = 0; };\n"
		"sinks = ( { plugin = \"testsink\"; } );\n");

	/* The plugin's own check, at the line that set the value. */
	TU_ASSERT_CONTAINS(e, "exp.cfg:3: source.rows_per_read: must be at least 1");
	free(e);
}

static void test_bad_values(void)
{
	char *e = errors_of(
		"experiments = (\n"
		"  { name = \"x/y\"; source = { plugin = \"testsrc\"; cpu = 4095; }; sinks = ( { plugin = \"testsink\"; } ); },\n"
		"  { name = \"z\";\n"
		"    source = { plugin = \"testsrc\"; cpu = 0; ldist = [ \"4ms\", \"10us\" ]; };\n"
		"    sinks = ( ); },\n"
		"  { source = { cpu = 0; }; sinks = ( { plugin = \"testsink\"; } ); }\n"
		");\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:2: experiments[0].name: \"x/y\" cannot name a directory");
	TU_ASSERT_CONTAINS(e, "exp.cfg:2: experiments[0].source.cpu: CPU 4095 is not online");
	TU_ASSERT_CONTAINS(e, "exp.cfg:4: experiments[1].source.ldist: the range is backwards");
	TU_ASSERT_CONTAINS(e, "exp.cfg:5: experiments[1].sinks: no sinks");
	TU_ASSERT_CONTAINS(e, "exp.cfg:6: experiments[2].name: missing");
	TU_ASSERT_CONTAINS(e, "exp.cfg:6: experiments[2].source.plugin: missing");
	free(e);
}

/* `cpu` as a list: the words of the errors, and a source that refuses one. */
static void test_cpu_lists(void)
{
	char *e = errors_of(
		"experiments = (\n"
		"  { name = \"a\"; source = { plugin = \"testsrc\"; cpu = \"1-x\"; }; sinks = ( { plugin = \"testsink\"; } ); },\n"
		"  { name = \"b\"; source = { plugin = \"testsrc\"; cpu = \"0,4095\"; }; sinks = ( { plugin = \"testsink\"; } ); },\n"
		"  { name = \"c\"; source = { plugin = \"testsrc\"; cpu = 1.5; }; sinks = ( { plugin = \"testsink\"; } ); },\n"
		"  { name = \"d\"; source = { plugin = \"testsrc\"; cpu = \"all\"; }; sinks = ( { plugin = \"testsink\"; } ); }\n"
		");\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:2: experiments[0].source.cpu: \"1-x\" is not a CPU list");
	TU_ASSERT_CONTAINS(e, "exp.cfg:3: experiments[1].source.cpu: CPU 4095 is not online");
	TU_ASSERT_CONTAINS(e, "exp.cfg:4: experiments[2].source.cpu: expected a CPU number or a CPU list");
	/* testsrc does not declare WULTFW_CAP_CPU_LIST: a list is refused. */
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		TU_ASSERT_CONTAINS(e, "exp.cfg:5: experiments[3].source.cpu: source 'testsrc' measures one CPU per experiment");
	free(e);
}

static void test_plugin_errors(void)
{
	char *e = errors_of(
		"experiments = (\n"
		"  { name = \"a\"; source = { plugin = \"testsrcc\"; cpu = 0; }; sinks = ( { plugin = \"testsink\"; } ); },\n"
		"  { name = \"b\"; source = { plugin = \"testsink\"; cpu = 0; }; sinks = ( { plugin = \"testsrc\"; } ); },\n"
		"  { name = \"c\"; source = { plugin = \"testsrc\"; cpu = 0; }; sinks = ( { plugin = \"badabi\"; } ); },\n"
		"  { name = \"d\"; source = { plugin = \"testsrc\"; cpu = 0; }; sinks = ( { plugin = \"nodesc\"; } ); },\n"
		"  { name = \"e\"; source = { plugin = \"../x\"; cpu = 0; }; sinks = ( { plugin = \"testsink\"; } ); }\n"
		");\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:2: experiments[0].source.plugin: no plugin 'testsrcc' in the search path");
	TU_ASSERT_CONTAINS(e, "(did you mean 'testsrc'?)");
	TU_ASSERT_CONTAINS(e, "exp.cfg:3: experiments[1].source.plugin: plugin 'testsink' (");
	TU_ASSERT_CONTAINS(e, "testsink.so) is a sink, but a source is expected here");
	TU_ASSERT_CONTAINS(e, "exp.cfg:3: experiments[1].sinks[0].plugin: plugin 'testsrc' (");
	TU_ASSERT_CONTAINS(e, "is a source, but a sink is expected here");
	TU_ASSERT_CONTAINS(e, "exp.cfg:4: experiments[2].sinks[0].plugin: plugin 'badabi' (");
	TU_ASSERT_CONTAINS(e, "badabi.so) has plugin ABI version 1000 but this wultfw needs 3: it was built for a newer wultfw");
	TU_ASSERT_CONTAINS(e, "exp.cfg:5: experiments[3].sinks[0].plugin: plugin 'nodesc' (");
	TU_ASSERT_CONTAINS(e, "nodesc.so) has no descriptor");
	TU_ASSERT_CONTAINS(e, "exp.cfg:6: experiments[4].source.plugin: '../x' is not a plugin name");
	free(e);
}

/* ABI v2: the core enforces the bounds and choices a plugin declares. */
static void test_option_bounds_and_choices(void)
{
	char *e = errors_of(
		"name = \"x\";\n"
		"source = { plugin = \"testsrc\"; cpu = 0;\n"
		"  level = 10;\n"
		"  mode = \"medium\";\n"
		"  pause = \"0ns\";\n"
		"  pcts = ( 50, 100.5 );\n"
		"  tags = [ \"fast\", \"warp\" ]; };\n"
		"sinks = ( { plugin = \"testsink\"; } );\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:3: source.level: 10 is out of range: allowed 1 to 9 steps");
	TU_ASSERT_CONTAINS(e, "exp.cfg:4: source.mode: \"medium\" is not allowed: use one of \"fast\", \"slow\"");
	TU_ASSERT_CONTAINS(e, "exp.cfg:5: source.pause: \"0ns\" is out of range: allowed 1us to 1s");
	TU_ASSERT_CONTAINS(e, "exp.cfg:6: source.pcts: element 1: 100.5 is out of range: allowed 0 to 100 %");
	TU_ASSERT_CONTAINS(e, "exp.cfg:7: source.tags: element 1: \"warp\" is not allowed: use one of \"fast\", \"slow\"");
	free(e);

	e = errors_of(
		"name = \"x\";\n"
		"source = { plugin = \"testsrc\"; cpu = 0; level = 0; };\n"
		"sinks = ( { plugin = \"testsink\"; } );\n");
	TU_ASSERT_CONTAINS(e, "exp.cfg:2: source.level: 0 is out of range: allowed 1 to 9 steps");
	free(e);

	/* Above a duration's max; one-sided bounds of a float and a duration. */
	e = errors_of(
		"name = \"x\";\n"
		"source = { plugin = \"testsrc\"; cpu = 0;\n"
		"  pause = \"2s\";\n"
		"  ratio = 0.05;\n"
		"  budget = \"1m\"; };\n"
		"sinks = ( { plugin = \"testsink\"; } );\n");
	TU_ASSERT_CONTAINS(e, "exp.cfg:3: source.pause: \"2s\" is out of range: allowed 1us to 1s");
	TU_ASSERT_CONTAINS(e, "exp.cfg:4: source.ratio: 0.05 is out of range: allowed at least 0.1");
	TU_ASSERT_CONTAINS(e, "exp.cfg:5: source.budget: \"1m\" is out of range: allowed at most 1s");
	free(e);
}

/* The parsed values land in the plugin's own struct, defaults included. */
static void test_options_fill_config_struct(void)
{
	struct wfw_plan plan;
	const int64_t *rows;
	int ret;
	char *e = load("name = \"x\";\n"
		       "source = { plugin = \"testsrc\"; cpu = 0; rows_per_read = 7; level = 9; };\n"
		       "sinks = ( { plugin = \"testsink\"; } );\n", &plan, &ret);

	CU_ASSERT_EQUAL_FATAL(ret, 0);
	CU_ASSERT_STRING_EQUAL(e, "");
	rows = plan.exps[0].source.opts.cfg;
	CU_ASSERT_PTR_NOT_NULL_FATAL(rows);
	/* struct testsrc_cfg begins with rows_per_read, total, discard_every. */
	CU_ASSERT_EQUAL(rows[0], 7);
	CU_ASSERT_EQUAL(rows[1], 0);
	wfw_plan_free(&plan);
	free(e);
}

static void test_v1_plugin_refused(void)
{
	char *e = errors_of(
		"name = \"x\";\n"
		"source = { plugin = \"testsrc\"; cpu = 0; };\n"
		"sinks = ( { plugin = \"v1plugin\"; } );\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:3: sinks[0].plugin: plugin 'v1plugin' (");
	TU_ASSERT_CONTAINS(e, "v1plugin.so) has plugin ABI version 1 but this wultfw needs 3: rebuild it");
	free(e);
}

/*
 * The descriptor's size: one built against newer headers that sets what
 * this core lacks is refused in one line; one that leaves it zero loads;
 * one that ends early reads as zero past its end.
 */
static void test_descriptor_sizes(void)
{
	struct wfw_plugin_handle h;
	char err[1024];

	CU_ASSERT_EQUAL(wfw_plugin_load("newtail", 0, &h, err, sizeof(err)), -ENOEXEC);
	TU_ASSERT_CONTAINS(err, "plugin 'newtail' (");
	TU_ASSERT_CONTAINS(err, "newtail.so) was built against newer ABI 3 headers (a ");
	TU_ASSERT_CONTAINS(err, "-byte descriptor, this wultfw knows ");
	TU_ASSERT_CONTAINS(err, "upgrade wultfw, or rebuild the plugin");
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));
	CU_ASSERT_EQUAL(wfw_plugin_load("newzero", WULTFW_KIND_SINK, &h, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(h.desc->name, "newzero");
	wfw_plugin_unload(&h);
	CU_ASSERT_EQUAL_FATAL(wfw_plugin_load("shortdesc", 0, &h, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(h.desc->restore);
	CU_ASSERT_PTR_NULL(h.desc->columns);
	wfw_plugin_unload(&h);
}

/* A sampler takes no launch distance; a delayed-event source has limits. */
static void test_ldist_by_source_kind(void)
{
	struct wfw_plan plan;
	int ret;
	char *e = errors_of(
		"experiments = (\n"
		"  { name = \"a\"; source = { plugin = \"testsampler\"; cpu = 0;\n"
		"    ldist = \"100us\"; }; sinks = ( { plugin = \"testsink\"; } ); },\n"
		"  { name = \"b\"; source = { plugin = \"testsrc\"; cpu = 0;\n"
		"    ldist = [ \"1ms\", \"2h\" ]; }; sinks = ( { plugin = \"testsink\"; } ); }\n"
		");\n");

	TU_ASSERT_CONTAINS(e, "exp.cfg:3: experiments[0].source.ldist: source 'testsampler' is a sampler and takes no launch distance: remove 'ldist'");
	TU_ASSERT_CONTAINS(e, "exp.cfg:5: experiments[1].source.ldist: [1ms, 2h] is outside what source 'testsrc' can take: [1ns, 1h]");
	free(e);

	e = load("name = \"x\";\n"
		 "source = { plugin = \"testsampler\"; cpu = 0; };\n"
		 "sinks = ( { plugin = \"testsink\"; } );\n", &plan, &ret);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(plan.exps[0].ldist_use, WULTFW_LDIST_NONE);
	CU_ASSERT_EQUAL(plan.exps[0].ldist_from_ns, 0);
	CU_ASSERT_EQUAL(plan.exps[0].ldist_to_ns, 0);
	wfw_plan_free(&plan);
	free(e);
}

static void test_duplicate_names_and_only(void)
{
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	struct wfw_plan_overrides ov = { .only = "secnd" };
	char *path, *e;

	e = errors_of("experiments = (\n"
		      " { name = \"a\"; source = { plugin = \"testsrc\"; cpu = 0; }; sinks = ( { plugin = \"testsink\"; } ); },\n"
		      " { name = \"a\"; source = { plugin = \"testsrc\"; cpu = 0; }; sinks = ( { plugin = \"testsink\"; } ); }\n"
		      ");\n");
	TU_ASSERT_CONTAINS(e, "exp.cfg:3: experiments[1].name: another experiment is named \"a\" too");
	free(e);

	path = tu_write(dir, "only.cfg",
			"sinks = ( { plugin = \"testsink\"; } );\n"
			"experiments = (\n"
			" { name = \"first\"; source = { plugin = \"testsrc\"; cpu = 0; }; },\n"
			" { name = \"second\"; source = { plugin = \"testsrc\"; cpu = 0; }; }\n"
			");\n");
	CU_ASSERT_NOT_EQUAL(wfw_plan_load(&plan, path, &ov, &errs), 0);
	CU_ASSERT_EQUAL_FATAL(errs.n, 1);
	TU_ASSERT_CONTAINS(errs.msgs[0], "--only secnd: no experiment of that name in ");
	TU_ASSERT_CONTAINS(errs.msgs[0], "only.cfg (did you mean \"second\"?)");
	CU_ASSERT_PTR_NULL(strstr(errs.msgs[0], ":0:"));
	wfw_cfgerr_free(&errs);
	wfw_plan_free(&plan);

	ov.only = "second";
	CU_ASSERT_EQUAL(wfw_plan_load(&plan, path, &ov, &errs), 0);
	CU_ASSERT_EQUAL(plan.n, 1);
	if (plan.n == 1)
		CU_ASSERT_STRING_EQUAL(plan.exps[0].name, "second");
	wfw_plan_free(&plan);
	free(path);
}

static void test_embedded_default_parses(void)
{
	/* The default names plugins the test path does not have: only check
	 * that the text parses and names timer and csv. */
	CU_ASSERT_PTR_NOT_NULL(strstr(wfw_default_experiment, "plugin = \"timer\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(wfw_default_experiment, "plugin = \"csv\""));
}

static void test_load_direct(void)
{
	struct wfw_plugin_handle h;
	char err[1024];

	CU_ASSERT_EQUAL(wfw_plugin_load("testsrc", WULTFW_KIND_SOURCE, &h, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h.desc);
	CU_ASSERT_STRING_EQUAL(h.desc->name, "testsrc");
	wfw_plugin_unload(&h);
	CU_ASSERT_EQUAL(wfw_plugin_load("nosuch", 0, &h, err, sizeof(err)), -ENOENT);
}

static void test_writable_plugin_refused(void)
{
	const char *path = getenv("WULTFW_PLUGIN_PATH");
	char *src, *wdir, cmd[4096], err[1024];
	struct wfw_plugin_handle h;
	int ret;

	if (!path)
		TU_SKIP("no WULTFW_PLUGIN_PATH (run it through make check)");
	/* A copy of the good plugin in a world-writable directory. */
	src = strdup(path);
	src[strcspn(src, ":")] = '\0';
	wdir = tu_tmpdir();
	snprintf(cmd, sizeof(cmd), "cp %s/.libs/testsink.so %s/ && chmod 777 %s", src, wdir, wdir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	setenv("WULTFW_PLUGIN_PATH", wdir, 1);
	ret = wfw_plugin_load("testsink", 0, &h, err, sizeof(err));
	CU_ASSERT_EQUAL(ret, -EPERM);
	TU_ASSERT_CONTAINS(err, "plugin 'testsink': refusing ");
	TU_ASSERT_CONTAINS(err, ", mode 0777): every user can write it");
	TU_ASSERT_CONTAINS(err, "fix with: chmod go-w ");
	/* Fixed permissions: it loads. */
	chmod(wdir, 0755);
	ret = wfw_plugin_load("testsink", 0, &h, err, sizeof(err));
	CU_ASSERT_EQUAL(ret, 0);
	if (!ret)
		wfw_plugin_unload(&h);
	setenv("WULTFW_PLUGIN_PATH", path, 1);
	tu_rmtree(wdir);
	free(wdir);
	free(src);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("experiment files", setup, teardown);
	CU_add_test(s, "a good file with defaults and overrides", test_good_file);
	CU_add_test(s, "single experiment at top level", test_single_experiment_form);
	CU_add_test(s, "syntax error names the line", test_syntax_error);
	CU_add_test(s, "missing file", test_missing_file);
	CU_add_test(s, "empty file, directory", test_empty_file_and_directory);
	CU_add_test(s, "unknown keys with did-you-mean", test_unknown_keys);
	CU_add_test(s, "wrong value types", test_wrong_types);
	CU_add_test(s, "bad values", test_bad_values);
	CU_add_test(s, "plugin validates option values", test_plugin_validates_values);
	CU_add_test(s, "CPU lists", test_cpu_lists);
	CU_add_test(s, "plugin errors", test_plugin_errors);
	CU_add_test(s, "duplicate names and --only", test_duplicate_names_and_only);
	CU_add_test(s, "option bounds and choices", test_option_bounds_and_choices);
	CU_add_test(s, "options fill the plugin's config struct", test_options_fill_config_struct);
	CU_add_test(s, "v1 plugin refused", test_v1_plugin_refused);
	CU_add_test(s, "descriptor sizes", test_descriptor_sizes);
	CU_add_test(s, "ldist by source kind", test_ldist_by_source_kind);
	CU_add_test(s, "embedded default", test_embedded_default_parses);
	s = CU_add_suite("plugin loading", setup, teardown);
	CU_add_test(s, "load by name", test_load_direct);
	CU_add_test(s, "missing file: did you mean", test_missing_file_hint);
	CU_add_test(s, "@include and key lists", test_include_and_key_lists);
	CU_add_test(s, "number errors", test_number_errors);
	CU_add_test(s, "whole numbers beyond 32 bits", test_big_whole_numbers);
	CU_add_test(s, "command-line settings", test_overrides);
	CU_add_test(s, "world-writable plugin directory refused", test_writable_plugin_refused);
	return tu_run();
}
