/* SPDX-License-Identifier: MIT */
/*
 * calc --explain: one part of a result file read into rows as the
 * analysis takes them, column by column (a binary file decodes only the
 * columns a pass needs), through calc's --include/--exclude.
 */
#ifndef WFW_EXPLAIN_READ_H
#define WFW_EXPLAIN_READ_H

#include "datafmt/reader.h"
#include "expr/expr.h"
#include "explain_impl.h"

#define XB_ROWS 1024

/* The selected rows of one read, column by column. */
struct xbatch {
	size_t n;
	uint64_t row[XB_ROWS];		/* in the part, from 0 */
	int64_t lat[XB_ROWS];		/* thousandths of the unit; XEMPTY, XBAD */
	int64_t t[WFW_XP_NCAT][XB_ROWS];
	int64_t cnt[WFW_XP_NCNT][XB_ROWS];
	int64_t pid[XB_ROWS];		/* -1: none */
	int64_t cause[XB_ROWS];		/* enum indexes, -1: none */
	int64_t state[XB_ROWS];
	int64_t grp[XB_ROWS];
};

struct xreader {
	struct wfw_reader *rd;
	struct wfw_select sel;
	struct wfw_col_batch cb;
	uint32_t keep[XB_ROWS];
	bool all;			/* every column, else the latency's and times */
	uint64_t rows;			/* rows read (selected or not) */
	uint64_t first;			/* the part's first row's number (index) */
	struct xbatch b;
	char err[1024];
};

/*
 * Open part `part` of x->nparts of the file, to read the latency, the
 * times and the group column, or (all) every column the analysis shows.
 * 0 or an error said in p->err. xread_close() in any case.
 */
int xread_open(struct xres *x, struct xreader *p, unsigned part, bool all);
/*
 * The next selected rows into p->b: their number (batches with none are
 * read past), 0 at the end, or an error (p->err).
 */
long xread_next(struct xres *x, struct xreader *p);
void xread_close(struct xreader *p);

/* Row i of the batch as one datapoint (its row still the part's). */
void xbatch_row(const struct xbatch *b, size_t i, struct xrow *r);

/* ---- shared by the passes (explain_parts.c) ---- */

struct wfw_par_ops;

/* Part groups: 0 all, 1 no value ("-"), 2 + the group column's index. */
size_t xpart_group(const struct xres *x, const struct xbatch *b, size_t i);
const char *xpart_group_name(const struct xres *x, const struct xreader *p, size_t lg);
/*
 * The result's group of part group lg, looked up once (*map grows); SIZE_MAX
 * when the result has none, or with *nomem set. Threads may call it at once.
 */
size_t xpart_map(struct xres *x, struct xreader *rd, size_t **map, size_t *nmap,
		 size_t lg, bool *nomem);
/*
 * Part k read (every column the analysis shows, or not: xread_open()),
 * each batch of rows handed to batch(x, arg); 0, or the first error.
 */
int xread_part(struct xres *x, struct xreader *rd, unsigned k, bool all,
	       int (*batch)(struct xres *x, void *arg), void *arg);
/* A reader per part, and their end. */
struct xreader **xreaders(struct xres *x);
void xreaders_free(struct xres *x, struct xreader **rd);
/* The parts of a pass on lib/par; the failed part's message into x->err. */
int xpass_run(struct xres *x, const struct wfw_par_ops *ops, void *ctx,
	      struct xreader **rd);

#endif
