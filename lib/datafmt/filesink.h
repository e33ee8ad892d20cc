/* SPDX-License-Identifier: MIT */
/*
 * A sink that writes one result file in a format (lib/datafmt/writer.h):
 * the csv and binary sinks are this plus their format and file name.
 * Failures say how many rows were received and what the file keeps, and
 * after a failed write info.yml gets the rows really in the file.
 *
 * Durability (lib/atomic/durable.h): every flush_rows rows what the sink
 * buffers goes to the kernel, so kill -9 loses at most that many; every
 * flush_interval it goes to the disk (fdatasync), so a power cut loses at
 * most that long; flush() does both at once.
 */
#ifndef WFW_FILESINK_H
#define WFW_FILESINK_H

#include <stddef.h>

#include <wultfw/plugin.h>

#include "datafmt/writer.h"

/* The file sinks' config struct (ABI v2: ctx->cfg). */
struct wfw_filesink_cfg {
	const char *file;
	uint64_t flush_interval;	/* ns */
	int64_t flush_rows;
};

#define WFW_FILESINK_FLUSH_INTERVAL "1s"
#define WFW_FILESINK_FLUSH_ROWS "100000"

/* The option table of a file sink whose default file name is `def`. */
#define WFW_FILESINK_OPTIONS(def) \
	{ "file", WULTFW_OPT_STRING, def, \
	  "output file name, relative to the experiment's result directory", \
	  .off = offsetof(struct wfw_filesink_cfg, file) }, \
	{ "flush_interval", WULTFW_OPT_DURATION, WFW_FILESINK_FLUSH_INTERVAL, \
	  "longest time written datapoints wait before they are on the disk " \
	  "(fdatasync: what a power cut can lose)", \
	  .min = "1ms", .max = "1h", \
	  .off = offsetof(struct wfw_filesink_cfg, flush_interval) }, \
	{ "flush_rows", WULTFW_OPT_INT, WFW_FILESINK_FLUSH_ROWS, \
	  "most datapoints wultfw holds before handing them to the kernel " \
	  "(what kill -9 can lose)", \
	  .min = "1", .unit = "datapoints", \
	  .off = offsetof(struct wfw_filesink_cfg, flush_rows) }, \
	{ NULL }

/*
 * Open `file` (relative to the run's result directory, inside it) in
 * `fmt`; `opt_file` is the index of the option that named it, blamed when
 * it is empty. meta: key, value, ..., NULL for formats that keep it.
 * The flush policy comes from ctx->cfg (a struct wfw_filesink_cfg), or
 * the defaults above when a driver hands none.
 */
int wfw_filesink_open(struct wultfw_ctx *ctx, const struct wfw_format *fmt,
		      const char *file, int opt_file,
		      const struct wultfw_run_info *run,
		      const char *const *meta);
/*
 * For validate(): an empty file name, or one outside the result
 * directory (datafmt/resultfile.h), is refused at its line.
 */
int wfw_filesink_validate(struct wultfw_ctx *ctx, int opt_file);
/* Writes, then syncs when flush_interval or flush_rows is due. */
int wfw_filesink_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b);
/* Everything written so far to the disk now (write + fdatasync). */
int wfw_filesink_flush(struct wultfw_ctx *ctx);
int wfw_filesink_close(struct wultfw_ctx *ctx,
		       const struct wultfw_run_summary *summary);

#endif /* WFW_FILESINK_H */
