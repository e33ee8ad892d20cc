/* SPDX-License-Identifier: MIT */
/* The benchmarks' synthetic results, written as the sinks write them. */
#ifndef WFW_GEN_WRITE_H
#define WFW_GEN_WRITE_H

#include <stdint.h>

#include <wultfw/plugin.h>

/*
 * ROWS rows of schema s, each made by row(cells, &seed), as
 * DIR/datapoints.csv and its binary twin DIR/datapoints.wfb, through the
 * csv and binary sinks' writers. 0, or 1 after a message on stderr.
 */
int gen_write(uint64_t rows, const char *dir, const struct wultfw_schema *s,
	      void (*row)(union wultfw_cell *c, uint64_t *seed), uint64_t seed);

#endif
