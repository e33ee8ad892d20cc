/* SPDX-License-Identifier: MIT */
/*
 * Which file of a plugin directory to load, and whether it may be loaded
 * at all. Opening a library runs its code (constructors) before any
 * descriptor check, and wultfw runs as root: the file and every directory
 * from / down to it must be out of other users' reach first.
 */
#ifndef WFW_PLUGINTRUST_H
#define WFW_PLUGINTRUST_H

#include <stddef.h>

/*
 * Plugin `name` in directory `dir`: DIR/NAME.so, else libtool's
 * DIR/.libs/NAME.so (a build tree, DIR/NAME.la beside it). Returns 0 with
 * the canonical path to load in `file`; -ENOENT when dir has no NAME.so or
 * NAME.la; else a negative errno and one line in err naming the plugin,
 * the refused file or directory, its owner and mode, and what to do.
 */
int wfw_plugin_locate(const char *dir, const char *name, char *file,
		      size_t len, char *err, size_t errlen);

#endif
