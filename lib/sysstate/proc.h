/* SPDX-License-Identifier: MIT */
/*
 * Processes of this machine (procfs): does one that left something behind
 * (a result directory, a settings state file) still run? A pid alone
 * does not say: pids are reused, and a reboot ends every process.
 */
#ifndef WFW_SYSSTATE_PROC_H
#define WFW_SYSSTATE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Start time of process pid (clock ticks since boot), or 0 if none. */
unsigned long long wfw_proc_start(pid_t pid);
/* This boot's id (/proc/sys/kernel/random/boot_id), or "" if unknown. */
void wfw_boot_id(char *buf, size_t len);
/* Does process pid, started at `start` in boot `boot`, still run? */
bool wfw_proc_alive(pid_t pid, unsigned long long start, const char *boot);

#endif
