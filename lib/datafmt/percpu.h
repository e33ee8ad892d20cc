/* SPDX-License-Identifier: MIT */
/*
 * An experiment that measured several CPUs at once: its directory EXP/
 * holds one ordinary (wult-compatible) result per CPU, EXP/cpuN/, and an
 * info.yml naming them ("cpus: [0, 1]", "per_cpu_dirs: true"). Without
 * that info.yml, the cpuN/ subdirectories holding datapoints are taken.
 */
#ifndef WFW_PERCPU_H
#define WFW_PERCPU_H

#include <stdbool.h>
#include <stddef.h>

#define WFW_PERCPU_MAX 4096	/* CPUs of one experiment */

/*
 * The column saying whose CPU a row is: text ("0", "1", ...) in every
 * format, so a CSV reader reads it as names even though they are digits
 * (a file written by convert or filter --one-file groups by it as the
 * experiment does).
 */
#define WFW_CPU_COL "CPU"

struct wfw_percpu {
	size_t n;
	unsigned *cpu;		/* ascending */
	char **file;		/* EXP/cpuN/datapoints.csv (or .wfb) */
};

/*
 * Is `dir` such an experiment? 0 with p->n == 0: no; 0 with p->n > 0:
 * yes, p filled (free it with wfw_percpu_free()); a negative errno with
 * a message naming the file in err: it claims to be one and is broken.
 */
int wfw_percpu_find(struct wfw_percpu *p, const char *dir, char *err,
		    size_t errlen);
void wfw_percpu_free(struct wfw_percpu *p);

/*
 * The i-th CPU (in p's order) of experiment exp alone, read as the whole
 * experiment is (with its CPU column), so that a selection naming CPU
 * means the same on it. wfw_reader_open()'s contract; *added (if not
 * NULL): the CPU column is the reader's, the last, not the file's own.
 */
struct wfw_reader;
int wfw_percpu_reader_open_one(struct wfw_reader **rp, const char *exp, size_t i,
			       bool *added, char *err, size_t errlen);

/* Whether `path` names a directory (as locate.c leaves an EXP/ in path). */
bool wfw_percpu_is_dir(const char *path);

#endif
