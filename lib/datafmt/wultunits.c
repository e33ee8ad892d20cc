/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datafmt/wultunits.h"

#include <string.h>

static const struct {
	const char *name, *unit, *descr;
} wult_units[] = {
	{ "WakeLatency", "us", "launch time to the CPU running again after idle" },
	{ "WakeLatencyRaw", "us", "WakeLatency before subtracting the timestamping cost" },
	{ "IntrLatency", "us", "launch time to the interrupt handler running" },
	{ "IntrLatencyRaw", "us", "IntrLatency before subtracting the timestamping cost" },
	{ "SilentTime", "us", "time idle before the launch time" },
	{ "LDist", "us", "launch distance: how far ahead the event was armed" },
	{ "RTD", "us", "NIC DMA read round-trip delay" },
	{ "WarmupDelay", "us", "NIC warm-up delay" },
	{ "LatchDelay", "us", "NIC time-latch delay" },
	{ "CPUFreq", "MHz", "CPU frequency while awake" },
	{ "ReqCState", "", "the C-state the kernel requested" },
	{ "SMICnt", "", "SMIs during the datapoint" },
	{ "NMICnt", "", "NMIs during the datapoint" },
	{ "IntrOff", "", "whether interrupts were off on wake-up" },
};

#define N_UNITS (sizeof(wult_units) / sizeof(wult_units[0]))

const char *wfw_wult_descr(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < N_UNITS; i++)
		if (!strcmp(name, wult_units[i].name))
			return wult_units[i].descr;
	return n > 1 && name[n - 1] == '%' ? "C-state residency, % of the time" : "";
}

const char *wfw_wult_unit(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < N_UNITS; i++)
		if (!strcmp(name, wult_units[i].name))
			return wult_units[i].unit;
	/* wult's C-state residencies: CC0%, CC6%, PC6%, MC6%, ... */
	return n > 1 && name[n - 1] == '%' ? "%" : "";
}

bool wfw_wult_is_text(const char *name)
{
	return !strcmp(name, "ReqCState");
}
