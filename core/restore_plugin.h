/* SPDX-License-Identifier: MIT */
/* A change only its plugin can put back: restore_plugin.c. */
#ifndef WFW_RESTORE_PLUGIN_H
#define WFW_RESTORE_PLUGIN_H

#include "restore_file.h"

/*
 * Call the restore op of the change's plugin (loaded by name) with its
 * data. tool: "restore", "scan", "run" for the messages of a leftover, or
 * NULL in the process that made the change (reasons go to the log).
 * 0 when put back, or -errno, said on stderr.
 */
int wfw_restore_plugin_change(const struct wfw_change *c, const char *tool);

#endif
