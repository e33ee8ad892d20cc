/* SPDX-License-Identifier: MIT */
/*
 * How the block formatter reads one output column from its chunk
 * (csvfmt_src.h), shared by the row-by-row path (csvfmt_blk.c) and the
 * column-at-a-time one (csvfmt_cols.c).
 */
#include "config.h"

#include "datafmt/binblock.h"
#include "datafmt/csvfmt_fixed.h"
#include "datafmt/csvfmt_src.h"
#include "datafmt/decimal.h"

static const uint64_t pow10_small[10] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL,
};

void wfw_csvfmt_src_setup(struct wfw_csvfmt_blk_src *s, const struct wfw_blk_col *c,
			  struct wfw_csvfmt_col *fc)
{
	*s = (struct wfw_csvfmt_blk_src){
		.data = c->data, .base = c->base, .w = c->width, .fc = fc,
		.mask = c->width >= 8 ? ~0ULL : (1ULL << (8 * c->width)) - 1,
		.minus = c->enc == WFW_ENC_FOR_EMPTY, .kind = SRC_CELL,
		.p10 = c->enc == WFW_ENC_DEC ? wfw_pow10_exact[c->scale] : 0,
	};
	if (fc->type == WULTFW_COL_ENUM && c->enc != WFW_ENC_DEC)
		s->kind = SRC_ENUM;
	if (!WFW_FIXED_OK)
		return;
	if (fc->type == WULTFW_COL_INT && c->enc != WFW_ENC_DEC &&
	    fc->decimals <= WFW_FIXED_MAX_SCALE) {
		s->s = fc->decimals;
		s->kind = s->s == 3 ? SRC_INT3 : SRC_INT;
	} else if (fc->type == WULTFW_COL_FLOAT && c->enc == WFW_ENC_DEC &&
		   c->scale <= WFW_FIXED_MAX_SCALE && !fc->bare) {
		s->s = c->scale;
		s->kind = s->s == 3 ? SRC_DEC3 : SRC_DEC;
		s->dec_lo = c->scale > 4 ? pow10_small[c->scale - 4] : 1;
	}
}

/* The cell as wfw_blk_decode() gives it, formatted by csvfmt.c. */
char *wfw_csvfmt_src_cell(const struct wfw_csvfmt_blk_src *s, char *p, uint64_t u)
{
	union wultfw_cell v = { .i = (int64_t)(s->base + u) };

	if (s->p10)	/* a DEC chunk */
		v.f = (double)v.i / s->p10;
	else if (s->minus)	/* FOR_EMPTY */
		v.i = u ? (int64_t)(s->base + u - 1) : WULTFW_CELL_EMPTY;
	return wfw_csvfmt_cell(s->fc, p, v);
}
