/* SPDX-License-Identifier: MIT */
/* wultfw list-plugins, wultfw help PLUGIN */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cliopts.h"
#include "commands.h"
#include "log.h"
#include "options.h"
#include "plugins.h"
#include <units/duration.h>
#include <suggest/suggest.h>

static void list_kind(char **names, size_t n, int kind)
{
	struct wfw_plugin_handle h;
	char err[1024];
	size_t i, shown = 0;

	for (i = 0; i < n; i++) {
		if (wfw_plugin_load(names[i], kind, &h, err, sizeof(err)))
			continue;
		if (!shown++)	/* a kind with no plugin here: not listed */
			printf("%ss:\n", wfw_kind_name(kind));
		printf("  %-10s %s\n", h.desc->name, h.desc->summary ? h.desc->summary : "");
		wfw_plugin_unload(&h);
	}
}

/* Files that look like plugins but fail to load: worth telling. */
static void list_broken(char **names, size_t n)
{
	struct wfw_plugin_handle h;
	char err[1024];
	size_t i;

	for (i = 0; i < n; i++) {
		if (!wfw_plugin_load(names[i], 0, &h, err, sizeof(err))) {
			wfw_plugin_unload(&h);
			continue;
		}
		printf("unusable: %s\n", err);
	}
}

static const struct wfw_cli_opt no_opts[] = { WFW_CLI_END };

static const struct wfw_cli list_cli = {
	.name = "list-plugins",
	.usage = "Usage: wultfw list-plugins\n\n"
		 "List the plugins found in $WULTFW_PLUGIN_PATH and " PLUGINDIR "\n"
		 "by kind (sources, sinks, annotators), with a one-line summary each.\n",
	.opts = no_opts,
	.stray = "; 'wultfw help PLUGIN' shows one plugin",
};

int wfw_cmd_list_plugins(int argc, char **argv)
{
	enum wfw_cli_next next = wfw_cli_parse(&list_cli, NULL, argc, argv);
	size_t n;
	char **names;

	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	names = wfw_plugin_names(&n);
	list_kind(names, n, WULTFW_KIND_SOURCE);
	list_kind(names, n, WULTFW_KIND_SINK);
	list_kind(names, n, WULTFW_KIND_ANNOTATOR);
	list_broken(names, n);
	wfw_plugin_names_free(names, n);
	printf("'wultfw help PLUGIN' shows a plugin's options.\n");
	return 0;
}

/* Its help is the list of commands: no line for itself. */
static const struct wfw_cli_opt help_opts[] = {
	{ "help", 'h', WFW_CLI_HELP, NULL, "this help", .hidden = true },
	WFW_CLI_END
};

static const struct wfw_cli help_cli = {
	.name = "help",
	.usage = "Usage: wultfw help PLUGIN | wultfw COMMAND --help\n",
	.more = wfw_commands_print,
	.opts = help_opts,
	.operand = "PLUGIN", .min_operands = 0, .max_operands = 1,
};

static const char *const ldist_meaning[] = {
	[WULTFW_LDIST_LAUNCH] = "launch distance (delay of the timed event)",
	[WULTFW_LDIST_DELAY] = "how far ahead each packet's launch time is",
};

static void print_source_keys(const struct wultfw_plugin *d)
{
	char lo[32], hi[32];

	printf("Keys the core reads in a source group:\n"
	       "  %-14s %-16s %-12s %s\n", "cpu", "integer", "(highest)",
	       "measured CPU; default: the highest-numbered online CPU");
	printf("  %-14s %-16s %-12s %s\n", "stop_above", "duration(s)", "(none)",
	       "end the run when a datapoint's latency goes above it; or { Metric = \"200us\"; }");
	if (d->ldist.use == WULTFW_LDIST_NONE) {
		printf("  (no ldist: this source is a sampler)\n\n");
		return;
	}
	printf("  %-14s %-16s %-12s %s, one value or [ from, to ]\n", "ldist",
	       "duration(s)", "[50us, 4ms]",
	       ldist_meaning[d->ldist.use == WULTFW_LDIST_DELAY ?
			     WULTFW_LDIST_DELAY : WULTFW_LDIST_LAUNCH]);
	if (d->ldist.min_ns || d->ldist.max_ns) {
		wfw_format_duration(d->ldist.min_ns, lo, sizeof(lo));
		wfw_format_duration(d->ldist.max_ns, hi, sizeof(hi));
		printf("  %-14s %-16s %-12s allowed: %s to %s\n", "", "", "",
		       lo, d->ldist.max_ns ? hi : "(no limit)");
	}
	printf("\n");
}

static void print_option(const struct wultfw_option *o)
{
	char allowed[512];

	printf("  %-14s %-16s %-12s %s\n", o->name,
	       wfw_option_type_name(o->type), o->def ? o->def : "(unset)",
	       o->help ? o->help : "");
	wfw_option_range(o, allowed, sizeof(allowed));
	if (allowed[0])
		printf("  %-14s %-16s %-12s allowed: %s\n", "", "", "", allowed);
	else if (o->unit && o->unit[0])
		printf("  %-14s %-16s %-12s unit: %s\n", "", "", "", o->unit);
}

/* A plugin help cannot load: why, and the nearest plugin's name if missing. */
static void unknown_plugin(const char *name, int ret, const char *err)
{
	size_t n = 0;
	char **names = ret == -ENOENT ? wfw_plugin_names(&n) : NULL;
	const char *near = wfw_suggest(name, (const char *const *)names, n);

	if (near)
		wfw_err("no plugin '%s' (did you mean '%s'? 'wultfw help %s' shows its options, 'wultfw list-plugins' every plugin)",
			name, near, near);
	else
		wfw_err("%s", err);
	wfw_plugin_names_free(names, n);
}

int wfw_cmd_help(int argc, char **argv)
{
	const struct wultfw_option *o;
	struct wfw_plugin_handle h;
	char err[1024];
	int ret;

	enum wfw_cli_next next = wfw_cli_parse(&help_cli, NULL, argc, argv);

	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	if (optind == argc) {
		wfw_cli_help(&help_cli, stdout);
		return 0;
	}
	ret = wfw_plugin_load(argv[optind], 0, &h, err, sizeof(err));
	if (ret) {
		unknown_plugin(argv[optind], ret, err);
		return 2;
	}
	printf("%s (%s): %s\nfile: %s\n\n", h.desc->name,
	       wfw_kind_name((int)h.desc->kind),
	       h.desc->summary ? h.desc->summary : "", h.file);
	if (h.desc->kind == WULTFW_KIND_SOURCE)
		print_source_keys(h.desc);
	printf("Options:\n");
	if (!h.desc->options || !h.desc->options[0].name)
		printf("  (none)\n");
	for (o = h.desc->options; o && o->name; o++)
		print_option(o);
	if (h.desc->kind == WULTFW_KIND_SOURCE) {
		char line[2048];

		/* what `scan` says of it: what this machine offers it */
		if (wfw_scan_probe(h.desc->name, line, sizeof(line)) >= 0)
			printf("\nOn this machine (as 'wultfw scan' probes it):\n  %s\n", line);
	}
	wfw_plugin_unload(&h);
	return 0;
}
