/* SPDX-License-Identifier: MIT */
/*
 * The form of a command's option table, as a plugin declares its options
 * (include/wultfw/plugin.h): per option its long name, letter, type,
 * bounds and choices as text, default, help and where the value lands
 * (offsetof into the command's argument struct). cliopts.c reads argv by
 * it, clihelp.c prints --help from it.
 */
#ifndef WFW_CLITABLE_H
#define WFW_CLITABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <suggest/suggest.h>	/* struct wfw_names */

/* What comes after the options (also what an option's callback says). */
enum wfw_cli_next {
	WFW_CLI_NEXT,		/* go on: the command does its work */
	WFW_CLI_DONE,		/* done already (--help, a listing): exit 0 */
	WFW_CLI_USAGE,		/* a bad command line, said: exit 2 */
	WFW_CLI_FAILED,		/* could not go on (no memory), said: exit 1 */
};

enum wfw_cli_type {
	WFW_CLI_FLAG,		/* no value: the bool at off becomes true */
	WFW_CLI_STRING,		/* const char * at off: the last one given */
	WFW_CLI_UINT,		/* unsigned at off, within min..max */
	WFW_CLI_SIZE,		/* size_t at off, within min..max */
	WFW_CLI_CHOICE,		/* int at off: the value's index in choices */
	WFW_CLI_NAMES,		/* struct wfw_names at off: a comma-separated list */
	WFW_CLI_CALL,		/* set(args + off, value); value NULL without arg */
	WFW_CLI_HELP,		/* this help on stdout, then WFW_CLI_DONE */
};

struct wfw_cli_opt {
	const char *name;		/* long name; NULL: a heading (section) */
	int letter;			/* short option letter, or 0 */
	enum wfw_cli_type type;
	const char *arg;		/* the value's name in --help ("N"); NULL: none */
	const char *help;		/* wrapped by --help; '\n' breaks a line */
	/* Applied before the command line is read, and shown in --help. */
	const char *def;
	/* UINT, SIZE: inclusive bounds as text; NULL: none. */
	const char *min, *max;
	const char *unit;		/* UINT, SIZE: named in the range error */
	const char *const *choices;	/* CHOICE: the values, NULL-terminated */
	size_t off;			/* offsetof(struct ARGS, field) */
	/* CALL: WFW_CLI_NEXT, or what to do instead after saying why. */
	enum wfw_cli_next (*set)(void *field, const char *value);
	/*
	 * CALL with an arg: the value may be left out (set() gets NULL): it
	 * is --NAME=VALUE, or the next word when optional(word) takes it for
	 * one (calc --explain 99.9 RESULT, calc --explain RESULT).
	 */
	bool (*optional)(const char *word);
	bool required;			/* "no NAME given: add -L ARG" without it */
	bool hidden;			/* not in --help (tests only) */
	const char *section;		/* with name NULL: a heading in --help */
};

#define WFW_CLI_SECTION(text)	{ .section = (text) }
#define WFW_CLI_END		{ .name = NULL }

/*
 * -j, the same for every tool that reads files in parts: threads, 1 to 256
 * (the tools' limits were 64 and 256; 256 refuses nothing either took). A
 * field left 0 means not given: the tool picks its default.
 */
#define WFW_CLI_JOBS_MAX	256
#define WFW_CLI_TEXT_(x)	#x
#define WFW_CLI_TEXT(x)		WFW_CLI_TEXT_(x)
#define WFW_CLI_JOBS(type, field, text) \
	{ "jobs", 'j', WFW_CLI_UINT, "N", text, .min = "1", \
	  .max = WFW_CLI_TEXT(WFW_CLI_JOBS_MAX), .unit = "threads", \
	  .off = offsetof(type, field) }

/* --include and --exclude of every tool, into two const char * fields. */
#define WFW_CLI_SELECT(type, inc, exc) \
	{ "include", 0, WFW_CLI_STRING, "EXPR", \
	  "only rows where EXPR holds, e.g. 'ReqCState == \"C6\" && WakeLatency > 0.1ms'", \
	  .off = offsetof(type, inc) }, \
	{ "exclude", 0, WFW_CLI_STRING, "EXPR", \
	  "leave out rows where EXPR holds (expressions: wultfw(1), SELECTING DATAPOINTS)", \
	  .off = offsetof(type, exc) }

struct wfw_cli {
	const char *name;		/* "calc"; "" for wultfw itself */
	const char *usage;		/* usage line(s) and prose before the options */
	const char *epilog;		/* prose after the options, or NULL */
	void (*more)(FILE *f);		/* printed last (deploy: its modules), or NULL */
	const struct wfw_cli_opt *opts;	/* ends with WFW_CLI_END */
	const char *operand;		/* in errors ("RESULT"); NULL: takes none */
	int min_operands;
	int max_operands;		/* -1: no limit */
	const char *stray;		/* said after "unexpected argument 'X'" */
};

#endif
