/* SPDX-License-Identifier: MIT */
/*
 * Formatting rows as wult's datapoints.csv. Shared by the csv sink and
 * `wultfw convert`, which must produce the same bytes.
 *
 *   INT    raw / divisor with exactly log10(divisor) decimals, computed
 *          with integer arithmetic (raw 4180 ns, divisor 1000 -> "4.180",
 *          raw -5 -> "-0.005").
 *   FLOAT  the shortest of %.15g/%.16g/%.17g that reads back to the same
 *          double; integral values get ".0" like Python ("0.0"), which
 *          makes a column read back as FLOAT even when every value is
 *          integral, but in a "bare" column (below: its CSV text wrote
 *          integers as "5", so another value shows it is FLOAT);
 *          "nan", "inf", "-inf".
 *   ENUM   the name, or an empty field for -1 (or out of range).
 * Header names and enum names are quoted with libcsv only when they hold
 * a comma, quote, CR or LF. Lines end with "\n".
 */
#ifndef WFW_CSVFMT_H
#define WFW_CSVFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wultfw/plugin.h>

/* How one column is printed (cached from its schema entry). */
struct wfw_csvfmt_col {
	int type;
	uint32_t divisor;
	unsigned decimals;	/* INT: log10(divisor) */
	unsigned hint;		/* FLOAT: decimals of the last short decimal */
	bool bare;		/* FLOAT: integral values without ".0" */
	size_t max;		/* longest text of a cell */
	size_t n_enum;		/* ENUM: names ready for output (quoted where needed) */
	char **text;
	size_t *len;
};

struct wfw_csvfmt {
	const struct wultfw_schema *schema;
	char *header;		/* whole header line with "\n" */
	size_t header_len;
	size_t row_max;		/* no row is longer than this */
	struct wfw_csvfmt_col *col;
};

/* Prepare for a schema; err says why it cannot (e.g. bad divisor). */
int wfw_csvfmt_init(struct wfw_csvfmt *f, const struct wultfw_schema *s,
		    char *err, size_t errlen);
void wfw_csvfmt_free(struct wfw_csvfmt *f);

/*
 * Follow the schema after a reader changed it in place (a column's type,
 * new enum names; see wfw_reader_schema_gen()): rows formatted from now
 * on print cells by the new types. The header stays (names never change).
 * row_max may grow. 0, or -errno with err set.
 */
int wfw_csvfmt_sync(struct wfw_csvfmt *f, char *err, size_t errlen);

/*
 * Column c prints integral FLOAT values as integers ("5", not "5.0"), as
 * the CSV it was read from wrote them (wfw_reader_bare_ints()). A column
 * that changes from INT (divisor 1) to FLOAT in wfw_csvfmt_sync() becomes
 * bare by itself: the rows before the change were printed as integers.
 */
void wfw_csvfmt_set_bare(struct wfw_csvfmt *f, size_t c, bool bare);

/* Format one row into buf (at least f->row_max bytes); returns its length. */
size_t wfw_csvfmt_row(const struct wfw_csvfmt *f, char *buf,
		      const union wultfw_cell *row);
/* `rows` rows (row-major) into buf (rows * f->row_max bytes). */
size_t wfw_csvfmt_rows(const struct wfw_csvfmt *f, char *buf,
		       const union wultfw_cell *cells, size_t rows);

/*
 * One cell of column fc as wfw_csvfmt_row() prints it, at p (fc->max
 * bytes); returns the end of its text. fc's hint may change.
 */
char *wfw_csvfmt_cell(struct wfw_csvfmt_col *fc, char *p, union wultfw_cell v);

/* Single values, for tests and tools. buf: 32 bytes at least. */
size_t wfw_csv_fmt_int(char *buf, int64_t raw, uint64_t divisor,
		       unsigned decimals);
size_t wfw_csv_fmt_float(char *buf, double v);
/* The same with snprintf/strtod only (the reference the fast path must match). */
size_t wfw_csv_fmt_float_slow(char *buf, double v);

/* True when s must be quoted in CSV. */
int wfw_csv_needs_quote(const char *s, size_t n);

#endif /* WFW_CSVFMT_H */
