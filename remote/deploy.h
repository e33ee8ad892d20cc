/* SPDX-License-Identifier: MIT */
/*
 * Setting up a SUT (remote_deploy.c): the kernel modules of
 * kmod/modules.list built for a kernel and installed, for `wultfw deploy`
 * here or on each SUT through -H.
 */
#ifndef WFW_REMOTE_DEPLOY_H
#define WFW_REMOTE_DEPLOY_H

#include <stdbool.h>
#include <stdio.h>

struct wfw_deploy {
	const char *kdir;	/* kernel build directory; NULL: the running kernel's */
	const char *src;	/* the module sources */
	const char *root;	/* install under this instead of /; NULL: / */
	bool dry;		/* check and print the commands only */
};

/* Build and install; the exit status: 0, or 1 after saying why. */
int wfw_deploy(const struct wfw_deploy *d);
/* "  NAME          WHAT", a line per module of kmod/modules.list. */
void wfw_deploy_list_modules(FILE *f);

#endif
