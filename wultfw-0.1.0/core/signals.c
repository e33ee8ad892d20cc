/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "signals.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cstates.h"

volatile sig_atomic_t wfw_stop_signal;

static void on_stop(int sig)
{
	static const char msg[] =
		"\nwultfw: stopping again: settings restored, results may be incomplete\n";

	if (wfw_stop_signal) {
		wfw_cstates_restore();
		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
			/* nothing to do */
		}
		_exit(128 + sig);
	}
	wfw_stop_signal = sig;
}

static void on_fatal(int sig)
{
	wfw_cstates_restore();
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
	atexit(wfw_cstates_restore);
}
