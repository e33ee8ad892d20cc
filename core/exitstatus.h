/* SPDX-License-Identifier: MIT */
/* wultfw's exit statuses beyond 0, 1 (failed) and 2 (bad input): one list (man wultfw). */
#ifndef WFW_EXITSTATUS_H
#define WFW_EXITSTATUS_H

/* --check: the file is valid, but this machine cannot run it all. */
#define WFW_EXIT_MACHINE 3
/* An experiment ended without a datapoint (info.yml: status 'empty'). */
#define WFW_EXIT_EMPTY 4
/* Every experiment measured, but a collector's data is missing. */
#define WFW_EXIT_COLLECT 5
/* A datapoint went above the experiment's stop_above: the run ended there. */
#define WFW_EXIT_STOP_ABOVE 6

#endif
