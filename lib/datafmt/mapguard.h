/* SPDX-License-Identifier: MIT */
/*
 * Reading a mapped file that another process cuts shorter: the first load
 * past its new end raises SIGBUS, which kills the process without a word.
 * A reader arms a guard over the map around its reads; a SIGBUS at an
 * address inside the range the faulting thread guards returns to the
 * guard's sigsetjmp() and the reader fails with a message. Any other SIGBUS goes to the handler that was there before
 * wfw_map_guard_init().
 */
#ifndef WFW_MAPGUARD_H
#define WFW_MAPGUARD_H

#include <setjmp.h>
#include <stddef.h>

struct wfw_map_guard {
	sigjmp_buf jb;
	const char *lo, *hi;
};

/* Install the SIGBUS handler (once a process); 0 or -errno. */
int wfw_map_guard_init(void);

/*
 * Guard map[0..len) on this thread, then call sigsetjmp(g->jb, 0) in the
 * frame that reads (not 0: a read of the range raised SIGBUS, and the
 * guard is off). The handler runs with SA_NODEFER: the signal mask needs
 * no saving, and a batch costs no system call.
 */
void wfw_map_guard_arm(struct wfw_map_guard *g, const void *map, size_t len);
/* Off again: before the frame that armed it returns. */
void wfw_map_guard_disarm(void);

#endif
