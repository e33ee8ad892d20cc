/* SPDX-License-Identifier: MIT */
/* The experiment `wultfw` runs without -c (default_experiment.c). */
#ifndef WFW_DEFAULT_EXPERIMENT_H
#define WFW_DEFAULT_EXPERIMENT_H

/* Its text, as an experiment file would hold it. */
extern const char wfw_default_experiment[];

#endif
