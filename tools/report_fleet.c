/* SPDX-License-Identifier: MIT */
/*
 * wultfw report --fleet -o OUT RESULT...: each SUT's own report in
 * OUT/<sut>/ (the ordinary report, run in a child process per SUT so that
 * one SUT's memory is freed before the next), and OUT/index.html, the
 * fleet's page: calc --fleet's table (fleet_table.c) drawn by fleet.js.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/assets.h"
#include "stats/report.h"
#include "tools/fleet.h"
#include "tools/report_prep.h"

/* SUT m's report into OUT/<label>/; 0 or the report's exit status. */
static int sut_report(const struct rep_cli *c, const struct fleet_member *m,
		      int (*report)(int, char **))
{
	char out[PATH_MAX], jobs[16];
	char *argv[12];
	int argc = 0, st;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/%s", c->out, m->label);
	snprintf(jobs, sizeof(jobs), "%u", c->jobs);
	argv[argc++] = "report";
	argv[argc++] = "-o";
	argv[argc++] = out;
	argv[argc++] = "--title";
	argv[argc++] = (char *)m->label;
	if (c->force)
		argv[argc++] = "-f";
	if (c->jobs_given) {
		argv[argc++] = "-j";
		argv[argc++] = jobs;
	}
	argv[argc++] = "--";
	argv[argc++] = (char *)m->dir;
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {	/* _exit: the parent's atexit handlers are the parent's */
		st = report(argc, argv);
		fflush(NULL);
		_exit(st);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* OUT/data.js: the table, each SUT's link (NULL: its report failed). */
static int write_data(const struct rep_cli *c, const struct wfw_grouptab *t,
		      const struct fleet *fl, const char *const *links)
{
	char err[1024];
	int fd = wfw_report_create(c->out, "data.js", err, sizeof(err));
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		fprintf(stderr, "wultfw report: %s\n", fd < 0 ? err : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	fputs("// wultfw report --fleet: the fleet's table (fleet.js draws it).\nvar FLEET = ", f);
	fleet_print_json(t, links, fl, f);
	fprintf(f, ";\nFLEET.suts = %zu;\nFLEET.title = ", fl->n);
	wfw_json_string(f, c->title ? c->title : "");
	fputs(";\nFLEET.descr = ", f);
	wfw_json_string(f, c->descr ? c->descr : "");
	fputs(";\n", f);
	if (fclose(f)) {
		fprintf(stderr, "wultfw report: %s/data.js: %s\n", c->out, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* Every SUT's report; links[i] its index.html, or NULL where it failed. */
static size_t sut_reports(const struct rep_cli *c, const struct fleet *fl, char **links,
			  int (*report)(int, char **))
{
	size_t failed = 0;

	for (size_t i = 0; i < fl->n; i++) {
		int st = sut_report(c, &fl->m[i], report);

		if (!st && asprintf(&links[i], "%s/index.html", fl->m[i].label) < 0)
			links[i] = NULL;
		if (st) {
			fprintf(stderr, "wultfw report: %s (%s): its own report failed (status %d): its row has no link\n",
				fl->m[i].label, fl->m[i].dir, st);
			failed++;
		}
	}
	return failed;
}

int rep_fleet(const struct rep_cli *c, char **args, size_t n, int (*report)(int, char **))
{
	struct group_cfg cfg = { .exact_limit = CALC_DEF_EXACT_LIMIT,
				 .exact_memory = CALC_DEF_EXACT_MEMORY,
				 .metric = c->metrics.n ? c->metrics.v[0] : NULL, .strict = true };
	struct wfw_grouptab t = { 0 };
	struct fleet fl = { 0 };
	char **links = NULL, err[1024];
	size_t failed = 0, flagged = 0;
	int ret = fleet_members(args, n, "report", &fl);

	if (!ret)
		ret = fleet_table(&fl, &cfg, "report", &t);
	if (!ret && (ret = wfw_report_prepare_dir(c->out, c->force, err, sizeof(err))))
		fprintf(stderr, "wultfw report: %s\n", err);
	if (!ret && !(links = calloc(fl.n, sizeof(*links))))
		ret = -ENOMEM, fprintf(stderr, "wultfw report: out of memory\n");
	if (!ret)
		failed = sut_reports(c, &fl, links, report);
	if (!ret)
		ret = write_data(c, &t, &fl, (const char *const *)links);
	if (!ret && (ret = wfw_report_copy_fleet_assets(c->out, err, sizeof(err))))
		fprintf(stderr, "wultfw report: %s\n", err);
	for (size_t i = 0; i < t.n; i++)
		flagged += t.row[i].flagged;
	if (!ret)
		fprintf(stderr, "wultfw report: %s/index.html (%zu SUTs of %s, %zu row%s flagged%s)\n",
			c->out, fl.n, t.metric, flagged, flagged == 1 ? "" : "s",
			failed ? ", some SUTs without their own report" : "");
	for (size_t i = 0; links && i < fl.n; i++)
		free(links[i]);
	free(links);
	wfw_grouptab_free(&t);
	fleet_free(&fl);
	return ret ? ret : failed ? -EIO : 0;
}
