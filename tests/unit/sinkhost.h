/* SPDX-License-Identifier: MIT */
/*
 * Driving a sink through its descriptor as the core does: options from
 * the core's parser, files opened by the core (core/sinkfile.c) in a test
 * directory, the core's schedule after write() and flush(), the files it
 * left open closed after close().
 */
#ifndef WFW_SINKHOST_H
#define WFW_SINKHOST_H

#include <wultfw/plugin.h>

#include "options.h"
#include "sinkfile.h"

struct tu_sink {
	struct wultfw_ctx ctx;
	struct wfw_optvals vals;
	struct wfw_sinkfiles files;
	struct wultfw_run_info run;
	int dirfd;
	/* "key: value\n" the sink said for info.yml, then at close the
	 * rows each of its counted files holds ("csv_rows_in_file: N") */
	char info[2048];
	char log[2048];		/* what it logged, a line each */
};

/*
 * Options of `p` from `text` ("source = { ... };"), files in `dir`, run
 * info of experiment "unit-test" on CPU 1 with `src` (may be NULL) and
 * `schema`; then the sink's open(). Returns what open() did (-EINVAL for
 * options the core refuses).
 */
int tu_sink_open(struct tu_sink *s, const struct wultfw_plugin *p,
		 const char *text, const char *dir,
		 const struct wultfw_source_info *src,
		 const struct wultfw_schema *schema);
int tu_sink_write(struct tu_sink *s, const struct wultfw_batch *b);
int tu_sink_flush(struct tu_sink *s);
/* close() with `sum` (NULL: zero counts); everything freed. */
int tu_sink_close(struct tu_sink *s, const struct wultfw_run_summary *sum);

#endif /* WFW_SINKHOST_H */
