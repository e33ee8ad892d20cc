/* SPDX-License-Identifier: MIT */
/* Picking the I210 for ndl; see ndl_nic.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sysstate/sysfile.h>

#include "ndl_nic.h"

/* Is it usable for ndl? 0, or why not. */
static int check_nic(const struct wfw_nic *n, char *why, size_t len)
{
	if (!n->model) {
		snprintf(why, len, "%s is not an I210 (it is %04x:%04x; I210 "
			 "IDs: 8086:{%s})", n->addr, n->vendor, n->device,
			 WFW_PCIDISC_IDS);
		return -ENODEV;
	}
	if (!strcmp(n->model, "I211")) {
		snprintf(why, len, "%s is an I211, which has no launch time "
			 "(igb offloads ETF only on the I210, queues 0 and 1)",
			 n->addr);
		return -ENODEV;
	}
	if (strcmp(n->driver, "igb")) {
		snprintf(why, len, "%s is driven by %s, not igb: ndl needs igb "
			 "(echo %s > /sys/bus/pci/drivers/igb/bind)", n->addr,
			 n->driver[0] ? n->driver : "no driver", n->addr);
		return -ENODEV;
	}
	if (!n->netdev[0]) {
		snprintf(why, len, "%s has no network interface", n->addr);
		return -ENODEV;
	}
	return 0;
}

static int by_ifname(const struct ndl_nic_req *r,
		     const struct wfw_pcidisc_opts *o, struct wfw_nic *nic,
		     char *why, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX], sub[64];
	const char *base;
	ssize_t l;
	int err;

	snprintf(path, sizeof(path), "%s/class/net/%s", r->sysfs, r->ifname);
	if (access(path, F_OK)) {
		snprintf(why, len, "no network interface '%s'", r->ifname);
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/class/net/%s/device/subsystem",
		 r->sysfs, r->ifname);
	l = readlink(path, sub, sizeof(sub) - 1);
	sub[l > 0 ? l : 0] = '\0';
	snprintf(path, sizeof(path), "%s/class/net/%s/device", r->sysfs,
		 r->ifname);
	l = readlink(path, link, sizeof(link) - 1);
	/* Fake trees in tests have no subsystem link; real ones do. */
	if (l <= 0 || (sub[0] && !strstr(sub, "/pci"))) {
		snprintf(why, len, "%s is not a PCI device", r->ifname);
		return -ENODEV;
	}
	link[l] = '\0';
	base = strrchr(link, '/');
	err = wfw_pcidisc_get(o, base ? base + 1 : link, nic, why, len);
	if (err)
		return err;
	return check_nic(nic, why, len);
}

int ndl_nic_pick(const struct ndl_nic_req *r, struct wfw_nic *nic, char *why,
		 size_t len)
{
	struct wfw_pcidisc_opts o = { .dump = r->dump, .sysfs = r->sysfs };
	struct wfw_nic all[WFW_PCIDISC_MAX];
	char others[256] = "", list[256] = "";
	size_t n, i, good = 0;
	int err;

	if (r->ifname)
		return by_ifname(r, &o, nic, why, len);
	if (r->pci) {
		err = wfw_pcidisc_get(&o, r->pci, nic, why, len);
		return err ? err : check_nic(nic, why, len);
	}
	err = wfw_pcidisc_find(&o, all, WFW_PCIDISC_MAX, &n, why, len);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		char w[160];

		if (check_nic(&all[i], w, sizeof(w))) {
			snprintf(others + strlen(others),
				 sizeof(others) - strlen(others), "%s%s %s (%s)",
				 others[0] ? ", " : "", all[i].model, all[i].addr,
				 all[i].driver[0] ? all[i].driver : "no driver");
			continue;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", good ? ", " : "", all[i].addr);
		if (!good++)
			*nic = all[i];
	}
	if (!good) {
		snprintf(why, len, "no I210 managed by igb found%s%s%s",
			 others[0] ? " (found: " : "", others,
			 others[0] ? ")" : "");
		return -ENODEV;
	}
	if (good > 1) {
		snprintf(why, len, "%zu I210s managed by igb (%s): choose one "
			 "with ifname or pci", good, list);
		return -EINVAL;
	}
	return 0;
}

int ndl_nic_txqueues(const char *sysfs, const char *ifname)
{
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/class/net/%s/queues", sysfs, ifname);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "tx-", 3))
			n++;
	closedir(d);
	return n ? n : -ENOENT;
}

int ndl_parse_mac(const char *s, unsigned char mac[6])
{
	unsigned int b[6];
	char end;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &end) != 6 || strlen(s) != 17)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (unsigned char)b[i];
	return 0;
}

int ndl_nic_mac(const char *sysfs, const char *ifname, unsigned char mac[6])
{
	char path[PATH_MAX], buf[32];
	int ret;

	snprintf(path, sizeof(path), "%s/class/net/%s/address", sysfs, ifname);
	ret = wfw_read_line(path, buf, sizeof(buf));
	if (ret && ret != -ENODATA)
		return ret;
	return ndl_parse_mac(buf, mac);
}
