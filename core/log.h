/* SPDX-License-Identifier: MIT */
/* Messages to the user: errors always, info unless -q, debug with -v. */
#ifndef WFW_LOG_H
#define WFW_LOG_H

#include <stdio.h>

extern int wfw_verbosity;	/* 0: -q, 1: normal, 2+: -v */

void wfw_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wfw_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wfw_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void wfw_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Copy every message from now on into this file too (a run's logs/),
 * after the messages kept since wfw_log_keep(); NULL: stop copying.
 */
void wfw_log_tee(FILE *f);
/* Keep the messages from now (up to 64 KiB) for the next wfw_log_tee(). */
void wfw_log_keep(void);

/* The first error since the last reset, "" if none: info.yml's 'error'. */
void wfw_log_reset_first_error(void);
const char *wfw_log_first_error(void);

/* The progress line owns the terminal's last line; messages clear it. */
void wfw_log_clear_progress(void);
void wfw_log_set_progress_active(int active);

#endif
