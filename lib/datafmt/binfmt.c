/* SPDX-License-Identifier: MIT */
/* Header of the binary result format: build and parse, bounds-checked. */
#include "config.h"

#include <errno.h>
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
	const unsigned char *b = p;

	if (!crc_table[1])
		crc_init();
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

void *wfw_bin_header_build(const struct wultfw_schema *s,
			   const char *const *meta, size_t *len,
			   char *err, size_t errlen)
{
	struct wbuf w = { 0 };
	unsigned char *p;
	size_t nmeta = 0;

	if (!s->ncols || s->ncols > WFW_BIN_MAX_COLS) {
		snprintf(err, errlen, "%zu columns: the format holds 1 to %u",
			 s->ncols, WFW_BIN_MAX_COLS);
		return NULL;
	}
	while (meta && meta[2 * nmeta] && meta[2 * nmeta + 1])
		nmeta++;

	p = wb_grow(&w, WFW_BIN_FIXED_LEN);
	if (p) {
		memcpy(p, WFW_BIN_MAGIC, WFW_BIN_MAGIC_LEN);
		wfw_put32(p + 8, WFW_BIN_BOM);
		wfw_put16(p + 12, WFW_BIN_VERSION);
		wfw_put16(p + 14, 0);			/* flags */
		/* 16: header_len, filled in below */
		wfw_put32(p + 20, (uint32_t)s->ncols);
		wfw_put32(p + 24, wfw_blk_rows_for(s->ncols));
		wfw_put32(p + 28, (uint32_t)nmeta);
		/* 32: crc, 36: reserved */
	}
	for (size_t c = 0; c < s->ncols; c++) {
		const struct wultfw_column *col = &s->cols[c];
		size_t nl = col->name ? strlen(col->name) : 0;
		size_t ul = col->unit ? strlen(col->unit) : 0;
		size_t ne = col->type == WULTFW_COL_ENUM ? col->n_enum : 0;
		uint8_t t = col->type == WULTFW_COL_INT ? WFW_BIN_T_INT
			  : col->type == WULTFW_COL_FLOAT ? WFW_BIN_T_FLOAT
			  : WFW_BIN_T_ENUM;

		if (!nl || nl > 0xffff || ul > 0xffff || ne > 0xffffff) {
			snprintf(err, errlen, "column %zu (%s): name, unit or enum table too long or name empty",
				 c, col->name ? col->name : "");
			free(w.p);
			return NULL;
		}
		p = wb_grow(&w, WFW_BIN_COL_LEN + nl + ul);
		if (p) {
			p[0] = t;
			p[1] = 0;
			wfw_put16(p + 2, (uint16_t)nl);
			wfw_put16(p + 4, (uint16_t)ul);
			wfw_put16(p + 6, 0);
			wfw_put32(p + 8, t == WFW_BIN_T_INT
				      ? (col->divisor ? col->divisor : 1) : 0);
			wfw_put32(p + 12, (uint32_t)ne);
			memcpy(p + 16, col->name, nl);
			if (ul)
				memcpy(p + 16 + nl, col->unit, ul);
		}
		for (size_t i = 0; i < ne; i++) {
			if (wb_str(&w, col->enum_names[i])) {
				snprintf(err, errlen, "column %s: enum name %zu longer than 65535 bytes",
					 col->name, i);
				free(w.p);
				return NULL;
			}
		}
	}
	for (size_t i = 0; i < 2 * nmeta; i++) {
		if (wb_str(&w, meta[i])) {
			snprintf(err, errlen, "metadata %s longer than 65535 bytes",
				 meta[i & ~(size_t)1]);
			free(w.p);
			return NULL;
		}
	}
	/* Pad so records start 8-byte aligned (mmap readers can use them). */
	if (w.len % 8)
		wb_grow(&w, 8 - w.len % 8);
	if (w.oom || w.len > WFW_BIN_MAX_HEADER) {
		snprintf(err, errlen, w.oom ? "out of memory"
			 : "header larger than 16 MiB");
		free(w.p);
		return NULL;
	}
	wfw_put32(w.p + 16, (uint32_t)w.len);
	wfw_put32(w.p + 32, 0);
	wfw_put32(w.p + 32, wfw_crc32(0, w.p, w.len));
	*len = w.len;
	return w.p;
}

/* ---- parse ---- */

void wfw_bin_header_free(struct wfw_bin_header *h)
{
	if (h->cols) {
		for (size_t c = 0; c < h->schema.ncols; c++)
			free((void *)h->cols[c].enum_names);
	}
	free(h->cols);
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

int wfw_bin_header_parse(struct wfw_bin_header *h, const void *buf, size_t n,
			 size_t *need, char *err, size_t errlen)
{
	const unsigned char *p = buf;
	struct cursor cur;
	uint32_t hlen, ncols, recsize, nmeta, crc, bom;
	unsigned char *tmp;

	memset(h, 0, sizeof(*h));
	*need = WFW_BIN_FIXED_LEN;
	if (n < WFW_BIN_MAGIC_LEN ||
	    memcmp(p, WFW_BIN_MAGIC, WFW_BIN_MAGIC_LEN)) {
		if (n < WFW_BIN_MAGIC_LEN)
			return -EAGAIN;
		BAD("not a wultfw binary file (wrong magic)");
	}
	if (n < WFW_BIN_FIXED_LEN)
		return -EAGAIN;
	bom = wfw_get32(p + 8);
	if (bom != WFW_BIN_BOM) {
		if (bom == 0x04030201u) {
			snprintf(err, errlen, "big-endian file: this reader handles little-endian files only");
			return -ENOTSUP;
		}
		BAD("corrupt header: bad byte-order mark 0x%08x", bom);
	}
	h->version = wfw_get16(p + 12);
	if (h->version != WFW_BIN_VERSION && h->version != WFW_BIN_VERSION_V1) {
		snprintf(err, errlen, "format version %u: this reader knows versions %u and %u only (use a newer wultfw)",
			 h->version, WFW_BIN_VERSION_V1, WFW_BIN_VERSION);
		return -ENOTSUP;
	}
	hlen = wfw_get32(p + 16);
	ncols = wfw_get32(p + 20);
	recsize = wfw_get32(p + 24);
	nmeta = wfw_get32(p + 28);
	crc = wfw_get32(p + 32);
	if (hlen < WFW_BIN_FIXED_LEN || hlen > WFW_BIN_MAX_HEADER || hlen % 8)
		BAD("corrupt header: header length %u", hlen);
	if (!ncols || ncols > WFW_BIN_MAX_COLS)
		BAD("corrupt header: %u columns", ncols);
	/* Version 1: fixed records of 8 * ncols bytes; 2: rows per block. */
	if (h->version == WFW_BIN_VERSION_V1 ? recsize != 8 * ncols
	    : !recsize || recsize > WFW_BLK_MAX_ROWS)
		BAD("corrupt header: %u columns, %s %u", ncols,
		    h->version == WFW_BIN_VERSION_V1 ? "record size" : "block rows",
		    recsize);
	if (nmeta > hlen / 4)
		BAD("corrupt header: %u metadata entries", nmeta);
	*need = hlen;
	if (n < hlen)
		return -EAGAIN;

	/* Checksum over the header with its crc field taken as zero. */
	tmp = malloc(hlen);
	if (!tmp)
		BAD("out of memory");
	memcpy(tmp, p, hlen);
	wfw_put32(tmp + 32, 0);
	if (wfw_crc32(0, tmp, hlen) != crc) {
		free(tmp);
		BAD("corrupt header: checksum mismatch");
	}
	free(tmp);

	h->header_len = hlen;
	if (h->version == WFW_BIN_VERSION_V1)
		h->record_size = recsize;
	else
		h->block_rows = recsize;
	h->cols = calloc(ncols, sizeof(*h->cols));
	h->meta = calloc(2 * (size_t)nmeta + 1, sizeof(char *));
	/* Every string has a 2-byte length in the header: room for its NUL. */
	h->strings = malloc(hlen);
	if (!h->cols || !h->meta || !h->strings)
		BAD("out of memory");
	h->schema.ncols = ncols;
	h->schema.cols = h->cols;

	cur = (struct cursor){ .p = p, .off = WFW_BIN_FIXED_LEN, .end = hlen,
			       .strs = h->strings };
	for (uint32_t c = 0; c < ncols; c++) {
		struct wultfw_column *col = &h->cols[c];
		const unsigned char *e;
		uint16_t nl, ul;
		uint32_t ne;

		if (cur.end - cur.off < WFW_BIN_COL_LEN)
			BAD("corrupt header: column %u runs past the header", c);
		e = p + cur.off;
		nl = wfw_get16(e + 2);
		ul = wfw_get16(e + 4);
		ne = wfw_get32(e + 12);
		cur.off += WFW_BIN_COL_LEN;
		if (!nl || cur.end - cur.off < (size_t)nl + ul)
			BAD("corrupt header: column %u name/unit length", c);
		if (memchr(p + cur.off, '\0', (size_t)nl + ul))
			BAD("corrupt header: column %u name or unit holds a NUL byte", c);
		memcpy(cur.strs + cur.slen, p + cur.off, nl);
		col->name = cur.strs + cur.slen;
		cur.slen += nl;
		cur.strs[cur.slen++] = '\0';
		cur.off += nl;
		memcpy(cur.strs + cur.slen, p + cur.off, ul);
		col->unit = cur.strs + cur.slen;
		cur.slen += ul;
		cur.strs[cur.slen++] = '\0';
		cur.off += ul;
		switch (e[0]) {
		case WFW_BIN_T_INT:
			col->type = WULTFW_COL_INT;
			col->divisor = wfw_get32(e + 8);
			if (!col->divisor)
				BAD("corrupt header: column %s has divisor 0", col->name);
			break;
		case WFW_BIN_T_FLOAT:
			col->type = WULTFW_COL_FLOAT;
			break;
		case WFW_BIN_T_ENUM:
			col->type = WULTFW_COL_ENUM;
			break;
		default:
			BAD("corrupt header: column %s has unknown type %u",
			    col->name, e[0]);
		}
		if (ne && col->type != WULTFW_COL_ENUM)
			BAD("corrupt header: column %s has enum names but is not an enum",
			    col->name);
		/* Each name takes 2 bytes at least: bounds the allocation. */
		if (ne > (cur.end - cur.off) / 2)
			BAD("corrupt header: column %s claims %u enum names",
			    col->name, ne);
		if (ne) {
			const char **names = calloc(ne, sizeof(char *));

			if (!names)
				BAD("out of memory");
			col->enum_names = names;
			col->n_enum = ne;
			for (uint32_t i = 0; i < ne; i++) {
				names[i] = cur_str(&cur);
				if (!names[i])
					BAD("corrupt header: enum name %u of column %s runs past the header or holds a NUL byte",
					    i, col->name);
			}
		}
	}
	for (uint32_t i = 0; i < 2 * nmeta; i++) {
		h->meta[i] = (char *)cur_str(&cur);
		if (!h->meta[i])
			BAD("corrupt header: metadata runs past the header or holds a NUL byte");
	}
	h->nmeta = nmeta;
	return 0;
}
