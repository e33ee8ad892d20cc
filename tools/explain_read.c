/* SPDX-License-Identifier: MIT */
/* calc --explain: a part of the file into rows (explain_read.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_read.h"

/* What a column's cells become. */
enum conv { CV_MILLI, CV_COUNT, CV_PID, CV_ENUM };

_Static_assert(XEMPTY == WULTFW_CELL_EMPTY, "an empty INT cell copies as XEMPTY");

/* A cell of text where a number belongs; told apart from XEMPTY, XBAD. */
#define XTEXT (INT64_MIN + 2)

/* An INT cell scaled by mul / div, rounded; XBAD when it does not fit. */
static int64_t scale(int64_t v, int64_t mul, int64_t div)
{
	int64_t half = div / 2, out;

	if (__builtin_mul_overflow(v, mul, &out))
		return XBAD;
	if (div == 1)
		return out;
	if (__builtin_add_overflow(out, out < 0 ? -half : half, &out))
		return XBAD;
	return out / div;
}

/* A number cell in thousandths of its shown unit (mul 1000) or as shown. */
static int64_t number(const struct wultfw_column *col, union wultfw_cell v, int64_t mul)
{
	int64_t div = col->divisor ? col->divisor : 1;
	double d;

	switch (col->type) {
	case WULTFW_COL_INT:
		if (v.i == WULTFW_CELL_EMPTY)
			return XEMPTY;
		if (div == mul)
			return v.i;
		return div < mul ? scale(v.i, mul / div, 1) : scale(v.i, 1, div / mul);
	case WULTFW_COL_FLOAT:
		if (isnan(v.f))
			return XEMPTY;
		d = round(v.f * (double)mul);
		return d > -9.2e18 && d < 9.2e18 ? (int64_t)d : XBAD;
	default:
		return v.i == -1 ? XEMPTY : XTEXT;
	}
}

/*
 * The common cases without a test per cell: INT cells already in the unit
 * wanted (WULTFW_CELL_EMPTY is XEMPTY), enum indexes in range. False: the
 * cells need conv_col().
 */
static bool conv_fast(const struct wultfw_column *col, enum conv cv,
		      const union wultfw_cell *in, size_t n, int64_t *out)
{
	uint32_t div = col->divisor ? col->divisor : 1;
	bool bad = false;

	if (col->type == WULTFW_COL_INT && ((cv == CV_MILLI && div == 1000) ||
					    (cv == CV_COUNT && div == 1))) {
		memcpy(out, in, n * sizeof(*out));
		return true;
	}
	if (col->type == WULTFW_COL_INT && cv == CV_PID && div == 1) {
		for (size_t i = 0; i < n; i++)	/* WULTFW_CELL_EMPTY too: -1 */
			out[i] = in[i].i < 0 || in[i].i > INT32_MAX ? -1 : in[i].i;
		return true;
	}
	if (col->type != WULTFW_COL_ENUM || cv != CV_ENUM)
		return false;
	for (size_t i = 0; i < n; i++) {
		out[i] = in[i].i;
		bad |= in[i].i < -1 || in[i].i >= (int64_t)col->n_enum;
	}
	return !bad;
}

/* One column of the selected rows into out; the first bad one's index. */
static size_t conv_col(const struct wultfw_column *col, enum conv cv,
		       const union wultfw_cell *in, const uint32_t *keep,
		       size_t n, int64_t *out)
{
	bool is_enum = col->type == WULTFW_COL_ENUM;
	size_t bad = SIZE_MAX;

	if (!keep && conv_fast(col, cv, in, n, out))
		return SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		union wultfw_cell v = in[keep ? keep[i] : i];
		int64_t o;

		if (cv == CV_ENUM && !is_enum) {	/* numbers: only empty cells fit */
			o = number(col, v, 1) == XEMPTY ? -1 : XTEXT;
		} else if (cv == CV_ENUM) {
			o = v.i < -1 || v.i >= (int64_t)col->n_enum ? XBAD : v.i;
		} else {
			o = number(col, v, cv == CV_MILLI ? 1000 : 1);
			if (cv == CV_PID)
				o = o < 0 || o > INT32_MAX ? (o == XTEXT ? XTEXT : -1) : o;
		}
		if ((o == XTEXT || (cv == CV_ENUM && o == XBAD)) && bad == SIZE_MAX)
			bad = i;
		out[i] = o;
	}
	return bad;
}

static int say(struct xreader *p, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(struct xreader *p, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return err;
}

/* Column c of the rows just read, as cv, into out: 0, or why not (p->err). */
static int conv(struct xres *x, struct xreader *p, int c, enum conv cv, int64_t *out)
{
	const struct wultfw_column *col;
	size_t bad;

	if (c < 0) {
		for (size_t i = 0; i < p->b.n; i++)
			out[i] = cv == CV_PID || cv == CV_ENUM ? -1 : XEMPTY;
		return 0;
	}
	col = &wfw_reader_schema(p->rd)->cols[c];
	bad = conv_col(col, cv, p->cb.col[c], wfw_select_active(&p->sel) ? p->keep : NULL,
		       p->b.n, out);
	if (bad == SIZE_MAX)
		return 0;
	if (cv == CV_ENUM && col->type == WULTFW_COL_ENUM)	/* the reader checks it too */
		return say(p, -EINVAL, "%s: %s holds an index outside its %zu names (a damaged file?)",
			   x->r->path, col->name, col->n_enum);
	return say(p, -EINVAL, "%s: %s holds %s where %s belong (see doc/attribution.md)",
		   x->r->path, col->name, cv == CV_ENUM ? "numbers" : "text",
		   cv == CV_ENUM ? "names" : "numbers");
}

/* The columns a pass reads: the analysis's and the selection's. */
static void wanted(const struct xres *x, const struct xreader *p, bool *want)
{
	int more[] = { x->cause, x->pid, x->scol };

	want[x->lat] = true;
	for (int k = 0; k < WFW_XP_NCAT; k++)
		want[x->t[k]] = true;
	if (x->gcol >= 0)
		want[x->gcol] = true;
	for (int k = 0; p->all && k < WFW_XP_NCNT; k++)
		if (x->cnt[k] >= 0)
			want[x->cnt[k]] = true;
	for (size_t k = 0; p->all && k < sizeof(more) / sizeof(more[0]); k++)
		if (more[k] >= 0)
			want[more[k]] = true;
	wfw_select_columns(&p->sel, want);
}

int xread_open(struct xres *x, struct xreader *p, unsigned part, bool all)
{
	struct wfw_reader_opts o = { .one_pass = x->one_pass, .part = part,
				     .nparts = x->nparts };
	const struct wultfw_schema *s;
	bool *want;
	size_t at;
	int ret;

	p->all = all;
	ret = wfw_reader_open_opts(&p->rd, x->r->path, &o, p->err, sizeof(p->err));
	if (ret)
		return ret;
	s = wfw_reader_schema(p->rd);
	at = (size_t)snprintf(p->err, sizeof(p->err), "%s: ", x->r->path);
	ret = wfw_select_init(&p->sel, x->c->include, x->c->exclude, s, p->err + at,
			      sizeof(p->err) - at);
	if (ret)
		return ret;
	/* `index` numbers rows in the whole file; else with one part. */
	p->first = 0;
	if (wfw_select_uses_index(&p->sel) && wfw_reader_first_row(p->rd, &p->first))
		return say(p, -EAGAIN, "%s: cannot number a part's rows", x->r->path);
	want = calloc(s->ncols, sizeof(*want));
	if (!want)
		return say(p, -ENOMEM, "out of memory");
	wanted(x, p, want);
	ret = wfw_col_batch_alloc(&p->cb, s->ncols, XB_ROWS, want);
	free(want);
	return ret ? say(p, -ENOMEM, "out of memory") : 0;
}

/* The rows just read that the selection keeps: p->keep, p->b.row. */
static int select_rows(struct xreader *p, size_t n)
{
	if (!wfw_select_active(&p->sel)) {
		for (size_t i = 0; i < n; i++)
			p->b.row[i] = p->rows + i;
		p->b.n = n;
		return 0;
	}
	p->b.n = wfw_select_cols(&p->sel, (const union wultfw_cell *const *)p->cb.col,
				 p->cb.ncols, n, p->first + p->rows, p->keep);
	if (p->b.n == (size_t)-1)
		return say(p, -ENOMEM, "out of memory");
	for (size_t i = 0; i < p->b.n; i++)
		p->b.row[i] = p->rows + p->keep[i];
	return 0;
}

long xread_next(struct xres *x, struct xreader *p)
{
	long n;
	int ret = 0;

	/* A batch the selection keeps nothing of is not the end. */
	do {
		p->cb.rows = 0;
		n = wfw_reader_read_cols(p->rd, &p->cb);
		if (n < 0)
			return say(p, (int)n, "%s", wfw_reader_error(p->rd));
		if (!n)
			return 0;
		ret = select_rows(p, (size_t)n);
		p->rows += (uint64_t)n;
	} while (!ret && !p->b.n);
	if (!ret)
		ret = conv(x, p, x->lat, CV_MILLI, p->b.lat);
	for (int k = 0; k < WFW_XP_NCAT && !ret; k++)
		ret = conv(x, p, x->t[k], CV_MILLI, p->b.t[k]);
	if (!ret)
		ret = conv(x, p, x->gcol, CV_ENUM, p->b.grp);
	for (int k = 0; k < WFW_XP_NCNT && !ret && p->all; k++)
		ret = conv(x, p, x->cnt[k], CV_COUNT, p->b.cnt[k]);
	if (!ret && p->all)
		ret = conv(x, p, x->cause, CV_ENUM, p->b.cause);
	if (!ret && p->all)
		ret = conv(x, p, x->pid, CV_PID, p->b.pid);
	if (!ret && p->all)
		ret = conv(x, p, x->scol, CV_ENUM, p->b.state);
	return ret ? ret : (long)p->b.n;
}

void xread_close(struct xreader *p)
{
	if (p->cb.col)
		wfw_col_batch_free(&p->cb);
	wfw_select_free(&p->sel);
	if (p->rd)
		wfw_reader_close(p->rd);
	memset(&p->cb, 0, sizeof(p->cb));
	p->rd = NULL;
}

void xbatch_row(const struct xbatch *b, size_t i, struct xrow *r)
{
	r->lat = b->lat[i];
	for (int k = 0; k < WFW_XP_NCAT; k++)
		r->t[k] = b->t[k][i];
	for (int k = 0; k < WFW_XP_NCNT; k++)
		r->cnt[k] = b->cnt[k][i];
	r->pid = b->pid[i];
	r->cause = b->cause[i];
	r->state = b->state[i];
	r->row = b->row[i];
	r->kind = xrow_kind(r);
}
