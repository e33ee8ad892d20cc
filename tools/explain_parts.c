/* SPDX-License-Identifier: MIT */
/* calc --explain: what the passes over a file's parts share (explain_read.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_read.h"
#include "par/par.h"

/* A part group not looked up yet. */
#define UNMAPPED (SIZE_MAX - 1)

/* A part's group: 0 all, 1 no value ("-"), 2 + the group column's index. */
size_t xpart_group(const struct xres *x, const struct xbatch *b, size_t i)
{
	return x->gcol < 0 ? 0 : (size_t)(2 + b->grp[i]);
}

/* The name of a part's group lg (its reader still open). */
const char *xpart_group_name(const struct xres *x, const struct xreader *p, size_t lg)
{
	const struct wultfw_column *col;

	if (!lg)
		return "all";
	if (lg == 1)
		return "-";
	col = &wfw_reader_schema(p->rd)->cols[x->gcol];
	return col->enum_names[lg - 2];
}

/* The result's group of name, or SIZE_MAX (no adding: threads look). */
static size_t find_group(const struct xres *x, const char *name)
{
	for (size_t g = 0; g < x->ng; g++)
		if (!strcmp(x->g[g].name, name))
			return g;
	return SIZE_MAX;
}

int xread_part(struct xres *x, struct xreader *rd, unsigned k, bool all,
	       int (*batch)(struct xres *x, void *arg), void *arg)
{
	int ret = xread_open(x, rd, k, all);
	long n;

	while (!ret && (n = xread_next(x, rd)) != 0)
		ret = n < 0 ? (int)n : batch(x, arg);
	return ret;
}

/* Room for n entries of size sz in *v (cap *cap), zeroed. */
int xgrow(void *v, size_t *cap, size_t n, size_t sz)
{
	void **p = v;
	size_t nc = *cap ? *cap : 8;
	char *q;

	if (n <= *cap)
		return 0;
	while (nc < n)
		nc *= 2;
	q = realloc(*p, nc * sz);
	if (!q)
		return -ENOMEM;
	memset(q + *cap * sz, 0, (nc - *cap) * sz);
	*p = q;
	*cap = nc;
	return 0;
}

/* Run the parts of a pass; a failed part's message into x->err. */
int xpass_run(struct xres *x, const struct wfw_par_ops *ops, void *ctx,
	       struct xreader **rd)
{
	struct wfw_par p = { .ops = ops, .ctx = ctx, .nparts = x->nparts,
			     .threads = x->threads };
	int ret = wfw_par_run(&p);

	if (ret && ret != -ENOMEM && rd[p.failed])
		snprintf(x->err, sizeof(x->err), "%s", rd[p.failed]->err);
	else if (ret)
		snprintf(x->err, sizeof(x->err), "%s: out of memory", x->r->path);
	return ret;
}

/* Parts' readers, one per part, for every pass. */
struct xreader **xreaders(struct xres *x)
{
	struct xreader **rd = calloc(x->nparts, sizeof(*rd));

	for (unsigned k = 0; rd && k < x->nparts; k++) {
		rd[k] = calloc(1, sizeof(**rd));
		if (!rd[k]) {
			while (k--)
				free(rd[k]);
			free(rd);
			return NULL;
		}
	}
	return rd;
}

void xreaders_free(struct xres *x, struct xreader **rd)
{
	for (unsigned k = 0; rd && k < x->nparts; k++) {
		xread_close(rd[k]);
		free(rd[k]);
	}
	free(rd);
}

/* The result's group of part group lg; SIZE_MAX for none, -ENOMEM said as it. */
size_t xpart_map(struct xres *x, struct xreader *rd, size_t **map, size_t *nmap,
			size_t lg, bool *nomem)
{
	size_t old = *nmap;

	if (xgrow(map, nmap, lg + 1, sizeof(**map))) {
		*nomem = true;
		return SIZE_MAX;
	}
	for (size_t i = old; i < *nmap; i++)
		(*map)[i] = UNMAPPED;
	if ((*map)[lg] == UNMAPPED)
		(*map)[lg] = find_group(x, xpart_group_name(x, rd, lg));
	return (*map)[lg];
}

