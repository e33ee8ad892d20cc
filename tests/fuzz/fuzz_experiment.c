// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the experiment-file loader (core/experiment.c):
 * the input becomes a memfd file that wfw_plan_load() parses and checks,
 * loading the plugins it names from this build tree (FUZZ_PLUGIN_PATH),
 * as the unit tests do. Nothing is run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "plan.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * libFuzzer keeps reading the coverage counters of every instrumented
 * module it has seen: a plugin that wfw_plan_free() unloads would leave it
 * reading unmapped memory. Pin each plugin .so in the .libs directory of
 * each path entry (the files lt_dlopen loads): unloading then never unmaps it.
 */
static void pin_plugins(const char *path)
{
	char *dirs = strdup(path), *save = NULL, pat[4096];

	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		glob_t g;

		snprintf(pat, sizeof(pat), "%s/.libs/*.so", d);
		if (glob(pat, 0, NULL, &g))
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++)
			dlopen(g.gl_pathv[i], RTLD_NOW | RTLD_NODELETE);
		globfree(&g);
	}
	free(dirs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	setenv("WULTFW_PLUGIN_PATH", FUZZ_PLUGIN_PATH, 0);
	pin_plugins(getenv("WULTFW_PLUGIN_PATH"));
	if (wfw_plugins_init()) {
		fprintf(stderr, "fuzz_experiment: cannot initialise the plugin loader\n");
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wfw_cfgerr errs = { 0 };
	struct wfw_plan plan;
	char path[64];
	int fd = memfd_create("exp.cfg", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		wfw_plan_load(&plan, path, NULL, &errs);
		wfw_plan_free(&plan);
		wfw_cfgerr_free(&errs);
	}
	close(fd);
	return 0;
}
