/* SPDX-License-Identifier: MIT */
/* Header of the binary result format: build and parse, bounds-checked. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/binblock.h"
#include "datafmt/binfmt.h"
#include "datafmt/le.h"

/* ---- CRC-32 (IEEE 802.3, reflected, as zlib computes it) ---- */

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

uint32_t wfw_crc32(uint32_t crc, const void *p, size_t n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const unsigned char *b = p;

	pthread_once(&once, crc_init);	/* readers of parts run in threads */
	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* ---- build ---- */

struct wbuf {
	unsigned char *p;
	size_t len, cap;
	int oom;
};

static unsigned char *wb_grow(struct wbuf *w, size_t n)
{
	if (w->oom)
		return NULL;
	if (w->len + n > w->cap) {
		size_t cap = (w->len + n) * 2;
		unsigned char *np = realloc(w->p, cap);

		if (!np) {
			w->oom = 1;
			return NULL;
		}
		memset(np + w->cap, 0, cap - w->cap);
		w->p = np;
		w->cap = cap;
	}
	w->len += n;
	return w->p + w->len - n;
}

static int wb_str(struct wbuf *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	unsigned char *p;

	if (n > 0xffff)
		return -1;
	p = wb_grow(w, 2 + n);
	if (!p)
		return 0;
	wfw_put16(p, (uint16_t)n);
	if (n)
		memcpy(p + 2, s, n);
	return 0;
}

static void put_fixed(unsigned char *p, const struct wultfw_schema *s, size_t nmeta)
{
	memcpy(p, WFW_BIN_MAGIC, WFW_BIN_MAGIC_LEN);
	wfw_put32(p + 8, WFW_BIN_BOM);
	wfw_put16(p + 12, WFW_BIN_VERSION);
	wfw_put16(p + 14, 0);			/* flags */
	/* 16: header_len, filled in at the end */
	wfw_put32(p + 20, (uint32_t)s->ncols);
	wfw_put32(p + 24, wfw_blk_rows_for(s->ncols));
	wfw_put32(p + 28, (uint32_t)nmeta);
	/* 32: crc, 36: reserved */
}

static uint8_t type_code(enum wultfw_col_type t)
{
	return t == WULTFW_COL_INT ? WFW_BIN_T_INT
	       : t == WULTFW_COL_FLOAT ? WFW_BIN_T_FLOAT : WFW_BIN_T_ENUM;
}

static int bad_column(const struct wultfw_column *col, size_t c, char *err,
		      size_t errlen)
{
	snprintf(err, errlen, "column %zu (%s): name, unit or enum table too long or name empty",
		 c, col->name ? col->name : "");
	return -1;
}

/* Column entry c (and its enum names); -1 with err set when it cannot be. */
static int put_column(struct wbuf *w, const struct wultfw_column *col, size_t c,
		      uint8_t flags, char *err, size_t errlen)
{
	size_t nl = col->name ? strlen(col->name) : 0;
	size_t ul = col->unit ? strlen(col->unit) : 0;
	size_t ne = col->type == WULTFW_COL_ENUM ? col->n_enum : 0;
	uint8_t t = type_code(col->type);
	unsigned char *p;

	if (!nl || nl > 0xffff || ul > 0xffff || ne > 0xffffff)
		return bad_column(col, c, err, errlen);
	p = wb_grow(w, WFW_BIN_COL_LEN + nl + ul);
	if (p) {
		p[0] = t;
		p[1] = t == WFW_BIN_T_FLOAT ? flags & WFW_BIN_COL_BARE : 0;
		wfw_put16(p + 2, (uint16_t)nl);
		wfw_put16(p + 4, (uint16_t)ul);
		wfw_put32(p + 8, t == WFW_BIN_T_INT ? (col->divisor ? col->divisor : 1) : 0);
		wfw_put32(p + 12, (uint32_t)ne);
		memcpy(p + 16, col->name, nl);
		memcpy(p + 16 + nl, col->unit ? col->unit : "", ul);
	}
	for (size_t i = 0; i < ne; i++) {
		if (wb_str(w, col->enum_names[i])) {
			snprintf(err, errlen, "column %s: enum name %zu longer than 65535 bytes",
				 col->name, i);
			return -1;
		}
	}
	return 0;
}

/* Zeros up to min_len and to a multiple of 8, the length and the CRC. */
static int finish_header(struct wbuf *w, size_t min_len, char *err, size_t errlen)
{
	if (w->len < min_len)
		wb_grow(w, min_len - w->len);
	/* Pad so blocks start 8-byte aligned (mmap readers can use them). */
	if (w->len % 8)
		wb_grow(w, 8 - w->len % 8);
	if (w->oom || w->len > WFW_BIN_MAX_HEADER) {
		snprintf(err, errlen, w->oom ? "out of memory" : "header larger than 16 MiB");
		return -1;
	}
	wfw_put32(w->p + 16, (uint32_t)w->len);
	wfw_put32(w->p + 32, 0);
	wfw_put32(w->p + 32, wfw_crc32(0, w->p, w->len));
	return 0;
}

void *wfw_bin_header_build_min(const struct wultfw_schema *s,
			       const char *const *meta, size_t min_len,
			       size_t *len, char *err, size_t errlen)
{
	return wfw_bin_header_build_flags(s, NULL, meta, min_len, len, err, errlen);
}

void *wfw_bin_header_build_flags(const struct wultfw_schema *s,
				 const uint8_t *colflags,
				 const char *const *meta, size_t min_len,
				 size_t *len, char *err, size_t errlen)
{
	struct wbuf w = { 0 };
	unsigned char *p;
	size_t nmeta = 0;
	int bad = 0;

	if (!s->ncols || s->ncols > WFW_BIN_MAX_COLS) {
		snprintf(err, errlen, "%zu columns: the format holds 1 to %u",
			 s->ncols, WFW_BIN_MAX_COLS);
		return NULL;
	}
	while (meta && meta[2 * nmeta] && meta[2 * nmeta + 1])
		nmeta++;
	p = wb_grow(&w, WFW_BIN_FIXED_LEN);
	if (p)
		put_fixed(p, s, nmeta);
	for (size_t c = 0; c < s->ncols && !bad; c++)
		bad = put_column(&w, &s->cols[c], c, colflags ? colflags[c] : 0,
				 err, errlen);
	for (size_t i = 0; i < 2 * nmeta && !bad; i++) {
		bad = wb_str(&w, meta[i]);
		if (bad)
			snprintf(err, errlen, "metadata %s longer than 65535 bytes",
				 meta[i & ~(size_t)1]);
	}
	if (bad || finish_header(&w, min_len, err, errlen)) {
		free(w.p);
		return NULL;
	}
	*len = w.len;
	return w.p;
}

void *wfw_bin_header_build(const struct wultfw_schema *s,
			   const char *const *meta, size_t *len,
			   char *err, size_t errlen)
{
	return wfw_bin_header_build_min(s, meta, 0, len, err, errlen);
}

/* ---- parse ---- */

void wfw_bin_header_free(struct wfw_bin_header *h)
{
	if (h->cols) {
		for (size_t c = 0; c < h->schema.ncols; c++)
			free((void *)h->cols[c].enum_names);
	}
	free(h->cols);
	free(h->colflags);
	free(h->meta);
	free(h->strings);
	memset(h, 0, sizeof(*h));
}

struct cursor {
	const unsigned char *p;
	size_t off, end;
	char *strs;		/* output block for NUL-terminated copies */
	size_t slen;
};

/*
 * Next string: u16 length + bytes, copied NUL-terminated. NULL if short
 * or if it holds a NUL byte (C strings would silently cut it there).
 */
static const char *cur_str(struct cursor *c)
{
	size_t n;
	char *out;

	if (c->end - c->off < 2)
		return NULL;
	n = wfw_get16(c->p + c->off);
	c->off += 2;
	if (c->end - c->off < n || memchr(c->p + c->off, '\0', n))
		return NULL;
	out = c->strs + c->slen;
	memcpy(out, c->p + c->off, n);
	out[n] = '\0';
	c->slen += n + 1;
	c->off += n;
	return out;
}

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); \
		      wfw_bin_header_free(h); return -EINVAL; } while (0)

/* The sizes of the fixed part against the format's limits. */
static int check_sizes(struct wfw_bin_header *h, uint32_t hlen, uint32_t ncols,
		       uint32_t recsize, uint32_t nmeta, char *err, size_t errlen)
{
	bool v1 = h->version == WFW_BIN_VERSION_V1;

	if (hlen < WFW_BIN_FIXED_LEN || hlen > WFW_BIN_MAX_HEADER || hlen % 8)
		BAD("corrupt header: header length %u", hlen);
	if (!ncols || ncols > WFW_BIN_MAX_COLS)
		BAD("corrupt header: %u columns", ncols);
	/* Version 1: fixed records of 8 * ncols bytes; 2: rows per block. */
	if (v1 ? recsize != 8 * ncols : !recsize || recsize > WFW_BLK_MAX_ROWS)
		BAD("corrupt header: %u columns, %s %u", ncols,
		    v1 ? "record size" : "block rows", recsize);
	if (nmeta > hlen / 4)
		BAD("corrupt header: %u metadata entries", nmeta);
	h->header_len = hlen;
	if (v1)
		h->record_size = recsize;
	else
		h->block_rows = recsize;
	return 0;
}

/* The fixed part: magic, byte order, version, sizes. 0, -EAGAIN or an error. */
static int parse_fixed(struct wfw_bin_header *h, const unsigned char *p, size_t n,
		       size_t *need, uint32_t *ncols, uint32_t *nmeta,
		       char *err, size_t errlen)
{
	uint32_t bom;

	*need = WFW_BIN_FIXED_LEN;
	if (n < WFW_BIN_MAGIC_LEN)
		return -EAGAIN;
	if (memcmp(p, WFW_BIN_MAGIC, WFW_BIN_MAGIC_LEN))
		BAD("not a wultfw binary file (wrong magic)");
	if (n < WFW_BIN_FIXED_LEN)
		return -EAGAIN;
	bom = wfw_get32(p + 8);
	if (bom == 0x04030201u) {
		snprintf(err, errlen, "big-endian file: this reader handles little-endian files only");
		return -ENOTSUP;
	}
	if (bom != WFW_BIN_BOM)
		BAD("corrupt header: bad byte-order mark 0x%08x", bom);
	h->version = wfw_get16(p + 12);
	if (h->version != WFW_BIN_VERSION && h->version != WFW_BIN_VERSION_V1) {
		snprintf(err, errlen, "format version %u: this reader knows versions %u and %u only (use a newer wultfw)",
			 h->version, WFW_BIN_VERSION_V1, WFW_BIN_VERSION);
		return -ENOTSUP;
	}
	*ncols = wfw_get32(p + 20);
	*nmeta = wfw_get32(p + 28);
	if (check_sizes(h, wfw_get32(p + 16), *ncols, wfw_get32(p + 24), *nmeta,
			err, errlen))
		return -EINVAL;
	*need = h->header_len;
	return n < h->header_len ? -EAGAIN : 0;
}

/* The header's CRC, computed with its crc field taken as zero. */
static int check_crc(struct wfw_bin_header *h, const unsigned char *p,
		     char *err, size_t errlen)
{
	uint32_t hlen = h->header_len, crc = wfw_get32(p + 32);
	unsigned char zero[4] = { 0 };
	uint32_t got = wfw_crc32(0, p, 32);

	got = wfw_crc32(got, zero, 4);
	got = wfw_crc32(got, p + 36, hlen - 36);
	if (got != crc)
		BAD("corrupt header: checksum mismatch");
	return 0;
}

/* The next string of the header, NUL-terminated in the strings block. */
static const char *cur_bytes(struct cursor *c, size_t n)
{
	char *out = c->strs + c->slen;

	memcpy(out, c->p + c->off, n);
	out[n] = '\0';
	c->slen += n + 1;
	c->off += n;
	return out;
}

static int parse_type(struct wfw_bin_header *h, struct wultfw_column *col,
		      const unsigned char *e, char *err, size_t errlen)
{
	switch (e[0]) {
	case WFW_BIN_T_INT:
		col->type = WULTFW_COL_INT;
		col->divisor = wfw_get32(e + 8);
		if (!col->divisor)
			BAD("corrupt header: column %s has divisor 0", col->name);
		return 0;
	case WFW_BIN_T_FLOAT:
		col->type = WULTFW_COL_FLOAT;
		return 0;
	case WFW_BIN_T_ENUM:
		col->type = WULTFW_COL_ENUM;
		return 0;
	default:
		BAD("corrupt header: column %s has unknown type %u", col->name, e[0]);
	}
}

static int parse_names(struct wfw_bin_header *h, struct wultfw_column *col,
		       uint32_t ne, struct cursor *cur, char *err, size_t errlen)
{
	const char **names;

	if (ne && col->type != WULTFW_COL_ENUM)
		BAD("corrupt header: column %s has enum names but is not an enum",
		    col->name);
	/* Each name takes 2 bytes at least: bounds the allocation. */
	if (ne > (cur->end - cur->off) / 2)
		BAD("corrupt header: column %s claims %u enum names", col->name, ne);
	if (!ne)
		return 0;
	names = calloc(ne, sizeof(char *));
	if (!names)
		BAD("out of memory");
	col->enum_names = names;
	col->n_enum = ne;
	for (uint32_t i = 0; i < ne; i++) {
		names[i] = cur_str(cur);
		if (!names[i])
			BAD("corrupt header: enum name %u of column %s runs past the header or holds a NUL byte",
			    i, col->name);
	}
	return 0;
}

/* Column entry c at the cursor. */
static int parse_column(struct wfw_bin_header *h, uint32_t c, struct cursor *cur,
			char *err, size_t errlen)
{
	struct wultfw_column *col = &h->cols[c];
	const unsigned char *e = cur->p + cur->off;
	uint16_t nl, ul;

	if (cur->end - cur->off < WFW_BIN_COL_LEN)
		BAD("corrupt header: column %u runs past the header", c);
	nl = wfw_get16(e + 2);
	ul = wfw_get16(e + 4);
	cur->off += WFW_BIN_COL_LEN;
	if (!nl || cur->end - cur->off < (size_t)nl + ul)
		BAD("corrupt header: column %u name/unit length", c);
	if (memchr(cur->p + cur->off, '\0', (size_t)nl + ul))
		BAD("corrupt header: column %u name or unit holds a NUL byte", c);
	col->name = cur_bytes(cur, nl);
	col->unit = cur_bytes(cur, ul);
	h->colflags[c] = e[1];
	if (parse_type(h, col, e, err, errlen))
		return -EINVAL;
	return parse_names(h, col, wfw_get32(e + 12), cur, err, errlen);
}

int wfw_bin_header_parse(struct wfw_bin_header *h, const void *buf, size_t n,
			 size_t *need, char *err, size_t errlen)
{
	const unsigned char *p = buf;
	struct cursor cur;
	uint32_t ncols = 0, nmeta = 0;
	int ret;

	memset(h, 0, sizeof(*h));
	ret = parse_fixed(h, p, n, need, &ncols, &nmeta, err, errlen);
	if (ret)
		return ret;
	if (check_crc(h, p, err, errlen))
		return -EINVAL;
	h->cols = calloc(ncols, sizeof(*h->cols));
	h->colflags = calloc(ncols, sizeof(*h->colflags));
	h->meta = calloc(2 * (size_t)nmeta + 1, sizeof(char *));
	/* Every string has a 2-byte length in the header: room for its NUL. */
	h->strings = malloc(h->header_len);
	if (!h->cols || !h->colflags || !h->meta || !h->strings)
		BAD("out of memory");
	h->schema.ncols = ncols;
	h->schema.cols = h->cols;
	cur = (struct cursor){ .p = p, .off = WFW_BIN_FIXED_LEN, .end = h->header_len,
			       .strs = h->strings };
	for (uint32_t c = 0; c < ncols; c++)
		if (parse_column(h, c, &cur, err, errlen))
			return -EINVAL;
	for (uint32_t i = 0; i < 2 * nmeta; i++) {
		h->meta[i] = (char *)cur_str(&cur);
		if (!h->meta[i])
			BAD("corrupt header: metadata runs past the header or holds a NUL byte");
	}
	h->nmeta = nmeta;
	return 0;
}
