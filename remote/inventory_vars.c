/* SPDX-License-Identifier: MIT */
/*
 * An inventory's variables: the connection ones checked and turned into
 * ssh -o options, the ones that change the connection otherwise refused,
 * the rest ignored (they are the playbooks' business).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "inventory.h"
#include "remote.h"

static const struct {
	const char *key;
	enum wfw_inv_var var;
} used[] = {
	{ "ansible_host", INV_HOST }, { "ansible_ssh_host", INV_HOST },
	{ "ansible_user", INV_USER }, { "ansible_ssh_user", INV_USER },
	{ "ansible_port", INV_PORT }, { "ansible_ssh_port", INV_PORT },
	{ "ansible_ssh_private_key_file", INV_KEY },
	{ "ansible_private_key_file", INV_KEY },
	{ "ansible_ssh_common_args", INV_ARGS },
	{ "ansible_ssh_extra_args", INV_XARGS },
};

/* Prefixes of variables that change how a host is reached or run as. */
static const char *const refused[] = {
	"ansible_become", "ansible_sudo", "ansible_su", "ansible_password",
	"ansible_ssh_pass", "ansible_ssh_private_key_passphrase",
	"ansible_ssh_executable", "ansible_host_key_checking",
	"ansible_ssh_host_key_checking", "ansible_connection",
	"ansible_ssh_transfer_method",
};

bool wfw_inv_var_used(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(used) / sizeof(used[0]); i++)
		if (!strcmp(key, used[i].key))
			return true;
	return false;
}

static bool falsy(const char *v)
{
	return !strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	       !strcasecmp(v, "off") || !strcmp(v, "0") || !*v;
}

/* Does setting key to value leave the connection as ssh makes it? */
static bool harmless(const char *key, const char *value)
{
	if (!strcmp(key, "ansible_connection"))
		return !strcmp(value, "ssh") || !strcmp(value, "smart");
	if (!strncmp(key, "ansible_become", 14) && strcmp(key, "ansible_become"))
		return true;	/* _user, _method...: nothing without become */
	if (!strcmp(key, "ansible_become") || !strcmp(key, "ansible_sudo") ||
	    !strcmp(key, "ansible_su"))
		return falsy(value);
	return false;
}

static bool plain_word(const char *s)
{
	if (!*s || *s == '-')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' ||
		      *s == '-'))
			return false;
	return true;
}

/* One ssh word from *p (quotes as a shell has them), NULL at the end. */
static char *next_word(const char **p, char *buf, size_t len)
{
	const char *s = *p + strspn(*p, " \t");
	size_t n = 0;
	char q = 0;

	if (!*s)
		return NULL;
	for (; *s && (q || (*s != ' ' && *s != '\t')); s++) {
		if (!q && (*s == '\'' || *s == '"'))
			q = *s;
		else if (q && *s == q)
			q = 0;
		else if (n + 1 < len)
			buf[n++] = *s;
	}
	buf[n] = '\0';
	*p = s;
	return buf;
}

/*
 * ansible_ssh_common_args as ssh -o options: -o, -J, -p, -l, -i, -C, -4,
 * -6 (what a lab's inventory sets); any other flag is named and refused.
 */
int wfw_inv_ssh_words(const char *args, char **opts, size_t *n, size_t max,
		      char *why, size_t len)
{
	static const struct { char flag; const char *opt; } map[] = {
		{ 'o', "" }, { 'J', "ProxyJump=" }, { 'p', "Port=" },
		{ 'l', "User=" }, { 'i', "IdentityFile=" },
	};
	char w[1024], opt[1100];
	const char *p = args;
	size_t k;

	while (next_word(&p, w, sizeof(w))) {
		if (!strcmp(w, "-C"))
			snprintf(opt, sizeof(opt), "Compression=yes");
		else if (!strcmp(w, "-4") || !strcmp(w, "-6"))
			snprintf(opt, sizeof(opt), "AddressFamily=%s",
				 w[1] == '4' ? "inet" : "inet6");
		else {
			for (k = 0; k < sizeof(map) / sizeof(map[0]); k++)
				if (w[0] == '-' && w[1] == map[k].flag)
					break;
			if (k == sizeof(map) / sizeof(map[0]) || strlen(w) > 2) {
				if (k == sizeof(map) / sizeof(map[0])) {
					snprintf(why, len, "'%.40s' is not applied (only -o, -J, -p, -l, -i, -C, -4, -6 are)",
						 w);
					return -1;
				}
				memmove(w, w + 2, strlen(w + 2) + 1);
			} else if (!next_word(&p, w, sizeof(w))) {
				snprintf(why, len, "'-%c' without its value", map[k].flag);
				return -1;
			}
			if (strpbrk(w, "\n\r")) {
				snprintf(why, len, "a line break in a value");
				return -1;
			}
			snprintf(opt, sizeof(opt), "%s%s", map[k].opt, w);
		}
		if (*n >= max) {
			snprintf(why, len, "more than %zu ssh options for one host", max);
			return -1;
		}
		if (opts && !(opts[*n] = strdup(opt)))
			abort();
		(*n)++;
	}
	return 0;
}

/* Is value fit for var? Else why (without the place). */
static int check_value(enum wfw_inv_var var, const char *value, char *why,
		       size_t len)
{
	char bad[256];
	size_t n = 0;
	char *end;
	long port;

	switch (var) {
	case INV_HOST:
		if (strchr(value, '@') || wfw_host_check(value, bad, sizeof(bad))) {
			snprintf(why, len, "%s", strchr(value, '@') ?
				 "an address, without user@ (ansible_user names the user)" : bad);
			return -1;
		}
		return 0;
	case INV_USER:
		if (!plain_word(value)) {
			snprintf(why, len, "'%.64s': a user name of letters, digits, '.', '_', '-'",
				 value);
			return -1;
		}
		return 0;
	case INV_PORT:
		port = strtol(value, &end, 10);
		if (*value < '0' || *value > '9' || *end || port < 1 || port > 65535) {
			snprintf(why, len, "'%.32s': a port number, 1 to 65535", value);
			return -1;
		}
		return 0;
	case INV_KEY:
		if (!*value || strpbrk(value, " \t\n\r\"'") || strlen(value) > 1024) {
			snprintf(why, len, "'%.64s': a key file's path without spaces or quotes",
				 value);
			return -1;
		}
		return 0;
	default:
		return wfw_inv_ssh_words(value, NULL, &n, WFW_INV_MAX_OPTS, why, len);
	}
}

int wfw_inv_set_var(struct wfw_inventory *inv, struct wfw_inv_vars *vars,
		    const char *key, const char *value, int line, char *why,
		    size_t len)
{
	char bad[256];
	size_t i;

	for (i = 0; i < sizeof(used) / sizeof(used[0]); i++) {
		if (strcmp(key, used[i].key))
			continue;
		if (check_value(used[i].var, value, bad, sizeof(bad))) {
			snprintf(why, len, "%s:%d: %s: %s", inv->path, line, key, bad);
			return -1;
		}
		free(vars->v[used[i].var]);
		if (!(vars->v[used[i].var] = strdup(value)))
			abort();
		vars->line[used[i].var] = line;
		return 0;
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (strncmp(key, refused[i], strlen(refused[i])) ||
		    harmless(key, value) || vars->refused)
			continue;
		if (!(vars->refused = strdup(key)))
			abort();
		vars->refused_line = line;
		break;
	}
	return 0;
}

/* Does group a's variable beat b's: deeper, then later by name. */
static bool beats(const struct wfw_inv_group *a, const struct wfw_inv_group *b)
{
	if (!b)
		return true;
	if (a->depth != b->depth)
		return a->depth > b->depth;
	return strcmp(a->name, b->name) > 0;
}

/* The vars that apply to host h for var k (refusal for k = INV_NVARS). */
static const struct wfw_inv_vars *pick(const struct wfw_inventory *inv,
				       size_t h, int k, int *line)
{
	const struct wfw_inv_group *best = NULL;
	const struct wfw_inv_vars *own = &inv->h[h].vars;
	size_t g;

	if (k < INV_NVARS ? own->v[k] != NULL : own->refused != NULL) {
		*line = k < INV_NVARS ? own->line[k] : own->refused_line;
		return own;
	}
	for (g = 0; g < inv->ng; g++) {
		const struct wfw_inv_vars *v = &inv->g[g].vars;

		if ((k < INV_NVARS ? v->v[k] != NULL : v->refused != NULL) &&
		    wfw_inv_in_group(inv, g, h) && beats(&inv->g[g], best))
			best = &inv->g[g];
	}
	if (!best)
		return NULL;
	*line = k < INV_NVARS ? best->vars.line[k] : best->vars.refused_line;
	return &best->vars;
}

static void add_opt(struct wfw_inv_host *host, const char *key, const char *v)
{
	if (host->nopts < WFW_INV_MAX_OPTS &&
	    asprintf(&host->opts[host->nopts++], "%s%s", key, v) < 0)
		abort();
}

/* Host h's ssh options from its own and its groups' variables. */
int wfw_inv_host_opts(struct wfw_inventory *inv, size_t h, char *why,
		      size_t len)
{
	static const char *const key[] = { "HostName=", "User=", "Port=",
					   "IdentityFile=" };
	struct wfw_inv_host *host = &inv->h[h];
	const struct wfw_inv_vars *v;
	char bad[256];
	int k, line;

	v = pick(inv, h, INV_NVARS, &line);
	if (v && asprintf(&host->refused, "%s:%d: %s (for %s) changes how the SUT is reached or run, which wultfw does not follow: remove it, or give the host with -H without -i",
			  inv->path, line, v->refused, host->name) < 0)
		abort();
	for (k = 0; k < INV_NVARS; k++) {
		v = pick(inv, h, k, &line);
		if (!v)
			continue;
		if (k < INV_ARGS) {
			add_opt(host, key[k], v->v[k]);
		} else if (wfw_inv_ssh_words(v->v[k], host->opts, &host->nopts,
					     WFW_INV_MAX_OPTS, bad, sizeof(bad))) {
			snprintf(why, len, "%s:%d: %s: %s", inv->path, line,
				 k == INV_ARGS ? "ansible_ssh_common_args" :
				 "ansible_ssh_extra_args", bad);
			return -1;
		}
	}
	return 0;
}
