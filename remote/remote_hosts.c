/* SPDX-License-Identifier: MIT */
/* The SUTs to run on: -H a,b,c or the experiment file's hosts = [ ... ]. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote.h"

static int add(struct wfw_hosts *h, const char *host)
{
	char **v = realloc(h->v, (h->n + 1) * sizeof(*v));

	if (!v || !(v[h->n] = strdup(host)))
		abort();
	h->v = v;
	h->n++;
	return 0;
}

int wfw_hosts_parse(struct wfw_hosts *h, const char *list, char *why,
		    size_t len)
{
	char *copy = strdup(list), *tok, *next, bad[512];
	size_t i;

	if (!copy)
		abort();
	/* Not strtok: "a,,b" is a mistake to say, not a list of two. */
	for (tok = copy; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (wfw_host_check(tok, bad, sizeof(bad))) {
			if (*tok)
				snprintf(why, len, "-H: %s", bad);
			else
				snprintf(why, len, "-H '%s': an empty host name (two commas in a row, or one at an end)",
					 list);
			free(copy);
			return -1;
		}
		for (i = 0; i < h->n; i++)
			if (!strcmp(h->v[i], tok))
				break;
		if (i == h->n)
			add(h, tok);
	}
	free(copy);
	return 0;
}

int wfw_hosts_from_plan(struct wfw_hosts *h, struct wfw_plan *plan,
			const char **sut_wultfw, struct wfw_cfgerr *errs)
{
	const config_setting_t *root = config_root_setting(&plan->cfg);
	const config_setting_t *s, *e;
	char bad[512];
	int i, n, bad_n = 0;

	s = config_setting_get_member(root, "sut_wultfw");
	if (s && config_setting_type(s) != CONFIG_TYPE_STRING) {
		wfw_cfgerr_at(errs, s, "sut_wultfw", "expected the SUT's wultfw command in quotes");
		bad_n++;
	} else if (s) {
		*sut_wultfw = config_setting_get_string(s);
	}
	s = config_setting_get_member(root, "hosts");
	if (!s)
		return bad_n ? -1 : 0;
	if (!config_setting_is_aggregate(s) || config_setting_is_group(s)) {
		wfw_cfgerr_at(errs, s, "hosts", "expected a list of host names: hosts = [ \"sut1\", \"sut2\" ];");
		return -1;
	}
	n = config_setting_length(s);
	for (i = 0; i < n; i++) {
		char key[32];

		e = config_setting_get_elem(s, (unsigned)i);
		snprintf(key, sizeof(key), "hosts[%d]", i);
		if (config_setting_type(e) != CONFIG_TYPE_STRING) {
			wfw_cfgerr_at(errs, e, key, "expected a host name in quotes");
			bad_n++;
		} else if (wfw_host_check(config_setting_get_string(e), bad,
					  sizeof(bad))) {
			wfw_cfgerr_at(errs, e, key, "%s", bad);
			bad_n++;
		} else {
			add(h, config_setting_get_string(e));
		}
	}
	return bad_n ? -1 : 0;
}

void wfw_hosts_free(struct wfw_hosts *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->v[i]);
	free(h->v);
	h->v = NULL;
	h->n = 0;
}

int wfw_remote_getopt(struct wfw_remote_opts *ro, int c, const char *arg)
{
	char why[256], *end;
	unsigned long n;

	switch (c) {
	case 'H':
		wfw_hosts_free(&ro->hosts);
		if (wfw_hosts_parse(&ro->hosts, arg, why, sizeof(why))) {
			fprintf(stderr, "wultfw: error: %s\n", why);
			return -1;
		}
		return 1;
	case 'U':
		ro->ssh.user = arg;
		return 1;
	case 'K':
		ro->ssh.key = arg;
		return 1;
	case WFW_OPT_SSH_CONFIG:
		ro->ssh.config = arg;
		return 1;
	case WFW_OPT_SUT_WULTFW:
		ro->ssh.sut_wultfw = arg;
		return 1;
	case WFW_OPT_SUT_DIR:
		if (arg[0] != '/') {
			fprintf(stderr, "wultfw: error: --sut-dir '%s': give an absolute path\n", arg);
			return -1;
		}
		ro->ssh.sut_dir = arg;
		return 1;
	case WFW_OPT_JOBS:
		n = strtoul(arg, &end, 10);
		if (*arg < '1' || *arg > '9' || *end || n > WFW_REMOTE_JOBS_MAX) {
			fprintf(stderr, "wultfw: --jobs %s: use 1 to %d SUTs\n", arg,
				WFW_REMOTE_JOBS_MAX);
			return -1;
		}
		ro->jobs = (unsigned)n;
		return 1;
	}
	return 0;
}

int wfw_remote_setup(struct wfw_remote_opts *ro, struct wfw_plan *plan,
		     struct wfw_cfgerr *errs)
{
	struct wfw_hosts from_file = { 0 };
	const char *sut_wultfw = NULL;
	int ret = 0;

	if (wfw_hosts_from_plan(&from_file, plan, &sut_wultfw, errs))
		ret = -1;
	else if (!ro->ssh.sut_wultfw)
		ro->ssh.sut_wultfw = sut_wultfw;
	if (!ro->hosts.n && !ret) {
		ro->hosts = from_file;
		from_file.n = 0;
		from_file.v = NULL;
	}
	wfw_hosts_free(&from_file);
	if (ret)
		return -1;
	return ro->hosts.n ? 1 : 0;
}
