/* SPDX-License-Identifier: MIT */
/*
 * SIGINT/SIGTERM/SIGHUP ask the run to stop cleanly (the scheduler polls
 * the flag); a second one within 2 s is ignored so the results still get
 * written; a later one, or a fatal signal, restores system settings and
 * exits at once.
 */
#ifndef WFW_SIGNALS_H
#define WFW_SIGNALS_H

#include <signal.h>

extern volatile sig_atomic_t wfw_stop_signal;

void wfw_signals_install(void);

/* "SIGINT", "SIGTERM", "SIGHUP" (the stop signals), else "a signal". */
const char *wfw_signal_name(int sig);

#endif
