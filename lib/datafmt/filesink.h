/* SPDX-License-Identifier: MIT */
/*
 * A sink that writes one result file in a format (lib/datafmt/writer.h):
 * the csv and binary sinks are this plus their format and file name.
 * Failures say how many rows were received and what the file keeps, and
 * after a failed write info.yml gets the rows really in the file.
 */
#ifndef WFW_FILESINK_H
#define WFW_FILESINK_H

#include <wultfw/plugin.h>

#include "datafmt/writer.h"

/*
 * Open `file` (relative to the run's result directory unless absolute) in
 * `fmt`; `opt_file` is the index of the option that named it, blamed when
 * it is empty. meta: key, value, ..., NULL for formats that keep it.
 */
int wfw_filesink_open(struct wultfw_ctx *ctx, const struct wfw_format *fmt,
		      const char *file, int opt_file,
		      const struct wultfw_run_info *run,
		      const char *const *meta);
/* For validate(): an empty file name is refused at its line. */
int wfw_filesink_validate(struct wultfw_ctx *ctx, int opt_file);
int wfw_filesink_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b);
int wfw_filesink_flush(struct wultfw_ctx *ctx);
int wfw_filesink_close(struct wultfw_ctx *ctx,
		       const struct wultfw_run_summary *summary);

#endif /* WFW_FILESINK_H */
