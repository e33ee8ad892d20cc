/* SPDX-License-Identifier: MIT */
/*
 * Which I210 ndl uses, with exact reasons when there is none: by network
 * interface, by PCI address, or the only I210 driven by igb. Facts come
 * from lib/pcidisc (libpci, or an `lspci -xxx` dump paired with a sysfs
 * tree in tests) and sysfs.
 */
#ifndef NDL_NIC_H
#define NDL_NIC_H

#include <stddef.h>

#include "pcidisc/pcidisc.h"

struct ndl_nic_req {
	const char *ifname;	/* NULL: not given */
	const char *pci;	/* NULL: not given */
	const char *dump;	/* lspci -xxx dump, NULL: this system */
	const char *sysfs;	/* "/sys" */
};

/*
 * Fill *nic with an I210 driven by igb that has an interface, or return
 * -ENODEV/-EINVAL with the reason in why. Up/down is not checked here.
 */
int ndl_nic_pick(const struct ndl_nic_req *r, struct wfw_nic *nic, char *why,
		 size_t len);

/* TX queues in use (sysfs class/net/IF/queues/tx-N), or -errno. */
int ndl_nic_txqueues(const char *sysfs, const char *ifname);
/* MAC address from sysfs class/net/IF/address: 0 or -errno. */
int ndl_nic_mac(const char *sysfs, const char *ifname, unsigned char mac[6]);
/* "aa:bb:cc:dd:ee:ff" -> mac: 0 or -EINVAL. */
int ndl_parse_mac(const char *s, unsigned char mac[6]);

#endif
