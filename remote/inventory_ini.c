/* SPDX-License-Identifier: MIT */
/*
 * Ansible's INI inventory: [group] sections of "host[:port] key=value..."
 * lines (hosts before any section are ungrouped), [group:vars] of
 * key=value lines, [group:children] of group names; '#' and ';' start
 * comments; host names may carry ranges, www[01:50].lab.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory.h"

enum section { SEC_HOSTS, SEC_VARS, SEC_CHILDREN };

struct ini {
	struct wfw_inventory *inv;
	long group;
	enum section sec;
	int line;
	char *why;
	size_t len;
	/* the host line being read: its variables go to each expanded host */
	char **kv;
	size_t nkv;
	const char *port;
};

/* Shell-like words: quotes kept out, '#' outside them ends the line. */
static size_t split(char *s, char **w, size_t max)
{
	size_t n = 0;
	char *o, q;

	for (;;) {
		s += strspn(s, " \t");
		if (!*s || *s == '#' || n == max)
			return n;
		w[n++] = o = s;
		for (q = 0; *s && (q || (*s != ' ' && *s != '\t')); s++) {
			if (!q && (*s == '\'' || *s == '"'))
				q = *s;
			else if (q && *s == q)
				q = 0;
			else
				*o++ = *s;
		}
		if (*s)
			s++;
		*o = '\0';
	}
}

static int add_host(void *ctx, const char *name)
{
	struct ini *p = ctx;
	long h = wfw_inv_host(p->inv, name, p->line, p->why, p->len);
	size_t i;

	if (h < 0)
		return -1;
	wfw_inv_add_member(p->inv, (size_t)p->group, (size_t)h);
	if (p->port && wfw_inv_set_var(p->inv, &p->inv->h[h].vars, "ansible_port",
				       p->port, p->line, p->why, p->len))
		return -1;
	for (i = 0; i < p->nkv; i++) {
		char *eq = strchr(p->kv[i], '=');
		int ret;

		*eq = '\0';
		ret = wfw_inv_set_var(p->inv, &p->inv->h[h].vars, p->kv[i],
				      eq + 1, p->line, p->why, p->len);
		*eq = '=';
		if (ret)
			return -1;
	}
	return 0;
}

static int host_line(struct ini *p, char *s)
{
	char *w[256], *colon, bad[256];
	struct in6_addr a6;
	size_t n = split(s, w, 256), i;

	if (n == 256) {
		snprintf(p->why, p->len, "%s:%d: more than 255 variables on one line",
			 p->inv->path, p->line);
		return -1;
	}
	for (i = 1; i < n; i++)
		if (!strchr(w[i], '=') || w[i][0] == '=') {
			snprintf(p->why, p->len, "%s:%d: '%.64s': write a host's variables as key=value",
				 p->inv->path, p->line, w[i]);
			return -1;
		}
	/* host:port, but not a range's [1:3] nor an IPv6 address's ::1 */
	colon = strrchr(w[0], ':');
	p->port = NULL;
	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
	    inet_pton(AF_INET6, w[0], &a6) != 1) {
		*colon = '\0';
		p->port = colon + 1;
	}
	p->kv = w + 1;
	p->nkv = n - 1;
	if (wfw_inv_expand(w[0], add_host, p, bad, sizeof(bad)) && !p->why[0])
		snprintf(p->why, p->len, "%s:%d: %s", p->inv->path, p->line, bad);
	return p->why[0] ? -1 : 0;
}

static int vars_line(struct ini *p, char *s)
{
	char *eq = strchr(s, '='), *k = s, *v, *end;

	if (!eq || eq == s) {
		snprintf(p->why, p->len, "%s:%d: '%.64s': write key=value in a [%s:vars] section",
			 p->inv->path, p->line, s, p->inv->g[p->group].name);
		return -1;
	}
	*eq = '\0';
	for (end = eq; end > k && (end[-1] == ' ' || end[-1] == '\t');)
		*--end = '\0';
	v = eq + 1 + strspn(eq + 1, " \t");
	end = v + strlen(v);
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	/* Quotes around a whole value are not part of it. */
	if (end - v >= 2 && (*v == '"' || *v == '\'') && end[-1] == *v) {
		end[-1] = '\0';
		v++;
	}
	return wfw_inv_set_var(p->inv, &p->inv->g[p->group].vars, k, v, p->line,
			       p->why, p->len);
}

static int children_line(struct ini *p, char *s)
{
	char *w[2];
	long kid;

	if (split(s, w, 2) != 1) {
		snprintf(p->why, p->len, "%s:%d: one group name a line in [%s:children]",
			 p->inv->path, p->line, p->inv->g[p->group].name);
		return -1;
	}
	kid = wfw_inv_group(p->inv, w[0], p->line, true, p->why, p->len);
	if (kid < 0)
		return -1;
	return wfw_inv_add_kid(p->inv, (size_t)p->group, (size_t)kid);
}

static int section(struct ini *p, char *s)
{
	char *end = strchr(s, ']'), *kind;

	if (!end || end[1 + strspn(end + 1, " \t")] != '\0') {
		snprintf(p->why, p->len, "%s:%d: a section header ends with ']': [group], [group:vars] or [group:children]",
			 p->inv->path, p->line);
		return -1;
	}
	*end = '\0';
	kind = strchr(s + 1, ':');
	p->sec = SEC_HOSTS;
	if (kind) {
		*kind++ = '\0';
		if (!strcmp(kind, "vars")) {
			p->sec = SEC_VARS;
		} else if (!strcmp(kind, "children")) {
			p->sec = SEC_CHILDREN;
		} else {
			snprintf(p->why, p->len, "%s:%d: '[%s:%.32s]': only :vars and :children sections exist",
				 p->inv->path, p->line, s + 1, kind);
			return -1;
		}
	}
	p->group = wfw_inv_group(p->inv, s + 1, p->line, true, p->why, p->len);
	return p->group < 0 ? -1 : 0;
}

static int one_line(struct ini *p, char *s)
{
	size_t n;

	s += strspn(s, " \t");
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	if (!*s || *s == '#' || *s == ';')
		return 0;
	if (*s == '[')
		return section(p, s);
	if (p->sec == SEC_VARS)
		return vars_line(p, s);
	if (p->sec == SEC_CHILDREN)
		return children_line(p, s);
	return host_line(p, s);
}

int wfw_inv_parse_ini(struct wfw_inventory *inv, const char *text,
		      char *why, size_t len)
{
	struct ini p = { .inv = inv, .group = 1, .why = why, .len = len };
	char *buf = malloc(WFW_INV_MAX_LINE + 1);
	const char *s = text, *nl;
	size_t n;

	if (!buf)
		abort();
	why[0] = '\0';
	for (; *s; s = nl ? nl + 1 : s + n) {
		nl = strchr(s, '\n');
		n = nl ? (size_t)(nl - s) : strlen(s);
		p.line++;
		if (n > WFW_INV_MAX_LINE) {
			snprintf(why, len, "%s:%d: a line longer than %d bytes",
				 inv->path, p.line, WFW_INV_MAX_LINE);
			break;
		}
		memcpy(buf, s, n);
		buf[n] = '\0';
		if (one_line(&p, buf))
			break;
	}
	free(buf);
	return why[0] ? -1 : 0;
}
