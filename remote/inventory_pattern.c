/* SPDX-License-Identifier: MIT */
/*
 * Ansible host patterns, the part a lab writes: all (or *), a group, a
 * host, '*' wildcards, unions with ':' or ',', intersections '&name' and
 * exclusions '!name'. As Ansible does, the unions are taken first, then
 * the intersections, then the exclusions, whatever their order; with
 * only the latter two, they apply to all.
 */
#include "config.h"

#include <arpa/inet.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suggest/suggest.h>

#include "inventory.h"

#define PATTERN_MAX 4096

/* Mark in sel the hosts term names; 0, or -1 with why. */
static int match(const struct wfw_inventory *inv, const char *term,
		 bool *sel, char *why, size_t len)
{
	bool wild = strpbrk(term, "*?") != NULL, any = false;
	const char **names, *near;
	size_t g, h;

	if (*term == '~' || strchr(term, '[')) {
		snprintf(why, len, "'%.64s': regular expressions (~) and subscripts ([0]) are not read: name groups or hosts, or use '*'",
			 term);
		return -1;
	}
	for (g = 0; g < inv->ng; g++) {
		if (wild ? fnmatch(term, inv->g[g].name, 0) : strcmp(term, inv->g[g].name))
			continue;
		any = true;
		for (h = 0; h < inv->nh; h++)
			sel[h] |= wfw_inv_in_group(inv, g, h);
	}
	for (h = 0; h < inv->nh; h++)
		if (!(wild ? fnmatch(term, inv->h[h].name, 0) : strcmp(term, inv->h[h].name)))
			any = sel[h] = true;
	if (any || !strcmp(term, "*")) {
		for (h = 0; !strcmp(term, "*") && h < inv->nh; h++)
			sel[h] = true;
		return 0;
	}
	names = calloc(inv->ng + inv->nh + 1, sizeof(*names));
	if (!names)
		abort();
	for (g = 0; g < inv->ng; g++)
		names[g] = inv->g[g].name;
	for (h = 0; h < inv->nh; h++)
		names[inv->ng + h] = inv->h[h].name;
	near = wild ? NULL : wfw_suggest(term, names, inv->ng + inv->nh);
	snprintf(why, len, "no group or host '%.64s' in %s%s%s%s", term, inv->path,
		 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	free(names);
	return -1;
}

/* Split at ',' and ':' (not inside an IPv6 address) into terms. */
static size_t terms(char *s, char **t, size_t max)
{
	struct in6_addr a;
	size_t n = 0;
	char *p, *comma;

	for (; s; s = comma) {
		comma = strchr(s, ',');
		if (comma)
			*comma++ = '\0';
		if (inet_pton(AF_INET6, s + (*s == '!' || *s == '&'), &a) == 1) {
			if (n < max)
				t[n++] = s;
			continue;
		}
		for (p = s; p; p = s) {
			s = strchr(p, ':');
			if (s)
				*s++ = '\0';
			if (n < max)
				t[n++] = p;
			else
				return max + 1;
		}
	}
	return n;
}

static int apply(const struct wfw_inventory *inv, char **t, size_t n,
		 bool *sel, char *why, size_t len)
{
	bool *one = calloc(inv->nh + 1, sizeof(bool)), plain = false;
	size_t i, h;
	int pass, ret = 0;

	if (!one)
		abort();
	/* Pass 0: unions, 1: intersections, 2: exclusions. */
	for (pass = 0; pass < 3 && !ret; pass++) {
		for (i = 0; i < n && !ret; i++) {
			char c = t[i][0];
			int kind = c == '&' ? 1 : c == '!' ? 2 : 0;

			if (kind != pass)
				continue;
			memset(one, 0, inv->nh * sizeof(bool));
			ret = match(inv, t[i] + (kind != 0), one, why, len);
			for (h = 0; !ret && h < inv->nh; h++)
				sel[h] = kind == 0 ? sel[h] || one[h] :
					 kind == 1 ? sel[h] && one[h] : sel[h] && !one[h];
			plain |= kind == 0;
		}
		if (pass == 0 && !plain)
			for (h = 0; h < inv->nh; h++)
				sel[h] = true;
	}
	free(one);
	return ret;
}

long wfw_inv_select(const struct wfw_inventory *inv, const char *pattern,
		    size_t **out, char *why, size_t len)
{
	char *copy, *t[256];
	bool *sel;
	size_t n, i, h, k = 0;

	*out = NULL;
	why[0] = '\0';
	if (strlen(pattern) > PATTERN_MAX) {
		snprintf(why, len, "a host pattern longer than %d characters", PATTERN_MAX);
		return -1;
	}
	if (!(copy = strdup(pattern)))
		abort();
	n = terms(copy, t, 256);
	for (i = 0; i < n && i <= 256; i++)
		if (!t[i][0] || ((t[i][0] == '!' || t[i][0] == '&') && !t[i][1]))
			break;
	if (n > 256 || i < n) {
		snprintf(why, len, n > 256 ? "more than 256 names in a host pattern" :
			 "'%.64s': an empty name in the pattern (write a:b, a:!b, a:&b or a,b)",
			 pattern);
		free(copy);
		return -1;
	}
	sel = calloc(inv->nh + 1, sizeof(bool));
	*out = calloc(inv->nh + 1, sizeof(**out));
	if (!sel || !*out)
		abort();
	if (!apply(inv, t, n, sel, why, len))
		for (h = 0; h < inv->nh; h++)
			if (sel[h])
				(*out)[k++] = h;
	if (!k && !why[0])
		snprintf(why, len, "'%.64s' selects no host of %s", pattern, inv->path);
	free(sel);
	free(copy);
	if (!k) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return (long)k;
}
