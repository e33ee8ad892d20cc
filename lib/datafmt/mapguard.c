/* SPDX-License-Identifier: MIT */
/* SIGBUS from a mapped file cut shorter, as an error (see mapguard.h). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "datafmt/mapguard.h"

static __thread struct wfw_map_guard *armed;
static struct sigaction before;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int init_err;

/* A SIGBUS that is not ours: what would have happened without us. */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	if (before.sa_flags & SA_SIGINFO) {
		before.sa_sigaction(sig, si, uc);
		return;
	}
	if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
		before.sa_handler(sig);
		return;
	}
	/* Ignoring a fault would run the load again for ever. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct wfw_map_guard *g = armed;
	const char *at = si->si_addr;

	if (g && at >= g->lo && at < g->hi) {
		armed = NULL;
		siglongjmp(g->jb, 1);
	}
	pass_on(sig, si, uc);
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	if (sigaction(SIGBUS, &sa, &before))
		init_err = -errno;
}

int wfw_map_guard_init(void)
{
	pthread_once(&once, install);
	return init_err;
}

void wfw_map_guard_arm(struct wfw_map_guard *g, const void *map, size_t len)
{
	g->lo = map;
	g->hi = g->lo + len;
	armed = g;
}

void wfw_map_guard_disarm(void)
{
	armed = NULL;
}
