/* SPDX-License-Identifier: MIT */
/*
 * A latency's composition by percentile band and its tail in words
 * (doc/report.md), for all of a result's rows or one C-state's: from the
 * bins and the largest rows kept while reading (attrib.c).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stats/report.h"

/* The bands: below p50, p50 to p90, ..., p99.9 and above, the max. */
#define NBANDS 6
#define TAIL_BAND 4
#define MAX_BAND 5
static const double band_share[TAIL_BAND] = { 0.5, 0.9, 0.99, 0.999 };
static const char *const band_names[NBANDS] = {
	"< p50", "p50\u2013p90", "p90\u2013p99", "p99\u2013p99.9", "\u2265 p99.9", "max",
};
#define TAIL_PCT 99.9

struct band {
	uint64_t n;
	uint64_t lat, t[WFW_XP_NCAT];	/* thousandths, as the bins */
	double min, max;
};

/*
 * The rows at or above the summary table's p99.9 (`all`, the statistics of
 * every datapoint): how many, all kept or not.
 */
struct tail {
	double lo;		/* p99.9 */
	uint64_t ntail;		/* 0: too few datapoints */
	size_t n;		/* of them kept, the largest */
	bool whole;		/* n == ntail */
};

static void tail_of(const struct wfw_attrib_set *a, const struct wfw_summary *all,
		    struct tail *t)
{
	struct wfw_summary s = *all;
	size_t k = 0;

	memset(t, 0, sizeof(*t));
	while (k < WFW_REP_NPCTS && wfw_rep_pcts[k] != TAIL_PCT)
		k++;
	if (!s.count || k == WFW_REP_NPCTS || k >= s.npct)
		return;
	wfw_summary_shown(&s, wfw_rep_pcts);
	if (isnan(s.pct[k]))
		return;
	t->lo = s.pct[k];
	while (t->n < a->ntop && a->top[t->n].x.lat >= t->lo)
		t->n++;
	t->whole = t->n < a->ntop || a->ntop == a->values;
	/* beyond the rows kept: rank (count - 1) p / 100 and up */
	t->ntail = t->whole ? t->n :
		s.count - (uint64_t)ceil((double)(s.count - 1) * TAIL_PCT / 100);
}

static void band_add(struct band *b, const struct wfw_attrib_bin *bin)
{
	b->n += bin->n;
	b->lat += bin->lat;
	for (int c = 0; c < WFW_XP_NCAT; c++)
		b->t[c] += bin->t[c];
	b->min = fmin(b->min, bin->min);
	b->max = fmax(b->max, bin->max);
}

/* One explained row as a bin of its own. */
static void row_bin(const struct wfw_attrib_row *r, struct wfw_attrib_bin *one)
{
	*one = (struct wfw_attrib_bin){ .n = 1, .min = r->x.lat, .max = r->x.lat,
					.lat = wfw_attrib_milli(r->x.lat) };
	for (int c = 0; c < WFW_XP_NCAT; c++)
		one->t[c] = wfw_attrib_milli(r->x.t[c]);
}

/* The explained tail rows out of the bins, into their band (then exact). */
static void take_tail(struct wfw_attrib_bin *bins, const struct wfw_attrib_set *a,
		      const struct tail *t, struct band *tb)
{
	for (size_t i = 0; i < t->n; i++) {
		struct wfw_attrib_bin one, *b;

		if (!wfw_xp_explained(&a->top[i].x))
			continue;
		row_bin(&a->top[i], &one);
		band_add(tb, &one);
		b = &bins[wfw_attrib_bin(a->top[i].x.lat)];
		b->n--;
		b->lat -= one.lat;
		for (int c = 0; c < WFW_XP_NCAT; c++)
			b->t[c] -= one.t[c];
	}
}

/*
 * The bands from the bins: a bin goes to the band its first datapoint's
 * share of all of them falls in (the bins are 0.4-0.8% wide). The tail's
 * band is its rows themselves when they were all kept.
 */
static int make_bands(const struct wfw_attrib_set *a, const struct tail *t,
		      struct band *b)
{
	struct wfw_attrib_bin *bins = malloc(WFW_ATTRIB_NBINS * sizeof(*bins)), one;
	bool exact = t->ntail && t->whole;
	uint64_t seen = 0;

	if (!bins)
		return -ENOMEM;
	memcpy(bins, a->bins, WFW_ATTRIB_NBINS * sizeof(*bins));
	for (int k = 0; k < NBANDS; k++)
		b[k] = (struct band){ .min = INFINITY, .max = -INFINITY };
	if (exact)
		take_tail(bins, a, t, &b[TAIL_BAND]);
	for (size_t i = 0; i < WFW_ATTRIB_NBINS; i++) {
		int k = 0;

		if (!bins[i].n)
			continue;
		while (k < TAIL_BAND && (double)seen >= band_share[k] * (double)a->explained)
			k++;
		/* below p99.9's value, past 99.9% of the rows: it interpolates */
		if (k == TAIL_BAND && exact)
			k--;
		band_add(&b[k], &bins[i]);
		seen += bins[i].n;
	}
	free(bins);
	if (a->ntop && wfw_xp_explained(&a->top[0].x)) {
		row_bin(&a->top[0], &one);
		band_add(&b[MAX_BAND], &one);
	}
	return 0;
}

/* thousandths summed over n rows: their mean in the unit. */
static void mean_num(FILE *f, uint64_t sum, uint64_t n)
{
	wfw_rep_num(f, n ? (double)(int64_t)sum / 1000.0 / (double)n : NAN);
}

static void band_json(FILE *f, const struct band *b, const char *name)
{
	fputs("{\"name\": ", f);
	wfw_json_string(f, name);
	fprintf(f, ", \"rows\": %llu, \"lo\": ", (unsigned long long)b->n);
	wfw_rep_num(f, b->n ? b->min : NAN);
	fputs(", \"hi\": ", f);
	wfw_rep_num(f, b->n ? b->max : NAN);
	fputs(", \"lat\": ", f);
	mean_num(f, b->lat, b->n);
	fputs(", \"mean\": [", f);
	for (int c = 0; c < WFW_XP_NCAT; c++) {
		fputs(c ? ", " : "", f);
		mean_num(f, b->t[c], b->n);
	}
	fputs("], \"share\": [", f);
	for (int c = 0; c < WFW_XP_NCAT; c++) {
		fputs(c ? ", " : "", f);
		wfw_rep_num(f, b->n && b->lat ? (double)(int64_t)b->t[c] / (double)(int64_t)b->lat : NAN);
	}
	fputs("]}", f);
}

static int bands_json(FILE *f, const struct wfw_attrib_set *a, const struct tail *t)
{
	struct band b[NBANDS];
	int ret = make_bands(a, t, b);

	if (ret)
		return ret;
	fputs(", \"bands\": [", f);
	for (int k = 0; k < NBANDS; k++) {
		/* a band's rows are below p99.9's value: not the tail's in its bin */
		if (k < TAIL_BAND && t->ntail && t->whole && b[k].max > t->lo)
			b[k].max = t->lo;
		fputs(k ? ", " : "", f);
		band_json(f, &b[k], band_names[k]);
	}
	fputs("]", f);
	return 0;
}

/* The tail's words (lib/explain), a string per line. */
static int words_json(FILE *f, const struct wfw_attrib_set *a,
		      struct wfw_xp_in *in, const struct tail *t)
{
	struct wfw_xp_row *rows = malloc((t->n ? t->n : 1) * sizeof(*rows));
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = rows ? open_memstream(&text, &len) : NULL;
	int ret = m ? 0 : -ENOMEM;

	/* the caller's metric, unit, threads, group and count columns kept */
	in->pct = TAIL_PCT;
	in->thr = t->lo;
	in->nvalues = a->values;
	in->rows = rows;
	in->n = t->n;
	in->ntail = t->ntail;
	in->max = a->ntop ? &a->top[0].x : NULL;
	for (size_t i = 0; i < t->n && rows; i++)
		rows[i] = a->top[i].x;
	if (m) {
		ret = wfw_xp_print(m, in);
		if (fclose(m) && !ret)
			ret = -ENOMEM;
	}
	fputs(", \"text\": [", f);
	for (line = text && !ret ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		fputs(line == text ? "" : ", ", f);
		wfw_json_string(f, line);
	}
	fputs("]", f);
	free(text);
	free(rows);
	return ret;
}

int wfw_attrib_set_json(FILE *f, const struct wfw_attrib_set *set,
			const struct wfw_summary *s, struct wfw_xp_in *words)
{
	struct tail t;
	int ret;

	tail_of(set, s, &t);
	fprintf(f, ", \"values\": %llu, \"explained\": %llu, \"mismatched\": %llu, \"tail_whole\": %s, \"kept\": %zu",
		(unsigned long long)set->values, (unsigned long long)set->explained,
		(unsigned long long)set->mismatched, !t.ntail || t.whole ? "true" : "false",
		set->ntop);
	ret = bands_json(f, set, &t);
	if (!ret)
		ret = words_json(f, set, words, &t);
	return ret;
}
