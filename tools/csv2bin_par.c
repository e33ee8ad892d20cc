/* SPDX-License-Identifier: MIT */
/*
 * wultfw convert, a CSV file to binary on several cores (lib/par). The
 * file is cut into chunks at row boundaries (reader parts, as csv_par.c);
 * each thread parses the next chunk whole into a slot, and the slots'
 * rows go to the one binary writer in file order, so the blocks are
 * staged and encoded as one reader's rows would be: the same file, byte
 * for byte. Memory: two slots of a chunk's cells per thread.
 *
 * Each chunk's reader learns its column types on its own. The file equals
 * one reader's when every chunk with rows has the writer's types (those a
 * one-pass reader learned at open) and never changed one; text columns are
 * renumbered into one table in order of first appearance, as one reader
 * numbers them. Otherwise, or at anything a chunk cannot read alone (a
 * quote, a bad row), the caller starts again with one reader, which also
 * gives the exact error.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "datafmt/enumtab.h"
#include "par/par.h"

/*
 * Input bytes per chunk: each chunk's reader learns its types from its
 * first rows again, a few percent of a chunk this size. Its cells take
 * ~1.5 bytes per byte of text.
 */
#define C2B_CHUNK_BYTES	(4u << 20)
/* Rows per batch of a slot: renumbered, then staged from the L2 cache. */
#define C2B_BATCH	2048

/* The schema the writer's header is rewritten from at close. */
struct csv2bin_names {
	struct wultfw_schema schema;
	struct wultfw_column *cols;
	struct wfw_enum_tab *tabs;	/* per column: text names, file order */
};

/* One chunk's rows between its reader and the writer. */
struct slot {
	int ret;			/* how reading it went */
	struct wfw_reader *rd;		/* open until written: its enum names */
	struct wultfw_batch *b;		/* batches, kept for the next chunk */
	size_t used, nb;
};

struct c2b {
	const char *path;
	struct wfw_writer *w;
	size_t ncols;
	unsigned nchunks;
	const volatile sig_atomic_t *sig;	/* set: write no more chunks */
	struct slot *slots;
	unsigned nslots;
	struct csv2bin_names *names;
	struct enum_map *maps;		/* per column */
};

/* A chunk's numbers of a text column's names -> the file's. */
struct enum_map {
	long *to;
	size_t n, cap;
};

/* The next batch of slot s to fill: an old one, or a new one. */
static struct wultfw_batch *slot_batch(struct c2b *p, struct slot *s)
{
	struct wultfw_batch *b;

	if (s->used == s->nb) {
		b = realloc(s->b, (s->nb + 1) * sizeof(*b));
		if (!b)
			return NULL;
		s->b = b;
		memset(&b[s->nb], 0, sizeof(*b));
		if (wfw_batch_alloc(&b[s->nb], p->ncols, C2B_BATCH))
			return NULL;
		s->nb++;
	}
	b = &s->b[s->used++];
	b->rows = 0;
	return b;
}

/* Chunk k whole into s; -EAGAIN when one reader must read the file. */
static int chunk_read(struct c2b *p, struct slot *s, unsigned k)
{
	struct wfw_reader_opts o = { .one_pass = true, .part = k,
				     .nparts = p->nchunks };
	struct wultfw_batch *b;
	long n = 1;

	s->used = 0;
	if (csv_chunk_open(&s->rd, p->path, &o, p->ncols, NULL, 0))
		return -EAGAIN;
	while (n > 0) {
		b = slot_batch(p, s);
		if (!b)
			return -ENOMEM;
		n = wfw_reader_read(s->rd, b);
	}
	return n < 0 || wfw_reader_schema_gen(s->rd) ? -EAGAIN : 0;
}

/* Chunk k parsed into slot `slot`; how it went is said in its turn. */
static int chunk_work(void *ctx, unsigned slot, uint64_t k)
{
	struct c2b *p = ctx;

	p->slots[slot].ret = chunk_read(p, &p->slots[slot], (unsigned)k);
	return 0;
}

/* Does the chunk have the writer's types (the file's at open)? */
static bool chunk_agrees(const struct c2b *p, const struct wultfw_schema *s)
{
	const struct wultfw_column *want = p->w->impl.bin.types;

	for (size_t c = 0; c < p->ncols; c++)
		if (s->cols[c].type != want[c].type ||
		    (want[c].type == WULTFW_COL_INT &&
		     s->cols[c].divisor != want[c].divisor))
			return false;
	return true;
}

/* Text column c's names of the chunk into the file's table, mapped. */
static int map_names(struct c2b *p, const struct wultfw_column *col, size_t c)
{
	struct wfw_enum_tab *t = &p->names->tabs[c];
	struct enum_map *m = &p->maps[c];

	if (col->n_enum > m->cap) {
		long *to = realloc(m->to, col->n_enum * sizeof(*to));

		if (!to)
			return -ENOMEM;
		m->to = to;
		m->cap = col->n_enum;
	}
	/* The chunk's names are in order of first appearance: so are new ones. */
	m->n = col->n_enum;
	for (size_t i = 0; i < col->n_enum; i++) {
		m->to[i] = wfw_enum_add(t, col->enum_names[i], strlen(col->enum_names[i]));
		if (m->to[i] < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The text cells of b numbered as in the file (-1, empty, stays). */
static void renumber(const struct c2b *p, const struct wultfw_schema *s,
		     struct wultfw_batch *b)
{
	for (size_t c = 0; c < p->ncols; c++) {
		const long *to = p->maps[c].to;

		if (s->cols[c].type != WULTFW_COL_ENUM)
			continue;
		for (size_t r = 0; r < b->rows; r++) {
			int64_t *v = &b->cells[r * p->ncols + c].i;

			if (*v >= 0)
				*v = to[*v];
		}
	}
}

/* Slot s's rows into the writer. */
static int chunk_write(struct c2b *p, struct slot *s)
{
	const struct wultfw_schema *sch = wfw_reader_schema(s->rd);
	int ret = 0;

	if (!wfw_reader_rows(s->rd))
		return 0;
	if (!chunk_agrees(p, sch))
		return -EAGAIN;
	for (size_t c = 0; c < p->ncols && !ret; c++)
		if (sch->cols[c].type == WULTFW_COL_ENUM)
			ret = map_names(p, &sch->cols[c], c);
	for (size_t i = 0; i < s->used && !ret; i++) {
		renumber(p, sch, &s->b[i]);
		ret = wfw_writer_write(p->w, &s->b[i]);
		if (ret)
			fprintf(stderr, "wultfw convert: %s\n", wfw_writer_msg(p->w));
	}
	return ret;
}

/* Chunk k's rows into the writer, in file order. */
static int chunk_put(void *ctx, unsigned slot, uint64_t k)
{
	struct c2b *p = ctx;
	struct slot *s = &p->slots[slot];
	int ret;

	if (p->sig && *p->sig)	/* Ctrl-C: the chunks so far, whole */
		return WFW_PAR_CUT;
	ret = s->ret ? s->ret : chunk_write(p, s);
	if (s->rd)
		wfw_reader_close(s->rd);
	s->rd = NULL;
	return ret;
}

static const struct wfw_par_ops chunk_ops = { .work = chunk_work, .emit = chunk_put };

static void slots_free(struct c2b *p)
{
	for (unsigned i = 0; p->slots && i < p->nslots; i++) {
		struct slot *s = &p->slots[i];

		if (s->rd)
			wfw_reader_close(s->rd);
		for (size_t j = 0; j < s->nb; j++)
			wfw_batch_free(&s->b[j]);
		free(s->b);
	}
	free(p->slots);
	for (size_t c = 0; p->maps && c < p->ncols; c++)
		free(p->maps[c].to);
	free(p->maps);
}

static struct csv2bin_names *names_new(size_t ncols)
{
	struct csv2bin_names *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->cols = calloc(ncols, sizeof(*n->cols));
	n->tabs = calloc(ncols, sizeof(*n->tabs));
	n->schema = (struct wultfw_schema){ .ncols = ncols, .cols = n->cols };
	if (!n->cols || !n->tabs) {
		csv2bin_free(n);
		return NULL;
	}
	return n;
}

/* The writer's header at close: its types, the file's text names. */
static void names_use(struct csv2bin_names *n, struct wfw_bin_writer *bw)
{
	for (size_t c = 0; c < bw->ncols; c++) {
		n->cols[c] = bw->types[c];
		if (n->cols[c].type == WULTFW_COL_ENUM) {
			n->cols[c].enum_names = (const char *const *)n->tabs[c].names;
			n->cols[c].n_enum = n->tabs[c].n;
		}
	}
	bw->schema = &n->schema;
}

int csv2bin_parallel(const char *path, struct wfw_writer *w, unsigned jobs,
		     const volatile sig_atomic_t *stop, struct csv2bin_names **names)
{
	struct wfw_bin_writer *bw = &w->impl.bin;
	struct c2b p = { .path = path, .w = w, .ncols = bw->ncols,
			 .nslots = 2 * jobs, .sig = stop };
	struct wfw_par par = { .ops = &chunk_ops, .ctx = &p, .threads = jobs,
			       .slots = p.nslots, .stop = stop };
	int ret = -ENOMEM;

	*names = NULL;
	if (bw->staged || bw->rows || !bw->grows)	/* fresh, header rewritten */
		return -EAGAIN;
	p.nchunks = wfw_par_file_parts(path, jobs, C2B_CHUNK_BYTES);
	par.nparts = p.nchunks;
	p.slots = calloc(p.nslots, sizeof(*p.slots));
	p.names = names_new(p.ncols);
	p.maps = calloc(p.ncols, sizeof(*p.maps));
	if (p.slots && p.names && p.maps)
		ret = wfw_par_run(&par);
	slots_free(&p);
	if (!ret) {
		names_use(p.names, bw);
		*names = p.names;
	} else {
		csv2bin_free(p.names);
	}
	if (ret == -ENOMEM)
		fprintf(stderr, "wultfw convert: out of memory\n");
	return ret;
}

void csv2bin_free(struct csv2bin_names *n)
{
	if (!n)
		return;
	for (size_t c = 0; n->tabs && c < n->schema.ncols; c++)
		wfw_enum_free(&n->tabs[c]);
	free(n->tabs);
	free(n->cols);
	free(n);
}
