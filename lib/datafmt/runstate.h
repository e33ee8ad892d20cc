/* SPDX-License-Identifier: MIT */
/*
 * Whether a result's run finished. info.yml says `status: running` until
 * the run ends, with the run's pid, its start time (pid_start, so a
 * reused pid is not taken for it) and the boot it ran in (boot_id, so a
 * power cut is recognised): sysstate/proc.h.
 */
#ifndef WFW_RUNSTATE_H
#define WFW_RUNSTATE_H

#include <stddef.h>

enum wfw_run_end {
	WFW_RUN_ENDED,		/* complete, interrupted or failed: final */
	WFW_RUN_GOING,		/* status running and its process runs */
	WFW_RUN_KILLED,		/* status running, its process is gone */
	WFW_RUN_UNFINISHED,	/* status running, from another machine */
	WFW_RUN_UNKNOWN,	/* its info.yml cannot be read (why says why) */
};

/*
 * Read the info.yml beside `datafile` and say how the run ended; for
 * anything but ENDED, `why` gets a sentence starting with "incomplete:"
 * (UNKNOWN: why the info.yml cannot be read, and that it is ignored).
 * No info.yml (a bare data file, wult's results) counts as ENDED.
 */
enum wfw_run_end wfw_run_end(const char *datafile, char *why, size_t len);

/*
 * For calc and report: print "TOOL: FILE: incomplete: ..." on stderr when
 * the run did not end, or a warning that its info.yml cannot be read and
 * is ignored; the readers still use every whole row.
 */
void wfw_run_end_warn(const char *tool, const char *datafile);

#endif /* WFW_RUNSTATE_H */
