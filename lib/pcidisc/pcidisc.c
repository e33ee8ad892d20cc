/* SPDX-License-Identifier: MIT */
/* I210/I211 discovery through libpci; see pcidisc.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pci/pci.h>

#include "pcidisc/pcidisc.h"
#include "sysstate/sysfile.h"

static const struct {
	uint16_t id;
	const char *model;
} wfw_pcidisc_ids[] = {
	{ 0x1533, "I210" }, { 0x1536, "I210" }, { 0x1537, "I210" },
	{ 0x1538, "I210" }, { 0x1539, "I211" }, { 0x157B, "I210" },
	{ 0x157C, "I210" },
};

const char *wfw_pcidisc_model(uint16_t vendor, uint16_t device)
{
	size_t i;

	if (vendor != 0x8086)
		return NULL;
	for (i = 0; i < sizeof(wfw_pcidisc_ids) / sizeof(wfw_pcidisc_ids[0]); i++)
		if (wfw_pcidisc_ids[i].id == device)
			return wfw_pcidisc_ids[i].model;
	return NULL;
}

const char *wfw_pcidisc_aspm_str(int aspm)
{
	switch (aspm) {
	case 0: return "disabled";
	case 1: return "L0s";
	case 2: return "L1";
	case 3: return "L0s L1";
	case WFW_ASPM_NO_PCIE: return "n/a (no PCIe capability)";
	case WFW_ASPM_NO_PORT: return "unknown (no upstream port found)";
	default: return "unknown (config space not readable: run as root, "
			"or the dump lacks it)";
	}
}

/*
 * libpci reports fatal errors (a malformed dump, a missing file) through
 * pacc->error, which must not return: jump back to the caller instead.
 */
static __thread jmp_buf *wfw_pcidisc_jmp;
static __thread char wfw_pcidisc_err[256];

static void wfw_pcidisc_error(char *msg, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
static void wfw_pcidisc_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(wfw_pcidisc_err, sizeof(wfw_pcidisc_err), msg, ap);
	va_end(ap);
	longjmp(*wfw_pcidisc_jmp, 1);
}

static void wfw_pcidisc_quiet(char *msg, ...)
{
	(void)msg;
}

/* ASPM control bits of d's link, or WFW_ASPM_*. */
static int wfw_pcidisc_aspm(struct pci_dev *d)
{
	struct pci_cap *cap;
	u8 probe[2];

	/* Only the first 64 bytes: no capabilities to read (non-root, dump). */
	if (!pci_read_block(d, 0x40, probe, sizeof(probe)))
		return WFW_ASPM_UNKNOWN;
	cap = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	if (!cap)
		return WFW_ASPM_NO_PCIE;
	if (!pci_read_block(d, cap->addr + PCI_EXP_LNKCTL, probe, 2))
		return WFW_ASPM_UNKNOWN;
	return pci_read_word(d, cap->addr + PCI_EXP_LNKCTL) & PCI_EXP_LNKCTL_ASPM;
}

/* The bridge whose secondary bus is d's bus (same domain). */
static struct pci_dev *wfw_pcidisc_upstream(struct pci_access *pacc,
					    struct pci_dev *d)
{
	struct pci_dev *b;
	u8 sec;

	for (b = pacc->devices; b; b = b->next) {
		if (b == d || b->domain != d->domain)
			continue;
		if ((pci_read_byte(b, PCI_HEADER_TYPE) & 0x7f) !=
		    PCI_HEADER_TYPE_BRIDGE)
			continue;
		if (!pci_read_block(b, PCI_SECONDARY_BUS, &sec, 1))
			continue;
		if (sec == d->bus)
			return b;
	}
	return NULL;
}

static void wfw_pcidisc_fmt_addr(struct pci_dev *d, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%d", (unsigned int)d->domain,
		 d->bus, d->dev, d->func);
}

/* NUMA node, driver, netdev and its state from sysfs. */
static void wfw_pcidisc_sysfs(const char *root, struct wfw_nic *nic)
{
	char path[PATH_MAX], link[PATH_MAX], buf[64];
	struct dirent *de;
	ssize_t l;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/numa_node", root,
		 nic->addr);
	if (!wfw_read_line(path, buf, sizeof(buf)))
		nic->numa_node = atoi(buf);

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/driver", root,
		 nic->addr);
	l = readlink(path, link, sizeof(link) - 1);
	if (l > 0) {
		const char *base;

		link[l] = '\0';
		base = strrchr(link, '/');
		snprintf(nic->driver, sizeof(nic->driver), "%s",
			 base ? base + 1 : link);
	}

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/net", root,
		 nic->addr);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(nic->netdev, sizeof(nic->netdev), "%s", de->d_name);
		break;
	}
	closedir(dir);
	if (!nic->netdev[0])
		return;
	/* IFF_UP (0x1) in flags: administratively up. */
	snprintf(path, sizeof(path), "%s/class/net/%s/flags", root, nic->netdev);
	if (!wfw_read_line(path, buf, sizeof(buf)))
		nic->if_up = (strtoul(buf, NULL, 0) & 0x1) ? 1 : 0;
}

static void wfw_pcidisc_fill(const struct wfw_pcidisc_opts *o,
			     struct pci_access *pacc, struct pci_dev *d,
			     struct wfw_nic *nic)
{
	struct pci_dev *up;

	memset(nic, 0, sizeof(*nic));
	wfw_pcidisc_fmt_addr(d, nic->addr, sizeof(nic->addr));
	nic->vendor = d->vendor_id;
	nic->device = d->device_id;
	nic->model = wfw_pcidisc_model(d->vendor_id, d->device_id);
	/* A dump has no sysfs, unless a test pairs it with a fake one. */
	nic->from_dump = o->dump && !o->sysfs;
	nic->numa_node = -1;
	nic->if_up = -1;
	nic->aspm = wfw_pcidisc_aspm(d);
	up = wfw_pcidisc_upstream(pacc, d);
	if (up) {
		wfw_pcidisc_fmt_addr(up, nic->up_addr, sizeof(nic->up_addr));
		nic->up_aspm = wfw_pcidisc_aspm(up);
	} else {
		nic->up_aspm = WFW_ASPM_NO_PORT;
	}
	if (!nic->from_dump)
		wfw_pcidisc_sysfs(wfw_sysfs(o->sysfs), nic);
}

typedef int (*wfw_pcidisc_visit)(const struct wfw_pcidisc_opts *o,
				 struct pci_access *pacc, struct pci_dev *d,
				 void *arg);

/* Run visit() on every device; libpci errors become -EINVAL + why. */
static int wfw_pcidisc_walk(const struct wfw_pcidisc_opts *o,
			    wfw_pcidisc_visit visit, void *arg,
			    char *why, size_t len)
{
	struct pci_access *volatile pacc = NULL;
	jmp_buf jb, jb2;
	volatile int ret = 0;

	if (o->dump && access(o->dump, R_OK)) {
		int err = errno;

		snprintf(why, len, "cannot read PCI dump %s: %s", o->dump,
			 strerror(err));
		return -err;
	}
	pacc = pci_alloc();
	if (!pacc) {
		snprintf(why, len, "libpci: out of memory");
		return -ENOMEM;
	}
	wfw_pcidisc_jmp = &jb;
	if (setjmp(jb)) {
		snprintf(why, len, "%s%s: %s", o->dump ? "PCI dump " : "libpci",
			 o->dump ? o->dump : "", wfw_pcidisc_err);
		/* Free what was parsed; a second error only leaks. */
		wfw_pcidisc_jmp = &jb2;
		if (!setjmp(jb2))
			pci_cleanup(pacc);
		wfw_pcidisc_jmp = NULL;
		return -EINVAL;
	}
	pacc->error = wfw_pcidisc_error;
	pacc->warning = wfw_pcidisc_quiet;
	pacc->debug = wfw_pcidisc_quiet;
	if (o->dump) {
		pacc->method = PCI_ACCESS_DUMP;
		pci_set_param(pacc, "dump.name", (char *)o->dump);
	}
	pci_init(pacc);
	pci_scan_bus(pacc);
	for (struct pci_dev *d = pacc->devices; d; d = d->next) {
		pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CAPS);
		ret = visit(o, pacc, d, arg);
		if (ret)
			break;
	}
	pci_cleanup(pacc);
	wfw_pcidisc_jmp = NULL;
	return ret < 0 ? ret : 0;
}

struct wfw_pcidisc_list {
	struct wfw_nic *nics;
	size_t max, n;
};

static int wfw_pcidisc_add(const struct wfw_pcidisc_opts *o,
			   struct pci_access *pacc, struct pci_dev *d, void *arg)
{
	struct wfw_pcidisc_list *l = arg;

	if (!wfw_pcidisc_model(d->vendor_id, d->device_id) || l->n >= l->max)
		return 0;
	wfw_pcidisc_fill(o, pacc, d, &l->nics[l->n++]);
	return 0;
}

/* libpci lists devices newest first; users expect address order. */
static int wfw_pcidisc_cmp(const void *a, const void *b)
{
	return strcmp(((const struct wfw_nic *)a)->addr,
		      ((const struct wfw_nic *)b)->addr);
}

int wfw_pcidisc_find(const struct wfw_pcidisc_opts *o, struct wfw_nic *nics,
		     size_t max, size_t *n, char *why, size_t len)
{
	struct wfw_pcidisc_list l = { nics, max, 0 };
	int err;

	*n = 0;
	err = wfw_pcidisc_walk(o, wfw_pcidisc_add, &l, why, len);
	if (err)
		return err;
	qsort(nics, l.n, sizeof(*nics), wfw_pcidisc_cmp);
	*n = l.n;
	return 0;
}

struct wfw_pcidisc_one {
	unsigned int dom, bus, dev, fn;
	struct wfw_nic *nic;
	bool found;
};

static int wfw_pcidisc_match(const struct wfw_pcidisc_opts *o,
			     struct pci_access *pacc, struct pci_dev *d,
			     void *arg)
{
	struct wfw_pcidisc_one *one = arg;

	if ((unsigned int)d->domain != one->dom || d->bus != one->bus ||
	    d->dev != one->dev || d->func != one->fn)
		return 0;
	wfw_pcidisc_fill(o, pacc, d, one->nic);
	one->found = true;
	return 1;
}

int wfw_pcidisc_get(const struct wfw_pcidisc_opts *o, const char *addr,
		    struct wfw_nic *nic, char *why, size_t len)
{
	struct wfw_pcidisc_one one = { .nic = nic };
	char tail;
	int err;

	if (sscanf(addr, "%x:%x:%x.%u%c", &one.dom, &one.bus, &one.dev,
		   &one.fn, &tail) != 4) {
		one.dom = 0;
		if (sscanf(addr, "%x:%x.%u%c", &one.bus, &one.dev, &one.fn,
			   &tail) != 3) {
			snprintf(why, len, "bad PCI address '%s': use "
				 "DDDD:BB:DD.F, e.g. 0000:01:00.0", addr);
			return -EINVAL;
		}
	}
	if (one.bus > 0xff || one.dev > 0x1f || one.fn > 7) {
		snprintf(why, len, "bad PCI address '%s': bus <= ff, device "
			 "<= 1f, function <= 7", addr);
		return -EINVAL;
	}
	err = wfw_pcidisc_walk(o, wfw_pcidisc_match, &one, why, len);
	if (err)
		return err;
	if (!one.found) {
		snprintf(why, len, "no PCI device at %04x:%02x:%02x.%u%s%s",
			 one.dom, one.bus, one.dev, one.fn,
			 o->dump ? " in " : "", o->dump ? o->dump : "");
		return -ENODEV;
	}
	return 0;
}

static void wfw_scan_field(FILE *out, bool dump, const char *key,
			   const char *val)
{
	fprintf(out, "    %-10s %s\n", key, dump ? "n/a (dump: sysfs only)" : val);
}

int wfw_scan_nics(FILE *out, const char *pci_dump)
{
	struct wfw_pcidisc_opts o = { .dump = pci_dump };
	struct wfw_nic nics[WFW_PCIDISC_MAX];
	char why[512], buf[64];
	size_t n, i;
	int err;

	err = wfw_pcidisc_find(&o, nics, WFW_PCIDISC_MAX, &n, why, sizeof(why));
	if (err) {
		fprintf(out, "I210/I211 NICs: error: %s\n", why);
		return err;
	}
	fprintf(out, "I210/I211 NICs (%s): %zu found\n",
		pci_dump ? pci_dump : "this system", n);
	if (!n)
		fprintf(out, "  none: the i210 and ndl sources need an Intel "
			"I210/I211 (8086:{%s})\n", WFW_PCIDISC_IDS);
	for (i = 0; i < n; i++) {
		const struct wfw_nic *c = &nics[i];

		fprintf(out, "  %s  %s [8086:%04x]\n", c->addr, c->model,
			c->device);
		snprintf(buf, sizeof(buf), "%d", c->numa_node);
		wfw_scan_field(out, c->from_dump, "numa",
			       c->numa_node < 0 ? "none" : buf);
		wfw_scan_field(out, c->from_dump, "driver",
			       c->driver[0] ? c->driver : "none");
		snprintf(buf, sizeof(buf), "%s (%s)", c->netdev,
			 c->if_up == 1 ? "up" : c->if_up == 0 ? "down" : "state unknown");
		wfw_scan_field(out, c->from_dump, "interface",
			       c->netdev[0] ? buf : "none");
		fprintf(out, "    %-10s %s\n", "aspm", wfw_pcidisc_aspm_str(c->aspm));
		fprintf(out, "    %-10s %s%s%s\n", "port aspm",
			wfw_pcidisc_aspm_str(c->up_aspm),
			c->up_addr[0] ? " at " : "", c->up_addr);
	}
	return 0;
}
