/* SPDX-License-Identifier: MIT */
/*
 * The SMI count of the measured CPU (doc/attribution.md, SMICnt): Intel's
 * MSR_SMI_COUNT (0x34), read through /dev/cpu/N/msr, or the msr PMU's smi
 * event (the same MSR) where the msr driver is missing. Where neither
 * works, why not: never a made-up zero.
 */
#ifndef ATTRIB_SMI_H
#define ATTRIB_SMI_H

#include <stddef.h>
#include <stdint.h>

#define ATTRIB_MSR_SMI_COUNT	0x34

struct attrib_smi {
	int fd;			/* /dev/cpu/N/msr or the perf event */
	int cpu;
	int perf;		/* fd is a perf event */
	char how[64];		/* "MSR_SMI_COUNT (/dev/cpu/1/msr)" */
};

/*
 * Open the count of `cpu`, files taken below root ("" for the running
 * system; tests give a fake tree). 0, or -errno and why it is not
 * available here (s->fd is then -1).
 */
int attrib_smi_open(struct attrib_smi *s, int cpu, const char *root,
		    char *why, size_t len);
/* SMIs since boot (the MSR counts modulo 2^32); 0 or -errno. */
int attrib_smi_read(struct attrib_smi *s, uint64_t *count);
void attrib_smi_close(struct attrib_smi *s);

#endif
