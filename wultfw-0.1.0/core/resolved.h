/* SPDX-License-Identifier: MIT */
/*
 * An experiment as it will run, every default filled in, written as an
 * experiment file of its own (logs/config): rerunning it repeats the run.
 */
#ifndef WFW_RESOLVED_H
#define WFW_RESOLVED_H

#include "experiment.h"

/* Returns malloc'ed text, or NULL when out of memory. */
char *wfw_resolved_config(const struct wfw_experiment *e, const char *from);

#endif
