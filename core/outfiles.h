/* SPDX-License-Identifier: MIT */
/*
 * The files an experiment's sinks and collectors write into its result
 * directory, checked when the file is loaded: two of them writing one file
 * would otherwise stop the run at its start ("already exists").
 */
#ifndef WFW_OUTFILES_H
#define WFW_OUTFILES_H

#include "cfgerr.h"
#include "experiment.h"

/* An error at the second writer of a file, naming the first. */
void wfw_outfiles_check(const struct wfw_experiment *e, struct wfw_cfgerr *errs);

#endif
