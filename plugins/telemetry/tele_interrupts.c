/* SPDX-License-Identifier: MIT */
/* telemetry provider "interrupts": /proc/interrupts, per IRQ and CPU. */
#include "config.h"

#include "tele_cputable.h"

#include <stdio.h>

TELE_CPUTABLE_PROVIDER(tele_interrupts, "interrupts", "interrupts",
	"IRQ:cpuN (IRQ as /proc/interrupts names it: LOC, 24, NMI), or ERR, MIS");
