/* SPDX-License-Identifier: MIT */
/*
 * i210 source: wake latency with the target-time interrupt of an Intel
 * I210/I211 NIC (kernel device "i210", kmod/wultfw_i210_main.c). The interrupt
 * comes from a PCIe device with its own clock, so the CPU cannot see it
 * coming. Times are NIC time (SYSTIM ns).
 *
 * open():  finds the NIC (option pci, or the only I210/I211 there is),
 *          refuses one whose interface is up unless force = true, warns
 *          about irqbalance, records the ASPM state, then moves the NIC
 *          from its driver (igb) to wultfw_i210 through driver_override.
 * close(): gives the NIC back to its driver, on every path (errors, and
 *          Ctrl-C: the core calls stop and close on SIGINT).
 * start/read/stop: lib/kmod, like the tdt source.
 *
 * Not run on real hardware yet: see doc/nic.md.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "bind.h"
#include "kmod/kmod_source.h"
#include "pcidisc/pcidisc.h"

#define I210_DRIVER	"wultfw_i210"
#define I210_PROBE_LDIST 100000ULL

enum { I210_OPT_PCI, I210_OPT_FORCE, I210_OPT_DUMP, I210_OPT_RAW,
       I210_OPT_NR };

/* Where the core puts the option values (ABI v2: ctx->cfg). */
struct i210_cfg {
	const char *pci;
	bool force;
	const char *pci_dump;	/* NULL unless given */
	bool raw;
};

#define F(field) .off = offsetof(struct i210_cfg, field)

static const struct wultfw_option i210_options[] = {
	[I210_OPT_PCI] = { "pci", WULTFW_OPT_STRING, "auto",
		"PCI address of the NIC (0000:01:00.0), or \"auto\": the only "
		"I210/I211 present", F(pci) },
	[I210_OPT_FORCE] = { "force", WULTFW_OPT_BOOL, "false",
		"use the NIC even if its network interface is up (it loses "
		"its network for the run)", F(force) },
	[I210_OPT_DUMP] = { "pci_dump", WULTFW_OPT_STRING, NULL,
		"check discovery against an `lspci -xxx` dump instead of this "
		"system (never measures)", F(pci_dump) },
	[I210_OPT_RAW] = { "raw", WULTFW_OPT_BOOL, "false",
		"also write the raw columns (LTime, TBI, TAI, TIntr, ...)",
		F(raw) },
	{ NULL },
};

/* src first: the shared wfw_kmod_source_op_* take ctx->priv as one. */
struct i210_priv {
	struct wfw_kmod_source src;
	struct i210_bind bind;
	struct wfw_nic nic;
	char devdescr[192];
};

static void i210_close(struct wultfw_ctx *ctx);

/* Is a process called irqbalance running? */
static bool i210_irqbalance_runs(void)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/proc");

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char path[300], comm[64];
		FILE *f;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "irqbalance\n"))
			found = true;
		fclose(f);
	}
	closedir(d);
	return found;
}

/* Pick the NIC: exact reasons when there is none or it is the wrong one. */
int i210_pick(struct wultfw_ctx *ctx, const struct wfw_pcidisc_opts *o,
	      const char *pci, struct wfw_nic *nic);
int i210_pick(struct wultfw_ctx *ctx, const struct wfw_pcidisc_opts *o,
	      const char *pci, struct wfw_nic *nic)
{
	struct wfw_nic all[WFW_PCIDISC_MAX];
	char why[512], list[256] = "";
	size_t n, i;
	int err;

	if (pci && strcmp(pci, "auto")) {
		err = wfw_pcidisc_get(o, pci, nic, why, sizeof(why));
		if (err)
			return wultfw_fail(ctx, err, "pci = \"%s\": %s", pci, why);
		if (!nic->model)
			return wultfw_fail(ctx, -ENODEV, "%s is not an I210/I211 "
				"(it is %04x:%04x; the I210/I211 IDs are 8086:{%s})",
				nic->addr, nic->vendor, nic->device, WFW_PCIDISC_IDS);
		return 0;
	}
	err = wfw_pcidisc_find(o, all, WFW_PCIDISC_MAX, &n, why, sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "PCI discovery: %s", why);
	if (!n)
		return wultfw_fail(ctx, -ENODEV, "no I210/I211 NIC found (PCI IDs "
			"8086:{%s})%s%s", WFW_PCIDISC_IDS, o->dump ? " in " : "",
			o->dump ? o->dump : "");
	if (n > 1) {
		for (i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", i ? ", " : "", all[i].addr);
		return wultfw_fail(ctx, -EINVAL, "%zu I210/I211 NICs found (%s): "
			"choose one with pci = \"ADDR\"", n, list);
	}
	*nic = all[0];
	return 0;
}

static void i210_record_info(struct wultfw_ctx *ctx, const struct wfw_nic *nic)
{
	char v[64];

	wultfw_info(ctx, "i210_pci", nic->addr);
	snprintf(v, sizeof(v), "%s 8086:%04x", nic->model, nic->device);
	wultfw_info(ctx, "i210_device", v);
	wultfw_info(ctx, "i210_aspm", wfw_pcidisc_aspm_str(nic->aspm));
	snprintf(v, sizeof(v), "%s%s%s", wfw_pcidisc_aspm_str(nic->up_aspm),
		 nic->up_addr[0] ? " at " : "", nic->up_addr);
	wultfw_info(ctx, "i210_port_aspm", v);
	snprintf(v, sizeof(v), "%d", nic->numa_node);
	wultfw_info(ctx, "i210_numa_node", v);
	wultfw_info(ctx, "i210_driver_before", nic->driver[0] ? nic->driver : "none");
}

static int i210_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	const struct i210_cfg *cfg = ctx->cfg;
	struct wfw_pcidisc_opts o = { 0 };
	struct i210_priv *p;
	char why[512];
	int err;

	p = calloc(1, sizeof(*p));
	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	p->src.km.fd = -1;
	p->src.cpu = -1;
	p->src.device = "i210";
	p->src.probe_cpu = ctx->cpu >= 0 ? ctx->cpu : 0;
	p->src.stop_hint = "the NIC failed to arm, was unbound, or the CPU went offline";
	ctx->priv = p;
	o.dump = cfg->pci_dump;
	o.sysfs = ctx->sysfs_root;

	err = i210_pick(ctx, &o, cfg->pci, &p->nic);
	if (err)
		goto fail;
	if (p->nic.if_up == 1 && !cfg->force) {
		err = wultfw_fail(ctx, -EBUSY, "%s: interface %s is up; the "
			"measurement takes the NIC away from the network. Bring "
			"it down (ip link set %s down) or set force = true",
			p->nic.addr, p->nic.netdev, p->nic.netdev);
		goto fail;
	}
	if (o.dump) {
		err = wultfw_fail(ctx, -EOPNOTSUPP, "%s (%s) found in the dump %s, "
			"but a dump cannot be measured: drop pci_dump to use "
			"the device", p->nic.addr, p->nic.model, o.dump);
		goto fail;
	}
	if (i210_irqbalance_runs())
		wultfw_log(ctx, WULTFW_LOG_WARN, "irqbalance is running: the "
			   "module asks it to keep the NIC's IRQ on the measured "
			   "CPU (IRQF_NOBALANCING), but stopping irqbalance "
			   "during the run is safer");
	i210_record_info(ctx, &p->nic);

	/* Check the module before touching the binding. */
	err = wfw_kmod_open(&p->src.km, NULL, "i210", why, sizeof(why));
	if (err) {
		err = wultfw_fail(ctx, err, "%s", why);
		goto fail;
	}
	i210_bind_init(&p->bind, o.sysfs, p->nic.addr);
	err = i210_bind_take(&p->bind, I210_DRIVER, why, sizeof(why));
	if (err) {
		err = wultfw_fail(ctx, err, "cannot move %s to %s: %s",
				  p->nic.addr, I210_DRIVER, why);
		goto fail;
	}
	err = wfw_kmod_config(&p->src.km, "i210", (unsigned int)p->src.probe_cpu,
			      I210_PROBE_LDIST, I210_PROBE_LDIST, 0, why,
			      sizeof(why));
	if (err) {
		err = wultfw_fail(ctx, err, "device \"i210\": %s", why);
		goto fail;
	}
	err = wfw_kmod_source_schema(&p->src, ctx, cfg->raw);
	if (err) {
		err = wultfw_fail(ctx, err, "internal: bad kside schema");
		goto fail;
	}
	snprintf(p->devdescr, sizeof(p->devdescr), "Intel %s NIC at %s, "
		 "target-time interrupt (NIC clock), ASPM %s", p->nic.model,
		 p->nic.addr, wfw_pcidisc_aspm_str(p->nic.aspm));
	info->devid = p->nic.addr;
	info->devdescr = p->devdescr;
	wfw_kmod_source_info(&p->src, info);
	return 0;
fail:
	i210_close(ctx);
	return err;
}

static void i210_close(struct wultfw_ctx *ctx)
{
	struct i210_priv *p = ctx->priv;
	char why[512];

	if (!p)
		return;
	/* Release the device in the module first, then give the NIC back. */
	wfw_kmod_close(&p->src.km);
	if (i210_bind_restore(&p->bind, I210_DRIVER, why, sizeof(why)))
		wultfw_log(ctx, WULTFW_LOG_ERROR, "could not give %s back to "
			   "%s: %s. Fix by hand: echo > /sys/bus/pci/devices/"
			   "%s/driver_override; echo %s > /sys/bus/pci/drivers/"
			   "%s/bind", p->bind.addr, p->bind.orig[0] ?
			   p->bind.orig : "its driver", why, p->bind.addr,
			   p->bind.addr, p->bind.orig[0] ? p->bind.orig : "igb");
	free(p);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops i210_ops = {
	.open = i210_open,
	.start = wfw_kmod_source_op_start,
	.read = wfw_kmod_source_op_read,
	.stop = wfw_kmod_source_op_stop,
	.close = i210_close,
};

WULTFW_PLUGIN(i210) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.kind = WULTFW_KIND_SOURCE,
	.name = "i210",
	.summary = "wake latency from an Intel I210/I211 NIC's target-time "
		   "interrupt (kernel module device i210; NIC taken from igb)",
	.options = i210_options,
	.source = &i210_ops,
	.cfg_size = sizeof(struct i210_cfg),
	.ldist = { WULTFW_LDIST_LAUNCH, 10000, 1000000000ULL },
};
