/* SPDX-License-Identifier: MIT */
/* wultfw [-c FILE]: check the experiment file, then run each experiment. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_id.h"
#include "check_cpus.h"
#include "cliopts.h"
#include "commands.h"
#include "collect.h"
#include "cpuset.h"
#include "plan.h"
#include "log.h"
#include "machine.h"
#include "overrides.h"
#include "plugins.h"
#include "remoteopts.h"
#include "run.h"
#include "signals.h"

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; i < argc; i++) {
		strcat(s, argv[i]);
		if (i + 1 < argc)
			strcat(s, " ");
	}
	return s;
}

/*
 * Whose columns include/exclude were checked against, where the source
 * declares none: those it gave when it opened here.
 */
static const char *unchecked_columns(const struct wfw_experiment *e)
{
	if (!wfw_datasel_wanted(&e->select) || e->columns)
		return "";
	return " (include/exclude: against the columns the source gave on this machine; it declares none, another machine may give others)";
}

/*
 * --check: the file is valid; now say what this machine cannot run.
 * Returns 0, or WFW_EXIT_MACHINE when some experiment would refuse here.
 */
static int check_plan(struct wfw_plan *plan, const char *sysfs_root, bool force)
{
	struct wfw_cfgerr warns = { 0 };
	size_t i, j, bad = 0;

	for (i = 0; i < plan->n; i++) {
		struct wfw_experiment *e = &plan->exps[i];
		size_t first = warns.n;
		char cpus[256];

		size_t nwarn = wfw_machine_check(e, sysfs_root, force, &warns);

		/* Every CPU of a list: locks, C-states, the source on each. */
		nwarn += wfw_check_cpus(e, sysfs_root, &warns);
		if (nwarn) {
			bad++;
			for (j = first; j < warns.n; j++)
				wfw_warn("%s", warns.msgs[j]);
			printf("%s: experiment '%s': valid, but cannot run here as it is (see the warning%s above)\n",
			       plan->file, e->name, warns.n - first == 1 ? "" : "s");
			continue;
		}
		wfw_cpuset_format(e->cpus, e->ncpus, cpus, sizeof(cpus));
		printf("%s: experiment '%s': source %s on CPU%s %s; %zu sink%s: OK%s\n",
		       plan->file, e->name, e->source.h.desc->name,
		       e->ncpus > 1 ? "s" : "", cpus,
		       e->nsinks, e->nsinks == 1 ? "" : "s", unchecked_columns(e));
	}
	wfw_cfgerr_free(&warns);
	return bad ? WFW_EXIT_MACHINE : 0;
}

/* What the command line asked for. */
struct run_args {
	struct wfw_remote_opts rem;
	struct wfw_plan_overrides ov;
	struct wfw_run_opts ro;
	const char *file;
	bool check, no_progress, local;
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static enum wfw_cli_next set_sysfs_root(void *args, const char *dir)
{
	struct run_args *a = args;

	if (!is_dir(dir)) {
		wfw_err("--sysfs-root '%s' is no directory (it stands for /sys, in tests)", dir);
		return WFW_CLI_USAGE;
	}
	a->ov.sysfs_root = dir;
	a->ro.sysfs_root = dir;
	return WFW_CLI_NEXT;
}

static enum wfw_cli_next set_quiet(void *unused, const char *none)
{
	(void)unused;
	(void)none;
	wfw_verbosity = 0;
	return WFW_CLI_NEXT;
}

static enum wfw_cli_next set_verbose(void *unused, const char *none)
{
	(void)unused;
	(void)none;
	wfw_verbosity++;
	return WFW_CLI_NEXT;
}

static enum wfw_cli_next print_version(void *unused, const char *none)
{
	(void)unused;
	(void)none;
	/* The version first, as remote runs compare it; then the build. */
	if (WFW_BUILD_ID[0])
		printf("%s (%s)\n", PACKAGE_STRING, WFW_BUILD_ID);
	else
		printf("%s\n", PACKAGE_STRING);
	return WFW_CLI_DONE;
}

#define AT(field) .off = offsetof(struct run_args, field)
static const struct wfw_cli_opt run_opts[] = {
	{ "config", 'c', WFW_CLI_STRING, "FILE", "experiment file (see wultfw.cfg(5))", AT(file) },
	{ "only", 0, WFW_CLI_STRING, "NAME", "run only the experiment called NAME", AT(ov.only) },
	{ "check", 0, WFW_CLI_FLAG, NULL, "validate the file and every plugin option (include/exclude against the columns a source declares), and say what this machine cannot run; measure nothing",
	  AT(check) },
	{ "outdir", 'o', WFW_CLI_STRING, "DIR", "put result directories in DIR (overrides 'outdir')", AT(ov.outdir) },
	{ "force", 0, WFW_CLI_FLAG, NULL, "replace result directories that exist already", AT(ro.force) },
	{ "no-progress", 0, WFW_CLI_FLAG, NULL, "no progress line even on a terminal", AT(no_progress) },
	{ "quiet", 'q', WFW_CLI_CALL, NULL, "errors only", .set = set_quiet },
	{ "verbose", 'v', WFW_CLI_CALL, NULL, "more detail (twice: plugin debug output)", .set = set_verbose },
	{ "help", 'h', WFW_CLI_HELP, NULL, "this help", .def = NULL },
	{ "version", 'V', WFW_CLI_CALL, NULL, "the version", .set = print_version },
	{ "sysfs-root", 0, WFW_CLI_CALL, "DIR", "a directory standing for /sys (tests)",
	  .set = set_sysfs_root, .hidden = true },
	WFW_CLI_SECTION("Settings of every experiment, over the file's (checked as the file's are):"),
	{ "cpu", 0, WFW_CLI_STRING, "CPUS", "the measured CPU, or CPUs at once: 1-3,5, all, isolated (source.cpu)", AT(ov.cpu) },
	{ "ldist", 0, WFW_CLI_STRING, "D[,D]", "launch distance, one or a range: 100us, 50us,4ms (source.ldist)",
	  AT(ov.ldist) },
	{ "datapoints", 0, WFW_CLI_STRING, "N", "stop after N datapoints (limits.datapoints)",
	  AT(ov.datapoints) },
	{ "time", 0, WFW_CLI_STRING, "D", "stop after D, e.g. 30s, 10m (limits.time)", AT(ov.time) },
	WFW_CLI_SECTION("Remote SUTs (results come back to OUTDIR/HOST/NAME/; see 'wultfw fetch'):"),
	WFW_CLI_REMOTE(struct run_args, rem),
	{ "local", 0, WFW_CLI_FLAG, NULL, "run here even if the file names hosts", AT(local) },
	WFW_CLI_END
};

static const struct wfw_cli run_cli = {
	.name = "",
	.usage = "Usage: wultfw [OPTIONS] [-c FILE]\n"
		 "       wultfw COMMAND [ARGS]   (wultfw help for the commands)\n"
		 "\n"
		 "Run every experiment of an experiment file, in order. Without -c, run\n"
		 "the embedded default: the timer source on the highest-numbered CPU, 10000\n"
		 "datapoints into wultfw-results/timer-DATE/datapoints.csv.\n",
	.epilog = "Exit status: 0 done, 1 an experiment failed, 2 bad command line or\n"
		  "experiment file, 3 (--check) the file is valid but this machine cannot\n"
		  "run every experiment (warnings say why), 4 an experiment ended without\n"
		  "a datapoint (a warning says why), 5 measured but a collector's data is\n"
		  "missing (info.yml says why), 6 a datapoint went above stop_above\n"
		  "(info.yml's stopped_by says which), 128+N stopped by signal N\n"
		  "(results so far are saved).\n"
		  "Plugins are searched in $WULTFW_PLUGIN_PATH (if unset, and this wultfw\n"
		  "is the one of a build tree: the plugins built with it), then " PLUGINDIR ".\n",
	.opts = run_opts,
	.stray = " (is it a command? 'wultfw help' lists them)",
};

static bool show_progress(const struct run_args *a)
{
	return !a->no_progress && wfw_verbosity > 0 && isatty(STDERR_FILENO);
}

/* The experiments run on the SUTs the file or -H names. */
static int run_remote(struct run_args *a, struct wfw_plan *plan)
{
	int status;

	a->rem.config_file = a->file;
	a->rem.only = a->ov.only;
	a->rem.settings = wfw_overrides_args(&a->ov);
	a->rem.force = a->ro.force;
	a->rem.check = a->check;
	a->rem.progress = show_progress(a);
	if (!a->check)
		wfw_signals_install();
	status = wfw_remote_main(plan, &a->rem);
	wfw_hosts_free(&a->rem.hosts);
	free((char *)a->rem.settings);
	return status;
}

/* Every experiment here, in order, until one is stopped by a signal. */
static int run_local(struct run_args *a, struct wfw_plan *plan, int argc, char **argv)
{
	int status = 0;
	size_t i;

	wfw_signals_install();
	a->ro.progress = show_progress(a);
	a->ro.config_file = a->file;
	a->ro.numbered = plan->embedded;	/* dated names, not the user's */
	a->ro.cmdline = join_args(argc, argv);
	for (i = 0; i < plan->n; i++) {
		struct wfw_run_result r;

		if (wfw_run_experiment(&plan->exps[i], &a->ro, &r))
			status = 1;
		else if (r.empty && !status)
			status = WFW_EXIT_EMPTY;
		else if (r.collectors_failed && !status)
			status = WFW_EXIT_COLLECT;
		if (wfw_stopped(&r) && !r.stop_signal) {
			if (i + 1 < plan->n)	/* as rtla: stop at the first crossing */
				wfw_info("stop_above: not running the %zu remaining experiment%s",
					 plan->n - i - 1, plan->n - i - 1 == 1 ? "" : "s");
			status = status == 1 ? 1 : WFW_EXIT_STOP_ABOVE;
			break;
		}
		if (r.stop_signal) {
			if (i + 1 < plan->n)
				wfw_info("not running the %zu remaining experiment%s",
					 plan->n - i - 1, plan->n - i - 1 == 1 ? "" : "s");
			status = 128 + r.stop_signal;
			break;
		}
	}
	free((char *)a->ro.cmdline);
	return status;
}

int wfw_cmd_run(int argc, char **argv)
{
	struct run_args a = { 0 };
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	enum wfw_cli_next next = wfw_cli_parse(&run_cli, &a, argc, argv);
	int status, remote = 0;

	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	if (wfw_plan_load(&plan, a.file, &a.ov, &errs) ||
	    (remote = a.local ? 0 : wfw_remote_setup(&a.rem, &plan, &errs)) < 0) {
		wfw_cfgerr_print(&errs);
		wfw_err("%zu problem%s in %s: nothing was measured",
			errs.n, errs.n == 1 ? "" : "s", plan.file);
		wfw_cfgerr_free(&errs);
		wfw_plan_free(&plan);
		wfw_hosts_free(&a.rem.hosts);
		return 2;
	}
	if (remote)
		status = run_remote(&a, &plan);
	else if (a.check)
		status = check_plan(&plan, a.ov.sysfs_root, a.ro.force);
	else
		status = run_local(&a, &plan, argc, argv);
	wfw_plan_free(&plan);
	wfw_hosts_free(&a.rem.hosts);	/* -H with --local */
	return status;
}
