/* SPDX-License-Identifier: MIT */
/*
 * Finding and loading plugins with libltdl. Search order: plugins built
 * into a static binary, then the directories of WULTFW_PLUGIN_PATH, then
 * the installed plugin directory.
 */
#ifndef WFW_PLUGINS_H
#define WFW_PLUGINS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <wultfw/plugin.h>

struct wfw_plugin_handle {
	void *dl;				/* lt_dlhandle */
	/* The core's copy: zero past the size the plugin was built with. */
	const struct wultfw_plugin *desc;
	char file[PATH_MAX];			/* or "(built in)" */
};

int wfw_plugins_init(void);
void wfw_plugins_exit(void);

/*
 * Load plugin `name`; want_kind is WULTFW_KIND_SOURCE/SINK, or 0 for any.
 * On failure returns a negative errno and a one-line reason in err that
 * names the plugin and its file.
 */
int wfw_plugin_load(const char *name, int want_kind,
		    struct wfw_plugin_handle *h, char *err, size_t errlen);
void wfw_plugin_unload(struct wfw_plugin_handle *h);

/* The source's declared columns (wultfw_plugin.columns), or NULL. */
const struct wultfw_column *wfw_plugin_columns(const struct wfw_plugin_handle *h);

/*
 * A fresh context for one of h's ops: its size, h's descriptor, no CPU
 * (-1), sysfs at "/sys", no option blamed; the caller adds the rest.
 */
void wfw_plugin_ctx_init(struct wultfw_ctx *ctx, const struct wfw_plugin_handle *h);

/*
 * Names of every plugin that can be found (first one of a name wins),
 * sorted; *n is set. Free with wfw_plugin_names_free().
 */
char **wfw_plugin_names(size_t *n);
void wfw_plugin_names_free(char **names, size_t n);

const char *wfw_kind_name(int kind);

#endif
