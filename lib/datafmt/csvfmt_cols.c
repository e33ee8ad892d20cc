/* SPDX-License-Identifier: MIT */
/*
 * Rows of a binary block as CSV text a column at a time (csvfmt_src.h).
 * A tile of rows is formatted column by column into fixed slots, each
 * cell's text ending with a comma, then the slots are copied out row by
 * row with fixed-size copies, the last comma of a row made a newline.
 * Column by column, the column's kind, its chunk's width and scale stay
 * in registers and the loop has no dispatch; the copy costs a few
 * instructions per cell (about 8, against some 30 saved).
 *
 * The common cell, fewer than 8 digits, is put with its point at DOT:
 * its digits and decimals are stored where they belong in two stores,
 * not shifted into place, and the slot's last two bytes say where its
 * text starts and how long it is. Every other cell (empty, long, the
 * double path) is left for a second pass over the column, so that the
 * first has no calls and keeps its values in registers.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "datafmt/csvfmt_fixed.h"
#include "datafmt/csvfmt_src.h"
#include "datafmt/le.h"

#define SLOT	WFW_CSVFMT_SLOT
#define DOT	9	/* the point's offset: room for '-' and 8 digits */
#define COL	WFW_CSVFMT_COL_BYTES
#define POS	(SLOT - 2)	/* the text's offset and length */
#define NARROW	16	/* the longest cell of the first pass, and more */

/* The text is [start, end) of its slot: its start and length at POS. */
static inline void put_pos(char *slot, unsigned start, unsigned end)
{
	slot[POS] = (char)start;
	slot[POS + 1] = (char)(end - start);
}

static inline unsigned pos_len(const char *slot)
{
	return (unsigned char)slot[POS + 1];
}

/*
 * mag < 10^8, s < 8: k / 10^s with the point at DOT; strip: no trailing
 * zeros but one, s 0 gets ".0"; else exactly s decimals, s 0 no point.
 * small: k is not negative.
 * lb: the first byte of the 8 digits that is not '0' (7 - s at most: a
 * "0" before the point stays), hb: the last one (8 - s at least: a
 * decimal stays).
 */
static inline __attribute__((always_inline)) void
dot8(char *slot, uint64_t mag, unsigned neg, unsigned s, bool strip, bool small)
{
	uint64_t lo = wfw_digits8(mag), z = lo ^ ASCII_ZEROS;
	unsigned lb = (unsigned)__builtin_ctzll(z | 1ULL << (8 * (7 - s))) >> 3;
	unsigned hb = (unsigned)(63 ^ __builtin_clzll(z | 1ULL << (8 * (8 - s) % 64))) >> 3;
	unsigned first = DOT - 8 + s + lb;	/* of the integral digits */
	unsigned end = DOT;

	memcpy(slot + DOT - (8 - s), &lo, 8);
	if (s || strip) {
		uint64_t fw = '.' | (s ? lo >> (64 - 8 * s) : ASCII_ZEROS) << 8;

		memcpy(slot + DOT, &fw, 8);
		end = DOT + 1 + (s ? s : 1);
	}
	if (strip && s)		/* hb + 1 - (8 - s) decimals, 1 at least */
		end = hb + DOT + s - 6;
	if (!small)	/* where it belongs when neg, else outside the text */
		slot[first - 1] = '-';
	slot[end] = ',';
	put_pos(slot, first - neg, end + 1);
}

/* The cell's fields in locals: stores through char pointers alias all. */
struct col_in {
	const unsigned char *d;
	uint64_t base, mask, minus;
	size_t w;
};

static inline struct col_in col_in(const struct wfw_csvfmt_blk_src *s, size_t first)
{
	return (struct col_in){ .d = s->data + first * s->w, .base = s->base,
				.mask = s->mask, .minus = s->minus, .w = s->w };
}

/* A cell for the second pass. */
static inline void defer(char *slot)
{
	put_pos(slot, 0, 0);
}

/* What the first pass of a column leaves: cells, and cells longer than NARROW. */
#define LEFT	1u
#define WIDE	2u

/* |k| < 10^16 (INT), or a decimal without exponent (DEC), at the slot's start. */
static inline __attribute__((always_inline)) unsigned
fixed_at0(char *slot, int64_t k, unsigned sc, bool dec)
{
	size_t len = wfw_fmt_fixed16(slot, k, sc, dec);

	slot[len] = ',';
	put_pos(slot, 0, (unsigned)len + 1);
	return len + 1 > NARROW ? WIDE : 0;
}

/*
 * First pass of an INT column (sc: its decimals) or a DEC one (sc: the
 * scale, dec_lo: see csvfmt_blk.c): every cell but the empty ones and
 * those printed from a double, which it leaves for the second pass.
 * small: every cell of the chunk is short and not negative (see
 * all_small()), so none is tested. LEFT and WIDE, or 0.
 */
static inline __attribute__((always_inline)) unsigned
num_col(struct col_in in, char *slot, size_t n, unsigned sc, bool dec, uint64_t dec_lo,
	bool small)
{
	const char *end = slot + n * SLOT;	/* not by in.d: a chunk's width may be 0 */
	unsigned ret = 0;

	for (; slot < end; in.d += in.w, slot += SLOT) {
		uint64_t u = wfw_get64(in.d) & in.mask;
		int64_t k = (int64_t)(in.base + u - (dec ? 0 : in.minus));
		uint64_t mag = k < 0 ? 0 - (uint64_t)k : (uint64_t)k;

		if (small) {
			dot8(slot, (uint64_t)k, 0, sc, dec, true);
		} else if ((!dec && in.minus && !u) ||
			   (dec ? mag >= 1000000000000000ULL || (sc > 4 && mag && mag < dec_lo) :
				  mag >= WFW_FIXED_LIMIT)) {
			defer(slot);
			ret |= LEFT;
		} else if (mag < 100000000 && sc < 8) {
			dot8(slot, mag, k < 0, sc, dec, false);
		} else {
			ret |= fixed_at0(slot, k, sc, dec);
		}
	}
	return ret;
}

/*
 * Whether every code of the chunk gives a cell 0 <= k < 10^8 that the
 * first pass prints (a FOR chunk of a few bytes, the common case): its
 * loop then tests nothing.
 */
static bool all_small(const struct wfw_csvfmt_blk_src *s)
{
	const uint64_t lim = 100000000;

	if (s->minus || s->s >= 8 || s->base >= lim || s->mask >= lim - s->base)
		return false;
	return s->kind != SRC_DEC || s->s <= 4 || s->base >= s->dec_lo;
}

/* Second pass: the deferred cells. Whether one is longer than NARROW. */
static bool long_cells(const struct wfw_csvfmt_blk_src *s, char *slot, size_t first,
		       size_t n)
{
	const unsigned char *d = s->data + first * s->w;
	bool wide = false;

	for (size_t r = 0; r < n; r++, d += s->w, slot += SLOT) {
		if (pos_len(slot))
			continue;
		/* empty (FOR_EMPTY's code 0, INT64_MIN) or from the double */
		char *e = wfw_csvfmt_src_cell(s, slot, wfw_get64(d) & s->mask);

		*e = ',';
		put_pos(slot, 0, (unsigned)(e - slot) + 1);
		wide |= pos_len(slot) > NARROW;
	}
	return wide;
}

/* Names of an enum column; out of range (FOR_EMPTY's code 0, -1): empty. */
static bool enum_col(const struct wfw_csvfmt_blk_src *s, char *slot, size_t first,
		     size_t n)
{
	struct col_in in = col_in(s, first);
	char *const *text = s->fc->text;
	const size_t *lens = s->fc->len, n_enum = s->fc->n_enum;
	size_t longest = 0;

	for (size_t r = 0; r < n; r++, in.d += in.w, slot += SLOT) {
		uint64_t u = wfw_get64(in.d) & in.mask;
		uint64_t i = in.base + u - in.minus;
		size_t len = 0;

		if (!(in.minus && !u) && i < n_enum) {
			len = lens[i];
			if (len <= 16)	/* each name has 16 readable bytes */
				memcpy(slot, text[i], 16);
			else
				memcpy(slot, text[i], len);
		}
		slot[len] = ',';
		put_pos(slot, 0, (unsigned)len + 1);
		longest = len > longest ? len : longest;
	}
	return longest + 1 > NARROW;
}

/* Any other column: each cell as csvfmt.c prints it. */
static bool cell_col(const struct wfw_csvfmt_blk_src *s, char *slot, size_t first,
		     size_t n)
{
	const unsigned char *d = s->data + first * s->w;

	for (size_t r = 0; r < n; r++, d += s->w, slot += SLOT) {
		char *e = wfw_csvfmt_src_cell(s, slot, wfw_get64(d) & s->mask);

		*e = ',';
		put_pos(slot, 0, (unsigned)(e - slot) + 1);
	}
	return true;
}

/* The first pass of a numeric column, a loop made for its kind and scale. */
static __attribute__((noinline)) unsigned
num_pass(const struct wfw_csvfmt_blk_src *s, char *slot, size_t first, size_t n)
{
	struct col_in in = col_in(s, first);
	bool small = s->small;

	switch (s->kind) {
	case SRC_INT:
		if (small && !s->s)
			return num_col(in, slot, n, 0, false, 0, true);
		return s->s ? num_col(in, slot, n, s->s, false, 0, false) :
			      num_col(in, slot, n, 0, false, 0, false);
	case SRC_INT3:
		return small ? num_col(in, slot, n, 3, false, 0, true) :
			       num_col(in, slot, n, 3, false, 0, false);
	case SRC_DEC3:
		return small ? num_col(in, slot, n, 3, true, 0, true) :
			       num_col(in, slot, n, 3, true, 0, false);
	default:
		return num_col(in, slot, n, s->s, true, s->dec_lo, false);
	}
}

/* A column's cells into its slots; whether one is longer than NARROW. */
static bool format_col(const struct wfw_csvfmt_blk_src *s, char *slot, size_t first,
		       size_t n)
{
	unsigned left;

	switch (s->kind) {
	case SRC_ENUM:
		return enum_col(s, slot, first, n);
	case SRC_CELL:
		return cell_col(s, slot, first, n);
	default:
		left = num_pass(s, slot, first, n);
		if (left & LEFT)
			left |= long_cells(s, slot, first, n) ? WIDE : 0;
		return left & WIDE;
	}
}

/* One row's cells, a slot of each column, into p: the end of the text. */
static inline __attribute__((always_inline)) char *
copy_row(const char *slot, size_t ncols, size_t size, char *p)
{
	const char *end = slot + ncols * COL;

	for (; slot < end; slot += COL) {
		memcpy(p, slot + (unsigned char)slot[POS], size);
		p += pos_len(slot);
	}
	p[-1] = '\n';
	return p;
}

/* The tile's m rows into p; the end of the text. */
static char *copy_rows(const char *slots, size_t ncols, size_t m, bool wide, char *p)
{
	for (size_t r = 0; r < m; r++, slots += SLOT)
		p = wide ? copy_row(slots, ncols, SLOT, p) : copy_row(slots, ncols, NARROW, p);
	return p;
}

/*
 * The codes of rows pick[0, m) of s's chunk, packed as 8-byte codes at
 * buf: g reads them as a chunk of those rows (its cells as s's).
 */
static void gather(struct wfw_csvfmt_blk_src *g, const struct wfw_csvfmt_blk_src *s,
		   const uint32_t *pick, size_t m, unsigned char *buf)
{
	for (size_t r = 0; r < m; r++)
		wfw_put64(buf + 8 * r, wfw_get64(s->data + pick[r] * s->w) & s->mask);
	*g = *s;
	g->data = buf;
	g->w = 8;
	g->mask = ~0ULL;
}

size_t wfw_csvfmt_cols_rows(struct wfw_csvfmt_blk_src *src, size_t ncols, size_t first,
			    const uint32_t *pick, size_t n, char *slots,
			    unsigned char *codes, char *buf)
{
	struct wfw_csvfmt_blk_src g;
	char *p = buf;

	for (size_t j = 0; j < ncols; j++)
		src[j].small = all_small(&src[j]);
	for (size_t t = 0; t < n; t += WFW_CSVFMT_TILE) {
		size_t m = n - t < WFW_CSVFMT_TILE ? n - t : WFW_CSVFMT_TILE;
		bool wide = false;

		for (size_t j = 0; j < ncols; j++) {
			if (pick)
				gather(&g, &src[j], pick + t, m, codes);
			wide |= pick ? format_col(&g, slots + j * COL, 0, m) :
				       format_col(&src[j], slots + j * COL, first + t, m);
		}
		p = copy_rows(slots, ncols, m, wide, p);
	}
	return (size_t)(p - buf);
}
