/* SPDX-License-Identifier: MIT */
/*
 * Descriptors built against newer headers of this ABI version: 8 bytes
 * longer than this core's. NEWDESC_TAIL 0: the new field is left zero,
 * so the core misses nothing and loads it; otherwise it is set, and the
 * core must refuse the plugin in one line naming its file and the sizes.
 * Built twice: newzero.la and newtail.la.
 */
#include <stdint.h>

#include <wultfw/plugin.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define STR2(a) #a
#define STR(a) STR2(a)

static int newdesc_open(struct wultfw_ctx *ctx,
			const struct wultfw_run_info *run)
{
	(void)ctx;
	(void)run;
	return 0;
}

static int newdesc_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	(void)ctx;
	(void)b;
	return 0;
}

static int newdesc_flush(struct wultfw_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static int newdesc_close(struct wultfw_ctx *ctx,
			 const struct wultfw_run_summary *s)
{
	(void)ctx;
	(void)s;
	return 0;
}

static const struct wultfw_sink_ops newdesc_ops = {
	.open = newdesc_open,
	.write = newdesc_write,
	.flush = newdesc_flush,
	.close = newdesc_close,
};

struct newdesc_blob {
	struct wultfw_plugin d;
	uint64_t later;		/* a field this core does not know */
};

extern const struct newdesc_blob CAT(NEWDESC_NAME, _LTX_wultfw_plugin);
const struct newdesc_blob CAT(NEWDESC_NAME, _LTX_wultfw_plugin) = {
	.d = {
		.abi_version = WULTFW_PLUGIN_ABI_VERSION,
		.size = sizeof(struct newdesc_blob),
		.kind = WULTFW_KIND_SINK,
		.name = STR(NEWDESC_NAME),
		.summary = "built against newer headers of this ABI",
		.sink = &newdesc_ops,
	},
	.later = NEWDESC_TAIL,
};
