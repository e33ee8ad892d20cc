/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "units/wultunits.h"

#include <string.h>

/*
 * wult's metrics, and the raw ones as wultfw's sinks write them (the
 * schemas of lib/kside, plugins/timer, plugins/attrib and plugins/skid):
 * a CSV of either has no units.
 */
static const struct {
	const char *name, *unit;
} wult_units[] = {
	{ "WakeLatency", "us" }, { "WakeLatencyRaw", "us" },
	{ "IntrLatency", "us" }, { "IntrLatencyRaw", "us" },
	{ "SilentTime", "us" }, { "LDist", "us" },
	{ "RTD", "us" }, { "WarmupDelay", "us" }, { "LatchDelay", "us" },
	{ "AIOverhead", "us" }, { "IntrOverhead", "us" },
	{ "LTime", "ns" }, { "TBI", "ns" }, { "TAI", "ns" }, { "TIntr", "ns" },
	{ "TotCyc", "cycles" }, { "CC0Cyc", "cycles" }, { "APERF", "cycles" },
	{ "CPUFreq", "MHz" },
	/* the attrib annotator's (doc/attribution.md) */
	{ "IRQTime", "us" }, { "SoftIRQTime", "us" }, { "NMITime", "us" },
	{ "ThreadTime", "us" }, { "ExitTime", "us" }, { "CauseTime", "us" },
	/*
	 * the skid sampler's, as its schema declares them (its Time is not
	 * here: telemetry's Time is in ns, skid's in s)
	 */
	{ "Skid", "instructions" }, { "SkidBytes", "bytes" },
};

#define N_UNITS (sizeof(wult_units) / sizeof(wult_units[0]))

const char *wfw_wult_unit(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < N_UNITS; i++)
		if (!strcmp(name, wult_units[i].name))
			return wult_units[i].unit;
	/* wult's C-state residencies: CC0%, CC6%, PC6%, MC6%, ... */
	if (n > 1 && name[n - 1] == '%')
		return "%";
	/* and their cycles: CC6Cyc, PC6Cyc, ... */
	return n > 3 && !strcmp(name + n - 3, "Cyc") ? "cycles" : "";
}

bool wfw_wult_is_text(const char *name)
{
	return !strcmp(name, "ReqCState");
}

const char *wfw_metric_unit(const char *name, const char *schema_unit)
{
	return schema_unit && *schema_unit ? schema_unit : wfw_wult_unit(name);
}
