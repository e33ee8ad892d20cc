/* SPDX-License-Identifier: MIT */
/*
 * A text table with columns sized to their widest cell: the stats sink's
 * summary and `wultfw calc` both print one.
 */
#ifndef WFW_STATS_TABLE_H
#define WFW_STATS_TABLE_H

#include <stdbool.h>
#include <stdio.h>

/* Widest cell the aligned and markdown forms print (longer: cut, "..."). */
#define WFW_TABLE_MAX_WIDTH 60

struct wfw_table {
	size_t ncols, nrows, cap;
	/*
	 * nrows * ncols offsets into text, where the cells are one after
	 * another, each ended by a NUL: one allocation for all, not one
	 * per cell (a million groups make tens of millions of cells).
	 */
	size_t *cells;
	char *text;
	size_t tlen, tcap;
	char align[64];		/* per column: 'l' left, else right */
};

/* align: one letter per column, 'l' left-aligned, 'r' right-aligned. */
void wfw_table_init(struct wfw_table *t, size_t ncols, const char *align);
void wfw_table_free(struct wfw_table *t);
/* Append a row of ncols cells (copied); NULL cells print empty. */
int wfw_table_add(struct wfw_table *t, const char *const *cells);
void wfw_table_print(const struct wfw_table *t, FILE *f);
/* The same rows as a markdown table (first row: header) or as CSV (whole). */
void wfw_table_print_markdown(const struct wfw_table *t, FILE *f);
void wfw_table_print_csv(const struct wfw_table *t, FILE *f);

/*
 * The same forms printed as rows come, holding none: an aligned table
 * takes its rows twice, first measured (widths), then printed; markdown
 * and CSV print them the first time. Output equals wfw_table_print*()'s
 * for the same rows. Use: init, then while a pass is needed: every row
 * with wfw_table_stream_row(), and if wfw_table_stream_measuring(),
 * wfw_table_stream_print() and every row again.
 */
enum wfw_table_form { WFW_TABLE_TEXT, WFW_TABLE_MARKDOWN, WFW_TABLE_CSV };

struct wfw_table_stream {
	size_t ncols;
	char align[64];
	enum wfw_table_form form;
	bool measuring;		/* the first pass of an aligned table */
	size_t w[64];		/* widths measured */
	size_t row;		/* rows so far in this pass */
	FILE *f;
};

void wfw_table_stream_init(struct wfw_table_stream *t, size_t ncols, const char *align,
			   enum wfw_table_form form, FILE *f);
bool wfw_table_stream_measuring(const struct wfw_table_stream *t);
/* Measured: the next pass prints. */
void wfw_table_stream_print(struct wfw_table_stream *t);
void wfw_table_stream_row(struct wfw_table_stream *t, const char *const *cells);

/*
 * Decimals for one statistic of a metric, v[0..n) its values in every row
 * a table shows (NaN skipped): the data's own decimals `dec` (3 for
 * microseconds from nanoseconds, 0 for counts) when every value is a
 * multiple of 10^-dec (min, max, most percentiles: values of the data);
 * else at least 3 (a mean, a standard deviation, an interpolated
 * percentile); and, when every value is below 1 in magnitude, enough for
 * 3 significant digits of the largest. At most 9. One rule for every
 * statistic, decided once for all its rows: the points align, whole
 * numbers show no ".000", and no value is printed with an exponent.
 */
int wfw_fmt_decimals(int dec, const double *v, size_t n);
/* The same, the values given one at a time (none held). */
struct wfw_decimals {
	int dec;
	double top;
	bool finer;
};
void wfw_decimals_init(struct wfw_decimals *d, int dec);
void wfw_decimals_add(struct wfw_decimals *d, double v);
int wfw_decimals_get(const struct wfw_decimals *d);

/*
 * A value with `decimals` after the point ("-": NaN; no "-0.000"); above
 * 2^53 in magnitude, its 15 significant digits ("%.15g").
 */
void wfw_fmt_value(char *buf, size_t len, double v, int decimals);

#endif
