/* SPDX-License-Identifier: MIT */
/*
 * Writers for the two result formats, used by the csv and binary sinks and
 * by `wultfw convert` (so both produce the same bytes). Both buffer and
 * keep files whole-record on write errors (see out.h). On failure the
 * functions return a negative errno and w->out.msg says why, naming the
 * file.
 */
#ifndef WFW_WRITER_H
#define WFW_WRITER_H

#include <wultfw/plugin.h>

#include "datafmt/csvfmt.h"
#include "datafmt/out.h"

struct wfw_csv_writer {
	struct wfw_out out;
	struct wfw_csvfmt fmt;
	uint64_t rows;
};

/* flags: WFW_OUT_EXCL to refuse an existing file. Writes the header. */
int wfw_csvw_open(struct wfw_csv_writer *w, const char *path,
		  const struct wultfw_schema *s, int flags);
int wfw_csvw_write(struct wfw_csv_writer *w, const struct wultfw_batch *b);
int wfw_csvw_flush(struct wfw_csv_writer *w);
int wfw_csvw_close(struct wfw_csv_writer *w);

struct wfw_bin_writer {
	struct wfw_out out;
	size_t ncols;
	uint64_t rows;
	uint64_t data_off;	/* where the records start (after the header) */
};

/* meta: key, value, ..., NULL (may be NULL). Writes the header. */
int wfw_binw_open(struct wfw_bin_writer *w, const char *path,
		  const struct wultfw_schema *s, const char *const *meta,
		  int flags);
int wfw_binw_write(struct wfw_bin_writer *w, const struct wultfw_batch *b);
int wfw_binw_flush(struct wfw_bin_writer *w);
int wfw_binw_close(struct wfw_bin_writer *w);

#endif /* WFW_WRITER_H */
