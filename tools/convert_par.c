/* SPDX-License-Identifier: MIT */
/*
 * wultfw convert and filter, a binary file to CSV or binary on several
 * cores: each thread in turn reads (decodes) a batch, formats or encodes
 * it into its own buffer (most of the time, done in parallel) and writes
 * it out when the batches before it are out. Binary to binary with a
 * selection or fewer columns: each thread in turn reads a block as the
 * file holds it, filters it (filter_blk.c) and writes it out in turn. Memory: one batch and its
 * output per thread. Only for inputs whose schema never changes (binary):
 * each thread has its own formatter over the same schema.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert.h"
#include "datafmt/binblock.h"
#include "datafmt/csvfmt_blk.h"

/*
 * The threads take turns: a batch is read (and selected) under read_mu,
 * numbered, formatted outside any lock, and written when its number's
 * turn comes.
 */
struct fmt_par {
	struct wfw_reader *r;
	struct wfw_csv_writer *w;	/* CSV output, or */
	struct wfw_bin_writer *bw;	/* binary output: blocks of `rows` rows */
	struct wfw_out *out;		/* either's file */
	uint64_t written;		/* rows out (turn_mu) */
	struct wfw_select *sel;
	const size_t *map;
	size_t rows;
	bool chunks;		/* CSV from the blocks' chunks */
	bool picks;		/* chunks, and a selection: rows decoded to test them */
	bool blocks;		/* binary blocks filtered (filter_blk.c) */
	size_t blkcap;		/* blocks: room for one of the input's */
	size_t nout;		/* blocks: the output's columns */
	uint64_t dropped;	/* blocks: rows the selection dropped (atomic) */
	char msg[256];		/* blocks: a block that would not parse (turn_mu) */
	pthread_mutex_t read_mu, turn_mu;
	pthread_cond_t turn_cv;
	uint64_t next;		/* number of the next batch read (read_mu) */
	uint64_t turn;		/* number of the next batch written (turn_mu) */
	bool end;		/* no more batches (read_mu) */
	long fail;		/* a read or write error: everyone stops */
};

struct fmt_job {
	struct fmt_par *p;
	pthread_t th;
	bool started;
	struct wfw_csvfmt fmt;
	struct wultfw_batch b;
	struct wultfw_batch proj;	/* b's columns in map */
	union wultfw_cell *stage;	/* binary: b column by column */
	char *text;			/* b formatted or encoded */
	const char *put;		/* what goes out: text, or (blocks) raw */
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
	struct blk_filter bf;
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
	return got;
}

/* The next batch into j->b; its number, or -1 at the end or an error. */
static int64_t take_batch(struct fmt_job *j)
{
	struct fmt_par *p = j->p;
	int64_t seq = -1;
	long got;

	pthread_mutex_lock(&p->read_mu);
	if (!p->end && !__atomic_load_n(&p->fail, __ATOMIC_RELAXED)) {
		j->b.rows = 0;
		got = p->blocks ? take_block(j) : p->chunks ? take_chunks(j) :
		      wfw_reader_read(p->r, &j->b);
		if (got > 0) {
			if (p->sel && !p->chunks && !p->blocks)
				wfw_select_batch(p->sel, &j->b);
			seq = (int64_t)p->next++;
		} else {
			p->end = true;
			if (got < 0)
				__atomic_store_n(&p->fail, got, __ATOMIC_RELAXED);
		}
	}
	pthread_mutex_unlock(&p->read_mu);
	return seq;
}

/* Batch seq's text out when its turn comes. */
static void put_batch(struct fmt_job *j, uint64_t seq, size_t len)
{
	struct fmt_par *p = j->p;
	int ret = 0;

	pthread_mutex_lock(&p->turn_mu);
	while (p->turn != seq)
		pthread_cond_wait(&p->turn_cv, &p->turn_mu);
	pthread_mutex_unlock(&p->turn_mu);
	if (!__atomic_load_n(&p->fail, __ATOMIC_RELAXED)) {
		ret = wfw_out_write(p->out, j->put ? j->put : j->text, len);
		p->written += j->b.rows;
	}
	pthread_mutex_lock(&p->turn_mu);
	if (ret)
		__atomic_store_n(&p->fail, ret, __ATOMIC_RELAXED);
	p->turn++;
	pthread_cond_broadcast(&p->turn_cv);
	pthread_mutex_unlock(&p->turn_mu);
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

/* j->raw's kept rows as one block (or nothing); its length. */
static size_t filter_block(struct fmt_job *j)
{
	struct fmt_par *p = j->p;
	const unsigned char *res = NULL;
	uint32_t kept = 0;
	char err[200];
	long len = blk_filter_run(&j->bf, j->raw, j->raw_len, j->raw_rows,
				  (unsigned char *)j->text, &res, &kept, err,
				  sizeof(err));

	if (len < 0) {	/* the reader checked it: never, but say so */
		pthread_mutex_lock(&p->turn_mu);
		if (!p->msg[0])
			snprintf(p->msg, sizeof(p->msg), "%s: a block: %s",
				 p->out->path, err);
		pthread_mutex_unlock(&p->turn_mu);
		__atomic_store_n(&p->fail, len, __ATOMIC_RELAXED);
		len = 0;
	}
	j->b.rows = kept;
	j->put = (const char *)res;
	__atomic_fetch_add(&p->dropped, j->raw_rows - kept, __ATOMIC_RELAXED);
	return (size_t)len;
}

static void *job_main(void *arg)
{
	struct fmt_job *j = arg;
	struct fmt_par *p = j->p;
	int64_t seq;

	while ((seq = take_batch(j)) >= 0)
		put_batch(j, (uint64_t)seq, p->blocks ? filter_block(j) :
			  p->bw ? encode_batch(j) : format_batch(j));
	return NULL;
}

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

/* thread: on a thread of its own, else the caller runs job_main(). */
static int job_init(struct fmt_job *j, struct fmt_par *p, size_t in_cols,
		    bool thread)
{
	memset(j, 0, sizeof(*j));
	j->p = p;
	if (!p->chunks && !p->blocks && wfw_batch_alloc(&j->b, in_cols, p->rows))
		return -ENOMEM;
	if (p->bw ? job_init_bin(j, p, in_cols) : job_init_csv(j, p, in_cols))
		return -ENOMEM;
	if (thread && pthread_create(&j->th, NULL, job_main, j))
		return -ENOMEM;
	j->started = thread;
	return 0;
}

static void job_free(struct fmt_job *j)
{
	if (j->started)
		pthread_join(j->th, NULL);
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

/* Stop the started jobs at their next batch (a job could not start). */
static void stop_jobs(struct fmt_par *p)
{
	pthread_mutex_lock(&p->read_mu);
	p->end = true;
	pthread_mutex_unlock(&p->read_mu);
	__atomic_store_n(&p->fail, -ENOMEM, __ATOMIC_RELAXED);
}

/* n threads over p's batches (1: this one); 0 or a negative errno (said). */
static int run_jobs(struct fmt_par *p, unsigned n, const char *cmd)
{
	struct fmt_job *jobs = calloc(n, sizeof(*jobs));
	size_t in_cols = wfw_reader_schema(p->r)->ncols;
	unsigned k = 0;
	long ret;

	pthread_mutex_init(&p->read_mu, NULL);
	pthread_mutex_init(&p->turn_mu, NULL);
	pthread_cond_init(&p->turn_cv, NULL);
	for (; jobs && k < n; k++)
		if (job_init(&jobs[k], p, in_cols, n > 1))
			break;
	if (k < n)
		stop_jobs(p);
	else if (n == 1)
		job_main(&jobs[0]);
	for (unsigned i = 0; jobs && i < n && i <= k; i++)
		job_free(&jobs[i]);
	free(jobs);
	pthread_mutex_destroy(&p->read_mu);
	pthread_mutex_destroy(&p->turn_mu);
	pthread_cond_destroy(&p->turn_cv);
	ret = jobs && k == n ? p->fail : -ENOMEM;
	if (ret < 0)
		fprintf(stderr, "wultfw %s: %s\n", cmd,
			ret == -ENOMEM ? "out of memory" : p->msg[0] ? p->msg :
			p->out->err ? p->out->msg : wfw_reader_error(p->r));
	return (int)ret;
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
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

/* ---- CSV to binary: parsing and encoding on two cores ---- */

/*
 * Two batches between a reader thread and the writing (main) thread. The
 * reader may change the schema (a one-pass CSV reader) while a batch is
 * encoded: the binary writer encodes by the types it copied at open, and
 * a batch read after a type change (gen) stops everything (-ESTALE).
 */
struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct wfw_reader *r;
	struct wultfw_batch b[2];
	long got[2];		/* rows in b[k] (0: end, < 0: error), -1 before */
	uint64_t gen[2];	/* the schema's changes when b[k] was read */
	bool full[2], stop;
};

static void *reader_main(void *arg)
{
	struct pipe *p = arg;
	long got = 1;

	for (unsigned k = 0; got > 0; k ^= 1) {
		bool stop;

		pthread_mutex_lock(&p->mu);
		while (p->full[k] && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
		p->b[k].rows = 0;
		got = wfw_reader_read(p->r, &p->b[k]);
		pthread_mutex_lock(&p->mu);
		p->got[k] = got;
		p->gen[k] = wfw_reader_schema_gen(p->r);
		p->full[k] = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

/* The batches in order into w; 0, -ESTALE, or an error said. */
static int drink(struct pipe *p, struct wfw_writer *w, struct wfw_select *sel)
{
	uint64_t gen = wfw_reader_schema_gen(p->r);
	int ret = 0;

	for (unsigned k = 0; !ret; k ^= 1) {
		pthread_mutex_lock(&p->mu);
		while (!p->full[k])
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		if (p->got[k] <= 0) {
			if (p->got[k] < 0)
				fprintf(stderr, "wultfw convert: %s\n", wfw_reader_error(p->r));
			return (int)p->got[k];
		}
		if (p->gen[k] != gen)
			return -ESTALE;
		wfw_select_batch(sel, &p->b[k]);
		ret = wfw_writer_write(w, &p->b[k]);
		if (ret)
			fprintf(stderr, "wultfw convert: %s\n", wfw_writer_msg(w));
		pthread_mutex_lock(&p->mu);
		p->full[k] = false;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return ret;
}

int convert_pipelined(struct wfw_reader *r, struct wfw_writer *w,
		      struct wfw_select *sel, size_t rows)
{
	struct pipe p = { .r = r };
	size_t ncols = wfw_reader_schema(r)->ncols;
	pthread_t th;
	int ret = -ENOMEM;

	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	if (!wfw_batch_alloc(&p.b[0], ncols, rows) && !wfw_batch_alloc(&p.b[1], ncols, rows) &&
	    !pthread_create(&th, NULL, reader_main, &p)) {
		ret = drink(&p, w, sel);
		pthread_mutex_lock(&p.mu);
		p.stop = true;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
		pthread_join(th, NULL);
	} else {
		fprintf(stderr, "wultfw convert: out of memory\n");
	}
	wfw_batch_free(&p.b[0]);
	wfw_batch_free(&p.b[1]);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return ret;
}
