/* SPDX-License-Identifier: MIT */
/*
 * Discovery of Intel I210/I211 NICs through libpci, from the running system
 * (sysfs) or from an `lspci -xxx` dump (libpci's dump access method), so
 * it works and is testable without the hardware.
 *
 * From config space (live or dump): address, device ID, PCIe ASPM control
 * of the NIC's link and of the port above it. From sysfs only (absent for
 * dumps, and said so): NUMA node, bound driver, network interface, up/down.
 */
#ifndef WFW_PCIDISC_H
#define WFW_PCIDISC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WFW_PCIDISC_MAX	16
#define WFW_PCIDISC_IDS	"0x1533 0x1536 0x1537 0x1538 0x1539 0x157B 0x157C"

/* ASPM control (Link Control bits 1:0) or why it is not known. */
#define WFW_ASPM_UNKNOWN	-1	/* config space not readable/in dump */
#define WFW_ASPM_NO_PCIE	-2	/* no PCI Express capability */
#define WFW_ASPM_NO_PORT	-3	/* no upstream port found */

struct wfw_nic {
	char addr[16];		/* "0000:01:00.0" */
	uint16_t vendor, device;
	const char *model;	/* "I210", "I211"; NULL: not one of ours */
	bool from_dump;		/* the sysfs-only fields below are absent */
	int numa_node;		/* -1: unknown or no NUMA */
	char driver[32];	/* "" none bound */
	char netdev[32];	/* "" none */
	int if_up;		/* 1 up, 0 down, -1 unknown / no interface */
	int aspm;		/* 0..3 or WFW_ASPM_* */
	char up_addr[16];	/* upstream port, "" unknown */
	int up_aspm;
};

struct wfw_pcidisc_opts {
	const char *dump;	/* lspci -xxx file, NULL: this system */
	/* sysfs root, NULL: "/sys". Tests pair a dump with a fake tree. */
	const char *sysfs;
};

/* Model name of an I210/I211 device ID, NULL if it is not one. */
const char *wfw_pcidisc_model(uint16_t vendor, uint16_t device);
/* "disabled", "L0s", "L1", "L0s L1", or why unknown. */
const char *wfw_pcidisc_aspm_str(int aspm);

/*
 * Every I210/I211 (at most max). 0 and *n, or a negative errno with the
 * reason in why (unreadable or malformed dump, libpci failure).
 */
int wfw_pcidisc_find(const struct wfw_pcidisc_opts *o, struct wfw_nic *nics,
		     size_t max, size_t *n, char *why, size_t len);

/*
 * The device at addr ("0000:01:00.0" or "01:00.0"), I210 or not: 0, or
 * -ENODEV "no PCI device at ..." (nic->model NULL: not an I210/I211).
 */
int wfw_pcidisc_get(const struct wfw_pcidisc_opts *o, const char *addr,
		    struct wfw_nic *nic, char *why, size_t len);

/* `wultfw scan` NIC section: a table of the NICs found. 0 or -errno. */
int wfw_scan_nics(FILE *out, const char *pci_dump);

#endif
