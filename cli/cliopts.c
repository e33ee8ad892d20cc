/* SPDX-License-Identifier: MIT */
/* A command's option table read from argv (cliopts.h); --help: clihelp.c. */
#include "config.h"

#include "cliopts.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <par/par.h>
#include <suggest/suggest.h>

/* Long options without a letter: getopt_long() returns this plus the index. */
#define LONG_ONLY 256

enum wfw_cli_next wfw_cli_check_sysfs_root(const struct wfw_cli *cli,
					   const char *dir)
{
	struct stat st;

	if (!dir || (!stat(dir, &st) && S_ISDIR(st.st_mode)))
		return WFW_CLI_NEXT;
	return wfw_cli_error(cli, "--sysfs-root '%s' is no directory (it stands for /sys, in tests)",
			     dir);
}

static const char *sp(const struct wfw_cli *cli)
{
	return *cli->name ? " " : "";
}

enum wfw_cli_next wfw_cli_error(const struct wfw_cli *cli, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "wultfw%s%s: ", sp(cli), cli->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return WFW_CLI_USAGE;
}

int wfw_cli_status(enum wfw_cli_next next)
{
	switch (next) {
	case WFW_CLI_USAGE:
		return 2;
	case WFW_CLI_FAILED:
		return 1;
	default:
		return 0;
	}
}

unsigned wfw_cli_online_cpus(void)
{
	return wfw_par_online_cpus(WFW_CLI_JOBS_MAX);
}

/* A whole number written in decimal digits only: no sign, no spaces. */
static int parse_count(const char *s, unsigned long long *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/* A table's own mistakes, said as the bug they are. */
static bool bad_table(const struct wfw_cli *cli, const struct wfw_cli_opt *o,
		      const char *why)
{
	wfw_cli_error(cli, "option table: --%s: %s (a bug: report it)", o->name, why);
	return true;
}

static bool bad_entry(const struct wfw_cli *cli, const struct wfw_cli_opt *o)
{
	bool valued = o->type != WFW_CLI_FLAG && o->type != WFW_CLI_HELP &&
		      o->type != WFW_CLI_CALL;
	unsigned long long n;

	if (valued && !o->arg)
		return bad_table(cli, o, "no name for its value");
	if ((o->type == WFW_CLI_FLAG || o->type == WFW_CLI_HELP) && o->arg)
		return bad_table(cli, o, "takes no value but names one");
	if (o->type == WFW_CLI_CHOICE && (!o->choices || !o->choices[0]))
		return bad_table(cli, o, "no choices");
	if (o->type == WFW_CLI_CALL && !o->set)
		return bad_table(cli, o, "no function to call");
	if (o->optional && (o->type != WFW_CLI_CALL || !o->arg))
		return bad_table(cli, o, "only a called option's value can be optional");
	if (o->required && o->type != WFW_CLI_STRING)
		return bad_table(cli, o, "only a string can be required");
	if ((o->min && parse_count(o->min, &n)) || (o->max && parse_count(o->max, &n)))
		return bad_table(cli, o, "a bound that is no whole number");
	return false;
}

/* Every name and letter once, 'h' only for help, each entry consistent. */
static bool bad_opts(const struct wfw_cli *cli)
{
	const struct wfw_cli_opt *o, *p;

	for (o = cli->opts; o->name || o->section; o++) {
		if (!o->name)
			continue;
		if (bad_entry(cli, o))
			return true;
		if ((o->letter == 'h' || !strcmp(o->name, "help")) &&
		    o->type != WFW_CLI_HELP)
			return bad_table(cli, o, "-h and --help are help's");
		for (p = cli->opts; p != o; p++)
			if (p->name && (!strcmp(p->name, o->name) ||
					(o->letter && p->letter == o->letter)))
				return bad_table(cli, o, "declared twice");
	}
	return false;
}

static size_t count_opts(const struct wfw_cli *cli)
{
	size_t n = 0;

	while (cli->opts[n].name || cli->opts[n].section)
		n++;
	return n;
}

static bool has_help(const struct wfw_cli *cli)
{
	for (const struct wfw_cli_opt *o = cli->opts; o->name || o->section; o++)
		if (o->name && o->type == WFW_CLI_HELP)
			return true;
	return false;
}

/* getopt_long()'s view of the table; help added unless the table has it. */
static int getopt_tables(const struct wfw_cli *cli, struct option **lo, char **so)
{
	size_t n = count_opts(cli), k = 0, i;
	struct option *l = calloc(n + 2, sizeof(*l));
	char *s = calloc(3 * n + 4, 1), *p = s;

	*lo = l;
	*so = s;
	if (!l || !s)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct wfw_cli_opt *o = &cli->opts[i];

		if (!o->name)
			continue;
		l[k++] = (struct option){ o->name, !o->arg ? no_argument :
					  o->optional ? optional_argument : required_argument,
					  NULL, o->letter ? o->letter : LONG_ONLY + (int)i };
		if (!o->letter)
			continue;
		*p++ = (char)o->letter;
		if (o->arg)
			*p++ = ':';
		if (o->optional)
			*p++ = ':';
	}
	if (!has_help(cli)) {
		l[k] = (struct option){ "help", no_argument, NULL, 'h' };
		*p = 'h';
	}
	return 0;
}

/* The entry getopt_long() returned `c` for; NULL: the implicit help. */
static const struct wfw_cli_opt *entry_of(const struct wfw_cli *cli, int c)
{
	const struct wfw_cli_opt *o;

	if (c >= LONG_ONLY)
		return &cli->opts[c - LONG_ONLY];
	for (o = cli->opts; o->name || o->section; o++)
		if (o->name && o->letter == c)
			return o;
	return NULL;
}

static enum wfw_cli_next set_count(const struct wfw_cli *cli,
				   const struct wfw_cli_opt *o, void *field,
				   const char *value)
{
	unsigned long long v, lo = 0, hi = o->type == WFW_CLI_UINT ? UINT_MAX : SIZE_MAX;
	char range[256];

	if (o->min)
		parse_count(o->min, &lo);
	if (o->max)
		parse_count(o->max, &hi);
	if (parse_count(value, &v) || v < lo || v > hi) {
		wfw_cli_range(o, range, sizeof(range));
		return wfw_cli_error(cli, "--%s %s: use %s%s%s", o->name, value,
				     range, o->unit ? " " : "", o->unit ? o->unit : "");
	}
	if (o->type == WFW_CLI_UINT)
		*(unsigned *)field = (unsigned)v;
	else
		*(size_t *)field = (size_t)v;
	return WFW_CLI_NEXT;
}

/* The choice one meant: the nearest, or the one `value` begins ("bin"). */
static const char *near_choice(const char *const *choices, const char *value)
{
	size_t n = 0;
	const char *near;

	while (choices[n])
		n++;
	near = *value ? wfw_suggest(value, choices, n) : NULL;
	for (size_t i = 0; i < n && !near && *value; i++)
		if (!strncasecmp(value, choices[i], strlen(value)))
			near = choices[i];
	return near;
}

static enum wfw_cli_next set_choice(const struct wfw_cli *cli,
				    const struct wfw_cli_opt *o, int *field,
				    const char *value)
{
	char list[256];
	const char *near;

	for (int i = 0; o->choices[i]; i++) {
		if (!strcmp(value, o->choices[i])) {
			*field = i;
			return WFW_CLI_NEXT;
		}
	}
	wfw_cli_range(o, list, sizeof(list));
	near = near_choice(o->choices, value);
	return wfw_cli_error(cli, "--%s %s: use %s%s%s%s", o->name, value, list,
			     near ? " (did you mean '" : "", near ? near : "",
			     near ? "'?)" : "");
}

static enum wfw_cli_next set_names(const struct wfw_cli *cli,
				   const struct wfw_cli_opt *o,
				   struct wfw_names *field, const char *value)
{
	int ret = wfw_names_split(field, value);

	if (ret == -E2BIG)
		return wfw_cli_error(cli, "--%s: at most %d names", o->name,
				     WFW_NAMES_MAX);
	if (ret) {
		fprintf(stderr, "wultfw%s%s: out of memory\n", sp(cli), cli->name);
		return WFW_CLI_FAILED;
	}
	return WFW_CLI_NEXT;
}

/* One option's value (or a default) into args. */
static enum wfw_cli_next set_value(const struct wfw_cli *cli,
				   const struct wfw_cli_opt *o, void *args,
				   const char *value)
{
	void *field = (char *)args + o->off;

	switch (o->type) {
	case WFW_CLI_FLAG:
		*(bool *)field = true;
		return WFW_CLI_NEXT;
	case WFW_CLI_STRING:
		*(const char **)field = value;
		return WFW_CLI_NEXT;
	case WFW_CLI_UINT:
	case WFW_CLI_SIZE:
		return set_count(cli, o, field, value);
	case WFW_CLI_CHOICE:
		return set_choice(cli, o, field, value);
	case WFW_CLI_NAMES:
		return set_names(cli, o, field, value);
	case WFW_CLI_CALL:
		return o->set(field, value);
	case WFW_CLI_HELP:
		break;
	}
	wfw_cli_help(cli, stdout);
	return WFW_CLI_DONE;
}

/* Every default the table declares, as if given first. */
static enum wfw_cli_next set_defaults(const struct wfw_cli *cli, void *args)
{
	const struct wfw_cli_opt *o;

	for (o = cli->opts; o->name || o->section; o++) {
		if (!o->name || !o->def)
			continue;
		if (set_value(cli, o, args, o->def) != WFW_CLI_NEXT) {
			bad_table(cli, o, "its default is refused");
			return WFW_CLI_FAILED;
		}
	}
	return WFW_CLI_NEXT;
}

/*
 * A value that is the next word and looks like an option was an option:
 * `-o --check` would write results into ./--check and run for real.
 * --NAME=VALUE (or -oVALUE) still takes anything.
 */
static enum wfw_cli_next check_value(const struct wfw_cli *cli,
				     const struct wfw_cli_opt *o, const char *word)
{
	if (!optarg || optarg != word || optarg[0] != '-' ||
	    !(isalpha((unsigned char)optarg[1]) || optarg[1] == '-'))
		return WFW_CLI_NEXT;
	return wfw_cli_error(cli, "--%s needs a value, and '%s' is an option: give the value, or --%s=%s if you mean it",
			     o->name, optarg, o->name, optarg);
}

/*
 * --include or --exclude given twice: the first would be dropped without
 * a word (a user expects both to hold).
 */
static enum wfw_cli_next check_once(const struct wfw_cli *cli,
				    const struct wfw_cli_opt *o, bool *seen)
{
	bool again = *seen;

	*seen = true;
	if (!again || o->type != WFW_CLI_STRING ||
	    (strcmp(o->name, "include") && strcmp(o->name, "exclude")))
		return WFW_CLI_NEXT;
	return wfw_cli_error(cli, "--%s given twice: join the expressions in one (%s)",
			     o->name, !strcmp(o->name, "include") ?
			     "'A && B' keeps rows where both hold" :
			     "'A || B' leaves out rows where either holds");
}

/* The option loop; WFW_CLI_NEXT at its end. */
static enum wfw_cli_next read_options(const struct wfw_cli *cli, void *args,
				      int argc, char **argv)
{
	enum wfw_cli_next next = WFW_CLI_NEXT;
	bool *seen = calloc(count_opts(cli) + 1, sizeof(*seen));
	struct option *lo = NULL;
	char *so = NULL;
	int c;

	if (!seen || getopt_tables(cli, &lo, &so)) {
		fprintf(stderr, "wultfw%s%s: out of memory\n", sp(cli), cli->name);
		next = WFW_CLI_FAILED;
	}
	optind = 0;	/* glibc: a full reset, main() may have used getopt */
	opterr = 0;	/* wfw_suggest_bad_option() says it, with a did-you-mean */
	while (next == WFW_CLI_NEXT &&
	       (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		const struct wfw_cli_opt *o = c == '?' ? NULL : entry_of(cli, c);

		if (c == '?') {
			wfw_suggest_bad_option(cli->name, so, lo, argv);
			next = WFW_CLI_USAGE;
		} else if (!o) {	/* the help the table left to us */
			wfw_cli_help(cli, stdout);
			next = WFW_CLI_DONE;
		} else {
			/* a value left out may be the next word */
			if (o->optional && !optarg && optind < argc && o->optional(argv[optind]))
				optarg = argv[optind++];
			next = check_value(cli, o, argv[optind - 1]);
			if (next == WFW_CLI_NEXT)
				next = check_once(cli, o, &seen[o - cli->opts]);
			if (next == WFW_CLI_NEXT)
				next = set_value(cli, o, args, optarg);
		}
	}
	free(lo);
	free(so);
	free(seen);
	return next;
}

/* How many operands, as the table says. */
static enum wfw_cli_next check_operands(const struct wfw_cli *cli, int argc,
					char **argv)
{
	int n = argc - optind;

	if (!cli->operand && n > 0 && cli->stray)
		return wfw_cli_error(cli, "unexpected argument '%s'%s", argv[optind],
				     cli->stray);
	if (!cli->operand && n > 0)
		return wfw_cli_error(cli, "unexpected argument '%s': 'wultfw%s%s --help' shows the usage",
				     argv[optind], sp(cli), cli->name);
	if (n < cli->min_operands)
		return wfw_cli_error(cli, "no %s given: 'wultfw%s%s --help' shows the usage",
				     cli->operand, sp(cli), cli->name);
	if (cli->max_operands < 0 || n <= cli->max_operands)
		return WFW_CLI_NEXT;
	if (cli->max_operands == 1)
		return wfw_cli_error(cli, "give %s one %s",
				     cli->min_operands == 1 ? "exactly" : "at most",
				     cli->operand);
	return wfw_cli_error(cli, "give at most %d of %s (%d given)",
			     cli->max_operands, cli->operand, n);
}

/* Every option the table requires was given (it left its field set). */
static enum wfw_cli_next check_required(const struct wfw_cli *cli, void *args)
{
	const struct wfw_cli_opt *o;

	for (o = cli->opts; o->name || o->section; o++) {
		if (!o->name || !o->required || o->type != WFW_CLI_STRING ||
		    *(const char **)((char *)args + o->off))
			continue;
		if (o->letter)
			return wfw_cli_error(cli, "no %s given: add -%c %s", o->name,
					     o->letter, o->arg);
		return wfw_cli_error(cli, "no %s given: add --%s %s", o->name,
				     o->name, o->arg);
	}
	return WFW_CLI_NEXT;
}

enum wfw_cli_next wfw_cli_parse(const struct wfw_cli *cli, void *args,
				 int argc, char **argv)
{
	enum wfw_cli_next next;

	if (bad_opts(cli))
		return WFW_CLI_FAILED;
	next = set_defaults(cli, args);
	if (next == WFW_CLI_NEXT)
		next = read_options(cli, args, argc, argv);
	if (next == WFW_CLI_NEXT)
		next = check_operands(cli, argc, argv);
	return next == WFW_CLI_NEXT ? check_required(cli, args) : next;
}
