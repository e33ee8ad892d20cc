/* SPDX-License-Identifier: MIT */
/*
 * The SMI count of the measured CPU (doc/attribution.md, SMICnt): Intel's
 * MSR_SMI_COUNT (0x34) as the msr PMU's smi event, opened for the eBPF
 * programs to read at every record. Where it cannot be, why not (naming
 * /dev/cpu/N/msr when only that works): never a made-up zero.
 */
#ifndef ATTRIB_SMI_H
#define ATTRIB_SMI_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define ATTRIB_MSR_SMI_COUNT	0x34

struct attrib_smi {
	int fd;			/* the perf event */
	int cpu;
	int stand_in;		/* another msr PMU event than smi (tests) */
	char how[64];		/* "MSR_SMI_COUNT (perf msr/smi)" */
};

/*
 * Open the msr PMU's event `event` (NULL: "smi") on `cpu`, files taken
 * below root ("" for the running system; tests give a fake tree, which
 * has no PMU to open). Any other event is a stand-in for tests (msr/tsc
 * counts everywhere the msr PMU exists) and skips the vendor check.
 * 0, or -errno and why it is not available here (s->fd is then -1).
 */
/* event is a name an msr PMU could have (no '/', no leading '.'). */
bool attrib_smi_name_ok(const char *event);

int attrib_smi_open(struct attrib_smi *s, int cpu, const char *root,
		    const char *event, char *why, size_t len);
/* The count since the event was opened; 0 or -errno. */
int attrib_smi_read(struct attrib_smi *s, uint64_t *count);
void attrib_smi_close(struct attrib_smi *s);

#endif
