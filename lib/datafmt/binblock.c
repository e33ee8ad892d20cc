/* SPDX-License-Identifier: MIT */
/*
 * Encoding and decoding one block of the binary format, version 2. Each
 * column of a block is stored as its cells minus the block's smallest one
 * (frame of reference), in as many bytes as the block's range needs: a
 * latency column of a few milliseconds in ns takes 3 bytes a cell, an
 * enum 1, a constant column 0. Floats that are short decimals (as a CSV
 * with 3 decimals holds) are stored as integers with a scale when that
 * reads back bit for bit, else as their 8 raw bytes.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/binblock.h"
#include "datafmt/crc32c.h"
#include "datafmt/decimal.h"
#include "datafmt/le.h"
#include "stats/moments.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SUMS_AVX	/* four cells at a time where the CPU can */
#endif

/* How a column of one block is stored. */
struct chunk_plan {
	uint8_t enc, width, scale;
	uint64_t base;
};

uint32_t wfw_blk_rows_for(size_t ncols)
{
	size_t rows = 131072 / (ncols ? ncols : 1);	/* ~1 MiB of cells staged */

	return rows < 64 ? 64 : rows > 8192 ? 8192 : (uint32_t)rows;
}

size_t wfw_blk_bound(size_t ncols, size_t rows)
{
	return WFW_BLK_HDR_LEN + ncols * (WFW_BLK_CHUNK_LEN + 8 * rows);
}

static uint8_t bytes_for(uint64_t range)
{
	uint8_t w = 0;

	for (; range; range >>= 8)
		w++;
	return w;
}

/* ---- planning a column ---- */

/* Columns are given column-major: cell r of a column is v[r]. */

static void plan_int(const union wultfw_cell *v, size_t rows, int is_enum,
		     struct chunk_plan *k)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	for (size_t r = 0; r < rows; r++) {
		lo = v[r].i < lo ? v[r].i : lo;
		hi = v[r].i > hi ? v[r].i : hi;
	}
	*k = (struct chunk_plan){ .enc = WFW_ENC_FOR, .base = (uint64_t)lo,
				  .width = bytes_for((uint64_t)hi - (uint64_t)lo) };
	/*
	 * An empty cell is INT64_MIN, the smallest int64: there is one when
	 * lo is it. An ENUM's empty is -1: an INT64_MIN there is kept as it is.
	 */
	if (lo != WULTFW_CELL_EMPTY || is_enum)
		return;
	/* Empty cells (INT64_MIN) take code 0; the range is of the others. */
	lo = INT64_MAX;
	hi = INT64_MIN;
	for (size_t r = 0; r < rows; r++) {
		if (v[r].i == WULTFW_CELL_EMPTY)
			continue;
		lo = v[r].i < lo ? v[r].i : lo;
		hi = v[r].i > hi ? v[r].i : hi;
	}
	if (lo > hi)		/* every cell empty */
		*k = (struct chunk_plan){ .enc = WFW_ENC_FOR_EMPTY };
	else if ((uint64_t)hi - (uint64_t)lo != UINT64_MAX)
		*k = (struct chunk_plan){ .enc = WFW_ENC_FOR_EMPTY, .base = (uint64_t)lo,
			.width = bytes_for((uint64_t)hi - (uint64_t)lo + 1) };
	/* else: the FOR plan above with width 8 holds INT64_MIN as it is */
}

/*
 * The first row whose cell is not a decimal of this scale (wfw_dec_exact),
 * or rows when every one is; *lo, *hi: the least and greatest scaled
 * integers before that row.
 */
static size_t dec_scan_one(const union wultfw_cell *v, size_t from, size_t rows,
			   unsigned scale, int64_t *lo, int64_t *hi)
{
	int64_t m;

	for (size_t r = from; r < rows; r++) {
		if (!wfw_dec_exact(v[r].f, scale, &m))
			return r;
		*lo = m < *lo ? m : *lo;
		*hi = m > *hi ? m : *hi;
	}
	return rows;
}

#ifdef __SSE2__
/*
 * The same two cells a division (the division is what this waits for):
 * x = v * 10^scale rounded with 1.5 * 2^52 as wfw_round_small() does, the
 * cell a decimal when |x| < 2^51 and the rounded x / 10^scale gives back
 * its bits. Pairs until one fails, then one at a time from there.
 */
static size_t dec_scan(const union wultfw_cell *v, size_t rows, unsigned scale,
		       int64_t *lo, int64_t *hi)
{
	const __m128d p = _mm_set1_pd(wfw_pow10_exact[scale]);
	const __m128d shift = _mm_set1_pd(6755399441055744.0);
	const __m128d lim = _mm_set1_pd(2251799813685248.0);
	const __m128d absmask = _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX));
	__m128d vlo = _mm_set1_pd(INFINITY), vhi = _mm_set1_pd(-INFINITY);
	double l[2], h[2];
	size_t r = 0;

	for (; r + 2 <= rows; r += 2) {
		__m128d c = _mm_loadu_pd(&v[r].f), x = _mm_mul_pd(c, p);
		__m128d k = _mm_sub_pd(_mm_add_pd(x, shift), shift);
		__m128i same = _mm_cmpeq_epi32(_mm_castpd_si128(_mm_div_pd(k, p)),
					       _mm_castpd_si128(c));

		same = _mm_and_si128(same, _mm_shuffle_epi32(same, 0xB1));
		if (_mm_movemask_pd(_mm_and_pd(_mm_castsi128_pd(same),
					       _mm_cmplt_pd(_mm_and_pd(x, absmask), lim))) != 3)
			break;
		vlo = _mm_min_pd(vlo, k);
		vhi = _mm_max_pd(vhi, k);
	}
	_mm_storeu_pd(l, vlo);
	_mm_storeu_pd(h, vhi);
	/* Integers below 2^51 in magnitude: exact as doubles. */
	*lo = r ? (int64_t)(l[0] < l[1] ? l[0] : l[1]) : INT64_MAX;
	*hi = r ? (int64_t)(h[0] > h[1] ? h[0] : h[1]) : INT64_MIN;
	return dec_scan_one(v, r, rows, scale, lo, hi);
}
#else
static size_t dec_scan(const union wultfw_cell *v, size_t rows, unsigned scale,
		       int64_t *lo, int64_t *hi)
{
	*lo = INT64_MAX;
	*hi = INT64_MIN;
	return dec_scan_one(v, 0, rows, scale, lo, hi);
}
#endif

/*
 * A float column as scaled decimals when every cell allows it, else raw.
 * One pass at the scale so far; a cell needing more decimals raises the
 * scale and starts over (at most WFW_DEC_MAX_SCALE times).
 */
static void plan_float(const union wultfw_cell *v, size_t rows,
		       struct chunk_plan *k)
{
	int64_t lo, hi, m;
	unsigned scale = 0;
	size_t bad;

	*k = (struct chunk_plan){ .enc = WFW_ENC_FOR, .width = 8 };
	while ((bad = dec_scan(v, rows, scale, &lo, &hi)) < rows)
		while (!wfw_dec_exact(v[bad].f, scale, &m))
			if (++scale > WFW_DEC_MAX_SCALE)
				return;
	*k = (struct chunk_plan){ .enc = WFW_ENC_DEC, .scale = (uint8_t)scale,
		.base = (uint64_t)lo, .width = bytes_for((uint64_t)hi - (uint64_t)lo) };
}

/* ---- packing ---- */

/* Width as a constant per call site, so each loop is compiled for it. */
static inline __attribute__((always_inline)) void
pack_for(const union wultfw_cell *v, size_t rows, uint64_t base, size_t w,
	 unsigned char *out)
{
	for (size_t r = 0; r < rows; r++)
		wfw_put64(out + r * w, (uint64_t)v[r].i - base);
}

/*
 * Scaled decimals (planned: each v * 10^scale is within 2^51 of 0 and
 * next to its integer m): v * 10^scale + 1.5 * 2^52 is the double whose
 * bits are those of 1.5 * 2^52 plus m, as wfw_round_small() rounds.
 */
static inline __attribute__((always_inline)) void
pack_dec_w(const union wultfw_cell *v, size_t rows, const struct chunk_plan *k,
	   size_t w, unsigned char *out)
{
	const double p10 = wfw_pow10_exact[k->scale], shift = 6755399441055744.0;
	const uint64_t bias = 0x4338000000000000ull + k->base;	/* bits of shift */

	for (size_t r = 0; r < rows; r++) {
		double x = v[r].f * p10 + shift;
		uint64_t bits;

		memcpy(&bits, &x, sizeof(bits));
		wfw_put64(out + r * w, bits - bias);
	}
}

static void pack_dec(const union wultfw_cell *v, size_t rows,
		     const struct chunk_plan *k, unsigned char *out)
{
	switch (k->width) {
	case 0: break;
	case 1: pack_dec_w(v, rows, k, 1, out); break;
	case 2: pack_dec_w(v, rows, k, 2, out); break;
	case 3: pack_dec_w(v, rows, k, 3, out); break;
	case 4: pack_dec_w(v, rows, k, 4, out); break;
	default: pack_dec_w(v, rows, k, k->width, out); break;
	}
}

/*
 * Each cell as `width` little-endian bytes. Stores are 8 bytes wide: the
 * last one runs into the next chunk's header (written after) or the slack.
 */
static void pack(const union wultfw_cell *v, size_t rows,
		 const struct chunk_plan *k, unsigned char *out)
{
	const size_t w = k->width;

	if (k->enc == WFW_ENC_DEC) {
		pack_dec(v, rows, k, out);
		return;
	}
	if (k->enc == WFW_ENC_FOR_EMPTY) {
		for (size_t r = 0; r < rows; r++)
			wfw_put64(out + r * w, v[r].i == WULTFW_CELL_EMPTY ? 0
				  : (uint64_t)v[r].i - k->base + 1);
		return;
	}
	switch (w) {
	case 0: break;
	case 1: pack_for(v, rows, k->base, 1, out); break;
	case 2: pack_for(v, rows, k->base, 2, out); break;
	case 3: pack_for(v, rows, k->base, 3, out); break;
	case 4: pack_for(v, rows, k->base, 4, out); break;
	default: pack_for(v, rows, k->base, w, out); break;
	}
}

void wfw_blk_stage(union wultfw_cell *dst, size_t stride,
		   const union wultfw_cell *src, size_t ncols, size_t rows)
{
	/*
	 * A tile of rows at a time, column by column: each column's run of
	 * the tile is written whole, where a row at a time would write to
	 * ncols places a stride apart (the same cache sets) for every row.
	 */
	enum { TILE = 32 };

	for (size_t r0 = 0; r0 < rows; r0 += TILE) {
		size_t n = rows - r0 < TILE ? rows - r0 : TILE;

		for (size_t c = 0; c < ncols; c++) {
			const union wultfw_cell *s = src + r0 * ncols + c;
			union wultfw_cell *d = dst + c * stride + r0;

			for (size_t r = 0; r < n; r++)
				d[r] = s[r * ncols];
		}
	}
}

size_t wfw_blk_encode(const struct wultfw_schema *s,
		      const union wultfw_cell *cols, size_t stride,
		      size_t rows, unsigned char *out)
{
	unsigned char *p = out + WFW_BLK_HDR_LEN;
	uint32_t len;

	for (size_t c = 0; c < s->ncols; c++) {
		const union wultfw_cell *v = cols + c * stride;
		struct chunk_plan k;

		if (s->cols[c].type == WULTFW_COL_FLOAT)
			plan_float(v, rows, &k);
		else
			plan_int(v, rows, s->cols[c].type == WULTFW_COL_ENUM, &k);
		pack(v, rows, &k, p + WFW_BLK_CHUNK_LEN);
		p[0] = k.enc;
		p[1] = k.width;
		p[2] = k.scale;
		p[3] = 0;
		wfw_put64(p + 4, k.base);
		p += WFW_BLK_CHUNK_LEN + rows * k.width;
	}
	len = (uint32_t)(p - out - WFW_BLK_HDR_LEN);
	wfw_blk_hdr_put(out, &(struct wfw_blk_hdr){ (uint32_t)rows, len,
			wfw_crc32c(0, out + WFW_BLK_HDR_LEN, len) });
	return WFW_BLK_HDR_LEN + len;
}

void wfw_blk_hdr_put(unsigned char *p, const struct wfw_blk_hdr *h)
{
	wfw_put32(p, h->rows);
	wfw_put32(p + 4, h->len);
	wfw_put32(p + 8, h->crc);
	wfw_put32(p + 12, wfw_crc32c(0, p, 12));
}

/* ---- reading ---- */

int wfw_blk_hdr_parse(const unsigned char *p, size_t ncols,
		      uint32_t max_rows, struct wfw_blk_hdr *h)
{
	if (wfw_crc32c(0, p, 12) != wfw_get32(p + 12))
		return -EBADMSG;
	h->rows = wfw_get32(p);
	h->len = wfw_get32(p + 4);
	h->crc = wfw_get32(p + 8);
	if (!h->rows || h->rows > max_rows || h->len < ncols * WFW_BLK_CHUNK_LEN ||
	    h->len > wfw_blk_bound(ncols, h->rows) - WFW_BLK_HDR_LEN)
		return -EINVAL;
	return 0;
}

static inline uint64_t width_mask(unsigned w)
{
	return w >= 8 ? ~0ULL : (1ULL << (8 * w)) - 1;
}

/* The least and greatest of n > 0 bytes, 16 at a time where SSE2 is. */
static void byte_range(const unsigned char *d, size_t n, uint8_t *lo, uint8_t *hi)
{
	size_t i = 0;
#ifdef __SSE2__
	__m128i l = _mm_set1_epi8((char)d[0]), h = l;
	uint8_t a[16], b[16];

	for (; i + 16 <= n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(d + i));

		l = _mm_min_epu8(l, x);
		h = _mm_max_epu8(h, x);
	}
	_mm_storeu_si128((__m128i *)a, l);
	_mm_storeu_si128((__m128i *)b, h);
	*lo = a[0];
	*hi = b[0];
	for (unsigned k = 1; k < 16; k++) {
		*lo = a[k] < *lo ? a[k] : *lo;
		*hi = b[k] > *hi ? b[k] : *hi;
	}
#else
	*lo = *hi = d[0];
#endif
	for (; i < n; i++) {
		*lo = d[i] < *lo ? d[i] : *lo;
		*hi = d[i] > *hi ? d[i] : *hi;
	}
}

/*
 * All enum cells of a chunk of 0 or 1 byte cells within -1..n_enum - 1,
 * from the least and greatest byte; false: look cell by cell.
 */
static bool enum_bytes_fit(const struct wultfw_column *col,
			   const struct wfw_blk_col *c, uint32_t rows)
{
	const int64_t b = (int64_t)c->base;
	uint8_t lo = 0, hi = 0;

	if (c->width > 1)
		return false;
	if (c->width == 1)
		byte_range(c->data, rows, &lo, &hi);
	/* b within these bounds: no cell wraps around */
	return b >= -1 - (int64_t)lo && b <= (int64_t)col->n_enum - 1 - (int64_t)hi;
}

/* Enum cells must index their table (or be -1): checked once per block. */
static int check_enum(const struct wultfw_column *col,
		      const struct wfw_blk_col *c, uint32_t rows,
		      char *err, size_t errlen)
{
	const uint64_t mask = width_mask(c->width);

	if (enum_bytes_fit(col, c, rows))
		return 0;

	for (uint32_t r = 0; r < rows; r++) {
		int64_t v = (int64_t)(c->base + (wfw_get64(c->data + (size_t)r * c->width) & mask));

		if (v < -1 || v >= (int64_t)col->n_enum) {
			snprintf(err, errlen, "row %u of the block: column %s holds %lld, outside its %zu names",
				 r, col->name, (long long)v, col->n_enum);
			return -EINVAL;
		}
	}
	return 0;
}

/* A chunk's encoding must suit its column's type. */
static int chunk_fits(const struct wultfw_column *col, const struct wfw_blk_col *c)
{
	if (c->width > 8)
		return 0;
	switch (c->enc) {
	case WFW_ENC_FOR:
		return 1;
	case WFW_ENC_FOR_EMPTY:
		return col->type == WULTFW_COL_INT;
	case WFW_ENC_DEC:
		return col->type == WULTFW_COL_FLOAT && c->scale <= WFW_DEC_MAX_SCALE;
	default:
		return 0;
	}
}

int wfw_blk_parse(const struct wultfw_schema *s, const unsigned char *payload,
		  size_t len, uint32_t rows, struct wfw_blk_col *cols,
		  char *err, size_t errlen)
{
	size_t off = 0;

	for (size_t i = 0; i < s->ncols; i++) {
		const struct wultfw_column *col = &s->cols[i];
		struct wfw_blk_col *c = &cols[i];
		const unsigned char *p = payload + off;

		if (len - off < WFW_BLK_CHUNK_LEN) {
			snprintf(err, errlen, "column %s runs past the block", col->name);
			return -EINVAL;
		}
		*c = (struct wfw_blk_col){ .enc = p[0], .width = p[1], .scale = p[2],
					   .base = wfw_get64(p + 4),
					   .data = p + WFW_BLK_CHUNK_LEN };
		off += WFW_BLK_CHUNK_LEN;
		if (!chunk_fits(col, c) || len - off < (size_t)rows * c->width) {
			snprintf(err, errlen, "column %s: bad encoding %u, width %u or length",
				 col->name, c->enc, c->width);
			return -EINVAL;
		}
		off += (size_t)rows * c->width;
		if (col->type == WULTFW_COL_ENUM &&
		    check_enum(col, c, rows, err, errlen))
			return -EINVAL;
	}
	if (off != len) {
		snprintf(err, errlen, "%zu bytes after the last column", len - off);
		return -EINVAL;
	}
	return 0;
}

/*
 * Width as a constant per call site, so each loop is compiled for it;
 * cells st apart in dst (a row-major batch: ncols; a column: 1).
 */
static inline __attribute__((always_inline)) void
dec_for(const struct wfw_blk_col *c, size_t w, size_t first, size_t n,
	union wultfw_cell *dst, size_t st)
{
	const unsigned char *p = c->data + first * w;
	const uint64_t mask = width_mask((unsigned)w), base = c->base;

	for (size_t r = 0; r < n; r++, p += w)
		dst[r * st].i = (int64_t)(base + (wfw_get64(p) & mask));
}

/* The stride as a constant too: 1 lets the compiler vectorise. */
#define DEC_WIDTHS(st)							\
	switch (c->width) {						\
	case 0: dec_for(c, 0, first, n, dst, st); break;		\
	case 1: dec_for(c, 1, first, n, dst, st); break;		\
	case 2: dec_for(c, 2, first, n, dst, st); break;		\
	case 3: dec_for(c, 3, first, n, dst, st); break;		\
	case 4: dec_for(c, 4, first, n, dst, st); break;		\
	case 5: dec_for(c, 5, first, n, dst, st); break;		\
	case 6: dec_for(c, 6, first, n, dst, st); break;		\
	case 7: dec_for(c, 7, first, n, dst, st); break;		\
	default: dec_for(c, 8, first, n, dst, st); break;		\
	}

static void dec_for_any(const struct wfw_blk_col *c, size_t first, size_t n,
			union wultfw_cell *dst, size_t st)
{
	if (st == 1) {
		DEC_WIDTHS(1)
	} else {
		DEC_WIDTHS(st)
	}
}

/* Cells [0, n) st apart, decoded as FOR: apply the chunk's encoding. */
static inline __attribute__((always_inline)) void
dec_finish(const struct wfw_blk_col *c, size_t n, union wultfw_cell *d, size_t st)
{
	if (c->enc == WFW_ENC_FOR_EMPTY) {
		/* Code 0 is empty, the others one above their value. */
		for (size_t r = 0; r < n; r++) {
			int64_t v = d[r * st].i;

			d[r * st].i = v == (int64_t)c->base ? WULTFW_CELL_EMPTY
				      : (int64_t)((uint64_t)v - 1);
		}
	} else if (c->enc == WFW_ENC_DEC) {
		const double p10 = wfw_pow10_exact[c->scale];

		for (size_t r = 0; r < n; r++)
			d[r * st].f = (double)d[r * st].i / p10;
	}
}

/* The columns of rows [first, first + n) one after the other. */
static void decode_tile(const struct wfw_blk_col *cols, size_t ncols,
			size_t first, size_t n, union wultfw_cell *dst)
{
	for (size_t i = 0; i < ncols; i++) {
		dec_for_any(&cols[i], first, n, dst + i, ncols);
		dec_finish(&cols[i], n, dst + i, ncols);
	}
}

void wfw_blk_decode(const struct wfw_blk_col *cols, size_t ncols,
		    size_t first, size_t n, union wultfw_cell *dst)
{
	/* Rows in tiles of ~16 KiB of cells, so each column's pass stays in L1. */
	const size_t tile = ncols < 64 ? 2048 / ncols : 32;

	for (size_t done = 0; done < n; done += tile)
		decode_tile(cols, ncols, first + done, n - done < tile ? n - done : tile,
			    dst + done * ncols);
}

/* Scaled decimals in one pass: a cell's integer never stored. */
static inline __attribute__((always_inline)) void
dec_dec(const struct wfw_blk_col *c, size_t w, size_t first, size_t n,
	union wultfw_cell *dst)
{
	const unsigned char *p = c->data + first * w;
	const uint64_t mask = width_mask((unsigned)w), base = c->base;
	const double p10 = wfw_pow10_exact[c->scale];

	for (size_t r = 0; r < n; r++, p += w)
		dst[r].f = (double)(int64_t)(base + (wfw_get64(p) & mask)) / p10;
}

#ifdef __SSE2__
#define MAGIC_BITS 0x4338000000000000ull	/* 1.5 * 2^52 */

/*
 * The cells at p and p + w as doubles: an integer v with |v| < 2^51 is
 * (double)v exactly as the bits of 1.5 * 2^52 plus v, less 1.5 * 2^52
 * (bits: those of 1.5 * 2^52 plus the chunk's base).
 */
static inline __attribute__((always_inline)) __m128d
pair_at(const unsigned char *p, size_t w, uint64_t mask, __m128i bits,
	__m128d magic)
{
	__m128i u = _mm_set_epi64x((long long)(wfw_get64(p + w) & mask),
				   (long long)(wfw_get64(p) & mask));

	return _mm_sub_pd(_mm_castsi128_pd(_mm_add_epi64(u, bits)), magic);
}

/*
 * Two cells per division (the division is what this waits for), made by
 * pair_at(). Width as a constant per call site.
 */
static inline __attribute__((always_inline)) void
dec_dec2(const struct wfw_blk_col *c, size_t w, size_t first, size_t n,
	 union wultfw_cell *dst)
{
	const unsigned char *p = c->data + first * w;
	const uint64_t mask = width_mask((unsigned)w);
	const __m128i bits = _mm_set1_epi64x((long long)(MAGIC_BITS + c->base));
	const __m128d magic = _mm_set1_pd(6755399441055744.0);
	const __m128d p10 = _mm_set1_pd(wfw_pow10_exact[c->scale]);
	size_t r = 0;

	for (; r + 2 <= n; r += 2, p += 2 * w)
		_mm_storeu_pd(&dst[r].f, _mm_div_pd(pair_at(p, w, mask, bits, magic), p10));
	if (r < n)
		dec_dec(c, w, first + r, n - r, dst + r);
}

/* The same for INT cells as numbers: no division. */
static inline __attribute__((always_inline)) void
num_for2(const struct wfw_blk_col *c, size_t w, size_t first, size_t n,
	 double *dst)
{
	const unsigned char *p = c->data + first * w;
	const uint64_t mask = width_mask((unsigned)w);
	const __m128i bits = _mm_set1_epi64x((long long)(MAGIC_BITS + c->base));
	const __m128d magic = _mm_set1_pd(6755399441055744.0);
	size_t r = 0;

	for (; r + 2 <= n; r += 2, p += 2 * w)
		_mm_storeu_pd(dst + r, pair_at(p, w, mask, bits, magic));
	for (; r < n; r++, p += w)
		dst[r] = (double)(int64_t)(c->base + (wfw_get64(p) & mask));
}

/* Every cell of the chunk within (-2^51, 2^51): the two-at-a-time loops hold. */
static bool dec2_fits(const struct wfw_blk_col *c)
{
	const int64_t lim = (int64_t)1 << 51;
	int64_t lo = (int64_t)c->base;

	return c->width <= 4 && lo > -lim && lo < lim - (int64_t)width_mask(c->width);
}

static bool dec_dec_fast(const struct wfw_blk_col *c, size_t first, size_t n,
			 union wultfw_cell *dst)
{
	if (!dec2_fits(c))
		return false;
	switch (c->width) {
	case 0: dec_dec2(c, 0, first, n, dst); break;
	case 1: dec_dec2(c, 1, first, n, dst); break;
	case 2: dec_dec2(c, 2, first, n, dst); break;
	case 3: dec_dec2(c, 3, first, n, dst); break;
	default: dec_dec2(c, 4, first, n, dst); break;
	}
	return true;
}

static bool num_for_fast(const struct wfw_blk_col *c, size_t first, size_t n,
			 double *dst)
{
	if (!dec2_fits(c))
		return false;
	switch (c->width) {
	case 0: num_for2(c, 0, first, n, dst); break;
	case 1: num_for2(c, 1, first, n, dst); break;
	case 2: num_for2(c, 2, first, n, dst); break;
	case 3: num_for2(c, 3, first, n, dst); break;
	default: num_for2(c, 4, first, n, dst); break;
	}
	return true;
}

/*
 * dec_dec2() (dec) or num_for2() of the first n / 4 * 4 cells, with
 * their extremes and sum taken on the way into m: the values are made
 * once, not read back. Returns how many.
 */
static inline __attribute__((always_inline)) size_t
sums4(const struct wfw_blk_col *c, size_t w, bool dec, size_t first,
      size_t n, double *dst, struct wfw_mms *m)
{
	const unsigned char *p = c->data + first * w;
	const uint64_t mask = width_mask((unsigned)w);
	const __m128i bits = _mm_set1_epi64x((long long)(MAGIC_BITS + c->base));
	const __m128d magic = _mm_set1_pd(6755399441055744.0);
	/* Only a DEC chunk's scale is checked: another's may be anything. */
	const __m128d p10 = _mm_set1_pd(wfw_pow10_exact[dec ? c->scale : 0]);
	struct wfw_mms acc = *m;	/* in registers: dst could alias *m */
	size_t r;

	for (r = 0; r + 4 <= n; r += 4, p += 4 * w) {
		__m128d a = pair_at(p, w, mask, bits, magic);
		__m128d b = pair_at(p + 2 * w, w, mask, bits, magic);

		if (dec) {
			a = _mm_div_pd(a, p10);
			b = _mm_div_pd(b, p10);
		}
		_mm_storeu_pd(dst + r, a);
		_mm_storeu_pd(dst + r + 2, b);
		wfw_mms_add4(&acc, a, b);
	}
	*m = acc;
	return r;
}

#ifdef SUMS_AVX
/* Byte b of cell j (w bytes a cell) in pshufb's terms: its place, or zero. */
#define CELL_BYTE(j, b) ((char)((b) < w ? (j) * w + (b) : 0x80))
#define CELL_BYTES(j) CELL_BYTE(j, 0), CELL_BYTE(j, 1), CELL_BYTE(j, 2), \
	CELL_BYTE(j, 3), CELL_BYTE(j, 4), CELL_BYTE(j, 5), CELL_BYTE(j, 6), CELL_BYTE(j, 7)

/*
 * Cells 0..3 at p, w <= 4 bytes each, as the u64 lanes of *a (0, 1) and
 * *b (2, 3): one load and two shuffles. Reads up to 4 bytes past the
 * fourth cell (w 3), within the payload's slack.
 */
static inline __attribute__((always_inline, target("avx"))) void
quad_at(const unsigned char *p, size_t w, __m128i *a, __m128i *b)
{
	__m128i x = w <= 2 ? _mm_loadl_epi64((const __m128i *)p)
			   : _mm_loadu_si128((const __m128i *)p);

	*a = _mm_shuffle_epi8(x, _mm_setr_epi8(CELL_BYTES(0), CELL_BYTES(1)));
	*b = _mm_shuffle_epi8(x, _mm_setr_epi8(CELL_BYTES(2), CELL_BYTES(3)));
}

/*
 * sums4() with AVX: cells unpacked four at a time, scaled decimals four
 * to a division (in the time SSE2 takes for two, rounded the same).
 */
static inline __attribute__((always_inline, target("avx"))) size_t
sums4_avx(const struct wfw_blk_col *c, size_t w, bool dec, size_t first,
	  size_t n, double *dst, struct wfw_mms *m)
{
	const unsigned char *p = c->data + first * w;
	const __m128i bits = _mm_set1_epi64x((long long)(MAGIC_BITS + c->base));
	const __m128d magic = _mm_set1_pd(6755399441055744.0);
	const __m256d p10 = _mm256_set1_pd(wfw_pow10_exact[dec ? c->scale : 0]);
	struct wfw_mms acc = *m;	/* in registers: dst could alias *m */
	size_t r;

	for (r = 0; r + 4 <= n; r += 4, p += 4 * w) {
		__m128i u0, u1;
		__m128d a, b;

		quad_at(p, w, &u0, &u1);
		a = _mm_sub_pd(_mm_castsi128_pd(_mm_add_epi64(u0, bits)), magic);
		b = _mm_sub_pd(_mm_castsi128_pd(_mm_add_epi64(u1, bits)), magic);
		if (dec) {
			__m256d v = _mm256_div_pd(_mm256_set_m128d(b, a), p10);

			a = _mm256_castpd256_pd128(v);
			b = _mm256_extractf128_pd(v, 1);
		}
		_mm_storeu_pd(dst + r, a);
		_mm_storeu_pd(dst + r + 2, b);
		wfw_mms_add4(&acc, a, b);
	}
	*m = acc;
	return r;
}

__attribute__((target("avx")))
static size_t sums_avx(const struct wfw_blk_col *c, bool dec, size_t first,
		       size_t n, double *dst, struct wfw_mms *m)
{
	switch (c->width + (dec ? 5 : 0)) {
	case 0: return sums4_avx(c, 0, false, first, n, dst, m);
	case 1: return sums4_avx(c, 1, false, first, n, dst, m);
	case 2: return sums4_avx(c, 2, false, first, n, dst, m);
	case 3: return sums4_avx(c, 3, false, first, n, dst, m);
	case 4: return sums4_avx(c, 4, false, first, n, dst, m);
	case 5: return sums4_avx(c, 0, true, first, n, dst, m);
	case 6: return sums4_avx(c, 1, true, first, n, dst, m);
	case 7: return sums4_avx(c, 2, true, first, n, dst, m);
	case 8: return sums4_avx(c, 3, true, first, n, dst, m);
	default: return sums4_avx(c, 4, true, first, n, dst, m);
	}
}
#endif

/* sums4() with the width as a constant. */
static size_t sums4_any(const struct wfw_blk_col *c, bool dec, size_t first,
			size_t n, double *dst, struct wfw_mms *m)
{
#ifdef SUMS_AVX
	if (__builtin_cpu_supports("avx"))
		return sums_avx(c, dec, first, n, dst, m);
#endif
	switch (c->width + (dec ? 5 : 0)) {
	case 0: return sums4(c, 0, false, first, n, dst, m);
	case 1: return sums4(c, 1, false, first, n, dst, m);
	case 2: return sums4(c, 2, false, first, n, dst, m);
	case 3: return sums4(c, 3, false, first, n, dst, m);
	case 4: return sums4(c, 4, false, first, n, dst, m);
	case 5: return sums4(c, 0, true, first, n, dst, m);
	case 6: return sums4(c, 1, true, first, n, dst, m);
	case 7: return sums4(c, 2, true, first, n, dst, m);
	case 8: return sums4(c, 3, true, first, n, dst, m);
	default: return sums4(c, 4, true, first, n, dst, m);
	}
}

bool wfw_blk_decode_sums(const struct wfw_blk_col *c, enum wultfw_col_type type,
			 size_t first, size_t n, double *dst, struct wfw_run_sums *s)
{
	bool dec = c->enc == WFW_ENC_DEC;
	struct wfw_mms m;
	size_t r;

	/* INT as numbers with no empty cell, or scaled decimals, in 2^51 */
	if (!dec2_fits(c) || !(dec ? type == WULTFW_COL_FLOAT
			       : type == WULTFW_COL_INT && c->enc == WFW_ENC_FOR))
		return false;
	wfw_mms_init(&m, INFINITY, -INFINITY);
	r = sums4_any(c, dec, first, n, dst, &m);
	if (dec)
		wfw_blk_decode_col(c, first + r, n - r, (union wultfw_cell *)(dst + r));
	else
		wfw_blk_decode_num(c, first + r, n - r, dst + r);
	s->sum = wfw_mms_end(&m, dst + r, n - r, &s->lo, &s->hi);
	s->ok = true;
	return true;
}
#else
bool wfw_blk_decode_sums(const struct wfw_blk_col *c, enum wultfw_col_type type,
			 size_t first, size_t n, double *dst, struct wfw_run_sums *s)
{
	(void)c, (void)type, (void)first, (void)n, (void)dst, (void)s;
	return false;
}

static bool dec_dec_fast(const struct wfw_blk_col *c, size_t first, size_t n,
			 union wultfw_cell *dst)
{
	(void)c, (void)first, (void)n, (void)dst;
	return false;
}

static bool num_for_fast(const struct wfw_blk_col *c, size_t first, size_t n,
			 double *dst)
{
	(void)c, (void)first, (void)n, (void)dst;
	return false;
}
#endif

void wfw_blk_decode_col(const struct wfw_blk_col *c, size_t first, size_t n,
			union wultfw_cell *dst)
{
	if (c->enc != WFW_ENC_DEC) {
		dec_for_any(c, first, n, dst, 1);
		dec_finish(c, n, dst, 1);
		return;
	}
	if (dec_dec_fast(c, first, n, dst))
		return;
	switch (c->width) {
	case 0: dec_dec(c, 0, first, n, dst); break;
	case 1: dec_dec(c, 1, first, n, dst); break;
	case 2: dec_dec(c, 2, first, n, dst); break;
	case 3: dec_dec(c, 3, first, n, dst); break;
	case 4: dec_dec(c, 4, first, n, dst); break;
	default: dec_dec(c, c->width, first, n, dst); break;
	}
}

/*
 * INT cells as doubles straight from their packed bytes: one pass, no
 * 64-bit cell in between. Width as a constant per call site.
 */
static inline __attribute__((always_inline)) void
num_for(const struct wfw_blk_col *c, size_t w, size_t first, size_t n,
	double *dst)
{
	const unsigned char *p = c->data + first * w;
	const uint64_t mask = width_mask((unsigned)w), base = c->base;

	for (size_t r = 0; r < n; r++, p += w)
		dst[r] = (double)(int64_t)(base + (wfw_get64(p) & mask));
}

/* Code 0 is an empty cell (the empty NaN), the others one above their value. */
static void num_for_empty(const struct wfw_blk_col *c, size_t first, size_t n,
			  double *dst)
{
	const size_t w = c->width;
	const unsigned char *p = c->data + first * w;
	const uint64_t mask = width_mask((unsigned)w);
	const union wultfw_cell empty = { .i = WULTFW_FLOAT_EMPTY_BITS };

	for (size_t r = 0; r < n; r++, p += w) {
		uint64_t u = wfw_get64(p) & mask;
		int64_t v = (int64_t)(c->base + u - 1);

		/* v INT64_MIN: empty in cells too (a hand-made base) */
		dst[r] = u && v != WULTFW_CELL_EMPTY ? (double)v : empty.f;
	}
}

/*
 * Only a damaged or hand-made file has an empty INT cell (INT64_MIN) in a
 * plain FOR chunk (the writer gives such columns FOR_EMPTY): take those
 * as cells first.
 */
static bool may_hold_int64_min(const struct wfw_blk_col *c)
{
	return c->enc == WFW_ENC_FOR &&
	       (uint64_t)WULTFW_CELL_EMPTY - c->base <= width_mask(c->width);
}

static void num_cells(const struct wfw_blk_col *c, size_t first, size_t n,
		      double *dst)
{
	union wultfw_cell *d = (union wultfw_cell *)dst;

	wfw_blk_decode_col(c, first, n, d);
	for (size_t r = 0; r < n; r++)
		d[r].f = d[r].i == WULTFW_CELL_EMPTY
			 ? (union wultfw_cell){ .i = WULTFW_FLOAT_EMPTY_BITS }.f
			 : (double)d[r].i;
}

bool wfw_blk_may_nan(const struct wfw_blk_col *c, enum wultfw_col_type type)
{
	switch (type) {
	case WULTFW_COL_INT:
		return c->enc == WFW_ENC_FOR_EMPTY || may_hold_int64_min(c);
	case WULTFW_COL_FLOAT:	/* scaled decimals are finite */
		return c->enc != WFW_ENC_DEC;
	default:
		return false;
	}
}

void wfw_blk_decode_num(const struct wfw_blk_col *c, size_t first, size_t n,
			double *dst)
{
	if (may_hold_int64_min(c)) {
		num_cells(c, first, n, dst);
		return;
	}
	if (c->enc == WFW_ENC_FOR_EMPTY) {
		num_for_empty(c, first, n, dst);
		return;
	}
	if (num_for_fast(c, first, n, dst))
		return;
	switch (c->width) {
	case 0: num_for(c, 0, first, n, dst); break;
	case 1: num_for(c, 1, first, n, dst); break;
	case 2: num_for(c, 2, first, n, dst); break;
	case 3: num_for(c, 3, first, n, dst); break;
	case 4: num_for(c, 4, first, n, dst); break;
	default: num_for(c, c->width, first, n, dst); break;
	}
}
