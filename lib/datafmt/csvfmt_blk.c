/* SPDX-License-Identifier: MIT */
/*
 * Rows of a binary block as CSV text (csvfmt_blk.h). How each column's
 * chunk is read is settled once per block (csvfmt_src.c); the rows are
 * then formatted a column at a time (csvfmt_cols.c), or, when an enum
 * name is longer than a slot there, row by row here reading each
 * column's packed integers directly.
 *
 * Why a scaled decimal's text is k / 10^s with its trailing zeros cut:
 * the cell is the double nearest k / 10^s. When 0 < |k| < 10^15 the
 * decimal has at most 15 significant digits, so "%.15g" of that double
 * gives it back (DBL_DIG is 15) and reads back to the same double, which
 * makes it the shortest csvfmt.h prints; %g shows it without an exponent
 * when 1e-4 <= |k| / 10^s < 1e15. Zero prints "0.0" either way. Any other
 * k, and scale 9, take the double path.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "datafmt/csvfmt_blk.h"
#include "datafmt/csvfmt_fixed.h"
#include "datafmt/csvfmt_src.h"
#include "datafmt/le.h"

int wfw_csvfmt_blk_init(struct wfw_csvfmt_blk *b, struct wfw_csvfmt *f)
{
	const size_t ncols = f->schema->ncols;

	b->f = f;
	b->src = calloc(ncols, sizeof(*b->src));
	/*
	 * Slots, and room for the last one's 32-byte copy from its middle;
	 * on a cache line, a slot's copy never crosses one.
	 */
	b->slots = aligned_alloc(64, ncols * WFW_CSVFMT_COL_BYTES + 64);
	b->codes = malloc(WFW_CSVFMT_CODES);
	if (b->src && b->slots && b->codes)
		return 0;
	wfw_csvfmt_blk_free(b);
	return -ENOMEM;
}

void wfw_csvfmt_blk_free(struct wfw_csvfmt_blk *b)
{
	free(b->src);
	free(b->slots);
	free(b->codes);
	b->src = NULL;
	b->slots = NULL;
	b->codes = NULL;
}

/* sc: s->s, as a constant where the caller knows it */
static inline __attribute__((always_inline)) char *
int_cell(const struct wfw_csvfmt_blk_src *s, char *p, uint64_t u, unsigned sc)
{
	int64_t k = (int64_t)(s->base + u - s->minus);

	if (s->minus && !u)
		return p;	/* FOR_EMPTY's code 0: an empty cell */
	if (k <= -(int64_t)WFW_FIXED_LIMIT || k >= (int64_t)WFW_FIXED_LIMIT)
		return wfw_csvfmt_src_cell(s, p, u);	/* also INT64_MIN: empty */
	return p + wfw_fmt_fixed16(p, k, sc, false);
}

static inline __attribute__((always_inline)) char *
dec_cell(const struct wfw_csvfmt_blk_src *s, char *p, uint64_t u, unsigned sc)
{
	int64_t k = (int64_t)(s->base + u);
	uint64_t mag = k < 0 ? 0 - (uint64_t)k : (uint64_t)k;

	if (mag >= 1000000000000000ULL || (mag && mag < s->dec_lo))
		return wfw_csvfmt_src_cell(s, p, u);
	return p + wfw_fmt_fixed16(p, k, sc, true);
}

static inline char *blk_cell(const struct wfw_csvfmt_blk_src *s, char *p, size_t r)
{
	uint64_t u = wfw_get64(s->data + r * s->w) & s->mask;

	switch (s->kind) {
	case SRC_INT: return int_cell(s, p, u, s->s);
	case SRC_INT3: return int_cell(s, p, u, 3);
	case SRC_DEC: return dec_cell(s, p, u, s->s);
	case SRC_DEC3: return dec_cell(s, p, u, 3);
	default: return wfw_csvfmt_src_cell(s, p, u);
	}
}

/* Rows [first, first + n), or pick[0, n) (not NULL), of the block into buf. */
static size_t blk_format(struct wfw_csvfmt_blk *b, const struct wfw_blk_col *cols,
			 const size_t *map, size_t first, const uint32_t *pick, size_t n,
			 char *buf)
{
	const size_t ncols = b->f->schema->ncols;
	const struct wfw_csvfmt_blk_src *end = b->src + ncols;
	char *p = buf;
	bool tiles = true;

	for (size_t j = 0; j < ncols; j++) {
		wfw_csvfmt_src_setup(&b->src[j], &cols[map ? map[j] : j], &b->f->col[j]);
		if (b->f->col[j].type == WULTFW_COL_ENUM && b->f->col[j].max > WFW_CSVFMT_NAME_MAX)
			tiles = false;	/* a name and its comma longer than a slot */
	}
	if (tiles)
		return wfw_csvfmt_cols_rows(b->src, ncols, first, pick, n, b->slots,
					    b->codes, buf);
	for (size_t i = 0; i < n; i++) {
		size_t r = pick ? pick[i] : first + i;

		for (const struct wfw_csvfmt_blk_src *s = b->src; s < end; s++) {
			p = blk_cell(s, p, r);
			*p++ = ',';
		}
		p[-1] = '\n';
	}
	return (size_t)(p - buf);
}

size_t wfw_csvfmt_blk_rows(struct wfw_csvfmt_blk *b, const struct wfw_blk_col *cols,
			   const size_t *map, size_t first, size_t n, char *buf)
{
	return blk_format(b, cols, map, first, NULL, n, buf);
}

size_t wfw_csvfmt_blk_pick(struct wfw_csvfmt_blk *b, const struct wfw_blk_col *cols,
			   const size_t *map, const uint32_t *rows, size_t n, char *buf)
{
	return blk_format(b, cols, map, 0, rows, n, buf);
}
