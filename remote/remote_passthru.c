/* SPDX-License-Identifier: MIT */
/*
 * `wultfw scan -H HOST` and `wultfw deploy -H HOST`: the same command run
 * by the SUT's wultfw, one SUT after the other, output passed through.
 * The remote options are taken out, through the run's own handling
 * (wfw_remote_getopt: -H @FILE, -i INVENTORY and its patterns); every
 * other argument goes as it is, quoted.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "remote.h"

/* Does argv[i] start a remote option? Returns how many words it takes. */
static int remote_words(char **argv, int i, struct wfw_remote_opts *ro,
			int *bad)
{
	static const struct { const char *s, *l; int c; } opts[] = {
		{ "-H", "--host", 'H' }, { "-i", "--inventory", 'i' },
		{ "-U", "--user", 'U' },
		{ "-K", "--key", 'K' }, { NULL, "--ssh-config", WFW_OPT_SSH_CONFIG },
		{ NULL, "--sut-wultfw", WFW_OPT_SUT_WULTFW },
		{ NULL, "--sut-dir", WFW_OPT_SUT_DIR }, { NULL, "--jobs", WFW_OPT_JOBS },
	};
	const char *a = argv[i];
	size_t k, ll;

	for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		ll = strlen(opts[k].l);
		if ((opts[k].s && !strcmp(a, opts[k].s)) || !strcmp(a, opts[k].l)) {
			if (!argv[i + 1]) {
				wfw_err("%s needs a value", a);
				*bad = 1;
				return 1;
			}
			*bad |= wfw_remote_getopt(ro, opts[k].c, argv[i + 1]) < 0;
			return 2;
		}
		if (opts[k].s && !strncmp(a, opts[k].s, 2) && a[2] && a[1] != '-') {
			*bad |= wfw_remote_getopt(ro, opts[k].c, a + 2) < 0;
			return 1;
		}
		if (!strncmp(a, opts[k].l, ll) && a[ll] == '=') {
			*bad |= wfw_remote_getopt(ro, opts[k].c, a + ll + 1) < 0;
			return 1;
		}
	}
	return 0;
}

/* What the SUT's command wrote on stderr (ssh kept it in a file). */
static void relay_stderr(const struct wfw_sut *s)
{
	FILE *f = fopen(s->err_path, "r");
	char buf[1024];

	while (f && fgets(buf, sizeof(buf), f))
		fputs(buf, stderr);
	if (f)
		fclose(f);
}

/* -H or -i: scan and deploy have no other options starting so. */
bool wfw_wants_remote(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "-H", 2) || !strcmp(argv[i], "--host") ||
		    !strncmp(argv[i], "--host=", 7) ||
		    !strncmp(argv[i], "-i", 2) || !strcmp(argv[i], "--inventory") ||
		    !strncmp(argv[i], "--inventory=", 12))
			return true;
	return false;
}

/* The SUTs are known: -H came (and, for a pattern, the -i it needs). */
static int hosts_given(const struct wfw_remote_opts *ro, const char *cmd)
{
	if (ro->host_err[0]) {
		wfw_err("%s", ro->host_err);
		return -1;
	}
	if (!ro->hosts.n) {
		wfw_err("%s -i: name the SUTs with -H (all, a group or a host of the inventory)",
			cmd);
		return -1;
	}
	return 0;
}

/* "'wultfw' 'scan' 'arg'..." */
static char *remote_cmdline(const struct wfw_remote_opts *ro, const char *cmd,
			    char **args, int n)
{
	char *line = wfw_shq(wfw_sut_wultfw(&ro->ssh));
	int i;

	line = wfw_shq_append(line, cmd);
	for (i = 0; i < n; i++)
		line = wfw_shq_append(line, args[i]);
	return line;
}

int wfw_remote_passthru(const char *cmd, int argc, char **argv)
{
	struct wfw_remote_opts ro = { 0 };
	char **rest = calloc((size_t)argc + 1, sizeof(*rest)), why[1024], *line;
	int i, w, n = 0, bad = 0, status = 0, st;
	size_t h;

	if (!rest)
		abort();
	for (i = 1; i < argc; i += w) {
		w = remote_words(argv, i, &ro, &bad);
		if (!w) {
			rest[n++] = argv[i];
			w = 1;
		}
	}
	bad = bad || hosts_given(&ro, cmd);
	if (bad || wfw_ssh_opts_init(&ro.ssh)) {
		free(rest);
		wfw_hosts_free(&ro.hosts);
		return bad ? 2 : 1;
	}
	line = remote_cmdline(&ro, cmd, rest, n);
	for (h = 0; h < ro.hosts.n; h++) {
		struct wfw_sut s;

		wfw_sut_init(&s, ro.hosts.v[h], (int)h, &ro.ssh);
		if (ro.hosts.n > 1)
			printf("== %s ==\n", s.host);
		fflush(stdout);
		if (wfw_ssh_connect(&s, why, sizeof(why)) ||
		    wfw_sut_check_version(&s, why, sizeof(why))) {
			wfw_err("%s: %s", s.host, why);
			status = 1;
		} else {
			st = wfw_ssh_run(&s, line, -1, 1);
			relay_stderr(&s);
			status = st > status ? st : status;
		}
		wfw_ssh_disconnect(&s);
	}
	free(line);
	free(rest);
	wfw_ssh_opts_cleanup(&ro.ssh);
	wfw_hosts_free(&ro.hosts);
	return status;
}

/* buf + " --OPT 'VALUE'" */
static char *add_arg(char *buf, const char *opt, const char *value)
{
	char *q, *out;

	if (!value)
		return buf;
	q = wfw_shq(value);
	if (asprintf(&out, "%s --%s %s", buf, opt, q) < 0)
		abort();
	free(q);
	free(buf);
	return out;
}

char *wfw_overrides_args(const struct wfw_plan_overrides *ov)
{
	char *s = strdup("");

	if (!s)
		abort();
	s = add_arg(s, "cpu", ov->cpu);
	s = add_arg(s, "ldist", ov->ldist);
	s = add_arg(s, "datapoints", ov->datapoints);
	return add_arg(s, "time", ov->time);
}
