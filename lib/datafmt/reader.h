/* SPDX-License-Identifier: MIT */
/*
 * Reading result files: a binary file written by the `binary` sink (see
 * doc/binary-format.md) or a CSV file (written by the `csv` sink or by
 * wult itself). Either way the caller gets a schema and batches of rows
 * in the plugin ABI's layout, so `wultfw calc` and `wultfw convert` never
 * care which format they read.
 *
 * Typical use:
 *
 *	struct wfw_reader *r;
 *	struct wultfw_batch b;
 *	char err[512];
 *	long n;
 *
 *	if (wfw_reader_open(&r, path, err, sizeof(err)) < 0)
 *		die("%s", err);           // err names the file (and line)
 *	const struct wultfw_schema *s = wfw_reader_schema(r);
 *	wfw_batch_alloc(&b, s->ncols, 65536);
 *	while ((n = wfw_reader_read(r, &b)) > 0) {
 *		use(b.cells, b.rows);
 *		b.rows = 0;
 *	}
 *	if (n < 0)
 *		die("%s", wfw_reader_error(r));
 *	wfw_batch_free(&b);
 *	wfw_reader_close(r);
 *
 * Format detection is by content: a file starting with the binary magic is
 * binary, anything else is parsed as CSV.
 *
 * CSV files are scanned twice: the first pass checks every line and fixes
 * the schema, so a bad file is rejected at open() with "FILE:LINE: why"
 * before any row is returned, and enum tables are complete up front.
 * Column types of a CSV file are inferred per column:
 *   - ENUM when the column's first non-empty value is not a number (e.g.
 *     ReqCState); empty values are -1, names are numbered in order of first
 *     appearance.
 *   - INT with divisor 10^d when every value is a plain decimal with exactly
 *     d fractional digits (d <= 9, no exponent, no leading zeros, no "-0")
 *     that fits in 64 bits; this is what the csv sink writes for INT columns,
 *     so CSV -> binary -> CSV reproduces the file byte for byte.
 *   - FLOAT otherwise (e.g. wult's 4.1797981021053525).
 * Units are not stored in CSV files: a column named as a wult metric gets
 * wult's unit for it (datafmt/wultunits.h), any other has unit "".
 * Errors: an empty file, a header without columns, a row with a different
 * number of fields than the header, an empty or non-numeric value in a
 * numeric column, a quote that is never closed.
 */
#ifndef WFW_READER_H
#define WFW_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <wultfw/plugin.h>

struct wfw_reader;

enum wfw_file_format {
	WFW_FMT_CSV = 1,
	WFW_FMT_BINARY = 2,
};

/*
 * Open `path` and read its schema. Returns 0, or a negative errno with a
 * message naming the file (and line) in err.
 */
int wfw_reader_open(struct wfw_reader **r, const char *path, char *err,
		    size_t errlen);

/* The file's schema; owned by the reader, valid until wfw_reader_close(). */
const struct wultfw_schema *wfw_reader_schema(const struct wfw_reader *r);

enum wfw_file_format wfw_reader_format(const struct wfw_reader *r);

/*
 * Append rows to b (b->ncols must equal the schema's ncols) until
 * b->rows == b->capacity or the file ends. Returns the number of rows
 * appended (0: end of file), or a negative errno; then
 * wfw_reader_error() says why, naming the file.
 */
long wfw_reader_read(struct wfw_reader *r, struct wultfw_batch *b);

const char *wfw_reader_error(const struct wfw_reader *r);

/* Whole rows in the file (binary: whole records; CSV: data lines). */
uint64_t wfw_reader_rows(const struct wfw_reader *r);

/*
 * Binary files only: bytes after the last whole record (a file cut short),
 * which are ignored. 0 for CSV files.
 */
uint64_t wfw_reader_ignored_bytes(const struct wfw_reader *r);

/*
 * Binary files only: a value of the file's "key: value" metadata
 * (experiment, devid, devdescr, cpu, ...), or NULL.
 */
const char *wfw_reader_meta(const struct wfw_reader *r, const char *key);

/*
 * Binary files: skip damaged blocks (a checksum mismatch) instead of
 * failing, and go on with the next intact one. wfw_reader_damaged() counts
 * the damaged places skipped; wfw_reader_rows() stays the rows before the
 * first damage.
 */
void wfw_reader_set_salvage(struct wfw_reader *r, bool on);
uint64_t wfw_reader_damaged(const struct wfw_reader *r);

void wfw_reader_close(struct wfw_reader *r);

/* ---- small helpers ---- */

/* Index of the column called `name`, or -1. */
int wfw_schema_find(const struct wultfw_schema *s, const char *name);

/* A cell as a number in the column's shown unit (INT: raw / divisor). */
double wfw_cell_value(const struct wultfw_column *col, union wultfw_cell c);

/* Allocate / free a batch of `capacity` rows of `ncols` cells. */
int wfw_batch_alloc(struct wultfw_batch *b, size_t ncols, size_t capacity);
void wfw_batch_free(struct wultfw_batch *b);

#endif /* WFW_READER_H */
