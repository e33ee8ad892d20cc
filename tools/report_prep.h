/* SPDX-License-Identifier: MIT */
/*
 * wultfw report before and after reading the rows: what it shows
 * (report_names.c), the results opened and the report written
 * (report_open.c). cli/cmd_report.c parses the command line; reading the
 * rows is report_load.h's.
 */
#ifndef WFW_TOOLS_REPORT_PREP_H
#define WFW_TOOLS_REPORT_PREP_H

#include <stddef.h>

#include "report_load.h"

/*
 * The results to open, each experiment of several CPUs as its CPUs', and
 * their names where the command line or an experiment gives them.
 */
struct rep_args {
	char *v[REP_MAX];
	char *id[REP_MAX];	/* NULL: info.yml's reportid, or the path's */
	bool cpu[REP_MAX];	/* one CPU of an experiment */
	size_t n;
};
/*
 * args with every experiment of several CPUs replaced by its EXP/cpuN
 * (report_cpus.c): the CPUs become overlays, named "ID/cpuN" with ID the
 * experiment's --reportids name, else its reportid, else its directory's
 * name; ids (--reportids, one per argument) name the others. 0 or an
 * error said on stderr; free a with rep_args_free() either way.
 */
int rep_cpu_args(char **args, size_t n, const struct wfw_names *ids, struct rep_args *a);
void rep_args_free(struct rep_args *a);
/*
 * c's --descr with a paragraph per experiment of several CPUs among args:
 * which CPU's tail stands out (stats/grouptab.h) in the rows c's selection
 * keeps, also said on stderr; malloc'ed, or NULL when there is none (or
 * no memory): keep --descr then. In a report each CPU is a result of its
 * own, `index` counting its rows: with a selection comparing `index` (the
 * table's counts over the experiment) there is no paragraph, said once.
 */
char *rep_cpu_note(const struct rep_cli *c, char **args, size_t n);

/*
 * report --fleet (report_fleet.c): args as SUTs of a fleet (tools/fleet.h),
 * each SUT's report written by `report` (wultfw report's own entry, run
 * in a child) into c->out/<sut>/, and c->out/index.html the fleet's page.
 * 0, or an error said on stderr.
 */
int rep_fleet(const struct rep_cli *c, char **args, size_t n, int (*report)(int, char **));

/*
 * Open every result (a->v[i] into res[i], rd[i]; owned[i]: a reportid to
 * free), warn where they were measured unlike the first. 0 or an error
 * said on stderr.
 */
int rep_open_all(const struct rep_args *a, struct wfw_rep_result *res,
		 struct wfw_reader **rd, char **owned);
/* --list-metrics: every result's columns, units and what each is. */
void rep_list_metrics(const struct wfw_rep_result *res, size_t nres,
		      struct wfw_reader **rd);
/*
 * The tabs, x axes, metrics with scatter plots, histograms and CCDFs,
 * from -m, --xaxes, --yaxes, --hist and --chist (each pattern must match
 * a column; "none" alone for --hist/--chist) or the defaults. 0 or an
 * error said on stderr.
 */
int rep_choose_names(const struct rep_cli *c, struct wfw_rep_result *res,
		     size_t nres, struct wfw_reader **rd, struct rep_names *nm);
/* The report directory c->out: the page, its assets and data.js. */
int rep_write(const struct rep_cli *c, const struct wfw_report *rep);

#endif
