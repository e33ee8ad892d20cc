/* SPDX-License-Identifier: MIT */
/*
 * Formatting rows as wult's datapoints.csv. Shared by the csv sink and
 * `wultfw convert`, which must produce the same bytes.
 *
 *   INT    raw / divisor with exactly log10(divisor) decimals, computed
 *          with integer arithmetic (raw 4180 ns, divisor 1000 -> "4.180",
 *          raw -5 -> "-0.005").
 *   FLOAT  the shortest of %.15g/%.16g/%.17g that reads back to the same
 *          double; integral values get ".0" like Python ("0.0");
 *          "nan", "inf", "-inf".
 *   ENUM   the name, or an empty field for -1 (or out of range).
 * Header names and enum names are quoted with libcsv only when they hold
 * a comma, quote, CR or LF. Lines end with "\n".
 */
#ifndef WFW_CSVFMT_H
#define WFW_CSVFMT_H

#include <stddef.h>
#include <wultfw/plugin.h>

struct wfw_csvfmt {
	const struct wultfw_schema *schema;
	char *header;		/* whole header line with "\n" */
	size_t header_len;
	size_t row_max;		/* no row is longer than this */
	/* per column: decimals of INT columns, and divisor */
	unsigned *decimals;
	uint64_t *divisor;
	/* per ENUM column: names ready for output (quoted where needed) */
	char ***enum_text;
	size_t **enum_len;
};

/* Prepare for a schema; err says why it cannot (e.g. bad divisor). */
int wfw_csvfmt_init(struct wfw_csvfmt *f, const struct wultfw_schema *s,
		    char *err, size_t errlen);
void wfw_csvfmt_free(struct wfw_csvfmt *f);

/* Format one row into buf (at least f->row_max bytes); returns its length. */
size_t wfw_csvfmt_row(const struct wfw_csvfmt *f, char *buf,
		      const union wultfw_cell *row);

/* Single values, for tests and tools. buf: 32 bytes at least. */
size_t wfw_csv_fmt_int(char *buf, int64_t raw, uint64_t divisor,
		       unsigned decimals);
size_t wfw_csv_fmt_float(char *buf, double v);
/* The same with snprintf/strtod only (the reference the fast path must match). */
size_t wfw_csv_fmt_float_slow(char *buf, double v);

/* True when s must be quoted in CSV. */
int wfw_csv_needs_quote(const char *s, size_t n);

#endif /* WFW_CSVFMT_H */
