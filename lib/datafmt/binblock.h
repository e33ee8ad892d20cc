/* SPDX-License-Identifier: MIT */
/*
 * Blocks of the binary format, version 2 (doc/binary-format.md): a block
 * header (rows, payload length, payload CRC-32C, header CRC-32C) and one
 * chunk per column, each cell packed into the bytes its block's range
 * needs. Encoding is lossless for every 64-bit cell.
 */
#ifndef WFW_BINBLOCK_H
#define WFW_BINBLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wultfw/plugin.h>

#include "datafmt/decimal.h"

#define WFW_BLK_HDR_LEN		16	/* block header */
#define WFW_BLK_CHUNK_LEN	12	/* column chunk header */
#define WFW_BLK_MAX_ROWS	65536u
#define WFW_BLK_SLACK		8	/* readable bytes needed past a payload */

/* Column chunk encodings (stable codes in the file). */
#define WFW_ENC_FOR		0	/* cell = base + u */
#define WFW_ENC_FOR_EMPTY	1	/* u == 0: WULTFW_CELL_EMPTY; else base + u - 1 */
#define WFW_ENC_DEC		2	/* cell.f = (double)(base + u) / 10^scale */

/* Rows per block the writer uses for a schema of ncols columns. */
uint32_t wfw_blk_rows_for(size_t ncols);

/* Upper bound of an encoded block (header included) of `rows` rows. */
size_t wfw_blk_bound(size_t ncols, size_t rows);

/*
 * Rows given row-major (ncols cells a row) into column-major: cell c of
 * row r to dst[c * stride + r], as wfw_blk_encode() takes them.
 */
void wfw_blk_stage(union wultfw_cell *dst, size_t stride,
		   const union wultfw_cell *src, size_t ncols, size_t rows);

/*
 * Encode `rows` rows given column-major (column c's cells start at
 * cols + c * stride) as one block at out, which has wfw_blk_bound() +
 * WFW_BLK_SLACK bytes. Returns the block's length.
 */
size_t wfw_blk_encode(const struct wultfw_schema *s,
		      const union wultfw_cell *cols, size_t stride,
		      size_t rows, unsigned char *out);

struct wfw_blk_hdr {
	uint32_t rows;
	uint32_t len;		/* payload bytes after the header */
	uint32_t crc;		/* CRC-32C of the payload */
};

/*
 * Parse a block header: 0, -EBADMSG when its own checksum fails, -EINVAL
 * when it is intact but impossible for this schema (rows, length).
 */
int wfw_blk_hdr_parse(const unsigned char *p, size_t ncols,
		      uint32_t max_rows, struct wfw_blk_hdr *h);

/* A block header's 16 bytes at p, its own checksum computed. */
void wfw_blk_hdr_put(unsigned char *p, const struct wfw_blk_hdr *h);

/* A column chunk of a checked payload. */
struct wfw_blk_col {
	const unsigned char *data;
	uint64_t base;
	uint8_t enc, width, scale;
};

/*
 * Check a payload (its CRC already verified) against the schema: every
 * chunk's encoding, width and length, enum cells within their tables.
 * Fills cols[ncols]. 0, or -EINVAL with a reason in err.
 */
int wfw_blk_parse(const struct wultfw_schema *s, const unsigned char *payload,
		  size_t len, uint32_t rows, struct wfw_blk_col *cols,
		  char *err, size_t errlen);

/* Cells of rows [first, first + n) into dst (row-major, ncols per row). */
void wfw_blk_decode(const struct wfw_blk_col *cols, size_t ncols,
		    size_t first, size_t n, union wultfw_cell *dst);

/* Cells of rows [first, first + n) of one column into dst[0, n). */
void wfw_blk_decode_col(const struct wfw_blk_col *c, size_t first, size_t n,
			union wultfw_cell *dst);

/*
 * The same for an INT column, as numbers: each cell as (double)cell.i, an
 * empty cell as the empty NaN (WULTFW_FLOAT_EMPTY_BITS).
 */
void wfw_blk_decode_num(const struct wfw_blk_col *c, size_t first, size_t n,
			double *dst);

struct wfw_run_sums;	/* stats/moments.h */

/*
 * The same for numbers (an INT column's with no empty cell, scaled
 * decimals), with their extremes and sum as wfw_min_max_sum() from
 * INFINITY, -INFINITY gives them, bit for bit, found on the way: true;
 * false and nothing done for other chunks.
 */
bool wfw_blk_decode_sums(const struct wfw_blk_col *c, enum wultfw_col_type type,
			 size_t first, size_t n, double *dst, struct wfw_run_sums *s);

/*
 * Whether a chunk of a column of this type may decode to a NaN (FLOAT),
 * an empty cell (INT) or, as numbers, the empty NaN.
 */
bool wfw_blk_may_nan(const struct wfw_blk_col *c, enum wultfw_col_type type);

#endif /* WFW_BINBLOCK_H */
