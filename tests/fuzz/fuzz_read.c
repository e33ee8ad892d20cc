// SPDX-License-Identifier: GPL-2.0-only
/* Shared part of the reader fuzz targets (fuzz_read.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_read.h"

int fuzz_memfd(const void *head, size_t hlen, const void *data, size_t size,
	       char *path, size_t pathlen)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, head, hlen) != (ssize_t)hlen ||
	    write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

static void broken(const char *path, const char *what)
{
	fprintf(stderr, "fuzz: %s: %s\n", path, what);
	abort();
}

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct fuzz_cell shown(const struct wultfw_column *col, union wultfw_cell c)
{
	struct fuzz_cell v = { 0 };

	if (wfw_cell_empty(col, c) || (col->type == WULTFW_COL_ENUM && c.i == -1))
		return v;
	if (col->type == WULTFW_COL_ENUM) {
		if (c.i < 0 || (size_t)c.i >= col->n_enum)
			broken(col->name, "enum cell outside its names");
		v.kind = 2;
		v.h = hash(col->enum_names[c.i]);
		return v;
	}
	v.kind = 1;
	v.v = wfw_cell_value(col, c);
	return v;
}

/* Room in run for n more cells. */
static void grow(struct fuzz_run *run, size_t n)
{
	if (run->ncells + n <= run->cap)
		return;
	run->cap = (run->ncells + n) * 2;
	run->cells = realloc(run->cells, run->cap * sizeof(*run->cells));
	if (!run->cells)
		abort();
}

/* A read (what) of n rows that left rows in a batch of cap: not overfilled. */
static void check_fill(struct wfw_reader *r, const char *what, long n, size_t rows,
		       size_t cap)
{
	if ((size_t)n > rows || rows > cap)
		broken(wfw_reader_error(r), what);
}

/* n rows read counted; sometimes left in the batch: the next read appends. */
static void took(struct fuzz_run *run, long n, size_t *rows, size_t cap)
{
	run->rows += (uint64_t)n;
	if (*rows == cap || n % 2)
		*rows = 0;
}

/* Keep the cells of rows [from, b->rows) of a batch read with schema s. */
static void keep(struct fuzz_run *run, const struct wultfw_schema *s,
		 struct wultfw_batch *b, size_t from)
{
	grow(run, (b->rows - from) * s->ncols);
	for (size_t r = from; r < b->rows; r++)
		for (size_t c = 0; c < s->ncols; c++)
			run->cells[run->ncells++] = shown(&s->cols[c], wultfw_row(b, r)[c]);
	run->ncols = s->ncols;
}

/* Read r to the end; 0 or the error. */
static int drain(struct wfw_reader *r, size_t batch, struct fuzz_run *run)
{
	const struct wultfw_schema *s = wfw_reader_schema(r);
	struct wultfw_batch b;
	long n;

	if (wfw_batch_alloc(&b, s->ncols, batch))
		return -1;
	while ((n = wfw_reader_read(r, &b)) > 0) {
		check_fill(r, "read() overfilled the batch", n, b.rows, b.capacity);
		if (run->keep)
			keep(run, s, &b, b.rows - (size_t)n);
		took(run, n, &b.rows, b.capacity);
	}
	wfw_batch_free(&b);
	return (int)n;
}

int fuzz_read(const char *path, const struct wfw_reader_opts *opts,
	      size_t batch, bool salvage, struct fuzz_run *run)
{
	struct wfw_reader *r;
	uint64_t before = run->rows;
	char err[512];
	int ret;

	ret = wfw_reader_open_opts(&r, path, opts, err, sizeof(err));
	if (ret < 0)
		return ret;
	wfw_reader_set_salvage(r, salvage);
	wfw_reader_meta(r, "cpu");
	ret = drain(r, batch, run);
	if (!ret && !salvage && run->rows - before != wfw_reader_rows(r))
		broken(path, "rows read differ from wfw_reader_rows()");
	if (ret && !run->ret)
		run->ret = ret;
	wfw_reader_close(r);
	return 0;
}

/* Column c of a column batch read with `numbers`: INT cells are doubles. */
static struct fuzz_cell shown_col(const struct wultfw_column *col, union wultfw_cell c,
				  bool numbers)
{
	struct fuzz_cell v = { 0 };

	if (!numbers || col->type != WULTFW_COL_INT)
		return shown(col, c);
	if (c.i == WULTFW_FLOAT_EMPTY_BITS)
		return v;
	v.kind = 1;
	v.v = c.f / (col->divisor ? col->divisor : 1);
	return v;
}

static bool wanted(uint64_t want, size_t c)
{
	return want >> (c & 63) & 1;
}

/* Keep rows [from, b->rows) of a column batch; unwanted cells as empty. */
static void keep_cols(struct fuzz_run *run, const struct wultfw_schema *s,
		      struct wfw_col_batch *b, size_t from)
{
	grow(run, (b->rows - from) * s->ncols);
	for (size_t r = from; r < b->rows; r++)
		for (size_t c = 0; c < s->ncols; c++)
			run->cells[run->ncells++] = b->col[c]
				? shown_col(&s->cols[c], b->col[c][r], b->numbers)
				: (struct fuzz_cell){ 0 };
	run->ncols = s->ncols;
}

static int drain_cols(struct wfw_reader *r, size_t batch, uint64_t want,
		      bool numbers, struct fuzz_run *run)
{
	const struct wultfw_schema *s = wfw_reader_schema(r);
	bool *w = calloc(s->ncols + 1, sizeof(*w));
	struct wfw_col_batch b;
	long n = -1;

	for (size_t c = 0; w && c < s->ncols; c++)
		w[c] = wanted(want, c);
	if (!w || wfw_col_batch_alloc(&b, s->ncols, batch, w)) {
		free(w);
		return -1;
	}
	free(w);
	b.numbers = numbers;
	while ((n = wfw_reader_read_cols(r, &b)) > 0) {
		check_fill(r, "read_cols() overfilled the batch", n, b.rows, b.capacity);
		if (run->keep)
			keep_cols(run, s, &b, b.rows - (size_t)n);
		took(run, n, &b.rows, b.capacity);
	}
	wfw_col_batch_free(&b);
	return (int)n;
}

int fuzz_read_cols(const char *path, const struct wfw_reader_opts *opts,
		   size_t batch, uint64_t want, bool numbers, struct fuzz_run *run)
{
	struct wfw_reader *r;
	char err[512];
	int ret;

	ret = wfw_reader_open_opts(&r, path, opts, err, sizeof(err));
	if (ret < 0)
		return ret;
	ret = drain_cols(r, batch, want, numbers, run);
	if (ret && !run->ret)
		run->ret = ret;
	wfw_reader_close(r);
	return 0;
}

void fuzz_mask(struct fuzz_run *run, uint64_t want)
{
	for (size_t i = 0; run->ncols && i < run->ncells; i++)
		if (!wanted(want, i % run->ncols))
			run->cells[i] = (struct fuzz_cell){ 0 };
}

static bool close_enough(const struct fuzz_cell *a, const struct fuzz_cell *b)
{
	double m;

	if (a->kind != b->kind)
		return false;
	if (a->kind != 1)
		return a->h == b->h;
	if (isnan(a->v) || isnan(b->v))
		return isnan(a->v) && isnan(b->v);
	if (a->v == b->v)
		return true;
	/* An INT column's raw / divisor may round apart from strtod's value. */
	m = fmax(fabs(a->v), fabs(b->v));
	return isfinite(m) && fabs(a->v - b->v) <= 4 * m * 0x1p-52;
}

void fuzz_same(const struct fuzz_run *a, const struct fuzz_run *b,
	       const char *what)
{
	if (a->rows != b->rows || a->ncells != b->ncells) {
		fprintf(stderr, "fuzz: %s: %llu rows (%zu cells) vs %llu rows (%zu cells)\n",
			what, (unsigned long long)a->rows, a->ncells,
			(unsigned long long)b->rows, b->ncells);
		abort();
	}
	for (size_t i = 0; i < a->ncells; i++) {
		if (!close_enough(&a->cells[i], &b->cells[i])) {
			fprintf(stderr, "fuzz: %s: row %zu column %zu: kind %u %.17g vs kind %u %.17g\n",
				what, i / a->ncols, i % a->ncols, a->cells[i].kind,
				a->cells[i].v, b->cells[i].kind, b->cells[i].v);
			abort();
		}
	}
}

void fuzz_same_bits(const struct fuzz_run *a, const struct fuzz_run *b,
		    const char *what)
{
	if (a->ret != b->ret || a->rows != b->rows || a->ncells != b->ncells) {
		fprintf(stderr, "fuzz: %s: result %d, %llu rows vs %d, %llu rows\n", what,
			a->ret, (unsigned long long)a->rows, b->ret,
			(unsigned long long)b->rows);
		abort();
	}
	for (size_t i = 0; i < a->ncells; i++) {
		const struct fuzz_cell *x = &a->cells[i], *y = &b->cells[i];

		if (x->kind != y->kind || x->h != y->h || memcmp(&x->v, &y->v, sizeof(x->v))) {
			fprintf(stderr, "fuzz: %s: row %zu column %zu: kind %u %a vs kind %u %a\n",
				what, i / a->ncols, i % a->ncols, x->kind, x->v,
				y->kind, y->v);
			abort();
		}
	}
}

void fuzz_run_free(struct fuzz_run *run)
{
	free(run->cells);
	run->cells = NULL;
}
