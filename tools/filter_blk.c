/* SPDX-License-Identifier: MIT */
/*
 * One block of a version 2 binary file, filtered without decoding it
 * whole: only the columns the selection reads are decoded, and the kept
 * rows' packed cells are gathered chunk by chunk into a new block with the
 * same encoding, width, scale and base per column (a subset of a chunk's
 * cells fits its plan and reads back bit for bit). A block whose rows are
 * all kept, with every column, is copied as it is.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "datafmt/binblock.h"
#include "datafmt/crc32c.h"

int blk_filter_init(struct blk_filter *f, const struct wultfw_schema *s,
		    const struct wfw_select *sel, const size_t *map, size_t nout,
		    uint32_t block_rows)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	f->sel = sel;
	f->map = map;
	f->nout = nout;
	f->block_rows = block_rows;
	f->cols = calloc(s->ncols + 1, sizeof(*f->cols));
	f->used = calloc(s->ncols + 1, sizeof(*f->used));
	f->keep = malloc(((size_t)block_rows + 1) * sizeof(*f->keep));
	if (!f->cols || !f->used || !f->keep)
		return -ENOMEM;
	if (!sel || !wfw_select_active(sel))
		return 0;
	wfw_select_columns(sel, f->used);
	f->at = calloc(s->ncols + 1, sizeof(*f->at));
	f->store = malloc((size_t)block_rows * (s->ncols + 1) * sizeof(*f->store));
	if (!f->at || !f->store)
		return -ENOMEM;
	for (size_t c = 0; c < s->ncols; c++)
		f->at[c] = f->used[c] ? f->store + c * (size_t)block_rows : NULL;
	return 0;
}

void blk_filter_free(struct blk_filter *f)
{
	free(f->cols);
	free(f->used);
	free(f->keep);
	free(f->at);
	free(f->store);
	memset(f, 0, sizeof(*f));
}

/*
 * The rows of the block the selection keeps into f->keep: their number,
 * or -ENOMEM. Only the columns it reads are decoded.
 */
static long select_rows(struct blk_filter *f, uint32_t rows, uint64_t first)
{
	const struct wfw_select *sel = f->sel;
	size_t k;

	if (!sel || !wfw_select_active(sel)) {
		for (uint32_t r = 0; r < rows; r++)
			f->keep[r] = r;
		return rows;
	}
	for (size_t c = 0; c < f->s->ncols; c++)
		if (f->at[c])
			wfw_blk_decode_col(&f->cols[c], 0, rows, f->at[c]);
	k = wfw_select_cols(sel, (const union wultfw_cell *const *)f->at, f->s->ncols,
			    rows, first, f->keep);
	return k == (size_t)-1 ? -ENOMEM : (long)k;
}

/*
 * Cells of width w (a constant per call site) at keep[] into dst. Each
 * copy is 8 bytes: past a chunk's end it reads into the next chunk or the
 * block's slack and writes where the next chunk (written after) or the
 * output's slack is.
 */
static inline __attribute__((always_inline)) void
gather_w(const unsigned char *src, size_t w, const uint32_t *keep, size_t n,
	 unsigned char *dst)
{
	for (size_t i = 0; i < n; i++)
		memcpy(dst + i * w, src + (size_t)keep[i] * w, 8);
}

static void gather(const struct wfw_blk_col *c, const uint32_t *keep, size_t n,
		   unsigned char *dst)
{
	switch (c->width) {
	case 0: break;
	case 1: gather_w(c->data, 1, keep, n, dst); break;
	case 2: gather_w(c->data, 2, keep, n, dst); break;
	case 3: gather_w(c->data, 3, keep, n, dst); break;
	case 4: gather_w(c->data, 4, keep, n, dst); break;
	case 5: gather_w(c->data, 5, keep, n, dst); break;
	case 6: gather_w(c->data, 6, keep, n, dst); break;
	case 7: gather_w(c->data, 7, keep, n, dst); break;
	default: gather_w(c->data, 8, keep, n, dst); break;
	}
}

/* The output columns' chunks of the kept rows (all: copied whole) at p. */
static size_t put_chunks(const struct blk_filter *f, uint32_t rows, uint32_t kept,
			 unsigned char *p)
{
	unsigned char *start = p;

	for (size_t j = 0; j < f->nout; j++) {
		const struct wfw_blk_col *c = &f->cols[f->map ? f->map[j] : j];
		const unsigned char *hdr = c->data - WFW_BLK_CHUNK_LEN;

		memcpy(p, hdr, WFW_BLK_CHUNK_LEN);
		p += WFW_BLK_CHUNK_LEN;
		if (kept == rows)
			memcpy(p, c->data, (size_t)rows * c->width);
		else
			gather(c, f->keep, kept, p);
		p += (size_t)kept * c->width;
	}
	return (size_t)(p - start);
}

long blk_filter_run(struct blk_filter *f, const unsigned char *blk, size_t len,
		    uint32_t rows, uint64_t first, unsigned char *out,
		    const unsigned char **res,
		    uint32_t *kept, char *err, size_t errlen)
{
	const unsigned char *payload = blk + WFW_BLK_HDR_LEN;
	unsigned char *p = out + WFW_BLK_HDR_LEN;
	size_t plen;
	long k;

	*kept = 0;
	if (wfw_blk_parse(f->s, payload, len - WFW_BLK_HDR_LEN, rows, f->cols,
			  err, errlen))
		return -EINVAL;
	k = select_rows(f, rows, first);
	if (k < 0)
		snprintf(err, errlen, "out of memory");
	if (k <= 0)
		return k;
	*kept = (uint32_t)k;
	if (*kept == rows && !f->map) {
		*res = blk;
		return (long)len;
	}
	*res = out;
	plen = put_chunks(f, rows, *kept, p);
	wfw_blk_hdr_put(out, &(struct wfw_blk_hdr){ *kept, (uint32_t)plen,
			wfw_crc32c(0, p, plen) });
	return (long)(WFW_BLK_HDR_LEN + plen);
}
