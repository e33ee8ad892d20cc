/* SPDX-License-Identifier: MIT */
/* Which file of a RESULT argument holds the datapoints. */
#ifndef WFW_LOCATE_H
#define WFW_LOCATE_H

#include <stddef.h>

/*
 * `arg` is a data file (CSV or binary) or a result directory holding
 * datapoints.csv (ours or wult's) or datapoints.wfb. Puts the file in
 * path. Returns 0, or a negative errno with a message naming arg in err.
 */
int wfw_result_locate(const char *arg, char *path, size_t len, char *err,
		      size_t errlen);

#endif
