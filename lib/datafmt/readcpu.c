/* SPDX-License-Identifier: MIT */
/*
 * An experiment of several CPUs (percpu.h) read as one result: the rows of
 * EXP/cpu0/, then EXP/cpu1/, ..., with a CPU column (text, the CPU's
 * number) saying whose each row is. Every per-CPU result must have the
 * same columns; where their learned types differ the merged column is
 * the wider (INT with other divisors, or beside FLOAT: FLOAT), text
 * columns get the union of the names. A per-CPU result with its own CPU
 * column must hold its directory's CPU in every row.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/percpu.h"
#include "datafmt/reader_impl.h"

enum conv { CV_COPY, CV_FLOAT, CV_ENUM, CV_EMPTY };

struct col_map {
	enum conv conv;
	bool to_float;		/* CV_EMPTY: the merged column is FLOAT */
	int64_t *emap;		/* CV_ENUM: sub's name index -> merged's */
	size_t nmap;
};

struct sub {
	struct wfw_reader *rd;
	unsigned cpu;
	int cpucol;		/* its own CPU column, or -1 */
	struct col_map *map;	/* per merged column but the added CPU */
	uint64_t row;		/* rows read, for messages */
};

struct names {
	char **v;
	size_t n, cap;
};

struct cpu_reader {
	struct wfw_reader base;
	struct sub *sub;
	size_t nsub, cur;
	struct wultfw_column *cols;
	struct names *names;	/* per merged column (ENUM ones used) */
	size_t cpucol;		/* the merged CPU column */
	size_t ncols;		/* columns allocated (the schema's once built) */
	struct wultfw_batch tmp;
};

/* Index of name in n, added when new; -1: out of memory. */
static int64_t name_index(struct names *n, const char *name)
{
	for (size_t i = 0; i < n->n; i++)
		if (!strcmp(n->v[i], name))
			return (int64_t)i;
	if (n->n == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 8;
		char **v = realloc(n->v, cap * sizeof(*v));

		if (!v)
			return -1;
		n->v = v;
		n->cap = cap;
	}
	if (!(n->v[n->n] = strdup(name)))
		return -1;
	return (int64_t)n->n++;
}

/* Bring sub s's name map of text column c up to its reader's names. */
static int sync_enum(struct cpu_reader *r, struct sub *s, size_t c)
{
	const struct wultfw_column *col = &wfw_reader_schema(s->rd)->cols[c];
	struct col_map *m = &s->map[c];

	if (m->conv != CV_ENUM || m->nmap >= col->n_enum)
		return 0;
	int64_t *e = realloc(m->emap, col->n_enum * sizeof(*e));

	if (!e)
		return -ENOMEM;
	m->emap = e;
	for (; m->nmap < col->n_enum; m->nmap++)
		if ((e[m->nmap] = name_index(&r->names[c], col->enum_names[m->nmap])) < 0)
			return -ENOMEM;
	r->cols[c].enum_names = (const char *const *)r->names[c].v;
	r->cols[c].n_enum = r->names[c].n;
	return 0;
}

/* Merged column c's type from every sub's; -EINVAL: text and numbers. */
static int merge_type(struct cpu_reader *r, size_t c)
{
	struct wultfw_column *mc = &r->cols[c];
	bool text = false, num = false, flt = false, divs = false;
	uint32_t div = 0;

	for (size_t i = 0; i < r->nsub; i++) {
		const struct wultfw_column *sc = &wfw_reader_schema(r->sub[i].rd)->cols[c];

		if (sc->type == WULTFW_COL_ENUM) {
			text |= sc->n_enum > 0;
			continue;
		}
		flt |= sc->type == WULTFW_COL_FLOAT;
		if (sc->type == WULTFW_COL_INT && num && !flt &&
		    (sc->divisor ? sc->divisor : 1) != div)
			divs = true;
		if (sc->type == WULTFW_COL_INT && !div)
			div = sc->divisor ? sc->divisor : 1;
		num = true;
	}
	if (text && num)
		return -EINVAL;
	mc->type = !num ? WULTFW_COL_ENUM : flt || divs ? WULTFW_COL_FLOAT : WULTFW_COL_INT;
	mc->divisor = mc->type == WULTFW_COL_INT ? div : 0;
	for (size_t i = 0; i < r->nsub; i++) {
		const struct wultfw_column *sc = &wfw_reader_schema(r->sub[i].rd)->cols[c];
		struct col_map *m = &r->sub[i].map[c];

		m->conv = mc->type == WULTFW_COL_ENUM ? CV_ENUM
			  : sc->type == WULTFW_COL_ENUM ? CV_EMPTY
			  : sc->type == mc->type ? CV_COPY : CV_FLOAT;
		m->to_float = mc->type == WULTFW_COL_FLOAT;
		if (sync_enum(r, &r->sub[i], c))
			return -ENOMEM;
	}
	return 0;
}

/* Every sub has sub 0's column names, in its order. */
static int same_columns(struct cpu_reader *r)
{
	const struct wultfw_schema *s0 = wfw_reader_schema(r->sub[0].rd);

	for (size_t i = 1; i < r->nsub; i++) {
		const struct wultfw_schema *s = wfw_reader_schema(r->sub[i].rd);
		size_t c = 0;

		while (c < s->ncols && c < s0->ncols &&
		       !strcmp(s->cols[c].name, s0->cols[c].name))
			c++;
		if (c < s->ncols || c < s0->ncols)
			return wfw_reader_fail(&r->base, -EINVAL, "%s: its columns differ from %s's (column %zu: %s, there %s): the per-CPU results of one experiment have the same columns; open them one by one",
					       r->sub[i].rd->path, r->sub[0].rd->path, c + 1,
					       c < s->ncols ? s->cols[c].name : "none",
					       c < s0->ncols ? s0->cols[c].name : "none");
	}
	return 0;
}

/* The merged schema: sub 0's columns merged, and CPU (text). */
static int build_schema(struct cpu_reader *r)
{
	const struct wultfw_schema *s0 = wfw_reader_schema(r->sub[0].rd);
	int own = wfw_schema_find(s0, WFW_CPU_COL);
	size_t n = s0->ncols + (own < 0);
	int ret = same_columns(r);

	if (ret)
		return ret;
	r->cols = calloc(n, sizeof(*r->cols));
	r->names = calloc(n, sizeof(*r->names));
	for (size_t i = 0; i < r->nsub && r->cols && r->names; i++) {
		r->sub[i].cpucol = own;
		r->sub[i].map = calloc(n, sizeof(*r->sub[i].map));
		if (!r->sub[i].map)
			return wfw_reader_fail(&r->base, -ENOMEM, "out of memory");
	}
	if (!r->cols || !r->names)
		return wfw_reader_fail(&r->base, -ENOMEM, "out of memory");
	r->ncols = n;
	r->cpucol = own < 0 ? s0->ncols : (size_t)own;
	for (size_t c = 0; c < s0->ncols; c++) {
		r->cols[c] = s0->cols[c];
		if (c != r->cpucol && merge_type(r, c))
			return wfw_reader_fail(&r->base, -EINVAL, "%s: column %s holds text in one per-CPU result and numbers in another: open them one by one",
					       r->base.path, s0->cols[c].name);
	}
	r->cols[r->cpucol] = (struct wultfw_column){ .name = WFW_CPU_COL, .unit = "",
						     .type = WULTFW_COL_ENUM };
	for (size_t i = 0; i < r->nsub; i++) {
		char num[16];

		snprintf(num, sizeof(num), "%u", r->sub[i].cpu);
		if (name_index(&r->names[r->cpucol], num) < 0)
			return wfw_reader_fail(&r->base, -ENOMEM, "out of memory");
	}
	r->cols[r->cpucol].enum_names = (const char *const *)r->names[r->cpucol].v;
	r->cols[r->cpucol].n_enum = r->names[r->cpucol].n;
	r->base.schema.ncols = n;
	r->base.schema.cols = r->cols;
	return 0;
}

/* Does the sub's own CPU cell say its directory's CPU? */
static bool cpu_cell_ok(const struct sub *s, union wultfw_cell v)
{
	const struct wultfw_column *col = &wfw_reader_schema(s->rd)->cols[s->cpucol];
	char num[16];

	if (col->type != WULTFW_COL_ENUM)
		return wfw_cell_value(col, v) == (double)s->cpu;
	snprintf(num, sizeof(num), "%u", s->cpu);
	return v.i >= 0 && (size_t)v.i < col->n_enum && !strcmp(col->enum_names[v.i], num);
}

static union wultfw_cell convert(const struct sub *s, size_t c, union wultfw_cell v)
{
	const struct wultfw_column *col = &wfw_reader_schema(s->rd)->cols[c];
	const struct col_map *m = &s->map[c];

	switch (m->conv) {
	case CV_FLOAT:
		if (wfw_cell_empty(col, v))
			return (union wultfw_cell){ .i = WULTFW_FLOAT_EMPTY_BITS };
		return (union wultfw_cell){ .f = wfw_cell_value(col, v) };
	case CV_ENUM:
		return (union wultfw_cell){ .i = v.i < 0 || (size_t)v.i >= m->nmap ? -1 : m->emap[v.i] };
	case CV_EMPTY:
		return (union wultfw_cell){ .i = m->to_float ? WULTFW_FLOAT_EMPTY_BITS
							     : WULTFW_CELL_EMPTY };
	default:
		return v;
	}
}

/* The sub's rows in tmp into b, as the merged schema has them. */
static long take_rows(struct cpu_reader *r, struct sub *s, long n,
		      struct wultfw_batch *b)
{
	const struct wultfw_schema *ss = wfw_reader_schema(s->rd);
	int64_t cpu_idx = (int64_t)(s - r->sub);

	for (size_t c = 0; c < ss->ncols; c++)
		if (c != r->cpucol && sync_enum(r, s, c))
			return wfw_reader_fail(&r->base, -ENOMEM, "out of memory");
	for (long k = 0; k < n; k++) {
		const union wultfw_cell *in = wultfw_crow(&r->tmp, (size_t)k);
		union wultfw_cell *out = b->cells + (b->rows + (size_t)k) * b->ncols;

		if (s->cpucol >= 0 && !cpu_cell_ok(s, in[s->cpucol]))
			return wfw_reader_fail(&r->base, -EINVAL, "%s: data row %llu: its CPU column disagrees with its directory (cpu%u): the result was moved into the wrong cpuN/",
					       s->rd->path, (unsigned long long)(s->row + (uint64_t)k + 1),
					       s->cpu);
		for (size_t c = 0; c < ss->ncols; c++)
			if (c != r->cpucol)
				out[c] = convert(s, c, in[c]);
		out[r->cpucol].i = cpu_idx;
	}
	s->row += (uint64_t)n;
	b->rows += (size_t)n;
	return n;
}

static void sum_counts(struct cpu_reader *r)
{
	r->base.rows = r->base.ignored = 0;
	for (size_t i = 0; i < r->nsub; i++) {
		r->base.rows += wfw_reader_rows(r->sub[i].rd);
		r->base.ignored += wfw_reader_ignored_bytes(r->sub[i].rd);
	}
}

static long cpu_read(struct wfw_reader *base, struct wultfw_batch *b)
{
	struct cpu_reader *r = (struct cpu_reader *)base;

	while (r->cur < r->nsub) {
		struct sub *s = &r->sub[r->cur];
		size_t want = b->capacity - b->rows;
		long n;

		if (!want)
			return 0;
		if (r->tmp.capacity < want || r->tmp.ncols != wfw_reader_schema(s->rd)->ncols) {
			wfw_batch_free(&r->tmp);
			if (wfw_batch_alloc(&r->tmp, wfw_reader_schema(s->rd)->ncols, want))
				return wfw_reader_fail(base, -ENOMEM, "out of memory");
		}
		r->tmp.rows = 0;
		r->tmp.capacity = want;
		n = wfw_reader_read(s->rd, &r->tmp);
		sum_counts(r);
		if (n < 0)
			return wfw_reader_fail(base, (int)n, "%s", wfw_reader_error(s->rd));
		if (n > 0)
			return take_rows(r, s, n, b);
		r->cur++;
	}
	return 0;
}

/* FLOAT columns: integral values printed bare where a sub's are. */
static bool cpu_bare_ints(const struct wfw_reader *base, size_t c)
{
	const struct cpu_reader *r = (const struct cpu_reader *)base;

	for (size_t i = 0; c != r->cpucol && i < r->nsub; i++)
		if (r->sub[i].map[c].conv == CV_COPY && wfw_reader_bare_ints(r->sub[i].rd, c))
			return true;
	return false;
}

/* The metadata of the first CPU's file; "cpu" is not one CPU here. */
static const char *cpu_meta(const struct wfw_reader *base, const char *key)
{
	const struct cpu_reader *r = (const struct cpu_reader *)base;

	return strcmp(key, "cpu") ? wfw_reader_meta(r->sub[0].rd, key) : NULL;
}

static void cpu_free(struct wfw_reader *base)
{
	struct cpu_reader *r = (struct cpu_reader *)base;

	for (size_t i = 0; i < r->nsub; i++) {
		for (size_t c = 0; r->sub[i].map && c < r->ncols; c++)
			free(r->sub[i].map[c].emap);
		free(r->sub[i].map);
		wfw_reader_close(r->sub[i].rd);
	}
	for (size_t c = 0; r->names && c < r->ncols; c++) {
		for (size_t k = 0; k < r->names[c].n; k++)
			free(r->names[c].v[k]);
		free(r->names[c].v);
	}
	free(r->names);
	free(r->cols);
	free(r->sub);
	wfw_batch_free(&r->tmp);
	free(r);
}

/*
 * Always "CSV": what callers write of it is rows with a CPU column, never
 * a copy of a binary file's blocks (those are one CPU's).
 */
static const struct wfw_reader_ops cpu_ops = {
	.fmt = WFW_FMT_CSV, .read = cpu_read, .bare_ints = cpu_bare_ints,
	.meta = cpu_meta, .free = cpu_free,
};

/* Open every CPU's file whole (types learned from every row). */
static int open_subs(struct cpu_reader *r, const struct wfw_percpu *p,
		     const struct wfw_reader_opts *opts)
{
	struct wfw_reader_opts o = { .stop = opts->stop };

	r->sub = calloc(p->n, sizeof(*r->sub));
	if (!r->sub)
		return wfw_reader_fail(&r->base, -ENOMEM, "out of memory");
	for (size_t i = 0; i < p->n; i++, r->nsub++) {
		int ret = wfw_reader_open_opts(&r->sub[i].rd, p->file[i], &o,
					       r->base.err, sizeof(r->base.err));

		if (ret)
			return ret;
		r->sub[i].cpu = p->cpu[i];
	}
	return 0;
}

/* The reader of p's CPUs (p freed here). */
static int open_cpus(struct wfw_reader **rp, const char *path, struct wfw_percpu *p,
		     const struct wfw_reader_opts *opts, char *err, size_t errlen)
{
	struct cpu_reader *r = calloc(1, sizeof(*r));
	int ret;

	if (!r || !(r->base.path = strdup(path))) {
		free(r);
		wfw_percpu_free(p);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r->base.fd = -1;
	r->base.opts = *opts;
	r->base.ops = &cpu_ops;
	ret = open_subs(r, p, opts);
	if (!ret)
		ret = build_schema(r);
	wfw_percpu_free(p);
	sum_counts(r);
	if (ret) {
		snprintf(err, errlen, "%s", r->base.err);
		wfw_reader_close(&r->base);
		return ret;
	}
	*rp = &r->base;
	return 0;
}

int wfw_percpu_reader_open(struct wfw_reader **rp, const char *path,
			   const struct wfw_reader_opts *opts, char *err,
			   size_t errlen)
{
	struct wfw_percpu p;
	int ret;

	*rp = NULL;
	if (opts->nparts > 1) {
		snprintf(err, errlen, "%s: an experiment of several CPUs is read whole, not in parts", path);
		return -EOPNOTSUPP;
	}
	ret = wfw_percpu_find(&p, path, err, errlen);
	if (!ret && !p.n) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -EINVAL;
	}
	return ret ? ret : open_cpus(rp, path, &p, opts, err, errlen);
}

int wfw_percpu_reader_open_one(struct wfw_reader **rp, const char *exp, size_t i,
			       bool *added, char *err, size_t errlen)
{
	struct wfw_reader_opts o = { 0 };
	struct wfw_percpu p;
	int ret = wfw_percpu_find(&p, exp, err, errlen);

	*rp = NULL;
	if (!ret && i >= p.n) {
		wfw_percpu_free(&p);
		snprintf(err, errlen, "%s: has no CPU number %zu", exp, i);
		return -ENOENT;
	}
	if (ret)
		return ret;
	/* Only CPU i: the first entry, the others freed. */
	for (size_t k = 0; k < p.n; k++)
		if (k != i)
			free(p.file[k]);
	p.cpu[0] = p.cpu[i];
	p.file[0] = p.file[i];
	p.n = 1;
	ret = open_cpus(rp, exp, &p, &o, err, errlen);
	if (!ret && added)
		*added = ((struct cpu_reader *)*rp)->sub[0].cpucol < 0;
	return ret;
}
