/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "signals.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "restore.h"

volatile sig_atomic_t wfw_stop_signal;

#define ABORT_AFTER_NS 2000000000LL	/* a second signal aborts after this */

static struct timespec first_stop;

static long long since_first_stop(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - first_stop.tv_sec) * 1000000000LL +
	       (now.tv_nsec - first_stop.tv_nsec);
}

static void say(const char *msg, size_t len)
{
	if (write(STDERR_FILENO, msg, len) < 0) {
		/* nothing to do */
	}
}

/*
 * The first signal asks for a clean stop. A second one soon after (an
 * impatient double Ctrl-C) is ignored, so the results still get written;
 * one after ABORT_AFTER_NS means the stop is stuck: restore the system
 * settings and exit at once.
 */
static void on_stop(int sig)
{
	static const char wait_msg[] =
		"\nwultfw: finishing the result files; press Ctrl-C again in 2 s to abort\n";
	static const char abort_msg[] =
		"\nwultfw: aborted: system settings restored, result files may be incomplete\n";

	if (!wfw_stop_signal) {
		clock_gettime(CLOCK_MONOTONIC, &first_stop);
		wfw_stop_signal = sig;
		return;
	}
	if (since_first_stop() < ABORT_AFTER_NS) {
		say(wait_msg, sizeof(wait_msg) - 1);
		return;
	}
	wfw_restore_all();
	say(abort_msg, sizeof(abort_msg) - 1);
	_exit(128 + sig);
}

static void on_fatal(int sig)
{
	wfw_restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

void wfw_signals_install(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking read in a source returns EINTR. */
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	atexit(wfw_restore_exit);
}

const char *wfw_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" :
	       sig == SIGHUP ? "SIGHUP" : "a signal";
}
