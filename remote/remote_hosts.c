/* SPDX-License-Identifier: MIT */
/*
 * The SUTs to run on: -H a,b,c, -H @FILE, -H PATTERN of an inventory
 * given with -i, or the experiment file's hosts = [ ... ].
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory.h"
#include "remote.h"

/* -i's inventory lives as long as the process: ssh reads it per command. */
static struct wfw_inventory inv;
static bool inv_loaded;

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
		if (*tok == '@') {
			if (wfw_hosts_read(h, tok + 1, why, len)) {
				free(copy);
				return -1;
			}
			continue;
		}
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

void wfw_hosts_add(struct wfw_hosts *h, const char *host)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->v[i], host))
			return;
	add(h, host);
}

/* The hosts of -H's pattern in the inventory: 0 or -1 with why. */
static int hosts_select(struct wfw_hosts *h, const char *pattern, char *why,
			size_t len)
{
	char bad[256];
	size_t *sel = NULL;
	long n, i;

	if (*pattern == '@')
		return wfw_hosts_parse(h, pattern, why, len);
	n = wfw_inv_select(&inv, pattern, &sel, bad, sizeof(bad));
	if (n < 0) {
		snprintf(why, len, "-H: %s", bad);
		return -1;
	}
	for (i = 0; i < n; i++)
		wfw_hosts_add(h, inv.h[sel[i]].name);
	free(sel);
	return 0;
}

/* An inventory host whose variables wultfw would not follow: why. */
static int hosts_refused(const struct wfw_hosts *h, char *why, size_t len)
{
	const struct wfw_inv_host *ih;
	size_t i;

	for (i = 0; inv_loaded && i < h->n; i++) {
		ih = wfw_inv_find(&inv, h->v[i]);
		if (ih && ih->refused) {
			snprintf(why, len, "%s", ih->refused);
			return -1;
		}
	}
	return 0;
}

void wfw_hosts_print_inventory(void)
{
	size_t i;

	for (i = 0; inv_loaded && i < inv.ng; i++)
		printf("%s\n", inv.g[i].name);
	for (i = 0; inv_loaded && i < inv.nh; i++)
		printf("%s\n", inv.h[i].name);
}

void wfw_hosts_ssh_opts(const struct wfw_ssh_opts *o, const char *host,
			const char **argv, size_t *n)
{
	const struct wfw_inv_host *ih = o->inv ? wfw_inv_find(o->inv, host) : NULL;
	size_t k;

	for (k = 0; ih && k < ih->nopts; k++) {
		argv[(*n)++] = "-o";
		argv[(*n)++] = ih->opts[k];
	}
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

static void inv_free(void)
{
	wfw_inv_free(&inv);
}

/*
 * -H against what is known so far: an inventory's pattern, else a list.
 * A pattern before its -i waits for it (host_err says so until then).
 */
static int hosts_resolve(struct wfw_remote_opts *ro)
{
	char why[512];
	int ret;

	wfw_hosts_free(&ro->hosts);
	ro->host_err[0] = '\0';
	if (inv_loaded)
		ret = hosts_select(&ro->hosts, ro->host_arg, why, sizeof(why));
	else
		ret = wfw_hosts_parse(&ro->hosts, ro->host_arg, why, sizeof(why));
	if (!ret)
		ret = hosts_refused(&ro->hosts, why, sizeof(why));
	if (ret && !inv_loaded && *ro->host_arg != '@' &&
	    strpbrk(ro->host_arg, "!&*")) {
		snprintf(ro->host_err, sizeof(ro->host_err),
			 "-H '%.64s' is an inventory's host pattern: give the inventory with -i FILE",
			 ro->host_arg);
		wfw_hosts_free(&ro->hosts);
		return 1;
	}
	if (ret) {
		wfw_hosts_free(&ro->hosts);
		fprintf(stderr, "wultfw: error: %s\n", why);
		return -1;
	}
	return 1;
}

static int inventory_load(struct wfw_remote_opts *ro, const char *path)
{
	char why[512];

	if (inv_loaded) {
		fprintf(stderr, "wultfw: error: -i %s: one inventory at a time (merge them, or run twice)\n",
			path);
		return -1;
	}
	if (wfw_inv_load(&inv, path, why, sizeof(why))) {
		wfw_inv_free(&inv);
		fprintf(stderr, "wultfw: error: %s\n", why);
		return -1;
	}
	inv_loaded = true;
	atexit(inv_free);
	ro->ssh.inv = &inv;
	return ro->host_arg ? hosts_resolve(ro) : 1;
}

int wfw_remote_getopt(struct wfw_remote_opts *ro, int c, const char *arg)
{
	char *end;
	unsigned long n;

	switch (c) {
	case 'H':
		ro->host_arg = arg;
		return hosts_resolve(ro);
	case 'i':
	case WFW_OPT_INVENTORY:
		return inventory_load(ro, arg);
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
	char why[512];
	int ret = 0;

	if (ro->host_err[0]) {
		wfw_cfgerr_add(errs, "", 0, NULL, "%s", ro->host_err);
		return -1;
	}
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
	if (hosts_refused(&ro->hosts, why, sizeof(why))) {
		wfw_cfgerr_add(errs, "", 0, NULL, "%s", why);
		return -1;
	}
	return ro->hosts.n ? 1 : 0;
}
