/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datafmt/wultunits.h"

#include <string.h>

static const struct {
	const char *name, *unit;
} wult_units[] = {
	{ "WakeLatency", "us" }, { "WakeLatencyRaw", "us" },
	{ "IntrLatency", "us" }, { "IntrLatencyRaw", "us" },
	{ "SilentTime", "us" }, { "LDist", "us" }, { "RTD", "us" },
	{ "WarmupDelay", "us" }, { "LatchDelay", "us" },
	{ "CPUFreq", "MHz" },
};

const char *wfw_wult_unit(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(wult_units) / sizeof(wult_units[0]); i++)
		if (!strcmp(name, wult_units[i].name))
			return wult_units[i].unit;
	/* wult's C-state residencies: CC0%, CC6%, PC6%, MC6%, ... */
	return n > 1 && name[n - 1] == '%' ? "%" : "";
}
