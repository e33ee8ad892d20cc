/* SPDX-License-Identifier: MIT */
/* wultfw convert's parts (cmd_convert.c, convert_par.c), also filter's. */
#ifndef WFW_CONVERT_H
#define WFW_CONVERT_H

#include "datafmt/reader.h"
#include "datafmt/writer.h"
#include "expr/expr.h"

/*
 * Every row of r (whose schema never changes: a binary file) through sel
 * into the CSV writer w, formatted by n threads, batches of `rows` rows.
 * map: w's columns are these of r's (filter --metrics), or NULL: all.
 * 0, or a negative errno after saying why on stderr.
 */
int convert_csv_parallel(struct wfw_reader *r, struct wfw_csv_writer *w,
			 struct wfw_select *sel, const size_t *map, unsigned n,
			 size_t rows);

/*
 * Every row of r through sel into the binary writer w, r read by a thread
 * of its own (batches of `rows` rows). As copy_rows in cmd_convert.c:
 * 0, -ESTALE when a column changed its type, or an error said.
 */
int convert_pipelined(struct wfw_reader *r, struct wfw_writer *w,
		      struct wfw_select *sel, size_t rows);

/* out = in's rows with only the columns map[0..out->ncols) of in. */
void wfw_batch_project(const struct wultfw_batch *in, const size_t *map,
		       struct wultfw_batch *out);

/* wultfw filter over a CSV file on several threads (filter_par.c). */
struct filter_par_args {
	const char *path;		/* the CSV file */
	const char *include, *exclude;	/* the selection, or NULL */
	bool one_pass;			/* as the one-reader path reads it */
	const size_t *map;		/* output column j = input map[j]; NULL: all */
	size_t nout;			/* output columns (with map) */
	unsigned jobs;
	struct wfw_csv_writer *w;	/* the header is out */
	uint64_t kept, dropped;		/* rows the selection kept, dropped */
};

/*
 * Every row of a.path (ncols columns) selected into a->w. 0; -EAGAIN (not
 * said): the file cannot be read in chunks (a quote, a column whose type
 * is not the same throughout, an error): start a->w's file again and read
 * it with one reader; else an error, said.
 */
int filter_csv_parallel(struct filter_par_args *a, size_t ncols);

/* Threads for a command: the online CPUs, 1 to 64. */
unsigned convert_online_cpus(void);

#endif
