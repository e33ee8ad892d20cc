/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/report.h"
#include "stats/table.h"

int wfw_report_decimals(const struct wultfw_column *col)
{
	int d = 0;

	if (col->type != WULTFW_COL_INT)
		return 3;
	for (uint32_t v = col->divisor; v > 1; v /= 10)
		d++;
	return d;
}

void wfw_report_pct_label(char *buf, size_t len, double p)
{
	snprintf(buf, len, "%.10g", p);
}

/* Percentiles asked for plus the median, which is always reported. */
static size_t with_median(const double *p, size_t np, double *out)
{
	if (np > WFW_SUMMARY_MAX_PCT - 1)
		np = WFW_SUMMARY_MAX_PCT - 1;
	memcpy(out, p, np * sizeof(*p));
	out[np] = 50.0;
	return np + 1;
}

/* The statistics of a row as its columns show them: min, mean, std, pcts, max. */
#define ROW_VALUES(np)	((np) + 4)
/* Its cells: metric, group, unit, count, the values, exact or hist. */
#define ROW_CELLS(np)	(ROW_VALUES(np) + 5)
static size_t row_values(const struct wfw_summary *sum, double *v)
{
	size_t n = 0;

	v[n++] = sum->min;
	v[n++] = sum->mean;
	v[n++] = sum->stddev;
	for (size_t i = 0; i < sum->npct; i++)
		v[n++] = sum->pct[i];
	v[n++] = sum->max;
	return n;
}

static int table_row(struct wfw_table *t, struct wfw_statset *s, size_t m,
		     size_t g, const struct wfw_summary *sum, const int *dec)
{
	const struct wultfw_column *col = wfw_statset_metric(s, m);
	char buf[ROW_CELLS(WFW_SUMMARY_MAX_PCT)][48];
	const char *cells[ROW_CELLS(WFW_SUMMARY_MAX_PCT)];
	double v[ROW_VALUES(WFW_SUMMARY_MAX_PCT)];
	size_t n = 0, nv = row_values(sum, v);

	snprintf(buf[n++], sizeof(buf[0]), "%s", col->name);
	snprintf(buf[n++], sizeof(buf[0]), "%s",
		 g == SIZE_MAX ? "all" : wfw_statset_group_name(s, g));
	snprintf(buf[n++], sizeof(buf[0]), "%s", col->unit ? col->unit : "");
	snprintf(buf[n++], sizeof(buf[0]), "%llu", (unsigned long long)sum->count);
	for (size_t k = 0; k < nv; k++)
		wfw_fmt_value(buf[n++], sizeof(buf[0]), v[k], dec[k]);
	snprintf(buf[n++], sizeof(buf[0]), "%s", sum->exact ? "exact" : "hist");
	for (size_t i = 0; i < n; i++)
		cells[i] = buf[i];
	return wfw_table_add(t, cells);
}

/*
 * Metric m's rows: all, then its groups by depth; each statistic with
 * the decimals wfw_fmt_decimals() gives for all of them.
 */
static int metric_rows(struct wfw_table *t, struct wfw_statset *s, size_t m,
		       const double *p, size_t np)
{
	size_t nr = 1 + (s->gcol >= 0 ? s->ngroups : 0), nv = ROW_VALUES(np), k = 0;
	struct wfw_summary *sum = calloc(nr, sizeof(*sum));
	size_t *grp = calloc(nr, sizeof(*grp));
	double *v = calloc(nr, sizeof(*v));
	int dec[ROW_VALUES(WFW_SUMMARY_MAX_PCT)], ret = sum && grp && v ? 0 : -ENOMEM;

	for (size_t r = 0; r < nr && !ret; r++) {
		grp[k] = r ? wfw_statset_group_at(s, r - 1) : SIZE_MAX;
		ret = wfw_statset_summary(s, m, grp[k], p, np, &sum[k]);
		wfw_summary_shown(&sum[k], p);
		k += !r || sum[k].count;	/* empty groups are not shown */
	}
	for (size_t c = 0; c < nv && !ret; c++) {
		double row[ROW_VALUES(WFW_SUMMARY_MAX_PCT)];

		for (size_t r = 0; r < k; r++) {
			row_values(&sum[r], row);
			v[r] = row[c];
		}
		dec[c] = wfw_fmt_decimals(wfw_report_decimals(wfw_statset_metric(s, m)),
					  v, k);
	}
	for (size_t r = 0; r < k && !ret; r++)
		ret = table_row(t, s, m, grp[r], &sum[r], dec);
	free(sum);
	free(grp);
	free(v);
	return ret;
}

int wfw_report_table(struct wfw_statset *s, const double *p, size_t np,
		     FILE *f)
{
	char buf[ROW_CELLS(WFW_SUMMARY_MAX_PCT)][48];
	const char *cells[ROW_CELLS(WFW_SUMMARY_MAX_PCT)];
	struct wfw_table t;
	size_t n = 0;
	int ret = 0;

	if (np > WFW_SUMMARY_MAX_PCT)
		np = WFW_SUMMARY_MAX_PCT;
	char align[64];

	memset(align, 'r', sizeof(align));
	align[0] = align[1] = align[2] = 'l';
	align[ROW_CELLS(np) - 1] = 'l';
	align[ROW_CELLS(np)] = '\0';
	wfw_table_init(&t, ROW_CELLS(np), align);
	cells[n++] = "Metric";
	cells[n++] = s->gcol >= 0 ? s->schema->cols[s->gcol].name : "Group";
	cells[n++] = "Unit";
	cells[n++] = "Count";
	cells[n++] = "Min";
	cells[n++] = "Mean";
	cells[n++] = "StdDev";
	for (size_t i = 0; i < np; i++) {
		buf[i][0] = 'p';
		wfw_report_pct_label(buf[i] + 1, sizeof(buf[i]) - 1, p[i]);
		cells[n++] = buf[i];
	}
	cells[n++] = "Max";
	cells[n++] = "Percentiles";
	ret = wfw_table_add(&t, cells);
	for (size_t m = 0; m < s->nmetrics && !ret; m++) {
		if (wfw_statset_pending(s, m))
			continue;
		ret = metric_rows(&t, s, m, p, np);
	}
	if (!ret)
		wfw_table_print(&t, f);
	wfw_table_free(&t);
	return ret;
}

/* Length of a UTF-8 sequence by its lead byte; 0: never a lead byte. */
static size_t utf8_lead(unsigned char c)
{
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	return c >= 0xf0 && c <= 0xf4 ? 4 : 0;
}

/* Length of the valid UTF-8 sequence at s (lead byte >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	/* no overlong forms, surrogates or code points beyond U+10FFFF */
	unsigned char lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : 0xbf;
	size_t n = utf8_lead(s[0]);

	if (!n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Invalid UTF-8 (a hostile CSV's names) is escaped byte by byte as U+00XX. */
void wfw_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (p && *p) {
		size_t n = *p >= 0x80 ? utf8_len(p) : 1;

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || !n)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

void wfw_json_num(FILE *f, double v)
{
	char buf[40];

	if (isnan(v) || isinf(v)) {
		fputs("null", f);
		return;
	}
	for (int prec = 12; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

static int json_summary(struct wfw_statset *s, size_t m, size_t g,
			const double *p, size_t np, int ind, FILE *f)
{
	struct wfw_summary sum;
	double pp[WFW_SUMMARY_MAX_PCT];
	size_t npp = with_median(p, np, pp);
	int ret = wfw_statset_summary(s, m, g, pp, npp, &sum);
	char lab[32];

	if (ret)
		return ret;
	fprintf(f, "{\n%*s\"count\": %llu,\n", ind + 2, "",
		(unsigned long long)sum.count);
	fprintf(f, "%*s\"min\": ", ind + 2, "");
	wfw_json_num(f, sum.min);
	fprintf(f, ",\n%*s\"max\": ", ind + 2, "");
	wfw_json_num(f, sum.max);
	fprintf(f, ",\n%*s\"mean\": ", ind + 2, "");
	wfw_json_num(f, sum.mean);
	fprintf(f, ",\n%*s\"stddev\": ", ind + 2, "");
	wfw_json_num(f, sum.stddev);
	fprintf(f, ",\n%*s\"median\": ", ind + 2, "");
	wfw_json_num(f, sum.pct[npp - 1]);
	fprintf(f, ",\n%*s\"percentiles\": {", ind + 2, "");
	for (size_t i = 0; i + 1 < npp; i++) {
		wfw_report_pct_label(lab, sizeof(lab), pp[i]);
		fprintf(f, "%s\"%s\": ", i ? ", " : "", lab);
		wfw_json_num(f, sum.pct[i]);
	}
	fprintf(f, "},\n%*s\"exact\": %s,\n", ind + 2, "",
		sum.exact ? "true" : "false");
	fprintf(f, "%*s\"relative_error_bound\": ", ind + 2, "");
	wfw_json_num(f, sum.exact ? 0.0 : WFW_HIST_REL_ERROR);
	fprintf(f, "\n%*s}", ind, "");
	return 0;
}

int wfw_report_json(struct wfw_statset *s, const double *p, size_t np,
		    int ind, FILE *f)
{
	const char *gname = s->gcol >= 0 ? s->schema->cols[s->gcol].name : NULL;
	int ret = 0;

	fprintf(f, "{\n%*s\"datapoints\": %llu,\n", ind + 2, "",
		(unsigned long long)s->rows);
	fprintf(f, "%*s\"group_by\": ", ind + 2, "");
	if (gname)
		wfw_json_string(f, gname);
	else
		fputs("null", f);
	fprintf(f, ",\n%*s\"exact_limit\": %zu,\n", ind + 2, "",
		wfw_statset_switch_point(s));
	fprintf(f, "%*s\"metrics\": {", ind + 2, "");
	for (size_t m = 0, shown = 0; m < s->nmetrics && !ret; m++) {
		const struct wultfw_column *col = wfw_statset_metric(s, m);
		bool first = true;

		if (wfw_statset_pending(s, m))
			continue;
		fprintf(f, "%s\n%*s", shown++ ? "," : "", ind + 4, "");
		wfw_json_string(f, col->name);
		fprintf(f, ": {\n%*s\"unit\": ", ind + 6, "");
		wfw_json_string(f, col->unit ? col->unit : "");
		fprintf(f, ",\n%*s\"empty_cells\": %llu,\n%*s\"nan_cells\": %llu,"
			"\n%*s\"out_of_range_cells\": %llu",
			ind + 6, "", (unsigned long long)s->empties[m],
			ind + 6, "", (unsigned long long)s->nans[m],
			ind + 6, "", (unsigned long long)s->outs[m]);
		fprintf(f, ",\n%*s\"all\": ", ind + 6, "");
		ret = json_summary(s, m, SIZE_MAX, p, np, ind + 6, f);
		if (gname && !ret) {
			fprintf(f, ",\n%*s", ind + 6, "");
			wfw_json_string(f, gname);
			fputs(": {", f);
			for (size_t i = 0; i < s->ngroups && !ret; i++) {
				size_t g = wfw_statset_group_at(s, i);

				if (!wfw_statset_acc(s, m, g)->n)
					continue;
				fprintf(f, "%s\n%*s", first ? "" : ",",
					ind + 8, "");
				first = false;
				wfw_json_string(f, wfw_statset_group_name(s, g));
				fputs(": ", f);
				ret = json_summary(s, m, g, p, np, ind + 8, f);
			}
			if (first)
				fputs("}", f);
			else
				fprintf(f, "\n%*s}", ind + 6, "");
		}
		fprintf(f, "\n%*s}", ind + 4, "");
	}
	fprintf(f, "\n%*s}\n%*s}", ind + 2, "", ind, "");
	return ret;
}

void wfw_report_skipped(FILE *f, const char *tool, const char *path,
			const struct wfw_statset *s)
{
	for (size_t m = 0; m < s->nmetrics; m++) {
		unsigned long long e = s->empties[m], n = s->nans[m], o = s->outs[m];

		if (!e && !n && !o)
			continue;
		fprintf(f, "wultfw %s: %s: %s: skipped %llu empty%s %llu NaN", tool,
			path, wfw_statset_metric(s, m)->name, e, o ? "," : " and", n);
		if (o)
			fprintf(f, " and %llu out-of-range cells (infinite, or beyond %s in magnitude)\n",
				o, WFW_VALUE_MAX_TEXT);
		else
			fputs(" cells\n", f);
	}
}
