/* SPDX-License-Identifier: GPL-2.0 */
/* Per-datapoint hardware/kernel counters of the measured CPU. */
#ifndef _WULTFW_CTRS_H
#define _WULTFW_CTRS_H

#include <linux/types.h>
#include "uapi/wultfw/wultfw_ioctl.h"

struct wultfw_ctrs {
	u32 present;			/* bit per enum wultfw_ctr */
	u32 msr[WULTFW_NR_CTRS];	/* MSR address, 0 if not an MSR */
};

/* Find which counters @cpu has (process context, may sleep). */
void wultfw_ctrs_probe(struct wultfw_ctrs *ctrs, unsigned int cpu);
/* Snapshot the present counters of this CPU; absent slots are set to 0. */
void wultfw_ctrs_read(const struct wultfw_ctrs *ctrs, u64 *vals);

#endif /* _WULTFW_CTRS_H */
