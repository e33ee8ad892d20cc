/* SPDX-License-Identifier: MIT */
/*
 * wultfw fetch -H HOST [NAME...]: collect the results of runs that went on
 * on the SUT after the controller lost it (or went away), and say which
 * are still running. Safe to repeat: what arrived is removed on the SUT.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cliopts.h"
#include "commands.h"
#include "log.h"
#include "remoteopts.h"

struct fetch_args {
	struct wfw_remote_opts ro;
	const char *outdir;
	bool force;
};

static const struct wfw_cli_opt fetch_opts[] = {
	WFW_CLI_REMOTE(struct fetch_args, ro),
	{ "outdir", 'o', WFW_CLI_STRING, "DIR", "put the results in DIR/HOST/NAME/",
	  .off = offsetof(struct fetch_args, outdir) },
	{ "force", 0, WFW_CLI_FLAG, NULL, "replace result directories that exist already",
	  .off = offsetof(struct fetch_args, force) },
	WFW_CLI_END
};

static const struct wfw_cli fetch_cli = {
	.name = "fetch",
	.usage = "Usage: wultfw fetch -H HOST[,HOST...] [OPTIONS] [NAME...]\n"
		 "\n"
		 "Copy the results of finished runs on the SUTs back to OUTDIR/HOST/NAME/\n"
		 "(OUTDIR as the run was started with, unless -o), then remove them on the\n"
		 "SUT; list the runs that are still going on. NAME limits it to those\n"
		 "experiments.\n",
	.epilog = "Exit status: 0 every finished run collected (some may still run), 1 a SUT\n"
		  "could not be reached or a copy failed, 2 bad command line.\n",
	.opts = fetch_opts,
	.operand = "NAME", .min_operands = 0, .max_operands = -1,
};

static int fetch_host(struct wfw_sut *s, const char *outdir, char **names,
		      size_t n, bool force)
{
	char why[2048], got[4096], *text, *line, *save, *dir, *rest;
	int st, ret = 0, runs = 0;

	if (wfw_ssh_connect(s, why, sizeof(why))) {
		wfw_err("%s: %s", s->host, why);
		return 1;
	}
	text = wfw_remote_list_runs(s, &st);
	if (st) {
		wfw_err("%s: cannot list the runs in %s on the SUT (%s)", s->host,
			wfw_sut_dir(s->o), s->err);
		ret = 1;
	}
	for (line = st ? NULL : strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		dir = strchr(line, ' ');
		if (!dir)
			continue;
		*dir++ = '\0';
		rest = strchr(dir, ' ');
		if (rest)
			*rest++ = '\0';
		runs++;
		if (!strcmp(line, "running")) {
			wfw_info("%s: %s is still running (experiments begun: %s): fetch again when it has finished",
				 s->host, dir, rest && *rest ? rest : "none yet");
			continue;
		}
		if (!strcmp(line, "lost"))
			wfw_warn("%s: %s ended without an exit status (was the SUT rebooted?): collecting what it wrote",
				 s->host, dir);
		if (wfw_remote_collect(s, dir, outdir, names, n, force, got,
				       sizeof(got), why, sizeof(why))) {
			wfw_err("%s: %s", s->host, why);
			ret = 1;
		} else if (got[0]) {
			wfw_info("%s: fetched %s", s->host, got);
		}
	}
	if (!st && !runs)
		wfw_info("%s: no runs in %s on the SUT", s->host, wfw_sut_dir(s->o));
	free(text);
	wfw_ssh_disconnect(s);
	return ret;
}

int wfw_cmd_fetch(int argc, char **argv)
{
	struct fetch_args a = { 0 };
	struct wfw_remote_opts *ro = &a.ro;
	enum wfw_cli_next next = wfw_cli_parse(&fetch_cli, &a, argc, argv);
	int status = 0;
	size_t i;

	if (next != WFW_CLI_NEXT) {
		wfw_hosts_free(&ro->hosts);
		return wfw_cli_status(next);
	}
	if (!ro->hosts.n) {
		wfw_cli_error(&fetch_cli, "no host given: add -H HOST[,HOST...]");
		return 2;
	}
	if (wfw_ssh_opts_init(&ro->ssh)) {
		wfw_err("cannot create a private directory for ssh control sockets in /tmp");
		wfw_hosts_free(&ro->hosts);
		return 1;
	}
	for (i = 0; i < ro->hosts.n; i++) {
		struct wfw_sut s;

		wfw_sut_init(&s, ro->hosts.v[i], (int)i, &ro->ssh);
		if (fetch_host(&s, a.outdir, argv + optind, (size_t)(argc - optind), a.force))
			status = 1;
	}
	wfw_ssh_opts_cleanup(&ro->ssh);
	wfw_hosts_free(&ro->hosts);
	return status;
}
