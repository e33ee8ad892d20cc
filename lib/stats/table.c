/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "stats/table.h"

void wfw_table_init(struct wfw_table *t, size_t ncols, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	snprintf(t->align, sizeof(t->align), "%s", align ? align : "");
}

void wfw_table_free(struct wfw_table *t)
{
	free(t->cells);
	free(t->text);
	t->cells = NULL;
	t->text = NULL;
	t->nrows = t->cap = t->tlen = t->tcap = 0;
}

/* Room for `more` bytes of text: doubling, so a row costs linear time. */
static int text_room(struct wfw_table *t, size_t more)
{
	size_t cap = t->tcap ? t->tcap : 4096;
	char *nt;

	if (t->tlen + more <= t->tcap)
		return 0;
	while (cap < t->tlen + more)
		cap *= 2;
	nt = realloc(t->text, cap);
	if (!nt)
		return -ENOMEM;
	t->text = nt;
	t->tcap = cap;
	return 0;
}

int wfw_table_add(struct wfw_table *t, const char *const *cells)
{
	size_t len = 0;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		size_t *nc = realloc(t->cells, cap * t->ncols * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		t->cells = nc;
		t->cap = cap;
	}
	for (size_t c = 0; c < t->ncols; c++)
		len += strlen(cells[c] ? cells[c] : "") + 1;
	if (text_room(t, len))
		return -ENOMEM;
	for (size_t c = 0; c < t->ncols; c++) {
		const char *s = cells[c] ? cells[c] : "";
		size_t n = strlen(s) + 1;

		memcpy(t->text + t->tlen, s, n);
		t->cells[t->nrows * t->ncols + c] = t->tlen;
		t->tlen += n;
	}
	t->nrows++;
	return 0;
}

/* Cell c of row r. */
static const char *cell(const struct wfw_table *t, size_t r, size_t c)
{
	return t->text + t->cells[r * t->ncols + c];
}

/*
 * A cell as an aligned table shows it: control bytes as '?', and cut to
 * WFW_TABLE_MAX_WIDTH bytes ending in "..." so that a hostile name cannot
 * make the table (every row is padded to it) grow with the input.
 */
static const char *shown(const char *s, char *buf)
{
	size_t n = 0;

	for (; s[n] && n < WFW_TABLE_MAX_WIDTH; n++)
		buf[n] = (unsigned char)s[n] < 0x20 || s[n] == 0x7f ? '?' : s[n];
	if (s[n])
		memcpy(buf + WFW_TABLE_MAX_WIDTH - 3, "...", 3);
	buf[n] = '\0';
	return buf;
}

/* Widths of one row's cells as an aligned table shows them, into w. */
static void measure_row(const char *const *cells, size_t nc, size_t *w)
{
	char buf[WFW_TABLE_MAX_WIDTH + 1];

	for (size_t c = 0; c < nc; c++) {
		size_t l = strlen(shown(cells[c] ? cells[c] : "", buf));

		w[c] = l > w[c] ? l : w[c];
	}
}

/* One row of an aligned table, its columns w wide. */
static void text_row(const char *const *cells, size_t nc, const size_t *w,
		     const char *align, FILE *f)
{
	char buf[WFW_TABLE_MAX_WIDTH + 1];

	for (size_t c = 0; c < nc; c++) {
		const char *s = shown(cells[c] ? cells[c] : "", buf);
		int wi = (int)w[c];
		bool left = c < strlen(align) && align[c] == 'l';

		if (c + 1 == nc && left)
			fputs(s, f);	/* no trailing blanks */
		else if (left)
			fprintf(f, "%-*s", wi, s);
		else
			fprintf(f, "%*s", wi, s);
		if (c + 1 < nc)
			fputs("  ", f);
	}
	fputc('\n', f);
}

/* Row r's cells as pointers (room: 64), for the row printers. */
static size_t row_cells(const struct wfw_table *t, size_t r, const char **v)
{
	size_t nc = t->ncols < 64 ? t->ncols : 64;

	for (size_t c = 0; c < nc; c++)
		v[c] = cell(t, r, c);
	return nc;
}

void wfw_table_print(const struct wfw_table *t, FILE *f)
{
	size_t w[64] = { 0 };
	const char *v[64];
	size_t nc = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		nc = row_cells(t, r, v);
		measure_row(v, nc, w);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		nc = row_cells(t, r, v);
		text_row(v, nc, w, t->align, f);
	}
}

#define FMT_MAX_DECIMALS 9

/* v is a multiple of 10^-dec, up to the rounding of a division by 10^dec. */
static bool at_resolution(double v, int dec)
{
	double x = v * pow(10, dec);

	return fabs(x - nearbyint(x)) <= 1e-9 * fabs(x) + 1e-9;
}

void wfw_decimals_init(struct wfw_decimals *d, int dec)
{
	d->dec = dec < 0 ? 0 : dec > FMT_MAX_DECIMALS ? FMT_MAX_DECIMALS : dec;
	d->top = 0;
	d->finer = false;
}

void wfw_decimals_add(struct wfw_decimals *d, double v)
{
	if (!isfinite(v))
		return;
	d->finer |= !at_resolution(v, d->dec);
	d->top = fabs(v) > d->top ? fabs(v) : d->top;
}

int wfw_decimals_get(const struct wfw_decimals *d)
{
	int n = d->finer && d->dec < 3 ? 3 : d->dec;

	if (d->top > 0 && d->top < 1) {	/* 3 significant digits of the largest */
		int sig = 2 - (int)floor(log10(d->top));

		n = d->finer && sig > n ? sig : n;
	}
	return n < FMT_MAX_DECIMALS ? n : FMT_MAX_DECIMALS;
}

int wfw_fmt_decimals(int dec, const double *v, size_t n)
{
	struct wfw_decimals d;

	wfw_decimals_init(&d, dec);
	for (size_t i = 0; i < n; i++)
		wfw_decimals_add(&d, v[i]);
	return wfw_decimals_get(&d);
}

/*
 * "%.*f" of v where it is certain without printf: v * 10^dec rounds to
 * the same integer whatever the product's rounding (not within 2^-49 of
 * a half), so its digits are that integer's. printf's exact conversion
 * was half of calc -g's instructions, and an aligned table formats each
 * value twice. False: leave it to printf (halves, large numbers).
 */
static bool fmt_fixed(char *buf, size_t len, double v, int dec)
{
	static const double p10[FMT_MAX_DECIMALS + 1] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	char dig[24];
	double x, r;
	uint64_t u;
	size_t n = 0, at = 0;
	bool zero = true;

	if (dec < 0 || dec > FMT_MAX_DECIMALS)
		return false;
	x = fabs(v) * p10[dec];	/* exact but for one rounding */
	if (!(x < 0x1p52))
		return false;
	r = floor(x);
	if (fabs(x - r - 0.5) <= x * 0x1p-49)
		return false;
	u = (uint64_t)r + (x - r > 0.5);
	do {			/* at least dec + 1 digits: "0.050" */
		dig[n] = (char)('0' + u % 10);
		zero &= dig[n++] == '0';
		u /= 10;
	} while (u || n <= (size_t)dec);
	if (n + 3 > len)
		return false;
	if (signbit(v) && !zero)	/* no -0.000 */
		buf[at++] = '-';
	while (n) {
		buf[at++] = dig[--n];
		if (n == (size_t)dec && dec)
			buf[at++] = '.';
	}
	buf[at] = '\0';
	return true;
}

void wfw_fmt_value(char *buf, size_t len, double v, int decimals)
{
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	/*
	 * Beyond 2^53 a double no longer holds every integer: printed in
	 * full, its last digits would be made up (INT64_MAX shows as ...808).
	 */
	if (fabs(v) > 0x1p53) {
		snprintf(buf, len, "%.15g", v);
		return;
	}
	if (fmt_fixed(buf, len, v, decimals))
		return;
	snprintf(buf, len, "%.*f", decimals, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));	/* -0.000: 0.000 */
}

/* GitHub-flavoured markdown: | a | b |, alignment in the rule row after the first. */
static void markdown_row(const char *const *cells, size_t nc, bool first,
			 const char *align, FILE *f)
{
	char buf[WFW_TABLE_MAX_WIDTH + 1];

	for (size_t c = 0; c < nc; c++)
		fprintf(f, "| %s ", shown(cells[c] ? cells[c] : "", buf));
	fputs("|\n", f);
	if (!first)
		return;
	for (size_t c = 0; c < nc; c++)
		fputs(c < strlen(align) && align[c] == 'l' ? "|:---" : "|---:", f);
	fputs("|\n", f);
}

/* RFC 4180: a cell with a comma, quote or newline is quoted. */
static void csv_row(const char *const *cells, size_t nc, FILE *f)
{
	for (size_t c = 0; c < nc; c++) {
		const char *s = cells[c] ? cells[c] : "";

		if (c)
			fputc(',', f);
		if (!strpbrk(s, ",\"\n")) {
			fputs(s, f);
			continue;
		}
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	}
	fputc('\n', f);
}

/* Every cell of row r (markdown and CSV print past 64 columns). */
static const char **all_cells(const struct wfw_table *t, size_t r)
{
	const char **v = malloc((t->ncols ? t->ncols : 1) * sizeof(*v));

	for (size_t c = 0; v && c < t->ncols; c++)
		v[c] = cell(t, r, c);
	return v;
}

void wfw_table_print_markdown(const struct wfw_table *t, FILE *f)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char **v = all_cells(t, r);

		if (v)
			markdown_row(v, t->ncols, !r, t->align, f);
		free(v);
	}
}

void wfw_table_print_csv(const struct wfw_table *t, FILE *f)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char **v = all_cells(t, r);

		if (v)
			csv_row(v, t->ncols, f);
		free(v);
	}
}

void wfw_table_stream_init(struct wfw_table_stream *t, size_t ncols, const char *align,
			   enum wfw_table_form form, FILE *f)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols < 64 || form != WFW_TABLE_TEXT ? ncols : 64;
	snprintf(t->align, sizeof(t->align), "%s", align ? align : "");
	t->form = form;
	t->measuring = form == WFW_TABLE_TEXT;
	t->f = f;
}

bool wfw_table_stream_measuring(const struct wfw_table_stream *t)
{
	return t->measuring;
}

void wfw_table_stream_print(struct wfw_table_stream *t)
{
	t->measuring = false;
	t->row = 0;
}

void wfw_table_stream_row(struct wfw_table_stream *t, const char *const *cells)
{
	if (t->measuring)
		measure_row(cells, t->ncols, t->w);
	else if (t->form == WFW_TABLE_TEXT)
		text_row(cells, t->ncols, t->w, t->align, t->f);
	else if (t->form == WFW_TABLE_MARKDOWN)
		markdown_row(cells, t->ncols, !t->row, t->align, t->f);
	else
		csv_row(cells, t->ncols, t->f);
	t->row++;
}
