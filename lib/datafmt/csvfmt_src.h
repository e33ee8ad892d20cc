/* SPDX-License-Identifier: MIT */
/*
 * How the block formatter (csvfmt_blk.c, csvfmt_cols.c) reads one output
 * column from its chunk (csvfmt_src.c): private to those files.
 */
#ifndef WFW_CSVFMT_SRC_H
#define WFW_CSVFMT_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "datafmt/csvfmt.h"

enum wfw_src_kind {
	SRC_INT,	/* INT cells, FOR or FOR_EMPTY */
	SRC_INT3,	/* the same with 3 decimals (us from ns) */
	SRC_DEC,	/* FLOAT, scaled decimals */
	SRC_DEC3,	/* the same at scale 3 (a CSV's 3 decimals) */
	SRC_ENUM,	/* ENUM names */
	SRC_CELL,	/* anything else: the cell, formatted as csvfmt.c does */
};

struct wfw_csvfmt_blk_src {
	const unsigned char *data;
	uint64_t base, mask;
	uint64_t minus;		/* FOR_EMPTY: 1 (code 0 is empty) */
	uint64_t dec_lo;	/* DEC: the smallest |k| shown without exponent */
	size_t w;
	enum wfw_src_kind kind;
	unsigned s;		/* INT: decimals; DEC: scale */
	double p10;		/* a DEC chunk's 10^scale, else 0 */
	bool small;		/* csvfmt_cols.c: every cell short, not negative */
	struct wfw_csvfmt_col *fc;
};

struct wfw_blk_col;

/* How output column fc reads chunk c, settled once per block. */
void wfw_csvfmt_src_setup(struct wfw_csvfmt_blk_src *s, const struct wfw_blk_col *c,
			  struct wfw_csvfmt_col *fc);

/* Code u of s's chunk formatted as csvfmt.c does, at p; the text's end. */
char *wfw_csvfmt_src_cell(const struct wfw_csvfmt_blk_src *s, char *p, uint64_t u);

/* Tile of rows (csvfmt_cols.c): slots of this many bytes per cell. */
#define WFW_CSVFMT_SLOT		32
#define WFW_CSVFMT_TILE		64
/*
 * A column's slots and a cache line: a power of two apart, a row's cells
 * would all fall in the same two sets of the L1 cache.
 */
#define WFW_CSVFMT_COL_BYTES	(WFW_CSVFMT_TILE * WFW_CSVFMT_SLOT + 64)
#define WFW_CSVFMT_NAME_MAX	(WFW_CSVFMT_SLOT - 3)	/* its comma, 2 bytes of place */

/*
 * Rows [first, first + n) (pick NULL) or rows pick[0, n) into buf as
 * wfw_csvfmt_blk_rows() says, a tile at a time through slots (ncols *
 * WFW_CSVFMT_COL_BYTES + WFW_CSVFMT_SLOT bytes) and, with pick, codes
 * (WFW_CSVFMT_CODES bytes). Every INT and FLOAT cell's text fits a slot;
 * an ENUM column's longest name must be shorter than WFW_CSVFMT_NAME_MAX.
 */
#define WFW_CSVFMT_CODES	(8 * WFW_CSVFMT_TILE + 8)
size_t wfw_csvfmt_cols_rows(struct wfw_csvfmt_blk_src *src, size_t ncols, size_t first,
			    const uint32_t *pick, size_t n, char *slots,
			    unsigned char *codes, char *buf);

#endif /* WFW_CSVFMT_SRC_H */
