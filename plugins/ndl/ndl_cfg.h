/* SPDX-License-Identifier: MIT */
/* ndl's options: their indexes in the table and the struct they land in. */
#ifndef NDL_CFG_H
#define NDL_CFG_H

#include <stdbool.h>
#include <stdint.h>

enum { NDL_OPT_IFNAME, NDL_OPT_PCI, NDL_OPT_QUEUE, NDL_OPT_PRIO,
       NDL_OPT_DELTA, NDL_OPT_POST, NDL_OPT_TRASH, NDL_OPT_TRASH_SIZE,
       NDL_OPT_DST, NDL_OPT_PHC, NDL_OPT_PHC_TOL, NDL_OPT_RAW,
       NDL_OPT_DUMP, NDL_OPT_DEVICE, NDL_OPT_NR };

/* Where the core puts the option values (ABI v2: ctx->cfg). */
struct ndl_cfg {
	const char *ifname, *pci;	/* NULL unless given */
	int64_t queue, prio;
	uint64_t etf_delta, post_wait;
	bool trash_cache;
	int64_t trash_size;
	const char *dst_mac, *phc_sync;
	uint64_t phc_tolerance;
	bool raw;
	const char *pci_dump;		/* NULL unless given */
	const char *device;
};

#endif /* NDL_CFG_H */
