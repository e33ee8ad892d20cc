/* SPDX-License-Identifier: MIT */
/*
 * The one place the CSV reader's SIMD level is chosen (csvwin.h): the
 * widest the build has and the CPU runs, unless wfw_csv_force_level (tests)
 * or WULTFW_CSV_SIMD (users comparing levels) asks for another.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/csvwin.h"

#define LEVEL_ENV	"WULTFW_CSV_SIMD"

int wfw_csv_force_level = -1;

static const char *const level_names[WFW_CSV_NLEVELS] = {
	[WFW_CSV_SCALAR] = "scalar", [WFW_CSV_SSE2] = "sse2", [WFW_CSV_AVX2] = "avx2",
};

const char *wfw_csv_level_name(enum wfw_csv_level lvl)
{
	return (unsigned)lvl < WFW_CSV_NLEVELS ? level_names[lvl] : "unknown";
}

const struct wfw_win_rows *wfw_win_rows_level(enum wfw_csv_level lvl)
{
	switch (lvl) {
	case WFW_CSV_SCALAR:
		return &wfw_win_rows_scalar;
#ifdef __SSE2__
	case WFW_CSV_SSE2:
		return &wfw_win_rows_sse2;
#endif
#if defined(__x86_64__) && defined(__GNUC__)
	case WFW_CSV_AVX2:
		return __builtin_cpu_supports("avx2") ? &wfw_win_rows_avx2 : NULL;
#endif
	default:
		return NULL;
	}
}

static int env_level = -1;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

/*
 * WULTFW_CSV_SIMD, once a process: a level's name, or a warning and the
 * best level. The value is not echoed: it may hold anything.
 */
static void read_env(void)
{
	const char *v = getenv(LEVEL_ENV);

	if (!v || !*v)
		return;
	for (int l = 0; l < WFW_CSV_NLEVELS; l++) {
		if (strcmp(v, level_names[l]))
			continue;
		if (wfw_win_rows_level((enum wfw_csv_level)l))
			env_level = l;
		else
			fprintf(stderr, "wultfw: warning: %s=%s: this CPU or build lacks it; using the best level\n",
				LEVEL_ENV, level_names[l]);
		return;
	}
	fprintf(stderr, "wultfw: warning: %s: not one of scalar, sse2, avx2; ignored\n",
		LEVEL_ENV);
}

const struct wfw_win_rows *wfw_win_rows(void)
{
	const struct wfw_win_rows *rows = NULL;
	int lvl = wfw_csv_force_level;

	pthread_once(&env_once, read_env);
	if (lvl < 0)
		lvl = env_level;
	if (lvl >= 0 && lvl < WFW_CSV_NLEVELS)
		rows = wfw_win_rows_level((enum wfw_csv_level)lvl);
	for (lvl = WFW_CSV_NLEVELS - 1; !rows; lvl--)
		rows = wfw_win_rows_level((enum wfw_csv_level)lvl);
	return rows;
}
