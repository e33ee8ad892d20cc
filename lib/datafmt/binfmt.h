/* SPDX-License-Identifier: MIT */
/*
 * The binary result format (doc/binary-format.md): building and parsing
 * its header. Version 2 (written now): checksummed blocks of packed
 * columns follow the header (binblock.h). Version 1 (still read): fixed
 * records of ncols little-endian 64-bit cells follow it.
 */
#ifndef WFW_BINFMT_H
#define WFW_BINFMT_H

#include <stddef.h>
#include <stdint.h>
#include <wultfw/plugin.h>

#define WFW_BIN_MAGIC		"\x89WFWB\r\n\x1a"
#define WFW_BIN_MAGIC_LEN	8
#define WFW_BIN_VERSION		2U
#define WFW_BIN_VERSION_V1	1U
#define WFW_BIN_BOM		0x01020304u
#define WFW_BIN_FIXED_LEN	40	/* fixed part of the header */
#define WFW_BIN_COL_LEN		16	/* fixed part of a column entry */
#define WFW_BIN_MAX_HEADER	(16u << 20)
#define WFW_BIN_MAX_COLS	4096u

/* Column type codes in the file (stable, independent of the ABI enum). */
#define WFW_BIN_T_INT	0
#define WFW_BIN_T_FLOAT	1
#define WFW_BIN_T_ENUM	2

/*
 * Column entry byte 1: flags (files before them hold 0 there, and readers
 * ignore bits they do not know). BARE: a FLOAT column whose integral
 * values are shown as integers ("5", not "5.0"), as the CSV it was
 * converted from wrote them.
 */
#define WFW_BIN_COL_BARE	0x01

/*
 * Build the (version 2) header for schema s and metadata meta (key, value, key, value,
 * ..., NULL; may be NULL). Returns a malloc'd buffer and its length in
 * *len, or NULL with a reason in err.
 */
void *wfw_bin_header_build(const struct wultfw_schema *s,
			   const char *const *meta, size_t *len,
			   char *err, size_t errlen);
/*
 * The same, padded with zeros to at least min_len bytes: room to rewrite
 * it in place later with more enum names (a one-pass conversion).
 */
void *wfw_bin_header_build_min(const struct wultfw_schema *s,
			       const char *const *meta, size_t min_len,
			       size_t *len, char *err, size_t errlen);
/* The same with column c's flags byte colflags[c] (colflags NULL: 0). */
void *wfw_bin_header_build_flags(const struct wultfw_schema *s,
				 const uint8_t *colflags,
				 const char *const *meta, size_t min_len,
				 size_t *len, char *err, size_t errlen);

/* A parsed header; everything is owned by it. */
struct wfw_bin_header {
	uint32_t version;
	uint32_t header_len;
	uint32_t record_size;	/* version 1: bytes per record */
	uint32_t block_rows;	/* version 2: most rows in a block */
	struct wultfw_schema schema;
	struct wultfw_column *cols;
	uint8_t *colflags;	/* each column entry's flags byte */
	size_t nmeta;
	char **meta;		/* key, value, key, value, ... */
	char *strings;		/* one block holding every string */
};

/*
 * Parse a header from buf (n bytes available; n may exceed the header).
 * Every length is checked against n. Returns 0; -EAGAIN when n is too
 * short and *need says how many bytes are needed; or -EINVAL / -ENOTSUP
 * with a reason in err (which does not name the file).
 */
int wfw_bin_header_parse(struct wfw_bin_header *h, const void *buf, size_t n,
			 size_t *need, char *err, size_t errlen);
void wfw_bin_header_free(struct wfw_bin_header *h);

uint32_t wfw_crc32(uint32_t crc, const void *p, size_t n);

#endif /* WFW_BINFMT_H */
