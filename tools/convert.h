/* SPDX-License-Identifier: MIT */
/* wultfw convert's parts (cmd_convert.c, convert_par.c), also filter's. */
#ifndef WFW_CONVERT_H
#define WFW_CONVERT_H

#include "datafmt/reader.h"
#include "expr/seen.h"
#include "datafmt/writer.h"
#include "expr/expr.h"

/*
 * Every row of r (whose schema never changes: a binary file) through sel
 * into the CSV writer w, read and formatted by n threads (1: the calling
 * one), batches of `rows` rows. A binary file of version 2 read without a
 * selection is formatted from its blocks' chunks, without decoding rows.
 * map: w's columns are these of r's (filter --metrics), or NULL: all. 0,
 * or a negative errno after saying why on stderr ("wultfw CMD: ...").
 */
int convert_csv_parallel(struct wfw_reader *r, struct wfw_csv_writer *w,
			 struct wfw_select *sel, const size_t *map, unsigned n,
			 size_t rows, const char *cmd);

/*
 * Every row of r (a binary file convert_raw() cannot copy: version 1) into
 * the binary writer w, fresh from open, on n threads: each reads a block's rows in turn and encodes them
 * as the writer would (the same blocks, byte for byte). No selection:
 * it would change where blocks end. 0, or a negative errno (said).
 */
int convert_bin_parallel(struct wfw_reader *r, struct wfw_writer *w, unsigned n);

/*
 * Whether convert_raw() can copy r into w: a version 2 binary file to the
 * binary writer w, fresh from open, with blocks it could have written,
 * every row (no selection).
 */
bool convert_raw_fits(struct wfw_reader *r, const struct wfw_writer *w,
		      const struct wfw_select *sel);

/*
 * Every block of r copied as it is into w (convert_raw.c), each checked
 * first as wfw_reader_read() checks it. 0, or a negative errno (said,
 * "wultfw CMD: ...").
 */
int convert_raw(struct wfw_reader *r, struct wfw_writer *w, const char *cmd);

/*
 * Every row of r through sel into the binary writer w, r read by a thread
 * of its own (batches of `rows` rows). As copy_rows in cmd_convert.c:
 * 0, -ESTALE when a column changed its type, or an error said.
 */
int convert_pipelined(struct wfw_reader *r, struct wfw_writer *w,
		      struct wfw_select *sel, size_t rows);

/*
 * Every block of r (version 2) through sel (may select nothing) into the
 * binary writer w, fresh from open, whose columns are map[0..nout) of r's
 * (map NULL: all), on n threads (1: the calling one): blocks filtered by
 * filter_blk.c, written in order, one block (or none) for each of r's.
 * sel->kept, sel->dropped count the rows. 0, or a negative errno (said,
 * "wultfw CMD: ...").
 */
int convert_bin_filter(struct wfw_reader *r, struct wfw_writer *w,
		       struct wfw_select *sel, const size_t *map, unsigned n,
		       const char *cmd);

/* Whether convert_bin_filter() can write r's blocks into w. */
bool convert_bin_filter_fits(struct wfw_reader *r, const struct wfw_writer *w);

/* One block filtered (filter_blk.c). */
struct blk_filter {
	const struct wultfw_schema *s;	/* the input's */
	const struct wfw_select *sel;	/* NULL or inactive: every row */
	const size_t *map;		/* output column j = input map[j]; NULL: all */
	size_t nout;
	struct wfw_blk_col *cols;	/* the block's chunks */
	uint32_t block_rows;		/* the most rows a block holds */
	bool *used;			/* columns the selection reads */
	union wultfw_cell **at;		/* those columns decoded (else NULL) */
	union wultfw_cell *store;	/* their cells */
	uint32_t *keep;			/* indexes of the rows kept */
};

int blk_filter_init(struct blk_filter *f, const struct wultfw_schema *s,
		    const struct wfw_select *sel, const size_t *map, size_t nout,
		    uint32_t block_rows);
void blk_filter_free(struct blk_filter *f);

/*
 * The block blk (len bytes: header and payload, `rows` rows, checked by
 * the reader, WFW_BLK_SLACK readable bytes after it) as the block of its
 * kept rows: *res is blk itself when it is that block (every row and
 * column), else out (wfw_blk_bound(nout, rows) + WFW_BLK_SLACK bytes),
 * where it is built. Its length, 0 when no row is kept, or -EINVAL (-ENOMEM) with
 * err. *kept: the rows kept. first: its first row's number in the file
 * (the selection's `index`).
 */
long blk_filter_run(struct blk_filter *f, const unsigned char *blk, size_t len,
		    uint32_t rows, uint64_t first, unsigned char *out,
		    const unsigned char **res,
		    uint32_t *kept, char *err, size_t errlen);

/* out = in's rows with only the columns map[0..out->ncols) of in. */
void wfw_batch_project(const struct wultfw_batch *in, const size_t *map,
		       struct wultfw_batch *out);

/* A CSV file to CSV on several threads, in chunks (csv_par.c). */
struct csv_par_args {
	const char *cmd;		/* for messages: "filter", "convert" */
	const char *path;		/* the input file */
	const char *include, *exclude;	/* the selection, or NULL */
	bool one_pass;			/* as the one-reader path reads it */
	const size_t *map;		/* output column j = input map[j]; NULL: all */
	size_t nout;			/* output columns (with map) */
	unsigned jobs;
	struct wfw_csv_writer *w;	/* the header is out */
	const volatile sig_atomic_t *stop;	/* NULL, or set: stop reading */
	uint64_t kept, dropped;		/* rows the selection kept, dropped */
	bool stopped;			/* the rows out end where *stop cut them */
	struct wfw_seen seen;		/* the names every chunk's reader saw */
};

/*
 * Every row of a->path (ncols columns) selected into a->w; a->w->rows
 * is not counted. Once *a->stop is set, no chunk is started and the text
 * goes out up to where reading stopped: a->w then holds whole rows, the
 * file's first ones, that kept and dropped count. 0; -EAGAIN (not said): the file cannot be read in chunks
 * (a quote, a column whose type is not the same throughout, an error):
 * csv_restart(), then read it with one reader; else an error, said
 * (WFW_E_CUT: the file was cut shorter while read).
 */
int csv_parallel(struct csv_par_args *a, size_t ncols);

/* w's file cut back to its header, to be written again. 0 or -errno (said in w). */
int csv_restart(struct wfw_csv_writer *w);

/*
 * A chunk of a CSV file (o: its part) opened for reading alone: 0, or
 * -EAGAIN (*rd may be open, or NULL): one reader must read the file. With
 * cut set, WFW_E_CUT (*rd NULL) when the file was cut shorter meanwhile,
 * cut[0..len) saying so: that is final.
 */
int csv_chunk_open(struct wfw_reader **rd, const char *path,
		   const struct wfw_reader_opts *o, size_t ncols, char *cut, size_t len);

/* CSV to binary in chunks (csv2bin_par.c): the names the header ends with. */
struct csv2bin_names;

/*
 * Every row of the CSV file `path` into the binary writer w, fresh from
 * open with WFW_BINW_GROWS over the schema a one-pass reader of the file
 * learned, parsed in chunks by `jobs` threads and written in file order:
 * the file one reader would write. *names: the schema w's header is
 * rewritten from at close; csv2bin_free() it after closing w. Once *stop
 * (may be NULL) is set, no later chunk is written: w holds the file's
 * first rows. 0; -EAGAIN (not said): the file cannot be read in chunks (a
 * quote, a column whose type is not the same throughout, an error):
 * csv2bin_restart(), then read it with one reader; else an error, said.
 */
int csv2bin_parallel(const char *path, struct wfw_writer *w, unsigned jobs,
		     const volatile sig_atomic_t *stop, struct csv2bin_names **names);

/* w's file cut back to its header, to be written again. 0 or -errno (said in w). */
int csv2bin_restart(struct wfw_writer *w);

void csv2bin_free(struct csv2bin_names *n);

/*
 * A binary input's metadata (experiment, devid, devdescr, cpu,
 * resolution_ns) as wfw_writer_open()'s meta, for a binary output; free()
 * it (the strings are the reader's). NULL: out of memory.
 */
const char **convert_copy_meta(struct wfw_reader *r);

/*
 * Output column j (input column map[j]; map NULL: j) prints integral
 * values as the CSV read wrote them, "5" not "5.0", where the reader says
 * so (wfw_reader_bare_ints()): in formatter f, or in writer w of either
 * format before its first row (0, or -errno as wfw_writer_set_bare()).
 */
void convert_bare_ints(struct wfw_csvfmt *f, const struct wfw_reader *r,
		       const size_t *map, size_t ncols);
int convert_bare_writer(struct wfw_writer *w, const struct wfw_reader *r,
			const size_t *map, size_t ncols);

/* Threads for a command: the online CPUs, 1 to 64. */
unsigned convert_online_cpus(void);

#endif
