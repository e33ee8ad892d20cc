/* SPDX-License-Identifier: MIT */
/*
 * The CSV writer (csvwrite.c): rows formatted by csvfmt.h into a file that
 * only ever holds whole rows (out.h). On failure the functions return a
 * negative errno and w->out.msg says why, naming the file.
 */
#ifndef WFW_CSVWRITE_H
#define WFW_CSVWRITE_H

#include <wultfw/plugin.h>

#include "datafmt/csvfmt.h"
#include "datafmt/out.h"

struct wfw_reader;
struct wfw_row_text;

struct wfw_csv_writer {
	struct wfw_out out;
	struct wfw_csvfmt fmt;
	uint64_t rows;
};

/* flags: WFW_OUT_EXCL to refuse an existing file. Writes the header. */
int wfw_csvw_open(struct wfw_csv_writer *w, const char *path,
		  const struct wultfw_schema *s, int flags);
/* The same into a sink's file (out.h: struct wfw_out_fwd); name in messages. */
int wfw_csvw_open_fwd(struct wfw_csv_writer *w, const char *name,
		      const struct wultfw_schema *s,
		      const struct wfw_out_fwd *fwd, void *arg);
/*
 * The longest prefix of p[0..n) made of whole CSV lines (the last newline
 * outside quotes), and in *rows how many.
 */
size_t wfw_csv_whole(const char *p, size_t n, uint64_t *rows);
int wfw_csvw_write(struct wfw_csv_writer *w, const struct wultfw_batch *b);
/*
 * The same, row i printed as text[i] where text[i].n is set (reader.h:
 * wfw_reader_row_texts()), formatted elsewhere; text NULL: every row.
 */
int wfw_csvw_write_text(struct wfw_csv_writer *w, const struct wultfw_batch *b,
			const struct wfw_row_text *text);
/* wfw_csvfmt_rows() with the rows' texts as above (buf as there). */
size_t wfw_csv_rows_text(const struct wfw_csvfmt *f, char *buf,
			 const union wultfw_cell *cells, size_t rows,
			 const struct wfw_row_text *text);
/*
 * The two above for texts of rows rd read (they point into its mapped
 * file): read under rd's guard, so a file cut shorter meanwhile gives
 * -EIO and wfw_reader_error(rd), not SIGBUS (wfw_reader_use_texts()).
 */
int wfw_csvw_write_from(struct wfw_csv_writer *w, struct wfw_reader *rd,
			const struct wultfw_batch *b, const struct wfw_row_text *text);
long wfw_csv_rows_text_from(struct wfw_reader *rd, const struct wfw_csvfmt *f,
			    char *buf, const union wultfw_cell *cells, size_t rows,
			    const struct wfw_row_text *text);
int wfw_csvw_flush(struct wfw_csv_writer *w);
/*
 * The rows the file holds (a file of its own, before close): every row
 * written, or after a failed write the whole ones it kept, read back.
 */
uint64_t wfw_csvw_in_file(const struct wfw_csv_writer *w);
int wfw_csvw_close(struct wfw_csv_writer *w);

#endif
