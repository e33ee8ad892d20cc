/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cychist.h"

int stats_cychist_init(struct stats_cychist *h, const struct wultfw_schema *s,
		       const char *const *names, size_t nnames,
		       size_t nbuckets, char *err, size_t errlen)
{
	memset(h, 0, sizeof(*h));
	h->nbuckets = nbuckets;
	h->cols = calloc(nnames ? nnames : 1, sizeof(*h->cols));
	if (!h->cols)
		return -ENOMEM;
	for (size_t i = 0; i < nnames; i++) {
		struct stats_cychist_col *c = &h->cols[h->ncols];
		size_t k;

		for (k = 0; k < s->ncols; k++)
			if (!strcmp(s->cols[k].name, names[i]) &&
			    s->cols[k].type != WULTFW_COL_ENUM)
				break;
		if (k == s->ncols) {
			snprintf(err, errlen, "histogram_metrics: the source "
				 "has no numeric column '%s'", names[i]);
			stats_cychist_free(h);
			return -ENOENT;
		}
		c->col = k;
		c->div = 1.0;
		c->is_float = s->cols[k].type == WULTFW_COL_FLOAT;
		if (s->cols[k].type == WULTFW_COL_INT && s->cols[k].divisor > 1)
			c->div = s->cols[k].divisor;
		c->min = INFINITY;
		c->max = -INFINITY;
		c->counts = calloc(nbuckets, sizeof(*c->counts));
		h->ncols++;
		if (!c->counts) {
			stats_cychist_free(h);
			return -ENOMEM;
		}
	}
	return 0;
}

void stats_cychist_free(struct stats_cychist *h)
{
	for (size_t i = 0; i < h->ncols; i++)
		free(h->cols[i].counts);
	free(h->cols);
	memset(h, 0, sizeof(*h));
}

/*
 * What the format can show: a number whose whole part a long holds (it
 * prints "%05ld"); NaN, the infinities and the rest are left out.
 */
static bool in_range(double v)
{
	return v > -0x1p63 && v < 0x1p63;
}

void stats_cychist_add(struct stats_cychist *h, const struct wultfw_batch *b)
{
	for (size_t i = 0; i < h->ncols; i++) {
		struct stats_cychist_col *c = &h->cols[i];

		for (size_t r = 0; r < b->rows; r++) {
			const union wultfw_cell *cell =
				&b->cells[r * b->ncols + c->col];
			double v = c->is_float ? cell->f : (double)cell->i / c->div;

			if (!c->is_float && cell->i == WULTFW_CELL_EMPTY)
				continue;	/* an empty cell: no number */
			if (!in_range(v)) {
				c->out += !isnan(v);
				continue;
			}
			c->total++;
			c->sum += v;
			c->min = v < c->min ? v : c->min;
			c->max = v > c->max ? v : c->max;
			if (v < 0)
				v = 0;	/* cyclictest has no negative bucket */
			if (v >= (double)h->nbuckets) {
				if (c->overflows < STATS_CYCHIST_MAX_OVERFLOWS)
					c->ovf_at[c->overflows] = h->rows + r;
				c->overflows++;
				continue;
			}
			c->counts[(size_t)v]++;
		}
	}
	h->rows += b->rows;
}

/* Whole display units, as cyclictest prints them (truncated, within long). */
static long whole(double v)
{
	if (!isfinite(v))
		return 0;
	return v >= 0x1p63 ? LONG_MAX : v <= -0x1p63 ? LONG_MIN : (long)v;
}

int stats_cychist_write(const struct stats_cychist *h, FILE *f)
{
	fputs("# Histogram\n", f);
	for (size_t k = 0; k < h->nbuckets; k++) {
		fprintf(f, "%06zu", k);
		for (size_t i = 0; i < h->ncols; i++)
			fprintf(f, "%c%06llu", i ? '\t' : ' ',
				(unsigned long long)h->cols[i].counts[k]);
		fputc('\n', f);
	}
	fputs("# Total:", f);
	for (size_t i = 0; i < h->ncols; i++)
		fprintf(f, " %09llu", (unsigned long long)
			(h->cols[i].total - h->cols[i].overflows));
	fputs("\n# Min Latencies:", f);
	for (size_t i = 0; i < h->ncols; i++)
		fprintf(f, " %05ld", whole(h->cols[i].min));
	fputs("\n# Avg Latencies:", f);
	for (size_t i = 0; i < h->ncols; i++)
		fprintf(f, " %05ld", h->cols[i].total ?
			whole(h->cols[i].sum / (double)h->cols[i].total) : 0);
	fputs("\n# Max Latencies:", f);
	for (size_t i = 0; i < h->ncols; i++)
		fprintf(f, " %05ld", whole(h->cols[i].max));
	fputs("\n# Histogram Overflows:", f);
	for (size_t i = 0; i < h->ncols; i++)
		fprintf(f, " %05llu",
			(unsigned long long)h->cols[i].overflows);
	fputs("\n# Histogram Overflow at cycle number:\n", f);
	for (size_t i = 0; i < h->ncols; i++) {
		const struct stats_cychist_col *c = &h->cols[i];
		uint64_t n = c->overflows < STATS_CYCHIST_MAX_OVERFLOWS ?
			c->overflows : STATS_CYCHIST_MAX_OVERFLOWS;

		fprintf(f, "# Thread %zu:", i);
		for (uint64_t k = 0; k < n; k++)
			fprintf(f, " %05llu", (unsigned long long)c->ovf_at[k]);
		if (c->overflows > n)
			fprintf(f, " # %05llu others",
				(unsigned long long)(c->overflows - n));
		fputc('\n', f);
	}
	for (size_t i = 0; i < h->ncols; i++)
		if (h->cols[i].out)
			fprintf(f, "# Thread %zu: %llu values out of range (infinite, or beyond 9.2e18 in magnitude) left out\n",
				i, (unsigned long long)h->cols[i].out);
	return ferror(f) ? -EIO : 0;
}
