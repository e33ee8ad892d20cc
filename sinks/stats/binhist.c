/* SPDX-License-Identifier: MIT */
/* Fixed-width text histogram per group: see binhist.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "binhist.h"
#include "stats/stats.h"

static int find_col(const struct wultfw_schema *s, const char *name,
		    int want_enum)
{
	for (size_t k = 0; name && k < s->ncols; k++)
		if (!strcmp(s->cols[k].name, name) &&
		    (s->cols[k].type == WULTFW_COL_ENUM) == want_enum)
			return (int)k;
	return -1;
}

int stats_binhist_init(struct stats_binhist *h, const struct wultfw_schema *s,
		       const char *metric, const char *group_by, double width,
		       char *err, size_t errlen)
{
	int c = find_col(s, metric, 0);

	memset(h, 0, sizeof(*h));
	if (c < 0) {
		snprintf(err, errlen, "text_histogram_metric: the source has no numeric column '%s'",
			 metric);
		return -ENOENT;
	}
	h->col = (size_t)c;
	h->gcol = find_col(s, group_by, 1);
	h->schema = s;
	h->width = width;
	h->div = s->cols[c].type == WULTFW_COL_INT && s->cols[c].divisor > 1 ?
		 s->cols[c].divisor : 1.0;
	h->ngroups = h->gcol < 0 ? 1 : s->cols[h->gcol].n_enum + 1;
	h->g = calloc(h->ngroups, sizeof(*h->g));
	return h->g ? 0 : -ENOMEM;
}

static int count(struct stats_binhist_group *g, double v, double width)
{
	double at;
	size_t bin;

	if (isnan(v)) {
		g->nan++;
		return 0;
	}
	if (!wfw_value_ok(v)) {
		g->out++;
		return 0;
	}
	if (v < 0) {
		g->below++;
		return 0;
	}
	if (v == 0)
		g->zero++;
	else
		g->above++;
	at = v / width;
	if (!(at < STATS_BINHIST_MAX_BINS)) {
		g->beyond++;
		return 0;
	}
	bin = (size_t)at;
	if (bin >= g->nbins) {
		size_t n = bin + 1 > 2 * g->nbins ? bin + 1 : 2 * g->nbins;

		n = n < STATS_BINHIST_MAX_BINS ? n : STATS_BINHIST_MAX_BINS;
		uint64_t *c = realloc(g->counts, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		memset(c + g->nbins, 0, (n - g->nbins) * sizeof(*c));
		g->counts = c;
		g->nbins = n;
	}
	g->counts[bin]++;
	return 0;
}

int stats_binhist_add(struct stats_binhist *h, const struct wultfw_batch *b)
{
	const struct wultfw_column *col = &h->schema->cols[h->col];

	for (size_t r = 0; r < b->rows; r++) {
		const union wultfw_cell *row = wultfw_crow(b, r);
		size_t g = 0;
		double v;

		if (h->gcol >= 0) {
			int64_t e = row[h->gcol].i;

			/* "-" (no value) is the last group. */
			g = e >= 0 && (size_t)e < h->ngroups - 1 ? (size_t)e : h->ngroups - 1;
		}
		if (col->type == WULTFW_COL_FLOAT)
			v = row[h->col].f;
		else if (row[h->col].i == WULTFW_CELL_EMPTY)
			v = NAN;	/* an empty cell: no number */
		else
			v = (double)row[h->col].i / h->div;
		if (count(&h->g[g], v, h->width))
			return -ENOMEM;
	}
	return 0;
}

static const char *group_name(const struct stats_binhist *h, size_t g)
{
	if (h->gcol < 0)
		return "all";
	if (g == h->ngroups - 1)
		return "-";
	return h->schema->cols[h->gcol].enum_names[g];
}

int stats_binhist_write(const struct stats_binhist *h, FILE *f)
{
	const char *metric = h->schema->cols[h->col].name;

	fprintf(f, "# %s histogram, bins of %g %s\n", metric, h->width,
		h->schema->cols[h->col].unit);
	for (size_t g = 0; g < h->ngroups; g++) {
		const struct stats_binhist_group *gr = &h->g[g];
		size_t last = gr->nbins;

		if (!gr->zero && !gr->above && !gr->below && !gr->nan && !gr->out)
			continue;
		while (last && !gr->counts[last - 1])
			last--;
		fprintf(f, "# %s%s%s: %llu at 0, %llu above 0, %llu below 0, %llu not a number",
			h->gcol < 0 ? "" : h->schema->cols[h->gcol].name,
			h->gcol < 0 ? "" : " ", group_name(h, g),
			(unsigned long long)gr->zero, (unsigned long long)gr->above,
			(unsigned long long)gr->below, (unsigned long long)gr->nan);
		if (gr->out)
			fprintf(f, ", %llu out of range (infinite, or beyond %s in magnitude)",
				(unsigned long long)gr->out, WFW_VALUE_MAX_TEXT);
		if (gr->beyond)
			fprintf(f, ", %llu above the last bin (%g)", (unsigned long long)gr->beyond,
				STATS_BINHIST_MAX_BINS * h->width);
		fputc('\n', f);
		for (size_t i = 0; i < last; i++)
			fprintf(f, "%g %llu\n", (double)i * h->width,
				(unsigned long long)gr->counts[i]);
	}
	return ferror(f) ? -EIO : 0;
}

void stats_binhist_free(struct stats_binhist *h)
{
	for (size_t g = 0; h->g && g < h->ngroups; g++)
		free(h->g[g].counts);
	free(h->g);
	memset(h, 0, sizeof(*h));
}
