/* SPDX-License-Identifier: MIT */
/*
 * An inventory after parsing: groups that contain themselves refused,
 * groups nobody contains made children of 'all', hosts in no group put in
 * 'ungrouped', every group's depth and members, every host's ssh options.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory.h"

/* Depth-first: order[] gets groups children first; -1 on a loop. */
static int visit(struct wfw_inventory *inv, size_t g, size_t *order,
		 size_t *n, char *why, size_t len)
{
	struct wfw_inv_group *grp = &inv->g[g];
	size_t k;

	if (grp->done)
		return 0;
	if (grp->busy) {
		snprintf(why, len, "%s:%d: group '%s' contains itself (through its children): remove the loop",
			 inv->path, grp->line, grp->name);
		return -1;
	}
	grp->busy = true;
	for (k = 0; k < grp->nkids; k++)
		if (visit(inv, grp->kids[k], order, n, why, len))
			return -1;
	grp->busy = false;
	grp->done = true;
	order[(*n)++] = g;
	return 0;
}

static void set_bit(struct wfw_inventory *inv, size_t g, size_t h)
{
	inv->mem[g * inv->stride + h / 8] |= (unsigned char)(1u << (h % 8));
}

/* Members, children before parents (order from visit()): rows of bits. */
static void members(struct wfw_inventory *inv, const size_t *order)
{
	size_t i, k, b;

	inv->stride = inv->nh / 8 + 1;
	inv->mem = calloc(inv->ng, inv->stride);
	if (!inv->mem)
		abort();
	for (i = 0; i < inv->ng; i++) {
		const struct wfw_inv_group *grp = &inv->g[order[i]];
		unsigned char *row = inv->mem + order[i] * inv->stride;

		for (k = 0; k < grp->nhosts; k++)
			set_bit(inv, order[i], grp->hosts[k]);
		for (k = 0; k < grp->nkids; k++) {
			const unsigned char *kid = inv->mem + grp->kids[k] * inv->stride;

			for (b = 0; b < inv->stride; b++)
				row[b] |= kid[b];
		}
	}
}

/* Top-level groups under 'all', lone hosts in 'ungrouped'. */
static void implicit(struct wfw_inventory *inv)
{
	bool *contained = calloc(inv->ng + 1, sizeof(bool));
	bool *grouped = calloc(inv->nh + 1, sizeof(bool));
	size_t g, k;

	if (!contained || !grouped)
		abort();
	for (g = 0; g < inv->ng; g++)
		for (k = 0; k < inv->g[g].nkids; k++)
			contained[inv->g[g].kids[k]] = true;
	for (g = 2; g < inv->ng; g++) {
		if (!contained[g])
			wfw_inv_add_kid(inv, 0, g);
		for (k = 0; k < inv->g[g].nhosts; k++)
			grouped[inv->g[g].hosts[k]] = true;
	}
	wfw_inv_add_kid(inv, 0, 1);
	for (k = 0; k < inv->nh; k++)
		if (!grouped[k])
			wfw_inv_add_member(inv, 1, k);
	free(contained);
	free(grouped);
}

int wfw_inv_finish(struct wfw_inventory *inv, char *why, size_t len)
{
	size_t *order = calloc(inv->ng + 1, sizeof(*order)), n = 0, i, k;
	int ret = 0;

	if (!order)
		abort();
	/* A loop first: 'all' would hide the group that has one. */
	for (i = 2; i < inv->ng && !ret; i++)
		ret = visit(inv, i, order, &n, why, len);
	if (!ret) {
		implicit(inv);
		for (i = 0; i < inv->ng; i++)
			inv->g[i].done = inv->g[i].busy = false;
		n = 0;
		ret = visit(inv, 0, order, &n, why, len);
	}
	if (!ret) {
		/* Reverse of children-first: parents before their children. */
		for (i = n; i-- > 0;)
			for (k = 0; k < inv->g[order[i]].nkids; k++) {
				struct wfw_inv_group *kid = &inv->g[inv->g[order[i]].kids[k]];

				if (kid->depth < inv->g[order[i]].depth + 1)
					kid->depth = inv->g[order[i]].depth + 1;
			}
		members(inv, order);
		for (i = 0; i < inv->nh && !ret; i++)
			ret = wfw_inv_host_opts(inv, i, why, len);
	}
	free(order);
	return ret;
}

/* One [a:b] or [a:b:step] range at s (after '['): its bounds, or -1. */
static int range(const char *s, char *a, char *b, long *step, size_t *width,
		 const char **after)
{
	const char *end = strchr(s, ']');
	char buf[64], *c, *d;

	if (!end || (size_t)(end - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)(end - s));
	buf[end - s] = '\0';
	c = strchr(buf, ':');
	if (!c)
		return -1;
	*c++ = '\0';
	d = strchr(c, ':');
	*step = 1;
	if (d) {
		*d++ = '\0';
		*step = strtol(d, &d, 10);
		if (*d || *step < 1)
			return -1;
	}
	if (strlen(buf) > 20 || strlen(c) > 20 || !*c)
		return -1;
	strcpy(a, *buf ? buf : "0");
	strcpy(b, c);
	*width = buf[0] == '0' && buf[1] ? strlen(buf) : 0;
	*after = end + 1;
	return 0;
}

static int expand(const char *pre, const char *s, int (*add)(void *, const char *),
		  void *ctx, char *why, size_t len)
{
	char a[24], b[24], name[512], item[32];
	const char *open = strchr(s, '['), *after;
	size_t width;
	long step, x, lo, hi;
	bool alpha;

	if (!open || range(open + 1, a, b, &step, &width, &after)) {
		snprintf(name, sizeof(name), "%s%s", pre, s);
		return add(ctx, name);
	}
	alpha = a[0] >= 'a' && a[0] <= 'z' && !a[1] && b[0] >= 'a' && b[0] <= 'z' && !b[1];
	lo = alpha ? a[0] : strtol(a, NULL, 10);
	hi = alpha ? b[0] : strtol(b, NULL, 10);
	if (!alpha && (strspn(a, "0123456789") != strlen(a) ||
		       strspn(b, "0123456789") != strlen(b) || lo > hi)) {
		snprintf(why, len, "host range '%.64s': write [01:50] or [a:f]", s);
		return -1;
	}
	for (x = lo; x <= hi; x += step) {
		char next[512];

		if (alpha)
			snprintf(item, sizeof(item), "%c", (char)x);
		else
			snprintf(item, sizeof(item), "%0*ld", (int)width, x);
		snprintf(next, sizeof(next), "%s%.*s%s", pre, (int)(open - s), s, item);
		if (expand(next, after, add, ctx, why, len))
			return -1;
	}
	return 0;
}

int wfw_inv_expand(const char *pattern, int (*add)(void *ctx, const char *name),
		   void *ctx, char *why, size_t len)
{
	if (strlen(pattern) > 256) {
		snprintf(why, len, "host '%.40s...': longer than 256 characters", pattern);
		return -1;
	}
	return expand("", pattern, add, ctx, why, len);
}
