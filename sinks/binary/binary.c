/* SPDX-License-Identifier: MIT */
/*
 * binary sink: the compact, self-describing format of doc/binary-format.md.
 * Records are the raw 64-bit cells of each batch (no rounding), so on a
 * little-endian machine a batch goes to the file without conversion. A
 * failed write stops the run and leaves whole records only.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "datafmt/filesink.h"

/* The core checks the file name at its line (inside the result directory). */
static const struct wultfw_option binary_options[] = {
	WFW_FILESINK_OPTIONS("datapoints.wfb")
};

static int binary_open(struct wultfw_ctx *ctx,
		       const struct wultfw_run_info *run)
{
	const struct wultfw_source_info *src = run->source;
	char cpu[16], res[24];
	const char *meta[16];
	size_t nm = 0;

	/* A little provenance, so a lone .wfb file still says what it is. */
	snprintf(cpu, sizeof(cpu), "%d", run->cpu);
	meta[nm++] = "cpu";
	meta[nm++] = cpu;
	if (run->experiment) {
		meta[nm++] = "experiment";
		meta[nm++] = run->experiment;
	}
	if (src && src->devid) {
		meta[nm++] = "devid";
		meta[nm++] = src->devid;
	}
	if (src && src->devdescr) {
		meta[nm++] = "devdescr";
		meta[nm++] = src->devdescr;
	}
	if (src) {
		snprintf(res, sizeof(res), "%" PRIu64, src->resolution_ns);
		meta[nm++] = "resolution_ns";
		meta[nm++] = res;
	}
	meta[nm] = NULL;
	return wfw_filesink_open(ctx, &wfw_format_binary, run, meta);
}

static const struct wultfw_sink_ops binary_ops = {
	.open = binary_open,
	.write = wfw_filesink_write,
	.flush = wfw_filesink_flush,
	.close = wfw_filesink_close,
};

WULTFW_PLUGIN(binary) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SINK,
	.name = "binary",
	.summary = "compact lossless self-describing datapoints file (doc/binary-format.md)",
	.options = binary_options,
	.sink = &binary_ops,
	.cfg_size = sizeof(struct wfw_filesink_cfg),
};
