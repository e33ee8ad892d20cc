/* SPDX-License-Identifier: MIT */
/* wultfw [-c FILE]: check the experiment file, then run each experiment. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_id.h"
#include "commands.h"
#include "collect.h"
#include "plan.h"
#include "log.h"
#include "machine.h"
#include "overrides.h"
#include "plugins.h"
#include "remote/remote.h"
#include "run.h"
#include "signals.h"
#include <suggest/suggest.h>

enum { OPT_FORCE = 256, OPT_CHECK, OPT_ONLY, OPT_NO_PROGRESS, OPT_SYSFS, OPT_LOCAL,
       OPT_CPU, OPT_LDIST, OPT_DATAPOINTS, OPT_TIME };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: wultfw [OPTIONS] [-c FILE]\n"
		"       wultfw COMMAND [ARGS]   (wultfw help for the commands)\n"
		"\n"
		"Run every experiment of an experiment file, in order. Without -c, run\n"
		"the embedded default: the timer source on the highest-numbered CPU, 10000\n"
		"datapoints into wultfw-results/timer-DATE/datapoints.csv.\n"
		"\n"
		"  -c, --config FILE   experiment file (see wultfw.cfg(5))\n"
		"      --only NAME     run only the experiment called NAME\n"
		"      --check         validate the file and every plugin option (include/\n"
		"                      exclude against the columns a source declares), and\n"
		"                      say what this machine cannot run; measure nothing\n"
		"  -o, --outdir DIR    put result directories in DIR (overrides 'outdir')\n"
		"      --force         replace result directories that exist already\n"
		"      --no-progress   no progress line even on a terminal\n"
		"  -q, --quiet         errors only\n"
		"  -v, --verbose       more detail (twice: plugin debug output)\n"
		"  -h, --help          this help\n"
		"  -V, --version       the version\n"
		"\n"
		"Settings of every experiment, over the file's (checked as the file's are):\n"
		"      --cpu N         the measured CPU (source.cpu)\n"
		"      --ldist D[,D]   launch distance, one or a range: 100us, 50us,4ms\n"
		"                      (source.ldist)\n"
		"      --datapoints N  stop after N datapoints (limits.datapoints)\n"
		"      --time D        stop after D, e.g. 30s, 10m (limits.time)\n"
		"\n"
		"Remote SUTs (results come back to OUTDIR/HOST/NAME/; see 'wultfw fetch'):\n"
		WFW_REMOTE_HELP
		"      --local         run here even if the file names hosts\n"
		"\n"
		"Exit status: 0 done, 1 an experiment failed, 2 bad command line or\n"
		"experiment file, 3 (--check) the file is valid but this machine cannot\n"
		"run every experiment (warnings say why), 4 an experiment ended without\n"
		"a datapoint (a warning says why), 5 measured but a collector's data is\n"
		"missing (info.yml says why), 128+N stopped by signal N\n"
		"(results so far are saved).\n"
		"Plugins are searched in $WULTFW_PLUGIN_PATH (if unset, and this wultfw\n"
		"is the one of a build tree: the plugins built with it), then %s.\n",
		PLUGINDIR);
}

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
	if (!wfw_datasel_wanted(&e->select) || wfw_plugin_columns(&e->source.h))
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

		if (wfw_machine_check(e, sysfs_root, force, &warns)) {
			bad++;
			for (j = first; j < warns.n; j++)
				wfw_warn("%s", warns.msgs[j]);
			printf("%s: experiment '%s': valid, but cannot run here as it is (see the warning%s above)\n",
			       plan->file, e->name, warns.n - first == 1 ? "" : "s");
			continue;
		}
		printf("%s: experiment '%s': source %s on CPU %d, %zu sink%s: OK%s\n",
		       plan->file, e->name, e->source.h.desc->name, e->cpu,
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
	bool check, progress, local;
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* One option that is not a remote one; -1 to go on, else the exit status. */
static int parse_one(struct run_args *a, int c)
{
	switch (c) {
	case 'c':
		a->file = optarg;
		break;
	case 'o':
		a->ov.outdir = optarg;
		break;
	case OPT_ONLY:
		a->ov.only = optarg;
		break;
	case OPT_CPU:
		a->ov.cpu = optarg;
		break;
	case OPT_LDIST:
		a->ov.ldist = optarg;
		break;
	case OPT_DATAPOINTS:
		a->ov.datapoints = optarg;
		break;
	case OPT_TIME:
		a->ov.time = optarg;
		break;
	case OPT_CHECK:
		a->check = true;
		break;
	case OPT_LOCAL:
		a->local = true;
		break;
	case OPT_FORCE:
		a->ro.force = true;
		break;
	case OPT_NO_PROGRESS:
		a->progress = false;
		break;
	case OPT_SYSFS:
		if (!is_dir(optarg)) {
			wfw_err("--sysfs-root '%s' is no directory (it stands for /sys, in tests)", optarg);
			return 2;
		}
		a->ov.sysfs_root = optarg;
		a->ro.sysfs_root = optarg;
		break;
	case 'q':
		wfw_verbosity = 0;
		break;
	case 'v':
		wfw_verbosity++;
		break;
	case 'h':
		usage(stdout);
		return 0;
	case 'V':
		/* The version first, as remote runs compare it; then the build. */
		if (WFW_BUILD_ID[0])
			printf("%s (%s)\n", PACKAGE_STRING, WFW_BUILD_ID);
		else
			printf("%s\n", PACKAGE_STRING);
		return 0;
	default:	/* said by parse_args() */
		return 2;
	}
	return -1;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "ldist", required_argument, NULL, OPT_LDIST },
		{ "datapoints", required_argument, NULL, OPT_DATAPOINTS },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "outdir", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "sysfs-root", required_argument, NULL, OPT_SYSFS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "local", no_argument, NULL, OPT_LOCAL },
		WFW_REMOTE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	const char *shortopts = "c:o:qvhV" WFW_REMOTE_SHORTOPTS;
	int c, ret;

	opterr = 0;	/* said in one line, with a did-you-mean */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			wfw_suggest_bad_option("", shortopts, longopts, argv);
			return 2;
		}
		ret = wfw_remote_getopt(&a->rem, c, optarg);
		if (ret < 0)
			return 2;
		if (ret)
			continue;
		ret = parse_one(a, c);
		if (ret >= 0)
			return ret;
	}
	if (optind < argc) {
		wfw_err("unexpected argument '%s' (is it a command? 'wultfw help' lists them)",
			argv[optind]);
		return 2;
	}
	return -1;
}

static bool show_progress(const struct run_args *a)
{
	return a->progress && wfw_verbosity > 0 && isatty(STDERR_FILENO);
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
	struct run_args a = { .progress = true };
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	int status = parse_args(argc, argv, &a), remote = 0;

	if (status >= 0)
		return status;
	if (wfw_plan_load(&plan, a.file, &a.ov, &errs) ||
	    (remote = a.local ? 0 : wfw_remote_setup(&a.rem, &plan, &errs)) < 0) {
		wfw_cfgerr_print(&errs);
		wfw_err("%zu problem%s in %s: nothing was measured",
			errs.n, errs.n == 1 ? "" : "s", plan.file);
		wfw_cfgerr_free(&errs);
		wfw_plan_free(&plan);
		return 2;
	}
	if (remote)
		status = run_remote(&a, &plan);
	else if (a.check)
		status = check_plan(&plan, a.ov.sysfs_root, a.ro.force);
	else
		status = run_local(&a, &plan, argc, argv);
	wfw_plan_free(&plan);
	return status;
}
