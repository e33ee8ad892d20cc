/* SPDX-License-Identifier: MIT */
/*
 * The window path's row loop, compiled once for each SIMD level: a level's
 * file (csvwin_*.c) defines WIN_TARGET (its function attribute, or
 * nothing) and WIN_DELIMS64(p) (its 64-byte delimiter scan), includes this
 * and names its entry points with WFW_WIN_ROWS(). No include guard: each
 * level's file includes it once.
 */
#include "datafmt/csvwin.h"

#if !defined(WIN_TARGET) || !defined(WIN_DELIMS64)
#error "define WIN_TARGET and WIN_DELIMS64 before including csvwin_row.h"
#endif

/* Not how a number strtod() reads can start ("inf", "nan" aside)? */
static inline int wfw_word_start(char ch)
{
	unsigned char c = (unsigned char)(ch | 0x20);	/* lower case */

	return c >= 'a' && c <= 'z' && c != 'i' && c != 'n';
}

/* A known name of a text column, p[0..n) with n < 16: 0, or -1. */
static inline __attribute__((always_inline)) WIN_TARGET int
win_name(const struct wfw_enum_tab *et, const char *p, int n,
	 union wultfw_cell *cell)
{
	uint64_t w0 = wfw_get64((const unsigned char *)p), w1 = 0;

	if (!n || wfw_quote16(p, n))
		return -1;
	if (n > 8)
		w1 = wfw_get64((const unsigned char *)p + 8) & wfw_keep_bytes[n - 8];
	else
		w0 &= wfw_keep_bytes[n];
	cell->i = wfw_enum_find_words(et, w0, w1, (size_t)n);
	return cell->i >= 0 ? 0 : -1;
}

/*
 * The common cell (a short number of the column's type, a known name)
 * p[0..n), n <= 16, with p[0..WFW_CSV_WIN) readable: 0, or -1: field().
 */
static inline __attribute__((always_inline)) WIN_TARGET int
win_field(const struct wincol *w, const char *p, int n, union wultfw_cell *cell,
	  bool *odd)
{
	switch (w->type) {
	case WULTFW_COL_INT:
		return wfw_len_canon(p, n, w->dec, &cell->i);
	case WIN_INT_NUM:
		if (wfw_len_canon(p, n, w->dec, &cell->i))
			return -1;
		cell->f = (double)cell->i;	/* never the empty cell here */
		return 0;
	case WULTFW_COL_FLOAT:
		if (odd)	/* a constant: see win_cells() */
			return wfw_len_double_odd(p, n, &cell->f, odd);
		return wfw_len_double(p, n, &cell->f);
	case WIN_SKIP:	/* a quote: the tokeniser finds where it ends */
		return wfw_quote16(p, n) ? -1 : 0;
	case WIN_WORDS:
		if (n && wfw_word_start(*p) && !wfw_quote16(p, n))
			return 0;
		return win_name(w->et, p, n, cell);
	default:
		return win_name(w->et, p, n, cell);
	}
}

/*
 * win_field() of a cell of 17 to WFW_CELL_LONG bytes (csvnum.h's long
 * cells): a number, or a text not converted; no known name is that long.
 */
static inline __attribute__((always_inline)) WIN_TARGET int
win_long(const struct wincol *w, const char *p, int n, union wultfw_cell *cell,
	 bool *odd)
{
	if (n > WFW_CELL_LONG)
		return -1;
	switch (w->type) {
	case WULTFW_COL_INT:
		return wfw_long_canon(p, n, w->dec, &cell->i);
	case WIN_INT_NUM:
		if (wfw_long_canon(p, n, w->dec, &cell->i))
			return -1;
		cell->f = (double)cell->i;
		return 0;
	case WULTFW_COL_FLOAT:
		if (odd)
			return wfw_long_double_odd(p, n, &cell->f, odd);
		return wfw_long_double(p, n, &cell->f);
	case WIN_SKIP:
		return wfw_quote32(p, n) ? -1 : 0;
	case WIN_WORDS:
		return wfw_word_start(*p) && !wfw_quote32(p, n) ? 0 : -1;
	default:
		return -1;
	}
}

/*
 * Cells c and c + 1, at p up to q and from q + 1 up to q2 (delimiters),
 * both the common d+.ddd of their columns: converted two at a time
 * (csvnum.h); returns q2, or NULL: leave them to win_field().
 */
static inline __attribute__((always_inline)) WIN_TARGET const char *
win_pair(const struct wincol *plan, size_t c, size_t nc, const char *p,
	 const char *q, const char *q2, uintptr_t at)
{
	const struct wincol *a = &plan[c], *b = a + 1;
	uint64_t wa, wb;

	if (*q != ',' || (*q2 != ',' && c + 2 < nc) ||
	    wfw_fixed_word(p, (size_t)(q - p), &a->fx, &wa) ||
	    wfw_fixed_word(q + 1, (size_t)(q2 - q - 1), &b->fx, &wb))
		return NULL;
	wfw_pair_div(wa, wb, a->div, b->div, &cell_at(plan, at, c)->f,
		     &cell_at(plan, at, c + 1)->f);
	return q2;
}

/*
 * Cells c.. of a row, from *pp, through the window path, up to the first it
 * does not take; returns how many it took and leaves *pp where the next
 * cell starts, or (all of them) at the end of the last one. Where cells
 * end comes from a mask of delimiters, so each cell is converted without
 * waiting for the one before. The caller sees that
 * *pp + WIN_CELL_MAX * nc + WIN_ROW_SLACK is inside the file.
 */
static inline __attribute__((always_inline)) WIN_TARGET size_t
win_row(const struct wincol *plan, size_t c, size_t nc, const char **pp,
	uintptr_t at, bool *odd, bool pairs)
{
	const char *p = *pp, *base = p, *q, *q2;
	uint64_t m = WIN_DELIMS64(base);

	for (; c < nc; c++) {
		while (!m) {
			base += 64;
			if (base > p + WFW_CELL_LONG)
				goto out;	/* a cell longer than the longest */
			m = WIN_DELIMS64(base);
		}
		q = base + __builtin_ctzll(m);
		m &= m - 1;
		if (pairs && plan[c].pair && m &&
		    (q2 = win_pair(plan, c, nc, p, q, base + __builtin_ctzll(m), at))) {
			m &= m - 1;
			p = q2 + 1;
			c++;
			continue;
		}
		if ((q - p > 16 ? win_long(&plan[c], p, (int)(q - p), cell_at(plan, at, c), odd)
				: win_field(&plan[c], p, (int)(q - p), cell_at(plan, at, c), odd)) ||
		    (*q != ',' && c + 1 < nc))
			break;
		p = q + 1;
	}
out:
	*pp = c == nc ? p - 1 : p;
	return c;
}

/* The level's entry points (csvwin.h), noinline: each is one loop. */
#define WFW_WIN_ROWS(var, lvl_name, scan)					\
static __attribute__((noinline)) WIN_TARGET size_t				\
win_row_fast(const struct wincol *plan, size_t c, size_t nc, const char **pp,	\
	     uintptr_t at, bool *odd)						\
{										\
	return win_row(plan, c, nc, pp, at, NULL, false);			\
}										\
static __attribute__((noinline)) WIN_TARGET size_t				\
win_row_pairs(const struct wincol *plan, size_t c, size_t nc, const char **pp,	\
	      uintptr_t at, bool *odd)						\
{										\
	return win_row(plan, c, nc, pp, at, NULL, true);			\
}										\
static __attribute__((noinline)) WIN_TARGET size_t				\
win_row_odd(const struct wincol *plan, size_t c, size_t nc, const char **pp,	\
	    uintptr_t at, bool *odd)						\
{										\
	return win_row(plan, c, nc, pp, at, odd, false);			\
}										\
const struct wfw_win_rows var = {						\
	.name = lvl_name, .delims64 = scan, .fast = win_row_fast,		\
	.pairs = win_row_pairs, .odd = win_row_odd,				\
}
