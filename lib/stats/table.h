/* SPDX-License-Identifier: MIT */
/*
 * A text table with columns sized to their widest cell: the stats sink's
 * summary and `wultfw calc` both print one.
 */
#ifndef WFW_STATS_TABLE_H
#define WFW_STATS_TABLE_H

#include <stdio.h>

/* Widest cell the aligned and markdown forms print (longer: cut, "..."). */
#define WFW_TABLE_MAX_WIDTH 60

struct wfw_table {
	size_t ncols, nrows, cap;
	char **cells;		/* nrows * ncols, owned */
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
 * Format a value for a table: "-" for NaN, `decimals` after the point, but
 * at least 3 when the value is not whole (a mean of integer counts).
 */
void wfw_fmt_value(char *buf, size_t len, double v, int decimals);

#endif
