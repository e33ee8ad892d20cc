/* SPDX-License-Identifier: MIT */
/*
 * A v2 plugin built before the descriptor had its `restore` field: its
 * descriptor ends at .ldist. Right after it in memory sits a function
 * pointer, where a newer descriptor has `restore`: a core that read past
 * the descriptor would call it (and it would say so). The core must see
 * from the symbol's size that the field is not there.
 */
#include <errno.h>
#include <stddef.h>

#include <wultfw/plugin.h>

/* struct wultfw_plugin as it was, field for field. */
struct oldv2_descriptor {
	uint32_t abi_version;
	uint32_t kind;
	const char *name;
	const char *summary;
	const struct wultfw_option *options;
	const struct wultfw_source_ops *source;
	const struct wultfw_sink_ops *sink;
	int (*validate)(struct wultfw_ctx *ctx);
	size_t cfg_size;
	struct wultfw_ldist_decl ldist;
};

_Static_assert(sizeof(struct oldv2_descriptor) ==
	       offsetof(struct wultfw_plugin, restore),
	       "the old descriptor ends where restore begins");

static int oldv2_not_there(struct wultfw_ctx *ctx, const char *data)
{
	(void)data;
	return wultfw_fail(ctx, -EFAULT, "the core read past the end of an old descriptor");
}

static int oldv2_open(struct wultfw_ctx *ctx, struct wultfw_source_info *i)
{
	(void)i;
	return wultfw_fail(ctx, -ENODEV, "oldv2 never measures");
}

static int oldv2_start(struct wultfw_ctx *ctx,
		       const struct wultfw_source_params *p)
{
	(void)ctx;
	(void)p;
	return 0;
}

static int oldv2_stop(struct wultfw_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static int oldv2_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
		      uint64_t timeout_ns)
{
	(void)ctx;
	(void)b;
	(void)timeout_ns;
	return WULTFW_READ_END;
}

static void oldv2_close(struct wultfw_ctx *ctx)
{
	(void)ctx;
}

static const struct wultfw_source_ops oldv2_ops = {
	.open = oldv2_open,
	.start = oldv2_start,
	.read = oldv2_read,
	.stop = oldv2_stop,
	.close = oldv2_close,
};

/* The descriptor, and after it what a new core would take for restore. */
__attribute__((used)) static const struct {
	struct oldv2_descriptor d;
	int (*after)(struct wultfw_ctx *ctx, const char *data);
} oldv2_blob = {
	.d = {
		.abi_version = WULTFW_PLUGIN_ABI_VERSION,
		.kind = WULTFW_KIND_SOURCE,
		.name = "oldv2",
		.summary = "a v2 source built before descriptors had restore",
		.source = &oldv2_ops,
	},
	.after = oldv2_not_there,
};

/* oldv2_LTX_wultfw_plugin: the descriptor part alone, with its size. */
__attribute__((used)) static void oldv2_symbol(void)
{
	__asm__(".globl oldv2_LTX_wultfw_plugin\n"
		".type oldv2_LTX_wultfw_plugin, @object\n"
		".set oldv2_LTX_wultfw_plugin, oldv2_blob\n"
		".size oldv2_LTX_wultfw_plugin, %c0\n"
		:: "i" (sizeof(struct oldv2_descriptor)));
}
