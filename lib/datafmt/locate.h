/* SPDX-License-Identifier: MIT */
/* Which file of a RESULT argument holds the datapoints. */
#ifndef WFW_LOCATE_H
#define WFW_LOCATE_H

#include <stddef.h>

/*
 * `arg` is a data file (CSV or binary) or a result directory holding
 * datapoints.csv (ours or wult's) or datapoints.wfb, or an experiment
 * of several CPUs (percpu.h: EXP/cpuN/ results). Puts the file in path;
 * for an experiment "EXP/" (the trailing slash puts its info.yml beside
 * it for wfw_infoyml_read()), which wfw_reader_open() reads as one result
 * with a CPU column. Returns 0, or a negative errno with a message naming arg in err.
 */
int wfw_result_locate(const char *arg, char *path, size_t len, char *err,
		      size_t errlen);

#endif
