/* SPDX-License-Identifier: MIT */
/*
 * wultfw convert and filter, a binary file to CSV or binary on several
 * cores (lib/par): the parts are the reader's batches, taken in turn;
 * each is formatted or encoded into its slot's buffer (most of the time,
 * done in parallel) and written out in order. Binary to binary with a
 * selection or fewer columns: the parts are the file's blocks as it holds
 * them, filtered (filter_blk.c). Memory: one batch and its output per
 * slot, a slot per thread. Only for inputs whose schema never changes
 * (binary): each slot has its own formatter over the same schema.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "datafmt/binblock.h"
#include "datafmt/csvfmt_blk.h"
#include "par/par.h"

/* What every slot shares: the input, the output, how a batch is made. */
struct fmt_par {
	struct wfw_reader *r;
	struct wfw_csv_writer *w;	/* CSV output, or */
	struct wfw_bin_writer *bw;	/* binary output: blocks of `rows` rows */
	struct wfw_out *out;		/* either's file */
	uint64_t written;		/* rows out */
	struct wfw_select *sel;
	const size_t *map;
	size_t rows;
	bool chunks;		/* CSV from the blocks' chunks */
	bool picks;		/* chunks, and a selection: rows decoded to test them */
	bool blocks;		/* binary blocks filtered (filter_blk.c) */
	size_t blkcap;		/* blocks: room for one of the input's */
	size_t nout;		/* blocks: the output's columns */
	uint64_t dropped;	/* blocks: rows the selection dropped */
	uint64_t next_row;	/* blocks: the number of the next block's first row */
	struct fmt_job *jobs;	/* one per slot */
};

struct fmt_job {
	struct fmt_par *p;
	struct wfw_csvfmt fmt;
	struct wultfw_batch b;
	struct wultfw_batch proj;	/* b's columns in map */
	union wultfw_cell *stage;	/* binary: b column by column */
	char *text;			/* b formatted or encoded */
	const char *put;		/* what goes out: text, or (blocks) raw */
	size_t len;			/* its length */
	/*
	 * chunks: b.rows rows from row `first` of a copy of a block, or
	 * (picks) the rows pick[0, b.rows) of it
	 */
	struct wfw_csvfmt_blk fb;
	unsigned char *blk;
	size_t blkcap, first;
	struct wfw_blk_col *cols;
	uint32_t *pick;
	/* blocks: one block of the input as the file holds it, its filter */
	unsigned char *raw;
	size_t raw_len;
	uint32_t raw_rows;
	uint64_t raw_first;		/* its first row's number (index) */
	struct blk_filter bf;
	char msg[256];			/* blocks: why one would not parse */
};

/*
 * The selected rows of the n rows from j->first: the rows decoded into
 * j->b with their number in the block as one more cell at the end of
 * each (the selection keeps a row's cells together and looks only at
 * the schema's columns), the numbers of those kept into j->pick.
 */
static void pick_rows(struct fmt_job *j, size_t n)
{
	struct wultfw_batch *b = &j->b;
	const size_t nc = b->ncols, in = nc - 1;

	wfw_blk_decode(j->cols, in, j->first, n, b->cells);
	for (size_t r = n; r-- > 0;) {	/* rows of in cells to rows of nc */
		memmove(&b->cells[r * nc], &b->cells[r * in], in * sizeof(*b->cells));
		b->cells[r * nc + in].i = (int64_t)(j->first + r);
	}
	b->rows = n;
	wfw_select_batch(j->p->sel, b);
	for (size_t r = 0; r < b->rows; r++)
		j->pick[r] = (uint32_t)b->cells[r * nc + in].i;
}

/* The next rows as a block's chunks, and those selected (picks). */
static long take_chunks(struct fmt_job *j)
{
	struct fmt_par *p = j->p;
	long got = wfw_reader_read_chunks(p->r, p->rows, &j->blk, &j->blkcap,
					  j->cols, &j->first);

	j->b.rows = got > 0 ? (size_t)got : 0;
	if (got > 0 && p->picks)
		pick_rows(j, (size_t)got);
	else if (got > 0 && p->sel)
		p->sel->kept += (uint64_t)got;
	return got;
}

/* The next block as the file holds it (blocks). */
static long take_block(struct fmt_job *j)
{
	long got = wfw_reader_read_block(j->p->r, j->raw, j->p->blkcap, &j->raw_rows);

	j->raw_len = got > 0 ? (size_t)got : 0;
	/* Blocks are taken in order: the rows before this one are counted. */
	j->raw_first = j->p->next_row;
	if (got > 0)
		j->p->next_row += j->raw_rows;
	return got;
}

/* The next batch into slot j's b (part k): its rows; 0 at the end, < 0. */
static long take_batch(void *ctx, unsigned slot, uint64_t k)
{
	struct fmt_par *p = ctx;
	struct fmt_job *j = &p->jobs[slot];
	long got;

	j->b.rows = 0;
	got = p->blocks ? take_block(j) : p->chunks ? take_chunks(j) :
	      wfw_reader_read(p->r, &j->b);
	if (got > 0 && p->sel && !p->chunks && !p->blocks)
		wfw_select_batch(p->sel, &j->b);
	return got;
}

/* Slot j's text out, in its turn. */
static int put_batch(void *ctx, unsigned slot, uint64_t k)
{
	struct fmt_par *p = ctx;
	struct fmt_job *j = &p->jobs[slot];

	p->written += j->b.rows;
	if (p->blocks)
		p->dropped += j->raw_rows - j->b.rows;
	return wfw_out_write(p->out, j->put ? j->put : j->text, j->len);
}

/* j->b as CSV text; its length. */
static size_t format_batch(struct fmt_job *j)
{
	const struct wultfw_batch *b = &j->b;

	if (j->p->picks)
		return wfw_csvfmt_blk_pick(&j->fb, j->cols, j->p->map, j->pick,
					   j->b.rows, j->text);
	if (j->p->chunks)
		return wfw_csvfmt_blk_rows(&j->fb, j->cols, j->p->map, j->first,
					   j->b.rows, j->text);
	if (j->p->map) {
		wfw_batch_project(&j->b, j->p->map, &j->proj);
		b = &j->proj;
	}
	return wfw_csvfmt_rows(&j->fmt, j->text, b->cells, b->rows);
}

/* j->b as one block, as the binary writer would stage and pack it. */
static size_t encode_batch(struct fmt_job *j)
{
	const size_t stride = j->p->rows;

	wfw_blk_stage(j->stage, stride, j->b.cells, j->b.ncols, j->b.rows);
	return wfw_blk_encode(&j->p->bw->enc, j->stage, stride, j->b.rows,
			      (unsigned char *)j->text);
}

/* j->raw's kept rows as one block (or nothing); its length, or < 0. */
static long filter_block(struct fmt_job *j)
{
	const unsigned char *res = NULL;
	uint32_t kept = 0;
	char err[200];
	long len = blk_filter_run(&j->bf, j->raw, j->raw_len, j->raw_rows,
				  j->raw_first, (unsigned char *)j->text, &res,
				  &kept, err, sizeof(err));

	if (len < 0)	/* the reader checked it: never, but say so */
		snprintf(j->msg, sizeof(j->msg), "%s: a block: %s", j->p->out->path, err);
	j->b.rows = kept;
	j->put = (const char *)res;
	return len;
}

/* Slot j's batch formatted, encoded or filtered. */
static int make_batch(void *ctx, unsigned slot, uint64_t k)
{
	struct fmt_par *p = ctx;
	struct fmt_job *j = &p->jobs[slot];
	long len = p->blocks ? filter_block(j) : p->bw ? (long)encode_batch(j) :
		   (long)format_batch(j);

	j->len = len > 0 ? (size_t)len : 0;
	return len < 0 ? (int)len : 0;
}

static const struct wfw_par_ops fmt_ops = {
	.take = take_batch, .work = make_batch, .emit = put_batch,
};

/* Binary output: a stage and room for a block (blocks: and its filter). */
static int job_init_bin(struct fmt_job *j, struct fmt_par *p, size_t ncols)
{
	if (p->blocks) {
		j->raw = malloc(p->blkcap);
		j->text = malloc(wfw_blk_bound(p->nout, p->rows) + WFW_BLK_SLACK);
		if (!j->raw || !j->text)
			return -ENOMEM;
		return blk_filter_init(&j->bf, wfw_reader_schema(p->r), p->sel,
				       p->map, p->nout, (uint32_t)p->rows);
	}
	j->stage = malloc(p->rows * ncols * sizeof(*j->stage));
	j->text = malloc(wfw_blk_bound(ncols, p->rows) + WFW_BLK_SLACK);
	return j->stage && j->text ? 0 : -ENOMEM;
}

/* CSV output: a formatter, the projection or chunks, room for the text. */
static int job_init_csv(struct fmt_job *j, struct fmt_par *p, size_t in_cols)
{
	const struct wultfw_schema *out = p->w->fmt.schema;
	char err[256];

	if (wfw_csvfmt_init(&j->fmt, out, err, sizeof(err)))
		return -ENOMEM;
	for (size_t c = 0; c < out->ncols; c++)	/* "5", not "5.0", as the writer */
		wfw_csvfmt_set_bare(&j->fmt, c, p->w->fmt.col[c].bare);
	if (p->chunks && (wfw_csvfmt_blk_init(&j->fb, &j->fmt) ||
			  !(j->cols = calloc(in_cols, sizeof(*j->cols)))))
		return -ENOMEM;
	if (p->picks && (wfw_batch_alloc(&j->b, in_cols + 1, p->rows) ||
			 !(j->pick = malloc(p->rows * sizeof(*j->pick)))))
		return -ENOMEM;
	if (!p->chunks && p->map && wfw_batch_alloc(&j->proj, out->ncols, p->rows))
		return -ENOMEM;
	j->text = malloc(p->rows * j->fmt.row_max + WFW_CSVFMT_BLK_SLACK);
	return j->text ? 0 : -ENOMEM;
}

static int job_init(struct fmt_job *j, struct fmt_par *p, size_t in_cols)
{
	memset(j, 0, sizeof(*j));
	j->p = p;
	if (!p->chunks && !p->blocks && wfw_batch_alloc(&j->b, in_cols, p->rows))
		return -ENOMEM;
	return p->bw ? job_init_bin(j, p, in_cols) : job_init_csv(j, p, in_cols);
}

static void job_free(struct fmt_job *j)
{
	if (j->fmt.schema)
		wfw_csvfmt_free(&j->fmt);
	wfw_batch_free(&j->b);
	wfw_batch_free(&j->proj);
	wfw_csvfmt_blk_free(&j->fb);
	free(j->blk);
	free(j->cols);
	free(j->pick);
	free(j->stage);
	free(j->text);
	free(j->raw);
	blk_filter_free(&j->bf);
}

void wfw_batch_project(const struct wultfw_batch *in, const size_t *map,
		       struct wultfw_batch *out)
{
	size_t n = out->ncols;

	for (size_t r = 0; r < in->rows; r++)
		for (size_t j = 0; j < n; j++)
			out->cells[r * n + j] = in->cells[r * in->ncols + map[j]];
	out->rows = in->rows;
}

/* Why run_jobs() failed with ret, said. */
static void say_fail(const struct fmt_par *p, const struct wfw_par *par, int ret,
		     const char *cmd)
{
	const char *msg = ret == -ENOMEM ? "out of memory" : NULL;

	if (!msg && par->failed != UINT64_MAX)
		msg = p->jobs[par->failed % par->slots].msg;
	if (!msg || !*msg)
		msg = p->out->err ? p->out->msg : wfw_reader_error(p->r);
	fprintf(stderr, "wultfw %s: %s\n", cmd, msg);
}

/* n threads over p's batches (1: this one); 0 or a negative errno (said). */
static int run_jobs(struct fmt_par *p, unsigned n, const char *cmd)
{
	struct wfw_par par = { .ops = &fmt_ops, .ctx = p, .nparts = UINT64_MAX,
			       .threads = n, .slots = n, .failed = UINT64_MAX };
	size_t in_cols = wfw_reader_schema(p->r)->ncols;
	unsigned k = 0;
	int ret = -ENOMEM;

	p->jobs = calloc(n, sizeof(*p->jobs));
	while (p->jobs && k < n && !job_init(&p->jobs[k], p, in_cols))
		k++;
	if (k == n)
		ret = wfw_par_run(&par);
	for (unsigned i = 0; p->jobs && i < n && i <= k; i++)
		job_free(&p->jobs[i]);
	if (ret < 0)
		say_fail(p, &par, ret, cmd);
	free(p->jobs);
	return ret;
}

int convert_csv_parallel(struct wfw_reader *r, struct wfw_csv_writer *w,
			 struct wfw_select *sel, const size_t *map, unsigned n,
			 size_t rows, const char *cmd)
{
	struct fmt_par p = { .r = r, .w = w, .out = &w->out, .sel = sel,
			     .map = map, .rows = rows,
			     .chunks = wfw_reader_native_cols(r),
			     .picks = wfw_reader_native_cols(r) && wfw_select_active(sel) };
	int ret = run_jobs(&p, n, cmd);

	w->rows += p.written;
	return ret;
}

int convert_bin_parallel(struct wfw_reader *r, struct wfw_writer *w, unsigned n)
{
	struct wfw_bin_writer *bw = &w->impl.bin;
	struct fmt_par p = { .r = r, .bw = bw, .out = &bw->out,
			     .rows = bw->block_rows };
	int ret;

	if (bw->staged)		/* only ever called on a fresh writer */
		return -EINVAL;
	ret = run_jobs(&p, n, "convert");
	bw->rows += p.written;
	w->rows += p.written;
	return ret;
}

bool convert_bin_filter_fits(struct wfw_reader *r, const struct wfw_writer *w)
{
	uint32_t in_rows = wfw_reader_block_rows(r);

	/* An input block's rows must make a block the writer could have written. */
	return w->fmt == &wfw_format_binary && in_rows &&
	       in_rows <= w->impl.bin.block_rows && !w->impl.bin.staged;
}

int convert_bin_filter(struct wfw_reader *r, struct wfw_writer *w,
		       struct wfw_select *sel, const size_t *map, unsigned n,
		       const char *cmd)
{
	struct wfw_bin_writer *bw = &w->impl.bin;
	const size_t in_cols = wfw_reader_schema(r)->ncols;
	struct fmt_par p = { .r = r, .bw = bw, .out = &bw->out, .sel = sel,
			     .map = map, .blocks = true, .nout = bw->ncols,
			     .rows = wfw_reader_block_rows(r) };
	int ret;

	if (!convert_bin_filter_fits(r, w) || (!map && bw->ncols != in_cols))
		return -EINVAL;
	p.blkcap = wfw_blk_bound(in_cols, p.rows) + WFW_BLK_SLACK;
	ret = run_jobs(&p, n, cmd);
	bw->rows += p.written;
	w->rows += p.written;
	sel->kept += p.written;
	sel->dropped += p.dropped;
	return ret;
}

unsigned convert_online_cpus(void)
{
	return wfw_par_online_cpus(64);
}

/* ---- one reader beside the writer ---- */

/*
 * Two slots between the reader and the binary writer (lib/par): the next
 * batch is read while one is encoded. The reader may change the schema (a
 * one-pass CSV reader) meanwhile: the writer encodes by the types it
 * copied at open, and a batch read after a type change (gen) stops
 * everything (-ESTALE).
 */
struct pipe {
	struct wfw_reader *r;
	struct wfw_writer *w;
	struct wfw_select *sel;
	uint64_t gen0;			/* the schema's changes at the start */
	struct wultfw_batch b[2];
	uint64_t gen[2];		/* ... when b[slot] was read */
	uint64_t read_fail;		/* the part whose read failed */
};

static long pipe_read(void *ctx, unsigned slot, uint64_t k)
{
	struct pipe *p = ctx;
	long got;

	p->b[slot].rows = 0;
	got = wfw_reader_read(p->r, &p->b[slot]);
	p->gen[slot] = wfw_reader_schema_gen(p->r);
	if (got < 0)
		p->read_fail = k;
	return got;
}

static int pipe_write(void *ctx, unsigned slot, uint64_t k)
{
	struct pipe *p = ctx;
	int ret;

	if (p->gen[slot] != p->gen0)
		return -ESTALE;
	wfw_select_batch(p->sel, &p->b[slot]);
	ret = wfw_writer_write(p->w, &p->b[slot]);
	if (ret)
		fprintf(stderr, "wultfw convert: %s\n", wfw_writer_msg(p->w));
	return ret;
}

static const struct wfw_par_ops pipe_ops = { .take = pipe_read, .emit = pipe_write };

int convert_pipelined(struct wfw_reader *r, struct wfw_writer *w,
		      struct wfw_select *sel, size_t rows)
{
	struct pipe p = { .r = r, .w = w, .sel = sel, .read_fail = UINT64_MAX,
			  .gen0 = wfw_reader_schema_gen(r) };
	struct wfw_par par = { .ops = &pipe_ops, .ctx = &p, .nparts = UINT64_MAX,
			       .threads = 2, .failed = UINT64_MAX };
	size_t ncols = wfw_reader_schema(r)->ncols;
	int ret = -ENOMEM;

	if (!wfw_batch_alloc(&p.b[0], ncols, rows) && !wfw_batch_alloc(&p.b[1], ncols, rows))
		ret = wfw_par_run(&par);
	if (ret == -ENOMEM && par.failed == UINT64_MAX)
		fprintf(stderr, "wultfw convert: out of memory\n");
	else if (ret < 0 && par.failed == p.read_fail)
		fprintf(stderr, "wultfw convert: %s\n", wfw_reader_error(r));
	wfw_batch_free(&p.b[0]);
	wfw_batch_free(&p.b[1]);
	return ret;
}
