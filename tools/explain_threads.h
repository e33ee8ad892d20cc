/* SPDX-License-Identifier: MIT */
/*
 * calc --explain: attrib-threads.csv beside a result's datapoints, the
 * names of the threads CausePID holds (doc/attribution.md): a header
 * `PID,Comm`, then a pid and the comm it ran with per line, the comm
 * quoted as CSV quotes a field when it holds a comma, a quote or a line
 * end. The file may be anything: too large, not a regular file, NUL
 * bytes, a pid that is no number; what cannot be used is said once and
 * those threads are shown by pid.
 */
#ifndef WFW_EXPLAIN_THREADS_H
#define WFW_EXPLAIN_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XTHREADS_FILE "attrib-threads.csv"
#define XTHREADS_MAX_BYTES (16u << 20)
#define XTHREADS_MAX_COMM 64	/* the kernel's are 15 bytes */

struct xthreads {
	size_t n;
	int64_t *pid;		/* ascending, each once */
	char **comm;		/* as the file has them */
	bool found;		/* the file was there */
	char path[4096];
	char err[700];		/* what of the file could not be used, or "" */
};

/*
 * Read the threads file beside `datafile`. 0 (a missing or unusable file
 * gives no threads; err says why when it is there but unusable), or
 * -ENOMEM.
 */
int xthreads_load(struct xthreads *t, const char *datafile);

/*
 * text[0..len) as the file's content (t->path names it in err): 0 or
 * -ENOMEM. Bad lines are skipped; err names the first and counts them.
 */
int xthreads_parse(struct xthreads *t, const char *text, size_t len);

/* The comm of pid, or NULL. */
const char *xthreads_comm(const struct xthreads *t, int64_t pid);

void xthreads_free(struct xthreads *t);

/*
 * s for a terminal: printable ASCII as it is, a backslash doubled, any
 * other byte as \xNN. Cut to fit len (NUL included).
 */
void xthreads_escape(char *buf, size_t len, const char *s);

#endif
