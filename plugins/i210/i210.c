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
 * restore(): a later wultfw's, after this one was killed: the NIC back to
 *          its driver from the record open() left in the state file.
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
	{ .name = NULL },
};

/* src first: the shared wfw_kmod_source_op_* take ctx->priv as one. */
struct i210_priv {
	struct wfw_kmod_source src;
	struct i210_bind bind;
	struct wfw_nic nic;
	char devdescr[192];
	int restore_id;		/* the binding in the core's state file, or -1 */
};

static void i210_close(struct wultfw_ctx *ctx);

/*
 * Before the NIC moves to our driver: what to give it back to, kept by the
 * core (wultfw_remember_plugin()) so a wultfw killed with kill -9 leaves
 * the next one (or `wultfw restore`) able to undo it with i210_restore().
 * The record is one line: "v1 ADDR DRIVER SYSFS_ROOT" (DRIVER "-" for
 * none). Returns 0 or wultfw_fail()'s error.
 */
static int i210_remember_binding(struct wultfw_ctx *ctx, struct i210_priv *p)
{
	char orig[64], what[160], data[WULTFW_RESTORE_DATA_MAX];

	if (i210_bind_current(&p->bind, orig, sizeof(orig)) || !strcmp(orig, I210_DRIVER))
		orig[0] = '\0';
	snprintf(data, sizeof(data), "v1 %s %s %s", p->bind.addr,
		 orig[0] ? orig : "-", p->bind.sysfs);
	snprintf(what, sizeof(what), "NIC %s bound to %s instead of %s", p->bind.addr,
		 I210_DRIVER, orig[0] ? orig : "no driver");
	p->restore_id = wultfw_remember_plugin(ctx, what, data);
	return p->restore_id < 0 ? p->restore_id : 0;
}

/* Parse i210_remember_binding()'s record into b; -EINVAL if it is not one. */
int i210_restore_parse(const char *data, struct i210_bind *b);
int i210_restore_parse(const char *data, struct i210_bind *b)
{
	char addr[16], orig[64];
	int n = 0;

	if (sscanf(data, "v1 %15s %63s %n", addr, orig, &n) != 2 || !n ||
	    !data[n])
		return -EINVAL;
	i210_bind_init(b, data + n, addr);
	snprintf(b->orig, sizeof(b->orig), "%s", strcmp(orig, "-") ? orig : "");
	return 0;
}

/* A later wultfw's (or wultfw_undo()'s): the NIC back to its driver. */
static int i210_restore(struct wultfw_ctx *ctx, const char *data)
{
	struct i210_bind b;
	char why[512];
	int err;

	if (i210_restore_parse(data, &b))
		return wultfw_fail(ctx, -EINVAL, "not an i210 binding record "
			"(v1 ADDR DRIVER SYSFS): '%.80s'", data);
	err = i210_bind_giveback(&b, I210_DRIVER, why, sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "%s: %s", b.addr, why);
	wultfw_log(ctx, WULTFW_LOG_INFO, "%s is not bound to %s (any more)",
		   b.addr, I210_DRIVER);
	return 0;
}

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

/* The NIC chosen, ours to take (not up unless forced, not a dump). */
static int i210_open_nic(struct wultfw_ctx *ctx, struct i210_priv *p,
			 const struct wfw_pcidisc_opts *o)
{
	const struct i210_cfg *cfg = ctx->cfg;
	int err = i210_pick(ctx, o, cfg->pci, &p->nic);

	if (err)
		return err;
	if (p->nic.if_up == 1 && !cfg->force)
		return wultfw_fail(ctx, -EBUSY, "%s: interface %s is up; the "
			"measurement takes the NIC away from the network. Bring "
			"it down (ip link set %s down) or set force = true",
			p->nic.addr, p->nic.netdev, p->nic.netdev);
	if (o->dump)
		return wultfw_fail(ctx, -EOPNOTSUPP, "%s (%s) found in the dump %s, "
			"but a dump cannot be measured: drop pci_dump to use "
			"the device", p->nic.addr, p->nic.model, o->dump);
	if (i210_irqbalance_runs())
		wultfw_log(ctx, WULTFW_LOG_WARN, "irqbalance is running: the "
			   "module asks it to keep the NIC's IRQ on the measured "
			   "CPU (IRQF_NOBALANCING), but stopping irqbalance "
			   "during the run is safer");
	i210_record_info(ctx, &p->nic);
	return 0;
}

/* The module first, then the binding (remembered before it changes). */
static int i210_open_device(struct wultfw_ctx *ctx, struct i210_priv *p,
			    const char *sysfs)
{
	char why[512];
	int err;

	err = wfw_kmod_open(&p->src.km, NULL, "i210", why, sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "%s", why);
	i210_bind_init(&p->bind, sysfs, p->nic.addr);
	err = i210_remember_binding(ctx, p);
	if (err < 0)
		return err;
	err = i210_bind_take(&p->bind, I210_DRIVER, why, sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "cannot move %s to %s: %s",
				   p->nic.addr, I210_DRIVER, why);
	err = wfw_kmod_config(&p->src.km, "i210", (unsigned int)p->src.probe_cpu,
			      I210_PROBE_LDIST, I210_PROBE_LDIST, 0, why,
			      sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "device \"i210\": %s", why);
	return 0;
}

static int i210_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	const struct i210_cfg *cfg = ctx->cfg;
	struct wfw_pcidisc_opts o = { 0 };
	struct i210_priv *p;
	int err;

	p = calloc(1, sizeof(*p));
	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	wfw_kmod_source_init(&p->src, "i210",
			     "the NIC failed to arm, was unbound, or the CPU went offline");
	p->restore_id = -1;
	p->src.probe_cpu = ctx->cpu >= 0 ? ctx->cpu : 0;
	ctx->priv = p;
	o.dump = cfg->pci_dump;
	o.sysfs = ctx->sysfs_root;

	err = i210_open_nic(ctx, p, &o);
	if (!err)
		err = i210_open_device(ctx, p, o.sysfs);
	if (!err && wfw_kmod_source_schema(&p->src, ctx, cfg->raw))
		err = wultfw_fail(ctx, -EINVAL, "internal: bad kside schema");
	if (err) {
		i210_close(ctx);
		return err;
	}
	snprintf(p->devdescr, sizeof(p->devdescr), "Intel %s NIC at %s, "
		 "target-time interrupt (NIC clock), ASPM %s", p->nic.model,
		 p->nic.addr, wfw_pcidisc_aspm_str(p->nic.aspm));
	info->devid = p->nic.addr;
	info->devdescr = p->devdescr;
	wfw_kmod_source_info(&p->src, info);
	return 0;
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
		/* Still remembered: the state file keeps it for later. */
		wultfw_log(ctx, WULTFW_LOG_ERROR, "could not give %s back to "
			   "%s: %s. 'wultfw restore' tries again; by hand: echo "
			   "> /sys/bus/pci/devices/%s/driver_override; echo %s > "
			   "/sys/bus/pci/drivers/%s/bind", p->bind.addr,
			   p->bind.orig[0] ? p->bind.orig : "its driver", why,
			   p->bind.addr, p->bind.addr,
			   p->bind.orig[0] ? p->bind.orig : "igb");
	else if (p->restore_id >= 0)
		wultfw_forget(ctx, p->restore_id);
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
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "i210",
	.summary = "wake latency from an Intel I210/I211 NIC's target-time "
		   "interrupt (kernel module device i210; NIC taken from igb)",
	.options = i210_options,
	.source = &i210_ops,
	.cfg_size = sizeof(struct i210_cfg),
	.ldist = { WULTFW_LDIST_LAUNCH, 10000, 1000000000ULL },
	.restore = i210_restore,
};
