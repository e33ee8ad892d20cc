/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datafmt/metricdoc.h"

#include <stdbool.h>
#include <string.h>

/* Sources whose TBI/TAI/TIntr the kernel module takes (kmod/README.md). */
#define KMOD "tdt i210"

/*
 * sources: NULL for wult's text (every source that measures the metric as
 * wult does), else the sources, separated by spaces, that the text is for.
 * doc/timer.md, doc/hrt-measurements.md and kmod/README.md say why.
 */
static const struct {
	const char *name, *sources, *descr;
} docs[] = {
	{ "WakeLatency", NULL, "launch time to the CPU running again after idle" },
	{ "WakeLatency", "timer", "TAI - LTime: launch time to the measuring thread running again in user space after clock_nanosleep() returned (the interrupt, the idle exit, the syscall's return and the switch back to the thread)" },
	{ "WakeLatency", "hrt", "TAI - LTime: launch time to the idle exit (cpu_idle tracepoint, in eBPF); no syscall or switch to a task in it" },
	{ "WakeLatency", KMOD, "TAI - LTime: launch time to the idle exit (the kernel module's cpu_idle probe), less the measured timestamping cost" },
	{ "WakeLatencyRaw", NULL, "WakeLatency before subtracting the timestamping cost" },
	{ "IntrLatency", NULL, "launch time to the interrupt handler running" },
	{ "IntrLatency", "hrt", "TIntr - LTime: launch time to the timer's callback running (HRTIMER softirq, in eBPF)" },
	{ "IntrLatency", KMOD, "TIntr - LTime: launch time to the device's interrupt handler running (kernel module), less the measured timestamping cost" },
	{ "IntrLatencyRaw", NULL, "IntrLatency before subtracting the timestamping cost" },
	{ "SilentTime", NULL, "time idle before the launch time" },
	{ "SilentTime", "timer", "LTime - TBI, TBI taken in user space before clock_nanosleep(): an upper bound of the time idle before the launch time" },
	{ "SilentTime", "hrt", "LTime - TBI: time idle before the launch time, TBI at the last idle entry (cpu_idle tracepoint, in eBPF)" },
	{ "SilentTime", KMOD, "LTime - TBI: time idle before the launch time, TBI at the last idle entry (the kernel module's cpu_idle probe)" },
	{ "LDist", NULL, "launch distance: how far ahead the event was armed" },
	{ "LTime", NULL, "launch time: when the armed event was due" },
	{ "LTime", "timer", "launch time: clock_nanosleep()'s deadline (CLOCK_MONOTONIC)" },
	{ "LTime", "hrt", "launch time: the eBPF timer's expiry (CLOCK_MONOTONIC)" },
	{ "LTime", "tdt", "launch time: the TSC deadline armed (kernel module)" },
	{ "LTime", "i210", "launch time: the NIC's TT0 target (NIC time)" },
	{ "TBI", NULL, "time before idle: when the CPU went idle" },
	{ "TBI", "timer", "CLOCK_MONOTONIC in user space right before clock_nanosleep(), not the idle entry" },
	{ "TBI", "hrt", "time before idle: the last idle entry before the launch (cpu_idle tracepoint, in eBPF)" },
	{ "TBI", KMOD, "time before idle: the last idle entry before the launch (the kernel module's cpu_idle probe)" },
	{ "TAI", NULL, "time after idle: when the CPU ran again after idle" },
	{ "TAI", "timer", "CLOCK_MONOTONIC in user space as soon as clock_nanosleep() returned to the thread, not the idle exit" },
	{ "TAI", "hrt", "time after idle: the idle exit after the timer's callback (cpu_idle tracepoint, in eBPF)" },
	{ "TAI", KMOD, "time after idle: the first idle exit at or after the launch time (the kernel module's cpu_idle probe)" },
	{ "TIntr", NULL, "when the interrupt handler ran" },
	{ "TIntr", "hrt", "when the timer's callback ran (HRTIMER softirq, in eBPF)" },
	{ "TIntr", KMOD, "when the device's interrupt handler ran (kernel module)" },
	{ "AIOverhead", NULL, "timestamping cost after the idle exit, subtracted from IntrLatency when interrupts were off" },
	{ "IntrOverhead", NULL, "timestamping cost in the interrupt handler, subtracted from WakeLatency when interrupts were on" },
	{ "RTD", NULL, "NIC DMA read round-trip delay" },
	{ "WarmupDelay", NULL, "NIC warm-up delay" },
	{ "LatchDelay", NULL, "NIC time-latch delay" },
	{ "CPUFreq", NULL, "CPU frequency while awake" },
	{ "ReqCState", NULL, "the C-state the kernel requested" },
	{ "ReqCState", "timer", "the one C-state entered during the sleep, from the cpuidle usage counters read after it (none, several or unknown otherwise)" },
	{ "ReqCState", "hrt", "the C-state the governor asked for at the last idle entry before the launch" },
	{ "SMICnt", NULL, "SMIs during the datapoint" },
	{ "NMICnt", NULL, "NMIs during the datapoint" },
	{ "IntrOff", NULL, "whether interrupts were off on wake-up" },
	{ "TotCyc", NULL, "TSC cycles from the idle entry to the idle exit" },
	{ "CC0Cyc", NULL, "cycles in C0 (MPERF) from the idle entry to the idle exit" },
	{ "APERF", NULL, "APERF cycles from the idle entry to the idle exit" },
	{ "SoftIRQCnt", "hrt", "softirqs other than the timer's own from the launch time to the idle exit" },
	{ "Disturbed", "hrt", "True when SoftIRQCnt or NMICnt is above 0" },
	/* the attrib annotator's: parts of the latency on the measured CPU */
	{ "IRQTime", NULL, "time in hard IRQ handlers within the latency (attrib, eBPF)" },
	{ "SoftIRQTime", NULL, "time in softirqs within the latency (attrib, eBPF)" },
	{ "NMITime", NULL, "time in NMI handlers within the latency (attrib, eBPF)" },
	{ "ThreadTime", NULL, "time other tasks ran within the latency (attrib, eBPF)" },
	{ "ExitTime", NULL, "the rest of the latency: the idle exit and what the tracepoints cannot see (attrib)" },
	{ "IRQCnt", NULL, "hard IRQs within the latency (attrib)" },
	{ "SWIRQCnt", NULL, "softirqs within the latency (attrib)" },
	{ "Cause", NULL, "the largest single contributor to the latency: irq:N NAME, softirq:VECTOR, thread or idle-exit (attrib)" },
	{ "CauseTime", NULL, "the time of the contributor Cause names (attrib)" },
	{ "CausePID", NULL, "the pid of the thread Cause names: an identifier, not a measure (attrib)" },
};

#define N_DOCS (sizeof(docs) / sizeof(docs[0]))

/* Is `source` one of the space-separated words of `list`? */
static bool listed(const char *list, const char *source)
{
	size_t n = strlen(source);

	for (const char *p = list; (p = strstr(p, source)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* wult's text for the names the table lists by pattern. */
static const char *pattern_descr(const char *name)
{
	size_t n = strlen(name);

	if (n > 1 && name[n - 1] == '%')
		return "C-state residency, % of the time";
	if (n > 3 && !strcmp(name + n - 3, "Cyc"))
		return "cycles in the C-state from the idle entry to the idle exit";
	return "";
}

const char *wfw_metric_descr(const char *name, const char *source)
{
	const char *wult = NULL;

	for (size_t i = 0; i < N_DOCS; i++) {
		if (strcmp(name, docs[i].name))
			continue;
		if (!docs[i].sources)
			wult = docs[i].descr;
		else if (source && *source && listed(docs[i].sources, source))
			return docs[i].descr;
	}
	return wult ? wult : pattern_descr(name);
}
