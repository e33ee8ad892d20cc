/* SPDX-License-Identifier: MIT */
/*
 * attrib-threads.csv, the names of the threads CausePID holds
 * (doc/attribution.md): a header `PID,Comm`, then a pid and the comm it
 * ran with per line, the comm quoted as CSV quotes a field. The file may
 * be anything (too large, not a regular file, NUL bytes, a pid that is
 * no number): the report refuses a bad file whole, naming its line; calc
 * keeps its good lines and names the first bad one.
 */
#ifndef WFW_XP_THREADS_H
#define WFW_XP_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WFW_XP_THREADS_FILE "attrib-threads.csv"

/* Thread names by pid. */
struct wfw_xp_threads {
	int64_t *pid;			/* ascending, each once */
	char **comm;
	size_t n, cap;
};

/* How a file with bad lines is taken, and the limits of each way. */
enum wfw_xp_threads_mode {
	WFW_XP_THREADS_REFUSE,	/* whole or not at all: 1 MiB, 255-byte fields, 65536 threads */
	WFW_XP_THREADS_SKIP,	/* bad lines left out: 16 MiB, 64-byte fields */
};

/*
 * text[0..len) as the file PATH holds it. REFUSE: 0, -EINVAL (err says
 * "PATH:LINE: why", t empty) or -ENOMEM. SKIP: 0 with the good lines in
 * t and err naming the first bad one and their count ("" when none), or
 * -ENOMEM.
 */
int wfw_xp_threads_parse(struct wfw_xp_threads *t, const char *text, size_t len,
			 enum wfw_xp_threads_mode mode, const char *path,
			 char *err, size_t errlen);

/*
 * The report's: read PATH, REFUSE. 0; -ENOENT when there is no such
 * file (t empty); or another -errno with err saying "PATH:LINE: why"
 * or "PATH: why" (t empty then too).
 */
int wfw_xp_threads_load(struct wfw_xp_threads *t, const char *path,
			char *err, size_t errlen);

/*
 * calc's: attrib-threads.csv beside `datafile` (its name into path),
 * SKIP. *found: the file is there. 0 (what could not be used said in
 * err, "" for nothing; the threads it has in t), or -ENOMEM.
 */
int wfw_xp_threads_beside(struct wfw_xp_threads *t, const char *datafile,
			  char *path, size_t pathlen, bool *found,
			  char *err, size_t errlen);

/* pid's comm, or NULL. */
const char *wfw_xp_comm(const struct wfw_xp_threads *t, int64_t pid);
void wfw_xp_threads_free(struct wfw_xp_threads *t);

#endif
