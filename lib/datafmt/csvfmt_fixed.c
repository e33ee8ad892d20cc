/* SPDX-License-Identifier: MIT */
/* The digit table of csvfmt_fixed.h. */
#include "config.h"

#include <pthread.h>

#include "datafmt/csvfmt_fixed.h"

uint32_t wfw_digits4[10000];

static void fill_digits4(void)
{
	for (unsigned i = 0; i < 10000; i++) {
		char d[4] = { (char)('0' + i / 1000), (char)('0' + i / 100 % 10),
			      (char)('0' + i / 10 % 10), (char)('0' + i % 10) };

		memcpy(&wfw_digits4[i], d, 4);
	}
}

void wfw_fixed_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, fill_digits4);
}
