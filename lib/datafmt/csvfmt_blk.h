/* SPDX-License-Identifier: MIT */
/*
 * CSV rows straight from a binary block's column chunks (binblock.h), the
 * same bytes as decoding the rows and formatting them with csvfmt.h: an
 * INT cell prints from its integer, a scaled-decimal float (WFW_ENC_DEC)
 * from its integer k and scale, never going through a double.
 */
#ifndef WFW_CSVFMT_BLK_H
#define WFW_CSVFMT_BLK_H

#include <stddef.h>
#include <stdint.h>

#include "datafmt/binblock.h"
#include "datafmt/csvfmt.h"

/* Extra bytes the output needs past n * f->row_max. */
#define WFW_CSVFMT_BLK_SLACK	64

struct wfw_csvfmt_blk_src;

struct wfw_csvfmt_blk {
	struct wfw_csvfmt *f;
	struct wfw_csvfmt_blk_src *src;	/* per output column */
	char *slots;			/* a tile of cells' texts (csvfmt_cols.c) */
	unsigned char *codes;		/* a column's codes of picked rows */
};

/* For rows formatted by f (its schema: the output columns). 0 or -ENOMEM. */
int wfw_csvfmt_blk_init(struct wfw_csvfmt_blk *b, struct wfw_csvfmt *f);
void wfw_csvfmt_blk_free(struct wfw_csvfmt_blk *b);

/*
 * Rows [first, first + n) of a parsed block (cols: its chunks, every
 * input column) into buf, which has n * f->row_max + WFW_CSVFMT_BLK_SLACK
 * bytes. Output column j is input column map[j] (map NULL: j). Returns
 * the text's length.
 */
size_t wfw_csvfmt_blk_rows(struct wfw_csvfmt_blk *b, const struct wfw_blk_col *cols,
			   const size_t *map, size_t first, size_t n, char *buf);

/*
 * The same for rows rows[0, n) of the block (a selection: numbers of rows
 * within the block, in the order printed).
 */
size_t wfw_csvfmt_blk_pick(struct wfw_csvfmt_blk *b, const struct wfw_blk_col *cols,
			   const size_t *map, const uint32_t *rows, size_t n, char *buf);

#endif /* WFW_CSVFMT_BLK_H */
