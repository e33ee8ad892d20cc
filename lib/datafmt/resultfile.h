/* SPDX-License-Identifier: MIT */
/*
 * A sink's file option names a file inside the run's result directory:
 * no leading '/', no '..' component. Otherwise the run would say
 * "results in DIR" while writing elsewhere (over another run's files,
 * or anywhere root may write), and calc of DIR would not find them.
 * Header only: the core checks every sink's file options with it when it
 * loads the experiment (core/outfiles.c) and again when a sink opens a
 * file (core/sinkfile.c).
 */
#ifndef WFW_RESULTFILE_H
#define WFW_RESULTFILE_H

#include <stdbool.h>
#include <string.h>

/* Does `name` (relative to the result directory) stay inside it? */
static inline bool wfw_resultfile_inside(const char *name)
{
	const char *p = name;

	if (name[0] == '/')
		return false;
	while (p) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return false;
		p = strchr(p, '/');
		p = p ? p + 1 : NULL;
	}
	return true;
}

#endif /* WFW_RESULTFILE_H */
