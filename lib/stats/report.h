/* SPDX-License-Identifier: MIT */
/*
 * Presenting a wfw_statset: a text table and JSON (the body of stats.json
 * and of `wultfw calc --json`).
 */
#ifndef WFW_STATS_REPORT_H
#define WFW_STATS_REPORT_H

#include <stdio.h>

#include "stats/statset.h"

/* Decimals worth showing for a column (3 for ns shown as us). */
int wfw_report_decimals(const struct wultfw_column *col);

/* "99.9" for 99.9, "50" for 50: percentile labels without noise. */
void wfw_report_pct_label(char *buf, size_t len, double p);

/*
 * One table: a row per metric and group ("all" first), columns count, min,
 * mean, stddev, the percentiles, max.
 */
int wfw_report_table(struct wfw_statset *s, const double *p, size_t np,
		     FILE *f);

/*
 * The statistics as a JSON object (no trailing newline), indented by
 * `indent` spaces: {"datapoints": N, "group_by": ..., "metrics": {...}}.
 */
int wfw_report_json(struct wfw_statset *s, const double *p, size_t np,
		    int indent, FILE *f);

/*
 * Cells left out of the statistics (empty, NaN, out of range), one line
 * per metric that has any: "wultfw TOOL: PATH: METRIC: skipped ...".
 */
void wfw_report_skipped(FILE *f, const char *tool, const char *path,
			const struct wfw_statset *s);

/*
 * A JSON number, the shortest form that reads back as v (min and max stay
 * exact); null for NaN and the infinities.
 */
void wfw_json_num(FILE *f, double v);

/* Write a JSON string literal with escapes. */
void wfw_json_string(FILE *f, const char *s);

#endif
