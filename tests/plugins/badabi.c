/* SPDX-License-Identifier: MIT */
/* A plugin built for another ABI version: the core must refuse it. */
#include <wultfw/plugin.h>

WULTFW_PLUGIN(badabi) = {
	.abi_version = 1000,	/* a newer major version than any */
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SINK,
	.name = "badabi",
	.summary = "wrong ABI version",
};
