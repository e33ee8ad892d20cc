/* SPDX-License-Identifier: MIT */
/*
 * wultfw filter over a CSV file on several cores (lib/par). The file is
 * cut into chunks that start at row boundaries (reader parts); each thread
 * takes the next chunk, reads, selects and formats it into its slot's
 * buffer, and the text goes out in file order. Memory: a batch and a
 * chunk's text per slot, a slot per thread. Without a selection or
 * --metrics, rows the reader says print as they are
 * (wfw_reader_row_texts()) are copied from the input, not formatted.
 *
 * Each chunk's reader learns its column types on its own. The text equals
 * what one reader would write when every chunk read its rows with the
 * types of the first chunk and never changed one (a chunk whose column is
 * empty throughout prints empty fields under any type); otherwise, or at
 * anything a chunk cannot read alone (a quote, a bad row), the caller
 * starts again with one reader, which also gives the exact error.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "par/par.h"

/* Input bytes per chunk: several per thread, so the threads end together. */
#define CHUNK_BYTES	(2u << 20)
/* Rows per batch: 14 cells a row stay in the L2 cache (as calc). */
#define CHUNK_BATCH	1024

struct fpar {
	struct csv_par_args *a;
	unsigned nchunks;
	struct worker *ws;		/* per slot */
	bool have_ref;
	int *ref_type;			/* the first chunk's column types */
	uint32_t *ref_div;
	bool *ref_bare;			/* its integers printed so: "5" */
	size_t ncols;
	uint64_t *firsts;		/* `index`: each chunk's first row's, or NULL */
	uint64_t size;			/* the file's, when the chunks were planned */
	char cut[512];			/* why, when a chunk found the file cut */
};

/* One slot's state; the reader and its helpers are per chunk. */
struct worker {
	struct fpar *p;
	int ret;			/* how reading its chunk went */
	struct wfw_reader *rd;
	struct wfw_select sel;
	bool have_sel, have_fmt;
	struct wultfw_batch in, out;
	struct wultfw_column *cols;	/* the output columns of rd's */
	struct wultfw_schema schema;
	struct wfw_csvfmt fmt;
	const struct wfw_row_text *lines;	/* rows as they are, or NULL */
	char *text;
	size_t len, cap;
	char cut[512];			/* why, when the chunk found the file cut */
};

static void chunk_end(struct worker *w)
{
	if (w->have_fmt)
		wfw_csvfmt_free(&w->fmt);
	if (w->have_sel)
		wfw_select_free(&w->sel);
	if (w->rd)
		wfw_reader_close(w->rd);
	w->rd = NULL;
	w->have_fmt = w->have_sel = false;
	w->len = 0;
}

/* The output columns, as rd's schema has them now (types, enum names). */
static void project_cols(struct worker *w)
{
	const struct wultfw_schema *s = wfw_reader_schema(w->rd);
	const size_t *map = w->p->a->map;

	for (size_t j = 0; j < w->schema.ncols; j++)
		w->cols[j] = s->cols[map ? map[j] : j];
}

/*
 * Open chunk k: reader, selection, formatter. 0, or -EAGAIN / -ENOMEM, or
 * WFW_E_CUT (w->cut says why).
 */
static int chunk_open(struct worker *w, unsigned k)
{
	struct csv_par_args *a = w->p->a;
	struct wfw_reader_opts o = { .one_pass = a->one_pass, .part = k,
				     .nparts = w->p->nchunks, .part_size = w->p->size,
				     .stop = a->stop };
	char err[1024];
	int ret = csv_chunk_open(&w->rd, a->path, &o, w->p->ncols, w->cut,
				 sizeof(w->cut));

	if (ret)
		return ret;
	if (wfw_select_init(&w->sel, a->include, a->exclude,
			    wfw_reader_schema(w->rd), err, sizeof(err)))
		return -EAGAIN;
	w->have_sel = true;
	if (w->p->firsts)
		w->sel.next_index = w->p->firsts[k];
	project_cols(w);
	if (wfw_csvfmt_init(&w->fmt, &w->schema, err, sizeof(err)))
		return -EAGAIN;
	w->have_fmt = true;
	convert_bare_ints(&w->fmt, w->rd, a->map, w->schema.ncols);
	w->lines = NULL;
	if (!a->map && !a->include && !a->exclude)
		w->lines = wfw_reader_row_texts(w->rd, CHUNK_BATCH);
	return 0;
}

/* Room for `rows` more rows of text. */
static int text_room(struct worker *w, size_t rows)
{
	size_t need = w->len + rows * w->fmt.row_max;
	char *t;

	if (need <= w->cap)
		return 0;
	need = need > 2 * w->cap ? need : 2 * w->cap;
	t = realloc(w->text, need);
	if (!t)
		return -ENOMEM;
	w->text = t;
	w->cap = need;
	return 0;
}

/* One batch: select, project, format onto the chunk's text. */
static int chunk_batch(struct worker *w)
{
	const struct wultfw_batch *b = &w->in;
	char err[256];
	long len;

	if (wfw_select_batch(&w->sel, &w->in))
		return -EAGAIN;	/* one reader says where it does not fit */
	project_cols(w);
	if (wfw_csvfmt_sync(&w->fmt, err, sizeof(err)))
		return -EAGAIN;
	if (w->p->a->map) {
		wfw_batch_project(&w->in, w->p->a->map, &w->out);
		b = &w->out;
	}
	if (text_room(w, b->rows))
		return -ENOMEM;
	len = wfw_csv_rows_text_from(w->rd, &w->fmt, w->text + w->len, b->cells,
				     b->rows, w->lines);
	if (len < 0)
		return (int)len;	/* WFW_E_CUT */
	w->len += (size_t)len;
	return 0;
}

/* Chunk k read whole into w->text; its reader stays open for the check. */
static int chunk_read(struct worker *w, unsigned k)
{
	int ret = chunk_open(w, k);
	long n = 0;

	while (!ret && (n = wfw_reader_read(w->rd, &w->in)) > 0) {
		ret = chunk_batch(w);
		w->in.rows = 0;
	}
	/* The file cut shorter: one reader would read another file. */
	if (w->rd && (n == WFW_E_CUT || ret == WFW_E_CUT)) {
		snprintf(w->cut, sizeof(w->cut), "%s", wfw_reader_error(w->rd));
		return WFW_E_CUT;
	}
	return ret ? ret : n < 0 ? -EAGAIN : 0;
}

/*
 * Did the chunk print every row as one reader would? Its types never
 * changed and equal the first chunk's (the first sets them).
 */
static bool chunk_agrees(struct worker *w)
{
	const struct wultfw_schema *s = wfw_reader_schema(w->rd);
	struct fpar *p = w->p;

	if (!wfw_reader_rows(w->rd))
		return true;	/* no rows: nothing printed */
	if (wfw_reader_schema_gen(w->rd))
		return false;
	for (size_t c = 0; c < p->ncols; c++) {
		const struct wultfw_column *col = &s->cols[c];

		if (!p->have_ref) {
			p->ref_type[c] = (int)col->type;
			p->ref_div[c] = col->divisor;
			p->ref_bare[c] = wfw_reader_bare_ints(w->rd, c);
		} else if (col->type == WULTFW_COL_ENUM && !col->n_enum) {
			continue;	/* empty throughout */
		} else if ((int)col->type != p->ref_type[c] ||
			   (col->type == WULTFW_COL_INT && col->divisor != p->ref_div[c]) ||
			   wfw_reader_bare_ints(w->rd, c) != p->ref_bare[c]) {
			return false;
		}
	}
	p->have_ref = true;
	return true;
}

static bool stop_set(const struct csv_par_args *a)
{
	return a->stop && *a->stop;
}

/* Chunk k read into slot `slot`; how it went is said in its turn. */
static int chunk_work(void *ctx, unsigned slot, uint64_t k)
{
	struct worker *w = &((struct fpar *)ctx)->ws[slot];

	w->ret = chunk_read(w, (unsigned)k);
	return 0;
}

/* Chunk k's text out, in its turn. */
static int chunk_write(void *ctx, unsigned slot, uint64_t k)
{
	struct worker *w = &((struct fpar *)ctx)->ws[slot];
	struct csv_par_args *a = w->p->a;
	int ret = w->ret;

	if (!ret && !chunk_agrees(w))
		ret = -EAGAIN;
	if (ret == WFW_E_CUT)
		snprintf(w->p->cut, sizeof(w->p->cut), "%s", w->cut);
	if (ret && stop_set(a)) {
		/* Stopping: the rows end before this chunk, not start again. */
		a->stopped = true;
		ret = WFW_PAR_CUT;
	} else if (!ret) {
		ret = wfw_out_write(&a->w->out, w->text, w->len);
		a->kept += w->sel.kept;
		a->dropped += w->sel.dropped;
		if (!k && wfw_select_active(&w->sel))
			wfw_seen_init(&a->seen, &w->sel);
		wfw_seen_note(&a->seen, wfw_reader_schema(w->rd));
		if (!ret && wfw_reader_stopped(w->rd)) {	/* the rows end here */
			a->stopped = true;
			ret = WFW_PAR_CUT;
		}
	}
	chunk_end(w);
	return ret;
}

static const struct wfw_par_ops chunk_ops = { .work = chunk_work, .emit = chunk_write };

static int worker_init(struct worker *w, struct fpar *p)
{
	size_t nout = p->a->map ? p->a->nout : p->ncols;

	memset(w, 0, sizeof(*w));
	w->p = p;
	w->cols = calloc(nout, sizeof(*w->cols));
	w->schema = (struct wultfw_schema){ .cols = w->cols, .ncols = nout };
	if (!w->cols || wfw_batch_alloc(&w->in, p->ncols, CHUNK_BATCH) ||
	    (p->a->map && wfw_batch_alloc(&w->out, nout, CHUNK_BATCH)))
		return -ENOMEM;
	return 0;
}

static void worker_free(struct worker *w)
{
	chunk_end(w);
	wfw_batch_free(&w->in);
	wfw_batch_free(&w->out);
	free(w->cols);
	free(w->text);
}

/*
 * With `index`, each chunk's first row's number, before the threads: a
 * line scan of the file (a chunk counting what is before it would read
 * the file once per chunk). 0, or not 0: leave it to one reader.
 */
static int chunk_firsts(struct fpar *p)
{
	struct wfw_reader_opts o = { .one_pass = true };
	struct wfw_reader *rd = NULL;
	int ret = -EAGAIN;

	if (!wfw_expr_text_uses_index(p->a->include) &&
	    !wfw_expr_text_uses_index(p->a->exclude))
		return 0;
	p->firsts = calloc(p->nchunks, sizeof(*p->firsts));
	if (p->firsts && !csv_chunk_open(&rd, p->a->path, &o, p->ncols, NULL, 0))
		ret = wfw_reader_part_firsts(rd, p->nchunks, p->firsts);
	if (rd)
		wfw_reader_close(rd);
	return ret;
}

int csv_parallel(struct csv_par_args *a, size_t ncols)
{
	struct fpar p = { .a = a, .ncols = ncols };
	struct stat st;
	struct wfw_par par = { .ops = &chunk_ops, .ctx = &p, .threads = a->jobs,
			       .stop = a->stop };
	unsigned n = 0;
	int ret = -ENOMEM;

	a->kept = a->dropped = 0;
	a->stopped = false;
	wfw_seen_free(&a->seen);
	if (stat(a->path, &st))
		return -EAGAIN;	/* one reader says why */
	p.size = (uint64_t)st.st_size;
	p.nchunks = wfw_par_file_parts(a->path, a->jobs, CHUNK_BYTES);
	par.nparts = p.nchunks;
	if (chunk_firsts(&p)) {
		free(p.firsts);
		return -EAGAIN;	/* one reader numbers the rows */
	}
	p.ws = calloc(a->jobs, sizeof(*p.ws));
	p.ref_type = calloc(ncols, sizeof(*p.ref_type));
	p.ref_div = calloc(ncols, sizeof(*p.ref_div));
	p.ref_bare = calloc(ncols, sizeof(*p.ref_bare));
	while (p.ws && n < a->jobs && !worker_init(&p.ws[n], &p))
		n++;
	if (n == a->jobs && p.ref_type && p.ref_div && p.ref_bare)
		ret = wfw_par_run(&par);
	a->stopped |= par.stopped;
	for (unsigned i = 0; p.ws && i < a->jobs && i <= n; i++)
		worker_free(&p.ws[i]);
	free(p.ws);
	free(p.ref_type);
	free(p.ref_div);
	free(p.ref_bare);
	free(p.firsts);
	if (ret && ret != -EAGAIN)
		fprintf(stderr, "wultfw %s: %s\n", a->cmd, ret == -ENOMEM ? "out of memory" :
			ret == WFW_E_CUT ? p.cut : a->w->out.msg);
	return ret;
}

/* The output file cut back to `at` bytes (its header), to be written again. */
static int cut_back(struct wfw_out *o, uint64_t at)
{
	if (o->err)
		return o->err;
	o->len = 0;
	if (ftruncate(o->fd, (off_t)at) || lseek(o->fd, (off_t)at, SEEK_SET) < 0) {
		o->err = -errno;
		snprintf(o->msg, sizeof(o->msg), "%s: cannot cut back to its header: %s",
			 o->path, strerror(errno));
		return o->err;
	}
	o->good_off = at;
	return 0;
}

int csv_restart(struct wfw_csv_writer *w)
{
	int ret = cut_back(&w->out, w->fmt.header_len);

	if (!ret)
		w->rows = 0;
	return ret;
}

int csv2bin_restart(struct wfw_writer *w)
{
	struct wfw_bin_writer *bw = &w->impl.bin;
	int ret = cut_back(&bw->out, bw->data_off);

	if (!ret) {
		bw->staged = 0;
		bw->rows = 0;
		w->rows = 0;
	}
	return ret;
}

int csv_chunk_open(struct wfw_reader **rd, const char *path,
		   const struct wfw_reader_opts *o, size_t ncols, char *cut, size_t len)
{
	char err[512];
	int ret = wfw_reader_open_opts(rd, path, o, err, sizeof(err));

	if (ret) {
		*rd = NULL;
		if (ret != WFW_E_CUT || !cut)
			return -EAGAIN;
		snprintf(cut, len, "%s", err);
		return WFW_E_CUT;
	}
	return wfw_reader_schema(*rd)->ncols == ncols ? 0 : -EAGAIN;
}
