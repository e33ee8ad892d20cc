/* SPDX-License-Identifier: MIT */
/* An inventory's groups and hosts: building them, loops, host ranges. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory.h"
#include "remote.h"

/*
 * Room for element n of an array of n: doubled at 0, 1, 2, 4, ... so that
 * 4096 hosts are not 4096 copies of the array (seconds under ASan).
 */
static void *grow(void *v, size_t n, size_t size)
{
	void *p;

	if (n & (n - 1))
		return v;	/* not a power of two: the last doubling left room */
	p = realloc(v, (n ? 2 * n : 1) * size);
	if (!p)
		abort();
	return p;
}

static char *dup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

/* Group names: the plain characters host names use. */
static int group_name_check(const char *name)
{
	const char *p;

	if (!*name || *name == '-' || *name == '.')
		return -1;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		      *p == '.'))
			return -1;
	return 0;
}

/* The index's `same` for names: entry v's name is ctx's. */
struct named {
	const struct wfw_inventory *inv;
	const char *name;
};

static bool same_group(const void *ctx, size_t v)
{
	const struct named *n = ctx;

	return !strcmp(n->inv->g[v].name, n->name);
}

static bool same_host(const void *ctx, size_t v)
{
	const struct named *n = ctx;

	return !strcmp(n->inv->h[v].name, n->name);
}

long wfw_inv_group(struct wfw_inventory *inv, const char *name, int line,
		   bool create, char *why, size_t len)
{
	struct named key = { inv, name };
	uint64_t hash = wfw_inv_hash_name(name);
	struct wfw_inv_group *g;
	size_t i = wfw_inv_index_find(&inv->gidx, hash, same_group, &key);

	if (i != SIZE_MAX)
		return (long)i;
	if (!create)
		return -1;
	if (group_name_check(name)) {
		snprintf(why, len, "%s:%d: group name '%.64s': use letters, digits, '_', '-', '.'",
			 inv->path, line, name);
		return -1;
	}
	if (inv->ng >= WFW_INV_MAX_GROUPS) {
		snprintf(why, len, "%s:%d: more than %d groups: split the inventory",
			 inv->path, line, WFW_INV_MAX_GROUPS);
		return -1;
	}
	inv->g = grow(inv->g, inv->ng, sizeof(*inv->g));
	g = &inv->g[inv->ng];
	memset(g, 0, sizeof(*g));
	g->name = dup(name);
	g->line = line;
	wfw_inv_index_add(&inv->gidx, hash, inv->ng);
	return (long)inv->ng++;
}

long wfw_inv_host(struct wfw_inventory *inv, const char *name, int line,
		  char *why, size_t len)
{
	struct named key = { inv, name };
	uint64_t hash = wfw_inv_hash_name(name);
	struct wfw_inv_host *h;
	char bad[256];
	size_t i = wfw_inv_index_find(&inv->hidx, hash, same_host, &key);

	if (i != SIZE_MAX)
		return (long)i;
	if (wfw_host_check(name, bad, sizeof(bad))) {
		snprintf(why, len, "%s:%d: host %s", inv->path, line, bad);
		return -1;
	}
	if (inv->nh >= WFW_INV_MAX_HOSTS) {
		snprintf(why, len, "%s:%d: more than %d hosts: split the inventory",
			 inv->path, line, WFW_INV_MAX_HOSTS);
		return -1;
	}
	inv->h = grow(inv->h, inv->nh, sizeof(*inv->h));
	h = &inv->h[inv->nh];
	memset(h, 0, sizeof(*h));
	h->name = dup(name);
	h->line = line;
	wfw_inv_index_add(&inv->hidx, hash, inv->nh);
	return (long)inv->nh++;
}

static bool same_num(const void *ctx, size_t v)
{
	return v == *(const size_t *)ctx;
}

/* x onto v (n of them) unless there already; set indexes v's values. */
static int add_index(size_t **v, size_t *n, struct wfw_inv_index *set, size_t x)
{
	uint64_t hash = wfw_inv_hash_num(x);

	if (wfw_inv_index_find(set, hash, same_num, &x) != SIZE_MAX)
		return 0;
	*v = grow(*v, *n, sizeof(**v));
	(*v)[(*n)++] = x;
	wfw_inv_index_add(set, hash, x);
	return 0;
}

int wfw_inv_add_member(struct wfw_inventory *inv, size_t g, size_t h)
{
	struct wfw_inv_group *gr = &inv->g[g];

	return add_index(&gr->hosts, &gr->nhosts, &gr->hset, h);
}

int wfw_inv_add_kid(struct wfw_inventory *inv, size_t g, size_t kid)
{
	struct wfw_inv_group *gr = &inv->g[g];

	return add_index(&gr->kids, &gr->nkids, &gr->kset, kid);
}

static void vars_free(struct wfw_inv_vars *v)
{
	int k;

	for (k = 0; k < INV_NVARS; k++)
		free(v->v[k]);
	free(v->refused);
}

void wfw_inv_free(struct wfw_inventory *inv)
{
	size_t i, k;

	for (i = 0; i < inv->nh; i++) {
		free(inv->h[i].name);
		vars_free(&inv->h[i].vars);
		for (k = 0; k < inv->h[i].nopts; k++)
			free(inv->h[i].opts[k]);
		free(inv->h[i].refused);
	}
	for (i = 0; i < inv->ng; i++) {
		free(inv->g[i].name);
		free(inv->g[i].hosts);
		free(inv->g[i].kids);
		wfw_inv_index_free(&inv->g[i].hset);
		wfw_inv_index_free(&inv->g[i].kset);
		vars_free(&inv->g[i].vars);
	}
	wfw_inv_index_free(&inv->hidx);
	wfw_inv_index_free(&inv->gidx);
	free(inv->h);
	free(inv->g);
	free(inv->mem);
	free(inv->path);
	memset(inv, 0, sizeof(*inv));
}

/* YAML when the first line that says something looks like "key:". */
static bool looks_yaml(const char *text)
{
	const char *p = text;

	for (;;) {
		p += strspn(p, " \t\r\n");
		if (*p != '#' && *p != ';')
			break;
		p += strcspn(p, "\n");
	}
	if (!strncmp(p, "---", 3) || *p == '{')
		return true;
	if (*p == '[')
		return false;
	p += strcspn(p, ": \t\r\n");
	return *p == ':' && (p[1] == '\0' || p[1] == ' ' || p[1] == '\n' ||
			     p[1] == '\r');
}

/* An error quotes the file's values: a line break or control byte in one becomes '?'. */
static void one_line(char *why)
{
	for (; *why; why++)
		if ((unsigned char)*why < 0x20 || *why == 0x7f)
			*why = '?';
}

int wfw_inv_parse(struct wfw_inventory *inv, const char *name,
		  const char *text, size_t n, char *why, size_t len)
{
	char *copy;
	int ret;

	memset(inv, 0, sizeof(*inv));
	inv->path = dup(name);
	if (memchr(text, '\0', n)) {
		snprintf(why, len, "%s: a NUL byte: this is not an inventory (INI or YAML text)",
			 name);
		return -1;
	}
	if (n > WFW_INV_MAX_BYTES) {
		snprintf(why, len, "%s: larger than " WFW_INV_MAX_BYTES_TEXT ": split the inventory",
			 name);
		return -1;
	}
	/* The readers want a string: text need not be one (memory, fuzzing). */
	if (!(copy = malloc(n + 1)))
		abort();
	memcpy(copy, text, n);
	copy[n] = '\0';
	wfw_inv_group(inv, "all", 0, true, why, len);
	wfw_inv_group(inv, "ungrouped", 0, true, why, len);
	if (looks_yaml(copy))
		ret = wfw_inv_parse_yaml(inv, copy, n, why, len);
	else
		ret = wfw_inv_parse_ini(inv, copy, why, len);
	free(copy);
	if (!ret)
		ret = wfw_inv_finish(inv, why, len);
	if (ret)
		one_line(why);
	return ret;
}

int wfw_inv_load(struct wfw_inventory *inv, const char *path, char *why,
		 size_t len)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t n;
	int ret;

	memset(inv, 0, sizeof(*inv));
	if (!f) {
		snprintf(why, len, "-i %s: %s: give an Ansible inventory file (INI or YAML)",
			 path, strerror(errno));
		return -1;
	}
	text = malloc(WFW_INV_MAX_BYTES + 1);
	if (!text)
		abort();
	n = fread(text, 1, WFW_INV_MAX_BYTES + 1, f);
	if (ferror(f) || n > WFW_INV_MAX_BYTES) {
		snprintf(why, len, "-i %s: %s", path, ferror(f) ?
			 "cannot read it (a directory?): give an inventory file" :
			 "larger than " WFW_INV_MAX_BYTES_TEXT ": split the inventory");
		fclose(f);
		free(text);
		return -1;
	}
	fclose(f);
	text[n] = '\0';
	ret = wfw_inv_parse(inv, path, text, n, why, len);
	free(text);
	return ret;
}

const struct wfw_inv_host *wfw_inv_find(const struct wfw_inventory *inv,
					const char *name)
{
	struct named key = { inv, name };
	size_t i;

	if (!inv)
		return NULL;
	i = wfw_inv_index_find(&inv->hidx, wfw_inv_hash_name(name), same_host, &key);
	return i == SIZE_MAX ? NULL : &inv->h[i];
}

bool wfw_inv_in_group(const struct wfw_inventory *inv, size_t g, size_t h)
{
	return inv->mem[g * inv->stride + h / 8] & (1u << (h % 8));
}
