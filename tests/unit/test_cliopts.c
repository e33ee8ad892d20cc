/* SPDX-License-Identifier: MIT */
/*
 * The commands' option tables (cli/cliopts.h): values land where the table
 * says, bounds and choices are refused in one line naming the option and
 * what it allows, a mistyped option gets a did-you-mean, operands and
 * required options are counted, and --help lists every option of the
 * table in the form completion reads.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "cliopts.h"
#include "testutil.h"

struct targs {
	bool flag;
	const char *out, *expr;
	unsigned jobs;
	size_t limit;
	int to;
	int calls;
	struct wfw_names names;
	bool level_set;		/* --level given, its value or not */
	const char *level;
};

static const char *const formats[] = { "csv", "binary", NULL };

static enum wfw_cli_next count_call(void *field, const char *value)
{
	(void)value;
	++*(int *)field;
	return WFW_CLI_NEXT;
}

static enum wfw_cli_next stop_call(void *field, const char *value)
{
	(void)field;
	(void)value;
	return WFW_CLI_DONE;
}

/* --level [N]: a value left out may be the next word, when it is digits. */
static enum wfw_cli_next level_call(void *field, const char *value)
{
	struct targs *a = field;

	a->level_set = true;
	a->level = value;
	return WFW_CLI_NEXT;
}

static bool digits(const char *word)
{
	return *word && strspn(word, "0123456789") == strlen(word);
}

#define AT(f) .off = offsetof(struct targs, f)
static const struct wfw_cli_opt topts[] = {
	{ "output", 'o', WFW_CLI_STRING, "OUT", "file to write", AT(out), .required = true },
	{ "flag", 0, WFW_CLI_FLAG, NULL, "a flag", AT(flag) },
	{ "to", 't', WFW_CLI_CHOICE, "FORMAT", "the format", .def = "csv",
	  .choices = formats, AT(to) },
	WFW_CLI_JOBS(struct targs, jobs, "threads; a long text that goes on and on so that it has to be wrapped over lines, and it says -j 1 and --flag and -x in the middle of its words to see none starts a line"),
	WFW_CLI_SECTION("Other things:"),
	{ "limit", 'e', WFW_CLI_SIZE, "N", "values kept", .def = "1000", .min = "0",
	  .unit = "values", AT(limit) },
	{ "count", 'c', WFW_CLI_CALL, NULL, "count the calls", AT(calls), .set = count_call },
	{ "list", 0, WFW_CLI_CALL, NULL, "list and stop", .set = stop_call },
	{ "secret", 0, WFW_CLI_STRING, "X", "for tests", AT(expr), .hidden = true },
	{ "names", 0, WFW_CLI_NAMES, "LIST", "names, comma-separated", AT(names) },
	{ "level", 'l', WFW_CLI_CALL, "N", "a level, or the default", .off = 0,
	  .set = level_call, .optional = digits },
	WFW_CLI_END
};

static const struct wfw_cli tcli = {
	.name = "t",
	.usage = "Usage: wultfw t [OPTION]... FILE\n",
	.epilog = "The end.\n",
	.opts = topts,
	.operand = "FILE", .min_operands = 1, .max_operands = 1,
};

static char out[16384], err[4096];

struct parse_call {
	const struct wfw_cli *cli;
	struct targs *a;
	int argc;
	char *argv[32];
};

static int parse_fn(void *arg)
{
	struct parse_call *p = arg;

	return (int)wfw_cli_parse(p->cli, p->a, p->argc, p->argv);
}

/* Parse `args` (after argv[0] "t") with stdout and stderr captured. */
static enum wfw_cli_next parse_in(const struct wfw_cli *cli, struct targs *a,
				  const char *const *args, size_t n)
{
	struct parse_call p = { cli, a, (int)n + 1, { "t" } };

	for (size_t i = 0; i < n; i++)
		p.argv[i + 1] = (char *)args[i];
	memset(a, 0, sizeof(*a));
	return (enum wfw_cli_next)tu_capture(parse_fn, &p, out, sizeof(out), err, sizeof(err));
}

#define PARSE(a, ...) parse_in(&tcli, (a), (const char *const[]){ __VA_ARGS__ }, \
	sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_values(void)
{
	struct targs a;

	CU_ASSERT_EQUAL(PARSE(&a, "in.csv", "-o", "x.wfb", "-j", "4", "--flag",
			      "--to", "binary", "-e", "0", "-c", "-c"), WFW_CLI_NEXT);
	CU_ASSERT_STRING_EQUAL(a.out, "x.wfb");
	CU_ASSERT_EQUAL(a.jobs, 4);
	CU_ASSERT(a.flag);
	CU_ASSERT_EQUAL(a.to, 1);
	CU_ASSERT_EQUAL(a.limit, 0);
	CU_ASSERT_EQUAL(a.calls, 2);
	CU_ASSERT_EQUAL(optind, 12);	/* the operand, moved last */
	CU_ASSERT_STRING_EQUAL(err, "");

	/* Defaults from the table; a field without one is left as it was. */
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in"), WFW_CLI_NEXT);
	CU_ASSERT_EQUAL(a.to, 0);
	CU_ASSERT_EQUAL(a.limit, 1000);
	CU_ASSERT_EQUAL(a.jobs, 0);
	CU_ASSERT(!a.flag);
	CU_ASSERT_EQUAL(PARSE(&a, "--output=y", "--limit=7", "--jobs=256", "in"), WFW_CLI_NEXT);
	CU_ASSERT_STRING_EQUAL(a.out, "y");
	CU_ASSERT_EQUAL(a.limit, 7);
	CU_ASSERT_EQUAL(a.jobs, 256);
}

static void test_bounds(void)
{
	static const char *const bad[] = { "0", "257", "x", "-1", "1x", "", " 2", "+3",
					   "99999999999999999999999" };
	struct targs a;
	char want[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in", "-j", bad[i]), WFW_CLI_USAGE);
		snprintf(want, sizeof(want), "wultfw t: --jobs %s: use 1 to 256 threads\n", bad[i]);
		CU_ASSERT_STRING_EQUAL(err, want);
	}
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in", "--limit", "-5"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: --limit -5: use 0 or more values\n");
	CU_ASSERT_EQUAL(wfw_cli_status(WFW_CLI_USAGE), 2);
	CU_ASSERT_EQUAL(wfw_cli_status(WFW_CLI_FAILED), 1);
	CU_ASSERT_EQUAL(wfw_cli_status(WFW_CLI_DONE), 0);
}

/* "a,b": the last --names given, empty items skipped, at most 64. */
static void test_names(void)
{
	char many[65 * 4 + 1] = "";
	struct targs a;

	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in", "--names", "a,,b", "--names", ",c,d,"),
			WFW_CLI_NEXT);
	CU_ASSERT_EQUAL(a.names.n, 2);
	CU_ASSERT_STRING_EQUAL(a.names.v[0], "c");
	CU_ASSERT_STRING_EQUAL(a.names.v[1], "d");
	wfw_names_free(&a.names);
	for (int i = 0; i < 64; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%d", i ? "," : "", i);
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in", "--names", many), WFW_CLI_NEXT);
	CU_ASSERT_EQUAL(a.names.n, 64);
	CU_ASSERT_STRING_EQUAL(a.names.v[63], "63");
	wfw_names_free(&a.names);
	strcat(many, ",64");
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in", "--names", many), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: --names: at most 64 names\n");
	wfw_names_free(&a.names);
}

static void test_choices(void)
{
	struct targs a;

	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in", "--to", "bin"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: --to bin: use csv or binary (did you mean 'binary'?)\n");
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in", "-t", "cvs"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: --to cvs: use csv or binary (did you mean 'csv'?)\n");
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "in", "-t", "xml"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: --to xml: use csv or binary\n");
}

static void test_unknown(void)
{
	struct targs a;

	CU_ASSERT_EQUAL(PARSE(&a, "in", "--lmit", "5"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: unknown option '--lmit' (did you mean '--limit'?): 'wultfw t --help' lists the options\n");
	CU_ASSERT_EQUAL(PARSE(&a, "in", "--hepl"), WFW_CLI_USAGE);
	TU_ASSERT_CONTAINS(err, "(did you mean '--help'?)");
	CU_ASSERT_EQUAL(PARSE(&a, "in", "--zzzzzz"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: unknown option '--zzzzzz': 'wultfw t --help' lists the options\n");
	CU_ASSERT_EQUAL(PARSE(&a, "in", "-q"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: unknown option '-q': 'wultfw t --help' lists the options\n");
	CU_ASSERT_EQUAL(PARSE(&a, "in", "-j"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: option '-j' needs a value: 'wultfw t --help' lists the options\n");
	CU_ASSERT_EQUAL(PARSE(&a, "in", "--jobs"), WFW_CLI_USAGE);
	TU_ASSERT_CONTAINS(err, "option '--jobs' needs a value");
}

static void test_operands(void)
{
	struct wfw_cli none = tcli;
	struct targs a;

	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: no FILE given: 'wultfw t --help' shows the usage\n");
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "a", "b"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: give exactly one FILE\n");
	CU_ASSERT_EQUAL(PARSE(&a, "in"), WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: no output given: add -o OUT\n");
	none.operand = NULL;
	CU_ASSERT_EQUAL(parse_in(&none, &a, (const char *const[]){ "-o", "x", "stray" }, 3),
			WFW_CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: unexpected argument 'stray': 'wultfw t --help' shows the usage\n");
	none.stray = " (a hint)";
	parse_in(&none, &a, (const char *const[]){ "-o", "x", "stray" }, 3);
	CU_ASSERT_STRING_EQUAL(err, "wultfw t: unexpected argument 'stray' (a hint)\n");
}

static void test_stops(void)
{
	struct targs a;

	/* An option that does the work (a listing) ends the parse: exit 0. */
	CU_ASSERT_EQUAL(PARSE(&a, "--list", "--nosuch"), WFW_CLI_DONE);
	CU_ASSERT_STRING_EQUAL(err, "");
	CU_ASSERT_EQUAL(PARSE(&a, "--help"), WFW_CLI_DONE);
	TU_ASSERT_CONTAINS(out, "Usage: wultfw t [OPTION]... FILE\n");
	CU_ASSERT_STRING_EQUAL(err, "");
	CU_ASSERT_EQUAL(PARSE(&a, "-h", "--nosuch"), WFW_CLI_DONE);
}

/* Lines completion (bash's _parse_help) reads as options: their first word. */
static int option_lines(const char *help, const char *name)
{
	char want[64];
	const char *p;
	int n = 0;

	snprintf(want, sizeof(want), "--%s", name);
	for (p = help; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *w = p + strspn(p, " ");
		size_t len = strcspn(w, " \n");

		if (*w == '-' && len == strlen(want) && !strncmp(w, want, len))
			n++;
		else if (*w == '-' && w[1] != '-' && !strncmp(w + 4, want, strlen(want)))
			n++;
	}
	return n;
}

static void test_help(void)
{
	struct targs a;
	const struct wfw_cli_opt *o;
	const char *p;

	PARSE(&a, "--help");
	for (o = topts; o->name || o->section; o++)
		if (o->name)
			CU_ASSERT_EQUAL(option_lines(out, o->name), o->hidden ? 0 : 1);
	CU_ASSERT_EQUAL(option_lines(out, "help"), 1);
	TU_ASSERT_CONTAINS(out, "  -o, --output OUT ");
	TU_ASSERT_CONTAINS(out, "      --flag ");
	TU_ASSERT_CONTAINS(out, "\nOther things:\n");
	TU_ASSERT_CONTAINS(out, "the format (csv or binary; default: csv)");
	TU_ASSERT_CONTAINS(out, "(1 to 256)");
	TU_ASSERT_CONTAINS(out, "values kept (0 or more; default: 1000)");
	TU_ASSERT_CONTAINS(out, "\nThe end.\n");
	CU_ASSERT(!strstr(out, "secret"));
	/* Every line ends by column 79; none but an option's starts with '-'. */
	for (p = out; *p; p = strchr(p, '\n') + 1) {
		size_t len = strcspn(p, "\n");
		const char *w = p + strspn(p, " ");

		CU_ASSERT(len <= 79);
		if (*w == '-')
			CU_ASSERT(w - p == 2 || w - p == 6);
	}
	CU_ASSERT(lines(out) > 12);
}

static void test_optional(void)
{
	struct targs a;

	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "--level", "5", "in"), WFW_CLI_NEXT);
	CU_ASSERT(a.level_set);
	CU_ASSERT_STRING_EQUAL(a.level, "5");
	CU_ASSERT_EQUAL(optind, 5);
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "--level", "in"), WFW_CLI_NEXT);
	CU_ASSERT(a.level_set && !a.level);
	CU_ASSERT_EQUAL(optind, 4);	/* "in" stays an operand */
	/* after the operand: the next word is still its value */
	CU_ASSERT_EQUAL(PARSE(&a, "in", "--level", "7", "-o", "x"), WFW_CLI_NEXT);
	CU_ASSERT_STRING_EQUAL(a.level, "7");
	CU_ASSERT_EQUAL(optind, 5);
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "--level", "-c", "in"), WFW_CLI_NEXT);
	CU_ASSERT(a.level_set && !a.level);
	CU_ASSERT_EQUAL(a.calls, 1);
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "--level=high", "in"), WFW_CLI_NEXT);
	CU_ASSERT_STRING_EQUAL(a.level, "high");	/* given with '=': the option's own to judge */
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "-l3", "in"), WFW_CLI_NEXT);
	CU_ASSERT_STRING_EQUAL(a.level, "3");
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "-l", "4", "in"), WFW_CLI_NEXT);
	CU_ASSERT_STRING_EQUAL(a.level, "4");
	CU_ASSERT_EQUAL(PARSE(&a, "-o", "x", "--", "--level", "in"), WFW_CLI_USAGE);
	PARSE(&a, "--help");
	TU_ASSERT_CONTAINS(out, "  -l, --level [N] ");
}

static void test_table_bugs(void)
{
	static const struct wfw_cli_opt twice[] = {
		{ .name = "one", .letter = 'x', .type = WFW_CLI_FLAG },
		{ .name = "two", .letter = 'x', .type = WFW_CLI_FLAG },
		WFW_CLI_END
	};
	static const struct wfw_cli_opt h[] = {
		{ .name = "hold", .letter = 'h', .type = WFW_CLI_FLAG },
		WFW_CLI_END
	};
	static const struct wfw_cli_opt nodef[] = {
		{ "n", 'n', WFW_CLI_UINT, "N", "n", .def = "0", .min = "1" },
		WFW_CLI_END
	};
	static const struct wfw_cli_opt opt_flag[] = {
		{ "f", 'f', WFW_CLI_FLAG, NULL, "f", .optional = digits },
		WFW_CLI_END
	};
	struct wfw_cli c = tcli;
	struct targs a;

	c.opts = twice;
	CU_ASSERT_EQUAL(parse_in(&c, &a, (const char *const[]){ "in" }, 1), WFW_CLI_FAILED);
	TU_ASSERT_CONTAINS(err, "--two: declared twice (a bug: report it)");
	c.opts = h;
	CU_ASSERT_EQUAL(parse_in(&c, &a, (const char *const[]){ "in" }, 1), WFW_CLI_FAILED);
	TU_ASSERT_CONTAINS(err, "-h and --help are help's");
	c.opts = nodef;
	CU_ASSERT_EQUAL(parse_in(&c, &a, (const char *const[]){ "in" }, 1), WFW_CLI_FAILED);
	TU_ASSERT_CONTAINS(err, "--n: its default is refused (a bug: report it)");
	c.opts = opt_flag;
	CU_ASSERT_EQUAL(parse_in(&c, &a, (const char *const[]){ "in" }, 1), WFW_CLI_FAILED);
	TU_ASSERT_CONTAINS(err, "--f: only a called option's value can be optional");
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("cliopts", NULL, NULL);
	CU_add_test(s, "values land where the table says", test_values);
	CU_add_test(s, "bounds: one error naming the range", test_bounds);
	CU_add_test(s, "comma-separated names", test_names);
	CU_add_test(s, "choices, with a did-you-mean", test_choices);
	CU_add_test(s, "unknown options, with a did-you-mean", test_unknown);
	CU_add_test(s, "operands and required options", test_operands);
	CU_add_test(s, "--help and listings stop the parse", test_stops);
	CU_add_test(s, "--help lists every option of the table", test_help);
	CU_add_test(s, "a value that may be left out", test_optional);
	CU_add_test(s, "a table's own mistakes", test_table_bugs);
	return tu_run();
}
