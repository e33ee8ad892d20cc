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
 * CSV files are read once. wfw_reader_open() learns the column types from
 * every row before the first batch (the mapped file is tokenised for that,
 * so a bad file is rejected at open() with "FILE:LINE: why" and types never
 * change while reading). wfw_reader_open_opts() with one_pass learns them
 * from the first rows only and corrects a column when a later row
 * disagrees (see wfw_reader_schema_gen()); errors in later rows then come
 * from wfw_reader_read(). Column types of a CSV file, per column:
 *   - ENUM when the column's first non-empty value is not a number (e.g.
 *     ReqCState); empty values are -1, names are numbered in order of first
 *     appearance. A column empty in every row learned from is ENUM too
 *     (one pass: until a number shows up, which makes it INT or FLOAT).
 *   - INT with divisor 10^d when every value is a plain decimal with exactly
 *     d fractional digits (d <= 9, no exponent, no leading zeros, no "-0")
 *     that fits in 64 bits; this is what the csv sink writes for INT columns,
 *     so CSV -> binary -> CSV reproduces the file byte for byte.
 *   - FLOAT otherwise (e.g. wult's 4.1797981021053525).
 * An empty field in a numeric column is an empty cell (wfw_cell_empty()):
 * WULTFW_CELL_EMPTY in INT columns, the WULTFW_FLOAT_EMPTY_BITS NaN in
 * FLOAT columns; both are written back as empty fields.
 * Units are not stored in CSV files: a column named as a wult metric gets
 * wult's unit for it (units/wultunits.h), any other has unit "".
 * Errors: an empty file, a header without columns, a row with a different
 * number of fields than the header, a non-numeric value in a numeric
 * column, a number in a text column, a NUL byte in a text field, a quote
 * that is never closed, a line longer than 1 MiB, more than 4096 columns or
 * a column name longer than 1024 bytes (csvtok.h has the limits).
 */
#ifndef WFW_READER_H
#define WFW_READER_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <wultfw/plugin.h>

struct wfw_run_sums;	/* stats/moments.h */

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

struct wfw_reader_opts {
	/*
	 * Learn CSV column types from the first rows only; a column's type may
	 * then change between two batches (never inside one), and
	 * wfw_reader_schema_gen() counts the changes. wfw_reader_rows() is the
	 * rows read so far.
	 */
	bool one_pass;
	/*
	 * Read only the rows that start in part `part` (0-based) of `nparts`
	 * equal byte ranges of the data (binary: the blocks whose header
	 * starts there; version 1: that share of the records). CSV parts
	 * after the first learn their own types, and fail with -EAGAIN at a
	 * quote (a quoted newline could be taken for a row's end); a binary
	 * file with a damaged block header fails with -EAGAIN: then read the
	 * file whole. wfw_reader_rows() counts the part's rows.
	 */
	unsigned part, nparts;
	/*
	 * With nparts > 1: the file's size when its parts were planned (0:
	 * as each part's reader finds it). Every part cuts the same ranges
	 * then: a CSV file grown since is read up to it, one cut shorter
	 * fails with WFW_E_CUT, not with an empty or shifted part.
	 */
	uint64_t part_size;
	/*
	 * NULL, or a flag a signal handler sets to stop reading (wultfw
	 * filter's Ctrl-C): once it is set, every read returns 0 as at the
	 * end of the file, between two batches or blocks, and
	 * wfw_reader_stopped() says so.
	 */
	const volatile sig_atomic_t *stop;
};

int wfw_reader_open_opts(struct wfw_reader **r, const char *path,
			 const struct wfw_reader_opts *opts, char *err,
			 size_t errlen);

/*
 * How many times a column's type changed so far (one-pass CSV readers).
 * Rows of a batch always follow the schema as it is when read() returns.
 */
uint64_t wfw_reader_schema_gen(const struct wfw_reader *r);

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

/*
 * Rows column by column: cell r of column c is col[c][r], for the columns
 * whose col[c] is not NULL (the others are not decoded). Reading a binary
 * file this way skips the row-major layout: its blocks are stored column
 * by column already. A CSV file's cells go straight into the arrays; the
 * cells of columns without one are split (field count, quotes) but not
 * converted: past the rows types are learned from, a value there that is
 * no number is not an error.
 */
struct wfw_col_batch {
	union wultfw_cell **col;	/* ncols arrays of capacity cells, or NULL */
	size_t ncols;
	size_t rows;		/* rows filled */
	size_t capacity;	/* rows available */
	union wultfw_cell *store;	/* the arrays' memory */
	/*
	 * INT columns' cells as numbers: cell.f = (double)cell.i, an empty
	 * cell the empty NaN (WULTFW_FLOAT_EMPTY_BITS), as statistics take
	 * them; other columns' cells as they are.
	 */
	bool numbers;
	/* NULL, or per column: its cells as they are even with numbers */
	const bool *raw;
	/*
	 * Per column, for rows [0, rows): false when no cell is a NaN (an
	 * empty cell among them), true when some may be. read_cols resets
	 * them when it starts on an empty batch.
	 */
	bool *may_nan;
	/*
	 * NULL, or ncols of them (the caller's): column c's extremes and sum
	 * over rows [0, rows) where sums[c].ok, which a reader decoding
	 * numbers (binary version 2) finds on the way when it can.
	 */
	struct wfw_run_sums *sums;
};

/*
 * Like wfw_reader_read(), into a column batch (b->ncols must equal the
 * schema's). Every format can; wfw_reader_native_cols() says whether it
 * does so without going through rows (binary version 2), which is faster.
 */
long wfw_reader_read_cols(struct wfw_reader *r, struct wfw_col_batch *b);
bool wfw_reader_native_cols(const struct wfw_reader *r);
/*
 * Does read_cols fill the arrays without a batch of rows first? Native
 * readers, and the CSV reader (rows converted straight into the arrays,
 * the columns without one split, not converted: see above).
 */
bool wfw_reader_direct_cols(const struct wfw_reader *r);

struct wfw_blk_col;

/*
 * Binary version 2 only (wfw_reader_native_cols()): the next rows as the
 * current block's column chunks (binblock.h), to format them without
 * decoding: up to max rows from row *first of the block, whose payload is
 * copied into *buf (*cap bytes, grown as needed by realloc()) with
 * cols[ncols] pointing into it; when they are the block's last rows the
 * reader hands its own buffer over instead and keeps *buf (NULL or from
 * malloc()) for the next block. Returns the rows (0 at the end), or a
 * negative errno as wfw_reader_read() does; the rows count as read.
 */
long wfw_reader_read_chunks(struct wfw_reader *r, size_t max,
			    unsigned char **buf, size_t *cap,
			    struct wfw_blk_col *cols, size_t *first);

/*
 * A row's line as the file holds it ("\n" included), set only when the
 * CSV formatter (csvfmt.h) would print the row's cells as exactly these
 * bytes under the schema of the batch; n == 0: format the row.
 */
struct wfw_row_text {
	const char *s;
	size_t n;
};

/*
 * CSV files: from now on wfw_reader_read() also sets text[i] for each row
 * it appends at index i < capacity of a batch, so that a CSV to CSV copy
 * prints such rows as they are (the cost is paid only after this call).
 * Returns that array (valid until wfw_reader_close(); its entries until
 * the next read), or NULL: not a CSV file, no memory, or
 * WULTFW_NO_VERBATIM set in the environment (tests): format every row.
 */
const struct wfw_row_text *wfw_reader_row_texts(struct wfw_reader *r,
					       size_t capacity);

/*
 * use(arg), which reads the row texts of the last read: they point into
 * the mapped file, and a file cut shorter meanwhile raises SIGBUS there.
 * Returns use()'s value (not WFW_E_CUT), or WFW_E_CUT with
 * wfw_reader_error() saying so: use() was left where it read, so it must
 * not hold a lock or memory only its end would free.
 */
int wfw_reader_use_texts(struct wfw_reader *r, int (*use)(void *arg), void *arg);

/*
 * What an open, a read or wfw_reader_use_texts() returns when the file was
 * cut shorter while it was read (a CSV file, mapped): every later read of
 * that reader fails so too. Final: the file is not the one it was, and
 * reading it again (one reader instead of parts) would give other rows.
 */
#define WFW_E_CUT	(-ENOTRECOVERABLE)

/*
 * Does FLOAT column c hold values a CSV wrote as integers ("5") beside
 * values with a fraction ("7.25")? Then print its integral values so too
 * (wfw_csvfmt_set_bare()): the text stays the input's and still reads
 * back as FLOAT. CSV files: from the values read to learn the types;
 * binary files: the column's BARE flag (binfmt.h), set by a conversion
 * from such a CSV (wfw_writer_set_bare()). False for any other column
 * (a FLOAT column of the sinks prints "5.0").
 */
bool wfw_reader_bare_ints(const struct wfw_reader *r, size_t c);

const char *wfw_reader_error(const struct wfw_reader *r);

/* Whether a read ended because wfw_reader_opts.stop was set, not the file. */
bool wfw_reader_stopped(const struct wfw_reader *r);

/* Whole rows in the file (binary: whole records; CSV: data lines). */
uint64_t wfw_reader_rows(const struct wfw_reader *r);

/*
 * The number (from 0) of the first row of the part r reads in the whole
 * file, for a selection's `index`: 0 for a whole file or its first part;
 * a binary file knows it at open; a CSV part counts the rows before it
 * (a line scan of the bytes before the part, blank lines not counted).
 * 0, or -EAGAIN when it cannot tell (a quote before the part: a quoted
 * field may hold a newline): read the file whole then.
 */
int wfw_reader_first_row(struct wfw_reader *r, uint64_t *first);

/*
 * The same for each of the n parts a file would be read in (first[n]),
 * from a reader of the whole CSV file, in one line scan: for many parts
 * (chunks), where each counting what is before it would read the file
 * over and over. 0, -EAGAIN as above, -EOPNOTSUPP for another reader.
 */
int wfw_reader_part_firsts(struct wfw_reader *r, unsigned n, uint64_t *first);

/*
 * Bytes after the last whole record (a file cut short), which are
 * ignored: binary files, a partial block or record; CSV files, a last
 * line without its newline with fewer fields than the header (a last
 * field cut short cannot be told from a whole one).
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

/*
 * After a salvage: "2 damaged blocks skipped (the first: block 38 at byte
 * 9870560: checksum mismatch), 16384 rows lost" ("at least" where a
 * damaged header hid its count) into buf; "" when nothing was skipped.
 */
void wfw_reader_damage_summary(const struct wfw_reader *r, char *buf, size_t len);

/*
 * Binary version 2 files: the most rows a block of the file may hold (the
 * header's block_rows); 0 for any other file.
 */
uint32_t wfw_reader_block_rows(const struct wfw_reader *r);

/*
 * Binary version 2 files, between blocks (only this, or wfw_reader_read()
 * of whole blocks, before): the next block as the file holds it (block
 * header and payload) into dst, which has cap bytes, checked as
 * wfw_reader_read() checks it (checksums, chunks, enum cells), so a copy
 * holds only blocks the reader accepts; salvage skips damaged ones. cap:
 * the block bound of wfw_reader_block_rows() rows plus 8 bytes of slack
 * (binblock.h). Returns the block's length (*rows its rows), 0 at the end,
 * or a negative errno (wfw_reader_error() says why).
 */
long wfw_reader_read_block(struct wfw_reader *r, void *dst, size_t cap,
			   uint32_t *rows);

void wfw_reader_close(struct wfw_reader *r);

/* ---- small helpers ---- */

/* Index of the column called `name`, or -1. */
int wfw_schema_find(const struct wultfw_schema *s, const char *name);

/* True for an empty numeric cell (WULTFW_CELL_EMPTY or the empty NaN). */
static inline bool wfw_cell_empty(const struct wultfw_column *col,
				  union wultfw_cell c)
{
	return (col->type == WULTFW_COL_INT && c.i == WULTFW_CELL_EMPTY) ||
	       (col->type == WULTFW_COL_FLOAT && c.i == WULTFW_FLOAT_EMPTY_BITS);
}

/* A cell as a number in the column's shown unit (INT: raw / divisor). */
double wfw_cell_value(const struct wultfw_column *col, union wultfw_cell c);

/* Allocate / free a batch of `capacity` rows of `ncols` cells. */
int wfw_batch_alloc(struct wultfw_batch *b, size_t ncols, size_t capacity);
void wfw_batch_free(struct wultfw_batch *b);

/*
 * Allocate / free a column batch of `capacity` rows: arrays for the
 * columns c with want[c] (want NULL: every column).
 */
int wfw_col_batch_alloc(struct wfw_col_batch *b, size_t ncols, size_t capacity,
			const bool *want);
void wfw_col_batch_free(struct wfw_col_batch *b);

#endif /* WFW_READER_H */
