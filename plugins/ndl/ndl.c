/* SPDX-License-Identifier: MIT */
/*
 * ndl source: the longest DMA read round-trip delay (RTD) an Intel I210
 * sees while the CPU sleeps. Per datapoint: (optionally trash the CPU
 * caches,) clear RR2DCDELAY, queue one packet to leave at TAI now + LDist
 * through an ETF qdisc with launch-time offload, sleep until after the
 * launch time, read RR2DCDELAY (wultfw_ndl.ko). The NIC fetches the packet
 * from memory at launch time; if the CPU is in a deep C-state, memory
 * answers late and that read is the longest.
 *
 * open():  picks the NIC (ifname, pci, or the only I210 under igb) with
 *          exact reasons, checks the interface is up, /dev/wultfw_ndl,
 *          the PHC, and that the qdiscs can be restored; records them.
 * start(): tells the core how to put the qdiscs back (ndl_keep.h: the
 *          state file has it before anything changes, so a later wultfw
 *          can restore them after kill -9), mqprio + ETF (offload) on the
 *          queue, then attaches the module (WTHRESH = 0; after the qdisc
 *          change, which makes igb rewrite the ring), the packet socket,
 *          PHC on CLOCK_TAI.
 * stop()/close(): detach (WTHRESH restored) and put the qdiscs back, on
 *          every path; the core calls both on Ctrl-C.
 * restore(): a later wultfw's: the qdiscs back from the record alone.
 *
 * Not run on real hardware yet: see doc/nic.md.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <net/if.h>
#include <wultfw/plugin.h>

#include "ndl_keep.h"
#include "ndl_nic.h"
#include "ndl_phc.h"
#include "ndl_qdisc.h"
#include "ndl_tx.h"
#include <uapi/wultfw/wultfw_ndl.h>
#include "ndl_cfg.h"

#define F(field) .off = offsetof(struct ndl_cfg, field)

static const char *const ndl_phc_modes[] = { "step", "check", NULL };

static const struct wultfw_option ndl_options[] = {
	[NDL_OPT_IFNAME] = { "ifname", WULTFW_OPT_STRING, NULL,
		"network interface of the I210 (eth1); or use pci", F(ifname) },
	[NDL_OPT_PCI] = { "pci", WULTFW_OPT_STRING, NULL,
		"PCI address of the I210 (0000:01:00.0); neither ifname nor "
		"pci: the only I210 driven by igb", F(pci) },
	[NDL_OPT_QUEUE] = { "queue", WULTFW_OPT_INT, "0",
		"TX queue of the launch-time packets (the I210 launches on "
		"queues 0 and 1 only)", .min = "0", .max = "1", F(queue) },
	[NDL_OPT_PRIO] = { "prio", WULTFW_OPT_INT, "6",
		"socket priority that mqprio steers to that queue alone; "
		"other traffic with it is delayed by ETF",
		.min = "0", .max = "15", F(prio) },
	[NDL_OPT_DELTA] = { "etf_delta", WULTFW_OPT_DURATION, "200us",
		"ETF hands a packet to the NIC this long before its launch "
		"time; LDist must be longer", .min = "10us", .max = "100ms",
		F(etf_delta) },
	[NDL_OPT_POST] = { "post_wait", WULTFW_OPT_DURATION, "50us",
		"wait after the launch time before reading RTD",
		.min = "0", .max = "100ms", F(post_wait) },
	[NDL_OPT_TRASH] = { "trash_cache", WULTFW_OPT_BOOL, "false",
		"write a buffer of trash_size bytes before each packet, so "
		"the packet's data is not in the CPU caches", F(trash_cache) },
	[NDL_OPT_TRASH_SIZE] = { "trash_size", WULTFW_OPT_INT, "33554432",
		"bytes written by trash_cache; larger than the last-level "
		"cache", .min = "4096", .max = "1073741824", .unit = "bytes",
		F(trash_size) },
	[NDL_OPT_DST] = { "dst_mac", WULTFW_OPT_STRING, "self",
		"destination MAC of the packets: \"self\" (the NIC's own "
		"address; no other host sees a frame for it) or "
		"aa:bb:cc:dd:ee:ff", F(dst_mac) },
	[NDL_OPT_PHC] = { "phc_sync", WULTFW_OPT_STRING, "step",
		"\"step\": step the NIC clock onto CLOCK_TAI when it is off "
		"by more than phc_tolerance; \"check\": only check (phc2sys "
		"keeps it in step) and drop datapoints when it is off",
		.choices = ndl_phc_modes, F(phc_sync) },
	[NDL_OPT_PHC_TOL] = { "phc_tolerance", WULTFW_OPT_DURATION, "10us",
		"largest accepted NIC clock offset from CLOCK_TAI",
		.min = "1us", .max = "1ms", F(phc_tolerance) },
	[NDL_OPT_RAW] = { "raw", WULTFW_OPT_BOOL, "false",
		"also write RTDRaw (16 ns units), LTime (CLOCK_TAI ns) and "
		"PHCOffset (ns) columns", F(raw) },
	[NDL_OPT_DUMP] = { "pci_dump", WULTFW_OPT_STRING, NULL,
		"check discovery against an `lspci -xxx` dump (never measures)",
		F(pci_dump) },
	[NDL_OPT_DEVICE] = { "device", WULTFW_OPT_STRING, "/dev/" WULTFW_NDL_DEVNAME,
		"the wultfw_ndl module's device (tests)", F(device) },
	{ .name = NULL },
};

#define NDL_RTD_GRAN_NS		16
#define NDL_LDIST_MAX_NS	500000000ULL	/* launch times within 1 s */
#define NDL_LDIST_SLACK_NS	10000ULL	/* after etf_delta */

enum { NDL_COL_RTD, NDL_COL_LDIST, NDL_COL_RTDRAW, NDL_COL_LTIME,
       NDL_COL_PHCOFF, NDL_NCOLS };

/* Every column open() may give (the descriptor declares them), then { NULL }. */
static const struct wultfw_column ndl_cols[NDL_NCOLS + 1] = {
	[NDL_COL_RTD] = { "RTD", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	[NDL_COL_LDIST] = { "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	[NDL_COL_RTDRAW] = { "RTDRaw", "", WULTFW_COL_INT, 1, NULL, 0 },
	[NDL_COL_LTIME] = { "LTime", "ns", WULTFW_COL_INT, 1, NULL, 0 },
	[NDL_COL_PHCOFF] = { "PHCOffset", "ns", WULTFW_COL_INT, 1, NULL, 0 },
};

struct ndl_priv {
	struct wfw_nic nic;
	int ifindex, ntxq;
	unsigned char dst[6];
	int dev_fd, phc_fd;
	clockid_t phc;
	struct ndl_qdiscs saved;
	struct ndl_keep keep;		/* for a later wultfw: the record... */
	char keep_data[WULTFW_RESTORE_DATA_MAX];	/* ...as a line */
	int keep_id;			/* in the core's state file, or -1 */
	bool qdisc_changed, attached;
	struct ndl_tx tx;
	unsigned char *trash;
	size_t trash_size;
	uint64_t seed, from, to;
	uint64_t phc_steps, etf_drops, wthresh_resets, phc_off;
	struct wultfw_schema schema;
	char devdescr[160];
};

/* ---- option values: no system access here ---- */

static bool ndl_pci_ok(const char *s)
{
	unsigned int d, b, dev, f;
	char end;

	return sscanf(s, "%4x:%2x:%2x.%1x%c", &d, &b, &dev, &f, &end) == 4 ||
	       sscanf(s, "%2x:%2x.%1x%c", &b, &dev, &f, &end) == 3;
}

/* What the option table cannot say; bounds and choices are the core's. */
static int ndl_validate(struct wultfw_ctx *ctx)
{
	const struct ndl_cfg *cfg = ctx->cfg;
	unsigned char mac[6];
	const char *s;

	if (cfg->ifname && cfg->pci)
		return wultfw_fail_opt(ctx, NDL_OPT_PCI, -EINVAL,
			"give ifname or pci, not both");
	s = cfg->ifname;
	if (s && (!s[0] || strlen(s) >= IFNAMSIZ || strpbrk(s, "/ \t:")))
		return wultfw_fail_opt(ctx, NDL_OPT_IFNAME, -EINVAL,
			"ifname \"%s\" is not an interface name (1-%d "
			"characters, no '/', ':' or blanks)", s, IFNAMSIZ - 1);
	s = cfg->pci;
	if (s && !ndl_pci_ok(s))
		return wultfw_fail_opt(ctx, NDL_OPT_PCI, -EINVAL,
			"pci \"%s\" is not a PCI address (0000:01:00.0 or "
			"01:00.0)", s);
	s = cfg->dst_mac;
	if (strcmp(s, "self") && ndl_parse_mac(s, mac))
		return wultfw_fail_opt(ctx, NDL_OPT_DST, -EINVAL,
			"dst_mac \"%s\" is neither \"self\" nor a MAC address "
			"(aa:bb:cc:dd:ee:ff)", s);
	return 0;
}

/* ---- open/close ---- */

static void ndl_close(struct wultfw_ctx *ctx);

static int ndl_open_dev(struct wultfw_ctx *ctx, struct ndl_priv *p)
{
	const char *dev = ((const struct ndl_cfg *)ctx->cfg)->device;

	p->dev_fd = open(dev, O_RDWR | O_CLOEXEC);
	if (p->dev_fd >= 0)
		return 0;
	switch (errno) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return wultfw_fail(ctx, -ENODEV, "module wultfw_ndl not loaded "
			"(%s missing): insmod kmod-build/wultfw_ndl.ko (make "
			"modules) or modprobe wultfw_ndl", dev);
	case EACCES:
	case EPERM:
		return wultfw_fail(ctx, -EPERM, "%s: %s: ndl needs root "
			"(CAP_NET_ADMIN and CAP_SYS_RAWIO)", dev, strerror(errno));
	case EBUSY:
		return wultfw_fail(ctx, -EBUSY, "%s is in use: another ndl "
			"run is going on", dev);
	default:
		return wultfw_fail(ctx, -errno, "%s: %s", dev, strerror(errno));
	}
}

/* The interface: picked, up, ours to measure, its queues and MAC. */
static int ndl_open_nic(struct wultfw_ctx *ctx, struct ndl_priv *p,
			const struct ndl_nic_req *req)
{
	const struct ndl_cfg *cfg = ctx->cfg;
	char why[512];
	int err;

	err = ndl_nic_pick(req, &p->nic, why, sizeof(why));
	if (err)
		return wultfw_fail_opt(ctx, req->ifname ? NDL_OPT_IFNAME :
				       req->pci ? NDL_OPT_PCI : -1, err, "%s", why);
	if (p->nic.if_up != 1)
		return wultfw_fail(ctx, -ENETDOWN, "interface %s is down: the "
			"NIC sends only when it is up (ip link set %s up)",
			p->nic.netdev, p->nic.netdev);
	err = ndl_open_dev(ctx, p);
	if (err)
		return err;
	if (req->dump)
		return wultfw_fail_opt(ctx, NDL_OPT_DUMP, -EOPNOTSUPP, "%s (%s) "
			"found in the dump %s, but a dump cannot be measured: "
			"drop pci_dump", p->nic.addr, p->nic.netdev, req->dump);
	p->ifindex = (int)if_nametoindex(p->nic.netdev);
	if (!p->ifindex)
		return wultfw_fail(ctx, -ENODEV, "interface %s: %s",
				   p->nic.netdev, strerror(errno));
	p->ntxq = ndl_nic_txqueues(req->sysfs, p->nic.netdev);
	if (p->ntxq < 0 || cfg->queue >= p->ntxq)
		return wultfw_fail_opt(ctx, NDL_OPT_QUEUE, -ERANGE, "%s uses %d "
			"TX queues; queue %lld is not one of them", p->nic.netdev,
			p->ntxq, (long long)cfg->queue);
	if (!strcmp(cfg->dst_mac, "self"))
		err = ndl_nic_mac(req->sysfs, p->nic.netdev, p->dst);
	else
		err = ndl_parse_mac(cfg->dst_mac, p->dst);
	if (err)
		return wultfw_fail(ctx, err, "%s: cannot read its MAC address",
				   p->nic.netdev);
	return 0;
}

/* The NIC's clock (PHC), recorded in info.yml. */
static int ndl_open_phc(struct wultfw_ctx *ctx, struct ndl_priv *p)
{
	char why[512], ptp[32];
	int idx = ndl_phc_index(p->nic.netdev, why, sizeof(why));

	if (idx < 0)
		return wultfw_fail(ctx, idx, "%s", why);
	snprintf(ptp, sizeof(ptp), "/dev/ptp%d", idx);
	p->phc_fd = open(ptp, O_RDWR | O_CLOEXEC);
	if (p->phc_fd < 0)
		return wultfw_fail(ctx, -errno, "%s (clock of %s): %s", ptp,
				   p->nic.netdev, strerror(errno));
	p->phc = ndl_phc_clockid(p->phc_fd);
	wultfw_info(ctx, "ndl_phc", ptp);
	return 0;
}

/*
 * The qdiscs now: recorded for putting back, refused when ndl could not
 * put them back (explicit classes, or too much to record for a later
 * wultfw).
 */
static int ndl_open_qdiscs(struct wultfw_ctx *ctx, struct ndl_priv *p)
{
	const struct ndl_cfg *cfg = ctx->cfg;
	char why[512], desc[512];
	int err;

	err = ndl_qdisc_dump(p->ifindex, &p->saved, why, sizeof(why));
	if (!err)
		err = ndl_qdisc_check_restorable(&p->saved, why, sizeof(why));
	if (!err) {
		ndl_keep_init(&p->keep, p->ifindex, p->nic.netdev,
			      (unsigned int)p->ntxq, (unsigned int)cfg->queue,
			      &p->saved);
		err = ndl_keep_encode(&p->keep, p->keep_data, sizeof(p->keep_data),
				      why, sizeof(why));
	}
	if (err)
		return wultfw_fail(ctx, err, "%s: %s", p->nic.netdev, why);
	ndl_qdisc_describe(&p->saved, desc, sizeof(desc));
	wultfw_info(ctx, "ndl_qdiscs_before", desc);
	return 0;
}

static void ndl_fill_info(struct wultfw_ctx *ctx, struct ndl_priv *p,
			  struct wultfw_source_info *info)
{
	const struct ndl_cfg *cfg = ctx->cfg;

	wultfw_info(ctx, "ndl_ifname", p->nic.netdev);
	wultfw_info(ctx, "ndl_pci", p->nic.addr);
	wultfw_info(ctx, "ndl_aspm", wfw_pcidisc_aspm_str(p->nic.aspm));
	wultfw_info(ctx, "ndl_port_aspm", wfw_pcidisc_aspm_str(p->nic.up_aspm));
	snprintf(p->devdescr, sizeof(p->devdescr), "Intel %s at %s (%s), TX "
		 "queue %lld, ETF launch time", p->nic.model, p->nic.addr,
		 p->nic.netdev, (long long)cfg->queue);
	p->schema.cols = ndl_cols;
	p->schema.ncols = cfg->raw ? NDL_NCOLS : 2;
	info->devid = "ndl";
	info->report_tool = "ndl";
	info->devdescr = p->devdescr;
	info->resolution_ns = NDL_RTD_GRAN_NS;
	info->ldist_min_ns = cfg->etf_delta + NDL_LDIST_SLACK_NS;
	info->ldist_max_ns = NDL_LDIST_MAX_NS;
	info->ldist_gran_ns = 1;
	info->schema = &p->schema;
}

static int ndl_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	const struct ndl_cfg *cfg = ctx->cfg;
	struct ndl_nic_req req = {
		.ifname = cfg->ifname,
		.pci = cfg->pci,
		.dump = cfg->pci_dump,
		.sysfs = ctx->sysfs_root,
	};
	struct ndl_priv *p;
	int err;

	p = calloc(1, sizeof(*p));
	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	p->dev_fd = p->phc_fd = p->tx.fd = -1;
	p->keep_id = -1;
	ctx->priv = p;
	err = ndl_open_nic(ctx, p, &req);
	if (!err)
		err = ndl_open_phc(ctx, p);
	if (!err)
		err = ndl_open_qdiscs(ctx, p);
	if (err) {
		ndl_close(ctx);
		return err;
	}
	ndl_fill_info(ctx, p, info);
	return 0;
}

/* Undo start(): module detach (WTHRESH back), socket, qdiscs. */
static int ndl_undo(struct wultfw_ctx *ctx, struct ndl_priv *p)
{
	char why[512];
	int err = 0;

	if (p->attached) {
		if (ioctl(p->dev_fd, WULTFW_NDL_IOC_DETACH) && errno != ENOTCONN)
			wultfw_log(ctx, WULTFW_LOG_WARN, "detaching from %s: %s",
				   p->nic.netdev, strerror(errno));
		p->attached = false;
	}
	ndl_tx_close(&p->tx);
	if (p->qdisc_changed) {
		err = ndl_qdisc_restore(p->ifindex, &p->saved, why, sizeof(why));
		if (err) {
			char desc[512];

			/* Still remembered: the state file keeps it. */
			ndl_qdisc_describe(&p->saved, desc, sizeof(desc));
			wultfw_log(ctx, WULTFW_LOG_ERROR, "%s: restoring the "
				   "qdiscs failed: %s. They were: %s ('wultfw "
				   "restore' tries again; tc qdisc del dev %s "
				   "root gives the defaults back)",
				   p->nic.netdev, why, desc, p->nic.netdev);
		} else if (p->keep_id >= 0) {
			wultfw_forget(ctx, p->keep_id);
		}
		p->keep_id = -1;
		p->qdisc_changed = false;
	}
	return err;
}

static void ndl_close(struct wultfw_ctx *ctx)
{
	struct ndl_priv *p = ctx->priv;

	if (!p)
		return;
	ndl_undo(ctx, p);
	if (p->dev_fd >= 0)
		close(p->dev_fd);
	if (p->phc_fd >= 0)
		close(p->phc_fd);
	free(p->trash);
	free(p);
	ctx->priv = NULL;
}

/* ---- the measurement ---- */

static uint64_t ndl_tai_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* PHC against CLOCK_TAI; step it in "step" mode. 0 in step, or -EAGAIN. */
static int ndl_phc_keep(struct wultfw_ctx *ctx, struct ndl_priv *p,
			int64_t *off)
{
	uint64_t tol = ((const struct ndl_cfg *)ctx->cfg)->phc_tolerance;
	int64_t gap;
	int err = ndl_clock_offset(p->phc, CLOCK_TAI, off, &gap);

	if (err)
		return wultfw_fail(ctx, err, "reading the clock of %s: %s",
				   p->nic.netdev, strerror(-err));
	if ((uint64_t)llabs(*off) <= tol)
		return 0;
	if (strcmp(((const struct ndl_cfg *)ctx->cfg)->phc_sync, "step"))
		return -EAGAIN;
	err = ndl_clock_step(p->phc, *off);
	if (err)
		return wultfw_fail(ctx, err, "stepping the clock of %s onto "
				   "CLOCK_TAI: %s", p->nic.netdev, strerror(-err));
	p->phc_steps++;
	err = ndl_clock_offset(p->phc, CLOCK_TAI, off, &gap);
	return err ? err : ((uint64_t)llabs(*off) <= tol ? 0 : -EAGAIN);
}

/*
 * The qdiscs ndl needs, remembered first: the core's state file says how
 * to put them back before they change (a later wultfw does it if this
 * one is killed).
 */
static int ndl_set_qdiscs(struct wultfw_ctx *ctx, struct ndl_priv *p,
			  const struct ndl_etf_cfg *cfg)
{
	char what[180], why[512];
	int err;

	ndl_keep_what(&p->keep, what, sizeof(what));
	p->keep_id = wultfw_remember_plugin(ctx, what, p->keep_data);
	if (p->keep_id < 0)
		return p->keep_id;
	p->qdisc_changed = true;	/* even a failed install may change it */
	err = ndl_qdisc_install(p->ifindex, cfg, why, sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "%s: %s", p->nic.netdev, why);
	return 0;
}

/* The module on the queue (after the qdisc: igb rewrites the ring then). */
static int ndl_attach(struct wultfw_ctx *ctx, struct ndl_priv *p,
		      unsigned int queue)
{
	struct wultfw_ndl_attach a = { .size = sizeof(a) };

	a.queue = queue;
	snprintf(a.ifname, sizeof(a.ifname), "%s", p->nic.netdev);
	if (ioctl(p->dev_fd, WULTFW_NDL_IOC_ATTACH, &a))
		return wultfw_fail(ctx, -errno, "wultfw_ndl: %s", a.why[0] ?
				   a.why : strerror(errno));
	p->attached = true;
	return 0;
}

/* The packet socket, and the NIC clock in step with CLOCK_TAI. */
static int ndl_ready(struct wultfw_ctx *ctx, struct ndl_priv *p,
		     unsigned int prio)
{
	char why[512];
	int64_t off;
	int err;

	err = ndl_tx_open(&p->tx, p->ifindex, p->dst, prio, why, sizeof(why));
	if (err)
		return wultfw_fail(ctx, err, "%s: %s", p->nic.netdev, why);
	err = ndl_phc_keep(ctx, p, &off);
	if (err == -EAGAIN)
		err = wultfw_fail_opt(ctx, NDL_OPT_PHC, -EAGAIN, "the clock "
			"of %s is %lld ns off CLOCK_TAI: keep it in step (phc2sys "
			"-s CLOCK_REALTIME -c %s -O 0, with the kernel's TAI "
			"offset set) or set phc_sync = \"step\"", p->nic.netdev,
			(long long)off, p->nic.netdev);
	return err;
}

static int ndl_start(struct wultfw_ctx *ctx,
		     const struct wultfw_source_params *sp)
{
	const struct ndl_cfg *o = ctx->cfg;
	struct ndl_priv *p = ctx->priv;
	struct ndl_etf_cfg cfg = {
		.ntxq = (unsigned int)p->ntxq,
		.queue = (unsigned int)o->queue,
		.prio = (unsigned int)o->prio,
		.delta_ns = o->etf_delta,
		.offload = true,
	};
	int err;

	p->seed = sp->seed;
	p->from = sp->ldist_from_ns;
	p->to = sp->ldist_to_ns;
	if (o->trash_cache) {
		p->trash_size = (size_t)o->trash_size;
		p->trash = malloc(p->trash_size);
		if (!p->trash)
			return wultfw_fail_opt(ctx, NDL_OPT_TRASH_SIZE, -ENOMEM,
				"cannot allocate %zu bytes", p->trash_size);
	}
	err = ndl_set_qdiscs(ctx, p, &cfg);
	if (!err)
		err = ndl_attach(ctx, p, cfg.queue);
	if (!err)
		err = ndl_ready(ctx, p, cfg.prio);
	if (err)
		ndl_undo(ctx, p);
	return err;
}

/* Write every cache line of the buffer (volatile: the compiler keeps it). */
static void ndl_trash(struct ndl_priv *p)
{
	volatile unsigned char *b = p->trash;
	size_t i;

	for (i = 0; i < p->trash_size; i += 64)
		b[i] = (unsigned char)(b[i] + 1);
}

static int ndl_rtd_fail(struct wultfw_ctx *ctx, struct ndl_priv *p)
{
	if (errno == ENOTCONN)
		return wultfw_fail(ctx, -ENOTCONN, "wultfw_ndl let go of %s: "
			"the interface went down or away (dmesg says which)",
			p->nic.netdev);
	return wultfw_fail(ctx, -errno, "reading RR2DCDELAY of %s: %s",
			   p->nic.netdev, strerror(errno));
}

/* One launch: when, and the NIC clock's offset then. */
struct ndl_shot {
	uint64_t ldist, txtime;
	int64_t off;
};

/* Clear RTD, queue one packet: 1 sent, 0 dropped (counted), or -errno. */
static int ndl_launch(struct wultfw_ctx *ctx, struct ndl_priv *p,
		      struct wultfw_batch *b, struct ndl_shot *s)
{
	struct wultfw_ndl_rtd r = { .size = sizeof(r) };
	char why[256];
	int err, code = 0;

	err = ndl_phc_keep(ctx, p, &s->off);
	if (err == -EAGAIN) {
		b->discarded++;		/* "check" mode and out of step */
		usleep(1000);
		return 0;
	}
	if (err)
		return err;
	if (p->trash)
		ndl_trash(p);
	if (ioctl(p->dev_fd, WULTFW_NDL_IOC_RTD, &r))	/* clears the max */
		return ndl_rtd_fail(ctx, p);
	s->ldist = wultfw_pick_ldist(&p->seed, p->from, p->to, 1);
	s->txtime = ndl_tai_ns() + s->ldist;
	err = ndl_tx_send(&p->tx, s->txtime, why, sizeof(why));
	if (err == -ENOBUFS) {			/* ETF refused it */
		ndl_tx_drops(&p->tx, &code);
		p->etf_drops++;
		b->discarded++;
		return 0;
	}
	if (err)
		return wultfw_fail(ctx, err, "%s: %s", p->nic.netdev, why);
	return 1;
}

/* After the launch time: 1 row added, 0 dropped (counted), or -errno. */
static int ndl_land(struct wultfw_ctx *ctx, struct ndl_priv *p,
		    struct wultfw_batch *b, const struct ndl_shot *s)
{
	struct wultfw_ndl_rtd r = { .size = sizeof(r) };
	uint64_t wake = s->txtime + ((const struct ndl_cfg *)ctx->cfg)->post_wait;
	struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000ULL),
			       .tv_nsec = (long)(wake % 1000000000ULL) };
	union wultfw_cell *row;
	int code = 0;

	while (clock_nanosleep(CLOCK_TAI, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (wultfw_stopping(ctx))
			return 0;
	if (ndl_tx_drops(&p->tx, &code)) {	/* launch time missed */
		p->etf_drops++;
		b->discarded++;
		wultfw_log(ctx, WULTFW_LOG_DEBUG, "packet dropped by ETF: %s",
			   ndl_tx_code_str(code));
		return 0;
	}
	if (ioctl(p->dev_fd, WULTFW_NDL_IOC_RTD, &r))
		return ndl_rtd_fail(ctx, p);
	if (r.flags & WULTFW_NDL_RTD_WTHRESH_RESET) {
		p->wthresh_resets++;	/* coalescing may have been on */
		b->discarded++;
		return 0;
	}
	row = wultfw_row(b, b->rows);
	row[NDL_COL_RTD].i = (int64_t)r.rtd_ns;
	row[NDL_COL_LDIST].i = (int64_t)s->ldist;
	if (p->schema.ncols > 2) {
		row[NDL_COL_RTDRAW].i = r.raw;
		row[NDL_COL_LTIME].i = (int64_t)s->txtime;
		row[NDL_COL_PHCOFF].i = s->off;
	}
	b->rows++;
	return 1;
}

/* One datapoint: 1 row added, 0 dropped (counted), or -errno. */
static int ndl_one(struct wultfw_ctx *ctx, struct ndl_priv *p,
		   struct wultfw_batch *b)
{
	struct ndl_shot s = { 0 };
	int ret = ndl_launch(ctx, p, b, &s);

	return ret <= 0 ? ret : ndl_land(ctx, p, b, &s);
}

static int ndl_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
		    uint64_t timeout_ns)
{
	struct ndl_priv *p = ctx->priv;
	uint64_t end = ndl_tai_ns() + timeout_ns;
	int err;

	if (!p->attached)
		return WULTFW_READ_END;		/* drained after stop() */
	while (b->rows < b->capacity && !wultfw_stopping(ctx)) {
		err = ndl_one(ctx, p, b);
		if (err < 0)
			return err;
		if (ndl_tai_ns() >= end)
			break;
	}
	return WULTFW_READ_OK;
}

static int ndl_stop(struct wultfw_ctx *ctx)
{
	struct ndl_priv *p = ctx->priv;
	char v[64];
	int err;

	snprintf(v, sizeof(v), "%llu", (unsigned long long)p->phc_steps);
	wultfw_info(ctx, "ndl_phc_steps", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)p->etf_drops);
	wultfw_info(ctx, "ndl_etf_drops", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)p->wthresh_resets);
	wultfw_info(ctx, "ndl_wthresh_resets", v);
	err = ndl_undo(ctx, p);
	return err ? wultfw_fail(ctx, err, "%s: qdiscs not restored (see "
				 "the log)", p->nic.netdev) : 0;
}

/* A later wultfw's (or wultfw_undo()'s): the qdiscs back from the record. */
static int ndl_restore(struct wultfw_ctx *ctx, const char *data)
{
	struct ndl_keep *k = malloc(sizeof(*k));
	char why[512], done[256];
	int err;

	if (!k)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	err = ndl_keep_decode(data, k, why, sizeof(why));
	if (!err)
		err = ndl_keep_restore(k, done, sizeof(done), why, sizeof(why));
	free(k);
	if (err)
		return wultfw_fail(ctx, err, "%s", why);
	wultfw_log(ctx, WULTFW_LOG_INFO, "%s", done);
	return 0;
}

static const struct wultfw_source_ops ndl_ops = {
	.open = ndl_open,
	.start = ndl_start,
	.read = ndl_read,
	.stop = ndl_stop,
	.close = ndl_close,
};

WULTFW_PLUGIN(ndl) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "ndl",
	.summary = "Intel I210 longest DMA read round-trip delay (RTD) after "
		   "a launch-time packet, CPU idle (kernel module wultfw_ndl)",
	.options = ndl_options,
	.source = &ndl_ops,
	.validate = ndl_validate,
	.cfg_size = sizeof(struct ndl_cfg),
	.ldist = { WULTFW_LDIST_DELAY, NDL_LDIST_SLACK_NS, NDL_LDIST_MAX_NS },
	.restore = ndl_restore,
	.columns = ndl_cols,
};
