/* SPDX-License-Identifier: MIT */
/*
 * SUTs from an Ansible inventory (-i FILE): its INI or YAML form read
 * directly (inventory_ini.c, inventory_yaml.c) into groups and hosts
 * (inventory.c), host patterns resolved against them
 * (inventory_pattern.c). Of the variables only those that say how to
 * reach a host by ssh are used; those that would change the connection in
 * a way wultfw does not follow are refused, by name, for the hosts chosen.
 */
#ifndef WFW_INVENTORY_H
#define WFW_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include "inventory_index.h"

/* Limits on a hostile file. */
#define WFW_INV_MAX_BYTES (4u << 20)
#define WFW_INV_MAX_BYTES_TEXT "4 MiB"
#define WFW_INV_MAX_HOSTS 4096
#define WFW_INV_MAX_GROUPS 1024
#define WFW_INV_MAX_DEPTH 32		/* YAML nesting */
#define WFW_INV_MAX_LINE 8192		/* INI */
#define WFW_INV_MAX_OPTS 12		/* ssh -o options of one host */

/* The connection variables used. */
enum wfw_inv_var { INV_HOST, INV_USER, INV_PORT, INV_KEY, INV_ARGS, INV_XARGS,
		   INV_NVARS };

struct wfw_inv_vars {
	char *v[INV_NVARS];
	int line[INV_NVARS];
	char *refused;		/* first refused variable's name, NULL: none */
	int refused_line;
};

struct wfw_inv_host {
	char *name;
	int line;
	struct wfw_inv_vars vars;
	/* After wfw_inv_finish(): ssh -o options, and why it cannot be used. */
	char *opts[WFW_INV_MAX_OPTS];
	size_t nopts;
	char *refused;		/* "FILE:LINE: ansible_become ..." or NULL */
};

struct wfw_inv_group {
	char *name;
	int line;
	size_t *hosts, nhosts;
	size_t *kids, nkids;
	struct wfw_inv_index hset, kset;	/* hosts, kids: no one twice */
	struct wfw_inv_vars vars;
	int depth;		/* from 'all': children's variables win */
	bool busy, done;	/* walks */
};

struct wfw_inventory {
	char *path;
	struct wfw_inv_host *h;
	size_t nh;
	struct wfw_inv_group *g;	/* g[0] is 'all', g[1] 'ungrouped' */
	size_t ng;
	unsigned char *mem;		/* row g, bit h: h is in g (finished) */
	size_t stride;			/* bytes a row */
	struct wfw_inv_index hidx, gidx;	/* h and g by name */
};

/* inventory.c */
/* Read FILE (INI or YAML, by its first meaningful line): 0 or -1 with why. */
int wfw_inv_load(struct wfw_inventory *inv, const char *path, char *why,
		 size_t len);
/* The same from text (n bytes, NULs refused); name stands for the file. */
int wfw_inv_parse(struct wfw_inventory *inv, const char *name,
		  const char *text, size_t n, char *why, size_t len);
void wfw_inv_free(struct wfw_inventory *inv);
/* The group or host called name (created when create), or -1. */
long wfw_inv_group(struct wfw_inventory *inv, const char *name, int line,
		   bool create, char *why, size_t len);
long wfw_inv_host(struct wfw_inventory *inv, const char *name, int line,
		  char *why, size_t len);
int wfw_inv_add_member(struct wfw_inventory *inv, size_t g, size_t h);
int wfw_inv_add_kid(struct wfw_inventory *inv, size_t g, size_t kid);
/*
 * key = value at line into vars: a connection variable is checked and
 * kept, one that changes the connection otherwise is remembered as
 * refused, others are ignored. 0 or -1 with why (naming the line).
 */
int wfw_inv_set_var(struct wfw_inventory *inv, struct wfw_inv_vars *vars,
		    const char *key, const char *value, int line, char *why,
		    size_t len);
/* inventory_vars.c: is key a connection variable wultfw applies? */
bool wfw_inv_var_used(const char *key);
/* ssh words as -o options into opts (NULL: check only). */
int wfw_inv_ssh_words(const char *args, char **opts, size_t *n, size_t max,
		      char *why, size_t len);
/* Host h's ssh options and refusal, from its own and its groups' vars. */
int wfw_inv_host_opts(struct wfw_inventory *inv, size_t h, char *why,
		      size_t len);
/* inventory_finish.c: loops refused, depths, members, hosts' options. */
int wfw_inv_finish(struct wfw_inventory *inv, char *why, size_t len);
/* The host called name, NULL if none. */
const struct wfw_inv_host *wfw_inv_find(const struct wfw_inventory *inv,
					const char *name);
/* Is host h in group g or one of its children? */
bool wfw_inv_in_group(const struct wfw_inventory *inv, size_t g, size_t h);
/* "host www[01:50].lab" expanded: calls add(name) for each; 0 or -1. */
int wfw_inv_expand(const char *pattern, int (*add)(void *ctx, const char *name),
		   void *ctx, char *why, size_t len);

/* inventory_ini.c, inventory_yaml.c: fill a fresh inventory. */
int wfw_inv_parse_ini(struct wfw_inventory *inv, const char *text,
		      char *why, size_t len);
int wfw_inv_parse_yaml(struct wfw_inventory *inv, const char *text, size_t n,
		       char *why, size_t len);

/* inventory_pattern.c */
/*
 * The hosts of an Ansible host pattern ("all", "web", "web:!web1",
 * "a:b", "a:&b", "a,b", '*' wildcards), in inventory order: indices into
 * inv->h in *out (malloc'd), their number returned; -1 with why (a
 * did-you-mean for an unknown name).
 */
long wfw_inv_select(const struct wfw_inventory *inv, const char *pattern,
		    size_t **out, char *why, size_t len);

#endif
