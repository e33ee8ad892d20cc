/* SPDX-License-Identifier: MIT */
/*
 * wultfw convert and filter, a binary file to CSV on several cores: the main thread
 * decodes batches and writes the text out in order, worker threads format
 * the batches (most of the time) into their own buffers. Memory: one batch
 * and its text per worker. Only for inputs whose schema never changes
 * (binary): each worker has its own formatter over the same schema.
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

enum job_state { JOB_IDLE, JOB_WORK, JOB_DONE };

struct job {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	enum job_state state;
	bool quit, started;
	struct wfw_csvfmt fmt;
	struct wultfw_batch b;
	const size_t *map;		/* projection, or NULL */
	struct wultfw_batch proj;	/* b's columns in map */
	char *text;
	size_t len;
};

static void *job_main(void *arg)
{
	struct job *j = arg;

	pthread_mutex_lock(&j->mu);
	for (;;) {
		while (j->state != JOB_WORK && !j->quit)
			pthread_cond_wait(&j->cv, &j->mu);
		if (j->quit)
			break;
		pthread_mutex_unlock(&j->mu);
		if (j->map)
			wfw_batch_project(&j->b, j->map, &j->proj);
		j->len = wfw_csvfmt_rows(&j->fmt, j->text,
					 j->map ? j->proj.cells : j->b.cells, j->b.rows);
		pthread_mutex_lock(&j->mu);
		j->state = JOB_DONE;
		pthread_cond_broadcast(&j->cv);
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

/* A new state for j, or (quit) tell its thread to end. */
static void set_state(struct job *j, enum job_state s, bool quit)
{
	pthread_mutex_lock(&j->mu);
	if (quit)
		j->quit = true;
	else
		j->state = s;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
}

/* Wait for j's batch; its text out to the file. */
static int drain(struct job *j, struct wfw_csv_writer *w)
{
	enum job_state s;
	int ret = 0;

	pthread_mutex_lock(&j->mu);
	while (j->state == JOB_WORK)
		pthread_cond_wait(&j->cv, &j->mu);
	s = j->state;
	pthread_mutex_unlock(&j->mu);
	if (s == JOB_DONE) {
		ret = wfw_out_write(&w->out, j->text, j->len);
		w->rows += j->b.rows;
		set_state(j, JOB_IDLE, false);
	}
	return ret;
}

static int job_init(struct job *j, size_t in_cols, const struct wultfw_schema *out,
		    const size_t *map, size_t rows)
{
	char err[256];

	memset(j, 0, sizeof(*j));
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	j->map = map;
	if (wfw_csvfmt_init(&j->fmt, out, err, sizeof(err)) ||
	    wfw_batch_alloc(&j->b, in_cols, rows) ||
	    (map && wfw_batch_alloc(&j->proj, out->ncols, rows)))
		return -ENOMEM;
	j->text = malloc(rows * j->fmt.row_max);
	if (!j->text || pthread_create(&j->th, NULL, job_main, j))
		return -ENOMEM;
	j->started = true;
	return 0;
}

static void job_free(struct job *j)
{
	if (j->started) {
		set_state(j, JOB_IDLE, true);
		pthread_join(j->th, NULL);
	}
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->cv);
	if (j->fmt.schema)
		wfw_csvfmt_free(&j->fmt);
	wfw_batch_free(&j->b);
	wfw_batch_free(&j->proj);
	free(j->text);
}

/* Batches round the jobs; job i % n is drained (written) before reuse. */
static long pump(struct job *jobs, unsigned n, struct wfw_reader *r,
		 struct wfw_csv_writer *w, struct wfw_select *sel)
{
	long got = 0;
	unsigned i;

	for (i = 0;; i = (i + 1) % n) {
		struct job *j = &jobs[i];

		if (drain(j, w))
			return w->out.err;
		j->b.rows = 0;
		got = wfw_reader_read(r, &j->b);
		if (got <= 0)
			break;
		wfw_select_batch(sel, &j->b);
		set_state(j, JOB_WORK, false);
	}
	for (unsigned k = 1; k < n; k++)
		if (drain(&jobs[(i + k) % n], w))
			return w->out.err;
	return got;
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

int convert_csv_parallel(struct wfw_reader *r, struct wfw_csv_writer *w,
			 struct wfw_select *sel, const size_t *map, unsigned n,
			 size_t rows)
{
	struct job *jobs = calloc(n, sizeof(*jobs));
	size_t in_cols = wfw_reader_schema(r)->ncols;
	long got = -ENOMEM;
	unsigned k;

	if (!jobs) {
		fprintf(stderr, "wultfw %s: out of memory\n", map ? "filter" : "convert");
		return -ENOMEM;
	}
	for (k = 0; k < n; k++)
		if (job_init(&jobs[k], in_cols, w->fmt.schema, map, rows))
			break;
	if (k == n)
		got = pump(jobs, n, r, w, sel);
	for (unsigned i = 0; i < n && i <= k; i++)
		job_free(&jobs[i]);
	free(jobs);
	if (got < 0)
		fprintf(stderr, "wultfw %s: %s\n", map ? "filter" : "convert",
			got == -ENOMEM ? "out of memory" :
			w->out.err ? w->out.msg : wfw_reader_error(r));
	return got < 0 ? (int)got : 0;
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
