/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * wultfw_ndl.ko <-> user space (plugins/ndl): the NIC side of the ndl
 * method on an Intel I210 that igb keeps driving.
 *
 * Usage: open /dev/wultfw_ndl (root, one opener at a time),
 * WULTFW_NDL_IOC_ATTACH (the NIC by interface name or PCI address, and the
 * TX queue whose descriptor write-back coalescing is turned off),
 * WULTFW_NDL_IOC_RTD as often as needed, WULTFW_NDL_IOC_DETACH or close().
 * Detaching (also by close(), module unload, or the interface going down or
 * away) restores the queue's saved TXDCTL.WTHRESH.
 */
#ifndef _UAPI_WULTFW_NDL_H
#define _UAPI_WULTFW_NDL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define WULTFW_NDL_DEVNAME	"wultfw_ndl"
#define WULTFW_NDL_NAME_LEN	16	/* IFNAMSIZ */
#define WULTFW_NDL_PCI_LEN	16	/* "0000:01:00.0" + NUL */
#define WULTFW_NDL_WHY_LEN	128

/*
 * Exactly one of ifname and pci is non-empty; both NUL-terminated; the
 * reserved fields are 0. queue: 0..3 (I210), 0..1 (I211).
 */
struct wultfw_ndl_attach {
	__u32 size;				/* in: sizeof(this struct) */
	__u32 queue;				/* in: TX queue */
	char ifname[WULTFW_NDL_NAME_LEN];	/* in: "eth1", or "" */
	char pci[WULTFW_NDL_PCI_LEN];		/* in: "0000:01:00.0", or "" */
	__u32 reserved[4];			/* in: 0 */
	/* out */
	char ifname_out[WULTFW_NDL_NAME_LEN];	/* the interface found */
	char pci_out[WULTFW_NDL_PCI_LEN];	/* and its PCI address */
	__u32 device;				/* PCI device ID */
	__u32 txdctl_saved;			/* TXDCTL(queue) before */
	char why[WULTFW_NDL_WHY_LEN];		/* why the attach failed */
};

/*
 * RTD_WTHRESH_RESET: WTHRESH was found non-zero again (igb reconfigured
 * the ring since the last read) and was cleared again: coalescing may have
 * been on for the packet this RTD belongs to.
 */
#define WULTFW_NDL_RTD_WTHRESH_RESET	(1u << 0)

struct wultfw_ndl_rtd {
	__u32 size;		/* in: sizeof(this struct) */
	__u32 flags;		/* out: WULTFW_NDL_RTD_* */
	__u32 raw;		/* out: RR2DCDELAY as read (16 ns units) */
	__u32 reserved;		/* out: 0 */
	__u64 rtd_ns;		/* out: raw * 16 */
};

#define WULTFW_NDL_IOC_MAGIC	0xd7
#define WULTFW_NDL_IOC_ATTACH	_IOWR(WULTFW_NDL_IOC_MAGIC, 1, struct wultfw_ndl_attach)
/* Reads RR2DCDELAY, which clears it: the longest DMA read since the last. */
#define WULTFW_NDL_IOC_RTD	_IOWR(WULTFW_NDL_IOC_MAGIC, 2, struct wultfw_ndl_rtd)
#define WULTFW_NDL_IOC_DETACH	_IO(WULTFW_NDL_IOC_MAGIC, 3)

#endif /* _UAPI_WULTFW_NDL_H */
