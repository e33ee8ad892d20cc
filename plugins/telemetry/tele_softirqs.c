/* SPDX-License-Identifier: MIT */
/* telemetry provider "softirqs": /proc/softirqs, per softirq and CPU. */
#include "config.h"

#include "tele_cputable.h"

#include <stdio.h>

TELE_CPUTABLE_PROVIDER(tele_softirqs, "softirqs", "softirqs",
	"NAME:cpuN (NAME as /proc/softirqs names it: TIMER, NET_RX, SCHED)");
