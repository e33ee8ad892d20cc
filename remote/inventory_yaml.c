/* SPDX-License-Identifier: MIT */
/*
 * Ansible's YAML inventory, read with libyaml's event parser: at the top
 * groups (usually 'all'), each a mapping of 'hosts' (host: its variables),
 * 'vars' and 'children' (group: the same again). Aliases are refused (a
 * few lines could stand for millions of hosts) and nesting is bounded.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "inventory.h"

struct yp {
	yaml_parser_t p;
	yaml_event_t ev;
	bool have;
	struct wfw_inventory *inv;
	char *why;
	size_t len;
};

static int line(const struct yp *y)
{
	return (int)y->ev.start_mark.line + 1;
}

static int fail(struct yp *y, const char *what)
{
	if (!y->why[0])
		snprintf(y->why, y->len, "%s:%d: %s", y->inv->path, line(y), what);
	return -1;
}

static int next(struct yp *y)
{
	if (y->have)
		yaml_event_delete(&y->ev);
	y->have = false;
	if (!yaml_parser_parse(&y->p, &y->ev)) {
		snprintf(y->why, y->len, "%s:%zu: not YAML: %s", y->inv->path,
			 y->p.problem_mark.line + 1,
			 y->p.problem ? y->p.problem : "unreadable");
		return -1;
	}
	y->have = true;
	if (y->ev.type == YAML_ALIAS_EVENT)
		return fail(y, "an alias (*name): write the value out, aliases are not read");
	return 0;
}

static bool is_scalar(const struct yp *y)
{
	return y->ev.type == YAML_SCALAR_EVENT;
}

static const char *text(const struct yp *y)
{
	return (const char *)y->ev.data.scalar.value;
}

/* A scalar that means nothing: "", "~" or "null" (a host without vars). */
static bool is_null(const struct yp *y)
{
	return is_scalar(y) && (!*text(y) || !strcmp(text(y), "~") ||
				!strcmp(text(y), "null"));
}

/* Skip the value that starts at the current event. */
static int skip(struct yp *y, int depth)
{
	int open = 0;

	do {
		if (y->ev.type == YAML_SEQUENCE_START_EVENT ||
		    y->ev.type == YAML_MAPPING_START_EVENT) {
			if (depth + ++open > WFW_INV_MAX_DEPTH)
				return fail(y, "nested deeper than " "32 levels");
		} else if (y->ev.type == YAML_SEQUENCE_END_EVENT ||
			   y->ev.type == YAML_MAPPING_END_EVENT) {
			open--;
		}
		if (open && next(y))
			return -1;
	} while (open);
	return 0;
}

/* Key of a mapping: at its end *key is NULL. Leaves the value current. */
static int key(struct yp *y, char **k, int *at)
{
	*k = NULL;
	if (next(y))
		return -1;
	if (y->ev.type == YAML_MAPPING_END_EVENT)
		return 0;
	if (!is_scalar(y))
		return fail(y, "a key that is not a plain name");
	*at = line(y);
	if (!(*k = strdup(text(y))))
		abort();
	if (next(y)) {
		free(*k);
		*k = NULL;
		return -1;
	}
	return 0;
}

/* A mapping of key: value into vars (other values of unused keys skipped). */
static int vars(struct yp *y, struct wfw_inv_vars *v, int depth)
{
	char *k;
	int at, ret = 0;

	if (is_null(y))
		return 0;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return fail(y, "'vars' is a mapping of name: value");
	while (!ret && !key(y, &k, &at) && k) {
		if (is_scalar(y))
			ret = wfw_inv_set_var(y->inv, v, k, text(y), at, y->why, y->len);
		else if (wfw_inv_var_used(k))
			ret = fail(y, "a connection variable takes one value, not a list or mapping");
		else
			ret = skip(y, depth);
		free(k);
	}
	return ret || y->why[0] ? -1 : 0;
}

/* What a host line's variables say, onto host h. */
static void merge(struct wfw_inv_vars *dst, const struct wfw_inv_vars *src)
{
	int k;

	for (k = 0; k < INV_NVARS; k++) {
		if (!src->v[k])
			continue;
		free(dst->v[k]);
		if (!(dst->v[k] = strdup(src->v[k])))
			abort();
		dst->line[k] = src->line[k];
	}
	if (src->refused && !dst->refused) {
		if (!(dst->refused = strdup(src->refused)))
			abort();
		dst->refused_line = src->refused_line;
	}
}

struct added {
	struct yp *y;
	size_t g;
	int at;
	long *v;
	size_t n;
};

static int add_host(void *ctx, const char *name)
{
	struct added *a = ctx;
	long h = wfw_inv_host(a->y->inv, name, a->at, a->y->why, a->y->len);

	if (h < 0)
		return -1;
	wfw_inv_add_member(a->y->inv, a->g, (size_t)h);
	if (!(a->v = realloc(a->v, (a->n + 1) * sizeof(*a->v))))
		abort();
	a->v[a->n++] = h;
	return 0;
}

static int hosts(struct yp *y, size_t g, int depth)
{
	struct wfw_inv_vars v;
	char *k, bad[256];
	int at, ret = 0;
	size_t i;

	if (is_null(y))
		return 0;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return fail(y, "'hosts' is a mapping of host: variables");
	while (!ret && !key(y, &k, &at) && k) {
		struct added a = { .y = y, .g = g, .at = at };

		memset(&v, 0, sizeof(v));
		if (wfw_inv_expand(k, add_host, &a, bad, sizeof(bad)))
			ret = y->why[0] ? -1 : fail(y, bad);
		if (!ret)
			ret = vars(y, &v, depth + 1);
		for (i = 0; !ret && i < a.n; i++)
			merge(&y->inv->h[a.v[i]].vars, &v);
		for (i = 0; i < INV_NVARS; i++)
			free(v.v[i]);
		free(v.refused);
		free(a.v);
		free(k);
	}
	return ret || y->why[0] ? -1 : 0;
}

static int group(struct yp *y, size_t g, int depth);

static int children(struct yp *y, size_t g, int depth)
{
	char *k;
	int at, ret = 0;
	long kid;

	if (is_null(y))
		return 0;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return fail(y, "'children' is a mapping of group: its hosts, vars, children");
	while (!ret && !key(y, &k, &at) && k) {
		kid = wfw_inv_group(y->inv, k, at, true, y->why, y->len);
		ret = kid < 0 ? -1 : wfw_inv_add_kid(y->inv, g, (size_t)kid);
		if (!ret)
			ret = group(y, (size_t)kid, depth + 1);
		free(k);
	}
	return ret || y->why[0] ? -1 : 0;
}

/* A group's body: null, or hosts, vars and children. */
static int group(struct yp *y, size_t g, int depth)
{
	char *k;
	int at, ret = 0;

	if (depth > WFW_INV_MAX_DEPTH)
		return fail(y, "groups nested deeper than 32 levels");
	if (is_null(y))
		return 0;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return fail(y, "a group is a mapping of hosts, vars and children");
	while (!ret && !key(y, &k, &at) && k) {
		if (!strcmp(k, "hosts"))
			ret = hosts(y, g, depth);
		else if (!strcmp(k, "vars"))
			ret = vars(y, &y->inv->g[g].vars, depth);
		else if (!strcmp(k, "children"))
			ret = children(y, g, depth);
		else
			ret = fail(y, "a group has only 'hosts', 'vars' and 'children'");
		free(k);
	}
	return ret || y->why[0] ? -1 : 0;
}

static int document(struct yp *y)
{
	char *k;
	int at, ret = 0;
	long g;

	if (next(y) || next(y))	/* stream start, document start */
		return -1;
	if (y->ev.type == YAML_STREAM_END_EVENT)
		return 0;
	if (next(y))
		return -1;
	if (is_null(y))
		return next(y);
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return fail(y, "an inventory is a mapping of groups, e.g. 'all:'");
	while (!ret && !key(y, &k, &at) && k) {
		g = wfw_inv_group(y->inv, k, at, true, y->why, y->len);
		ret = g < 0 ? -1 : group(y, (size_t)g, 1);
		free(k);
	}
	if (ret || y->why[0] || next(y) || next(y))	/* document, stream end */
		return -1;
	if (y->ev.type != YAML_STREAM_END_EVENT)
		return fail(y, "a second YAML document: an inventory is one");
	return 0;
}

int wfw_inv_parse_yaml(struct wfw_inventory *inv, const char *text, size_t n,
		       char *why, size_t len)
{
	struct yp y = { .inv = inv, .why = why, .len = len };
	int ret;

	why[0] = '\0';
	if (!yaml_parser_initialize(&y.p))
		abort();
	yaml_parser_set_input_string(&y.p, (const unsigned char *)text, n);
	ret = document(&y);
	if (y.have)
		yaml_event_delete(&y.ev);
	yaml_parser_delete(&y.p);
	return ret || why[0] ? -1 : 0;
}
