/* SPDX-License-Identifier: MIT */
/*
 * Are results compared like with like? A wake latency depends on the
 * source, the launch distance, the C-state policy and the measuring
 * thread's priority; calc's and report's differences between results that
 * differ in one of them measure the settings, not the machines.
 */
#ifndef WFW_LIKENESS_H
#define WFW_LIKENESS_H

#include <stddef.h>
#include <stdio.h>

/*
 * For each result after the first whose info.yml differs from the
 * first's in such a setting (source, ldist, cstates, timer_sched), one
 * line on out: "wultfw TOOL: NAME and NAME0 differ in KEY ('b' vs 'a'):
 * ...". A key either lacks (wult's results, another source's keys) is not
 * compared. Returns the lines.
 */
size_t wfw_likeness_warn(FILE *out, const char *tool, const char *const *datafiles,
			 const char *const *names, size_t n);

#endif
