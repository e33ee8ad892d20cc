/* SPDX-License-Identifier: MIT */
/*
 * plugins/ndl without the hardware: option validation (each bad value
 * blamed on its option), open()'s exact refusals from lspci dumps paired
 * with fake sysfs trees, the mqprio layout that steers one priority to one
 * queue, the qdisc restorability check, RTD units and per-queue WTHRESH
 * against the I210 model (lib/i210, the code the kernel module runs), and
 * clock offset measurement.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <unistd.h>

#include <wultfw/plugin.h>

#include "i210_model.h"
#include "ndl_cfg.h"
#include "ndl_keep.h"
#include "ndl_nic.h"
#include "testopts.h"
#include "ndl_phc.h"
#include "ndl_qdisc.h"
#include "testutil.h"

#define DATA(f) TEST_DATA "/" f

extern const struct wultfw_plugin ndl_LTX_wultfw_plugin;

enum { O_IFNAME, O_PCI, O_QUEUE, O_PRIO, O_DELTA, O_POST, O_TRASH,
       O_TRASH_SIZE, O_DST, O_PHC, O_PHC_TOL, O_RAW, O_DUMP, O_DEVICE,
       O_NR };

static struct wultfw_value opts[O_NR];
static struct ndl_cfg cfg;
static struct wultfw_ctx ctx;

/* What the core hands the plugin: opts[] as the config struct (ABI v2). */
static void to_cfg(void)
{
	cfg = (struct ndl_cfg){
		.ifname = opts[O_IFNAME].set ? opts[O_IFNAME].s : NULL,
		.pci = opts[O_PCI].set ? opts[O_PCI].s : NULL,
		.queue = opts[O_QUEUE].i, .prio = opts[O_PRIO].i,
		.etf_delta = opts[O_DELTA].ns, .post_wait = opts[O_POST].ns,
		.trash_cache = opts[O_TRASH].b, .trash_size = opts[O_TRASH_SIZE].i,
		.dst_mac = opts[O_DST].s, .phc_sync = opts[O_PHC].s,
		.phc_tolerance = opts[O_PHC_TOL].ns, .raw = opts[O_RAW].b,
		.pci_dump = opts[O_DUMP].set ? opts[O_DUMP].s : NULL,
		.device = opts[O_DEVICE].s,
	};
	ctx.cfg = &cfg;
}

static int validate(void)
{
	to_cfg();
	return ndl_LTX_wultfw_plugin.validate(&ctx);
}
static char *root;

#define sh(fmt, a) do { \
		char cmd_[1024]; \
		snprintf(cmd_, sizeof(cmd_), fmt, a); \
		CU_ASSERT_EQUAL_FATAL(system(cmd_), 0); \
	} while (0)

/* The defaults of the option table, as the core would fill them. */
static void defaults(void)
{
	memset(opts, 0, sizeof(opts));
	memset(&ctx, 0, sizeof(ctx));
	opts[O_QUEUE] = (struct wultfw_value){ .set = true, .i = 0 };
	opts[O_PRIO] = (struct wultfw_value){ .set = true, .i = 6 };
	opts[O_DELTA] = (struct wultfw_value){ .set = true, .ns = 200000 };
	opts[O_POST] = (struct wultfw_value){ .set = true, .ns = 50000 };
	opts[O_TRASH] = (struct wultfw_value){ .set = true, .b = false };
	opts[O_TRASH_SIZE] = (struct wultfw_value){ .set = true, .i = 33554432 };
	opts[O_DST] = (struct wultfw_value){ .set = true, .s = "self" };
	opts[O_PHC] = (struct wultfw_value){ .set = true, .s = "step" };
	opts[O_PHC_TOL] = (struct wultfw_value){ .set = true, .ns = 10000 };
	opts[O_RAW] = (struct wultfw_value){ .set = true, .b = false };
	opts[O_DEVICE] = (struct wultfw_value){ .set = true, .s = "/nonexistent/wultfw_ndl" };
	ctx.sysfs_root = "/sys";
	ctx.plugin = &ndl_LTX_wultfw_plugin;
	ctx.opts = opts;
	ctx.bad_opt = -1;
	ctx.cpu = 1;
}

static void test_table_order(void)
{
	const struct wultfw_option *o = ndl_LTX_wultfw_plugin.options;

	/* The enum above mirrors the plugin's table. */
	CU_ASSERT_STRING_EQUAL(o[O_IFNAME].name, "ifname");
	CU_ASSERT_STRING_EQUAL(o[O_QUEUE].name, "queue");
	CU_ASSERT_STRING_EQUAL(o[O_TRASH_SIZE].name, "trash_size");
	CU_ASSERT_STRING_EQUAL(o[O_DEVICE].name, "device");
	CU_ASSERT_PTR_NULL(o[O_NR].name);
	CU_ASSERT_STRING_EQUAL(o[O_DELTA].def, "200us");
	CU_ASSERT_PTR_NOT_NULL(ndl_LTX_wultfw_plugin.validate);
}

/* validate() must blame exactly option `opt`. */
static void expect_bad(int opt, const char *msg)
{
	ctx.bad_opt = -1;
	ctx.err[0] = '\0';
	CU_ASSERT(validate() < 0);
	CU_ASSERT_EQUAL(ctx.bad_opt, opt);
	TU_ASSERT_CONTAINS(ctx.err, msg);
}

static void test_validate(void)
{
	defaults();
	CU_ASSERT_EQUAL(validate(), 0);

	opts[O_IFNAME] = (struct wultfw_value){ .set = true, .s = "eth1" };
	opts[O_PCI] = (struct wultfw_value){ .set = true, .s = "0000:01:00.0" };
	expect_bad(O_PCI, "not both");
	opts[O_PCI].set = false;
	CU_ASSERT_EQUAL(validate(), 0);
	opts[O_IFNAME].s = "a-very-long-interface-name";
	expect_bad(O_IFNAME, "not an interface name");
	opts[O_IFNAME].s = "../etc";
	expect_bad(O_IFNAME, "not an interface name");
	opts[O_IFNAME].set = false;

	opts[O_PCI] = (struct wultfw_value){ .set = true, .s = "01:00.0" };
	CU_ASSERT_EQUAL(validate(), 0);
	opts[O_PCI].s = "0000:01:00";
	expect_bad(O_PCI, "not a PCI address");
	opts[O_PCI].set = false;

	opts[O_DST].s = "ff:ff:ff:ff:ff";
	expect_bad(O_DST, "neither \"self\" nor a MAC");
	opts[O_DST].s = "02:00:00:00:00:01";
	CU_ASSERT_EQUAL(validate(), 0);
}

static char *parse_errors(const char *text)
{
	return to_option_errors(&ndl_LTX_wultfw_plugin, text);
}

/* Ranges and choices live in the table: the core refuses what is outside. */
static void test_bounds(void)
{
	char *e = parse_errors("source = { queue = 2; prio = 16;\n"
			       "  etf_delta = \"5us\"; post_wait = \"200ms\";\n"
			       "  trash_size = 100; phc_sync = \"sync\";\n"
			       "  phc_tolerance = 0; };\n");

	TU_ASSERT_CONTAINS(e, "source.queue: 2 is out of range: allowed 0 to 1");
	TU_ASSERT_CONTAINS(e, "source.prio: 16 is out of range: allowed 0 to 15");
	TU_ASSERT_CONTAINS(e, "source.etf_delta: \"5us\" is out of range: allowed 10us to 100ms");
	TU_ASSERT_CONTAINS(e, "source.post_wait: \"200ms\" is out of range: allowed 0 to 100ms");
	TU_ASSERT_CONTAINS(e, "source.trash_size: 100 is out of range: allowed 4096 to 1073741824 bytes");
	TU_ASSERT_CONTAINS(e, "source.phc_sync: \"sync\" is not allowed: use one of \"step\", \"check\"");
	TU_ASSERT_CONTAINS(e, "source.phc_tolerance: \"0ns\" is out of range: allowed 1us to 1ms");
	free(e);
	e = parse_errors("source = { queue = 1; prio = 0; etf_delta = \"100ms\";\n"
			 "  post_wait = 0; trash_size = 4096; phc_sync = \"check\";\n"
			 "  phc_tolerance = \"1us\"; };\n");
	CU_ASSERT_STRING_EQUAL(e, "");
	free(e);
}

/* ---- open() refusals ---- */

/* A fake sysfs: 0000:01:00.0 driven by `drv` with interface eth7
 * (flags as given), 0000:02:00.0 (the I211 of pci-two-nics) by igb. */
static void make_tree(const char *drv, const char *flags)
{
	root = tu_tmpdir();
	sh("mkdir -p %1$s/bus/pci/devices/0000:01:00.0/net/eth7 "
	   "%1$s/bus/pci/devices/0000:02:00.0/net/eth8 "
	   "%1$s/bus/pci/drivers/igb %1$s/bus/pci/drivers/wultfw_i210 "
	   "%1$s/class/net/eth7/queues/tx-0 %1$s/class/net/eth7/queues/tx-1 "
	   "%1$s/class/net/eth8 %1$s/class/net/lo", root);
	sh("ln -s ../../../bus/pci/devices/0000:01:00.0 %1$s/class/net/eth7/device && "
	   "ln -s ../../../bus/pci/devices/0000:02:00.0 %1$s/class/net/eth8/device && "
	   "ln -s ../../drivers/igb %1$s/bus/pci/devices/0000:02:00.0/driver && "
	   "echo 0x1003 >%1$s/class/net/eth8/flags && "
	   "echo 02:00:00:00:00:07 >%1$s/class/net/eth7/address", root);
	{
		char cmd[1024];

		snprintf(cmd, sizeof(cmd), "ln -s ../../drivers/%s %s/bus/pci/"
			 "devices/0000:01:00.0/driver && echo %s >%s/class/net/"
			 "eth7/flags", drv, root, flags, root);
		CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	}
}

static void drop_tree(void)
{
	tu_rmtree(root);
	free(root);
	root = NULL;
}

static int open_with(const char *ifname, const char *pci, const char *dump,
		     const char *device)
{
	struct wultfw_source_info info;
	int err;

	defaults();
	if (ifname)
		opts[O_IFNAME] = (struct wultfw_value){ .set = true, .s = ifname };
	if (pci)
		opts[O_PCI] = (struct wultfw_value){ .set = true, .s = pci };
	if (dump)
		opts[O_DUMP] = (struct wultfw_value){ .set = true, .s = dump };
	if (device)
		opts[O_DEVICE].s = device;
	if (root)
		ctx.sysfs_root = root;
	to_cfg();
	memset(&info, 0, sizeof(info));
	err = ndl_LTX_wultfw_plugin.source->open(&ctx, &info);
	CU_ASSERT_PTR_NULL(ctx.priv);	/* nothing left behind on failure */
	return err;
}

static void test_open_no_nic(void)
{
	root = NULL;
	CU_ASSERT_EQUAL(open_with(NULL, NULL, DATA("pci-no-i210.txt"), NULL),
			-ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "no I210 managed by igb found");
	CU_ASSERT_EQUAL(open_with(NULL, "0000:00:1f.6", DATA("pci-no-i210.txt"),
				  NULL), -ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "0000:00:1f.6 is not an I210 (it is 8086:15b8");
	CU_ASSERT_EQUAL(ctx.bad_opt, O_PCI);
}

static void test_open_reasons(void)
{
	char dev[PATH_MAX];

	make_tree("wultfw_i210", "0x1003");
	/* The I210 is on our i210 driver, the I211 cannot launch. */
	CU_ASSERT_EQUAL(open_with(NULL, NULL, DATA("pci-two-nics.txt"), NULL),
			-ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "no I210 managed by igb found (found: "
			   "I210 0000:01:00.0 (wultfw_i210), I211 0000:02:00.0 (igb))");
	CU_ASSERT_EQUAL(open_with("eth7", NULL, DATA("pci-two-nics.txt"), NULL),
			-ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "driven by wultfw_i210, not igb");
	CU_ASSERT_EQUAL(ctx.bad_opt, O_IFNAME);
	CU_ASSERT_EQUAL(open_with("eth8", NULL, DATA("pci-two-nics.txt"), NULL),
			-ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "0000:02:00.0 is an I211, which has no launch time");
	CU_ASSERT_EQUAL(open_with("nosuch0", NULL, DATA("pci-two-nics.txt"), NULL),
			-ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "no network interface 'nosuch0'");
	CU_ASSERT_EQUAL(open_with("lo", NULL, DATA("pci-two-nics.txt"), NULL),
			-ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "lo is not a PCI device");
	drop_tree();

	/* On igb but down. */
	make_tree("igb", "0x1002");
	CU_ASSERT_EQUAL(open_with(NULL, "0000:01:00.0", DATA("pci-two-nics.txt"),
				  NULL), -ENETDOWN);
	TU_ASSERT_CONTAINS(ctx.err, "interface eth7 is down");
	drop_tree();

	/* Up: now the module is missing. */
	make_tree("igb", "0x1003");
	CU_ASSERT_EQUAL(open_with(NULL, NULL, DATA("pci-i210-aspm-off.txt"),
				  NULL), -ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "module wultfw_ndl not loaded "
			   "(/nonexistent/wultfw_ndl missing)");
	CU_ASSERT_EQUAL(open_with("eth7", NULL, DATA("pci-two-nics.txt"), NULL),
			-ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "module wultfw_ndl not loaded");
	/* With a "device" that opens, a dump still never measures. */
	snprintf(dev, sizeof(dev), "%s/fake_dev", root);
	sh("touch %s", dev);
	CU_ASSERT_EQUAL(open_with("eth7", NULL, DATA("pci-two-nics.txt"), dev),
			-EOPNOTSUPP);
	TU_ASSERT_CONTAINS(ctx.err, "0000:01:00.0 (eth7) found in the dump");
	CU_ASSERT_EQUAL(ctx.bad_opt, O_DUMP);
	drop_tree();
}

static void test_sysfs_helpers(void)
{
	unsigned char mac[6];

	make_tree("igb", "0x1003");
	CU_ASSERT_EQUAL(ndl_nic_txqueues(root, "eth7"), 2);
	CU_ASSERT_EQUAL(ndl_nic_txqueues(root, "eth8"), -ENOENT);
	CU_ASSERT_EQUAL(ndl_nic_mac(root, "eth7", mac), 0);
	CU_ASSERT(mac[0] == 2 && mac[5] == 7);
	drop_tree();
	CU_ASSERT_EQUAL(ndl_parse_mac("aa:bb:cc:dd:ee:ff", mac), 0);
	CU_ASSERT(mac[0] == 0xaa && mac[5] == 0xff);
	CU_ASSERT_EQUAL(ndl_parse_mac("aa:bb:cc:dd:ee:ff:00", mac), -EINVAL);
	CU_ASSERT_EQUAL(ndl_parse_mac("aa:bb:cc:dd:ee", mac), -EINVAL);
}

/* ---- qdisc layout ---- */

static void test_mqprio_plan(void)
{
	struct ndl_mqprio_plan p;
	unsigned int i;

	/* Queue 1 of 4: tcs [0], [1], [2,3] in queue order. */
	CU_ASSERT_EQUAL_FATAL(ndl_mqprio_plan(4, 1, 6, &p), 0);
	CU_ASSERT_EQUAL(p.num_tc, 3);
	CU_ASSERT_EQUAL(p.queue_tc, 1);
	CU_ASSERT(p.offset[0] == 0 && p.count[0] == 1);
	CU_ASSERT(p.offset[1] == 1 && p.count[1] == 1);
	CU_ASSERT(p.offset[2] == 2 && p.count[2] == 2);
	for (i = 0; i < 16; i++)
		CU_ASSERT_EQUAL(p.prio_tc_map[i], i == 6 ? 1 : 0);

	/* Queue 0 of 4: ours first, everything else on 1..3. */
	CU_ASSERT_EQUAL_FATAL(ndl_mqprio_plan(4, 0, 3, &p), 0);
	CU_ASSERT_EQUAL(p.num_tc, 2);
	CU_ASSERT_EQUAL(p.queue_tc, 0);
	CU_ASSERT(p.offset[1] == 1 && p.count[1] == 3);
	CU_ASSERT_EQUAL(p.prio_tc_map[3], 0);
	CU_ASSERT_EQUAL(p.prio_tc_map[0], 1);
	CU_ASSERT_EQUAL(p.prio_tc_map[15], 1);

	/* Last queue: nothing after it. */
	CU_ASSERT_EQUAL_FATAL(ndl_mqprio_plan(2, 1, 0, &p), 0);
	CU_ASSERT_EQUAL(p.num_tc, 2);
	CU_ASSERT(p.offset[1] == 1 && p.count[1] == 1 && p.queue_tc == 1);
	CU_ASSERT_EQUAL(p.prio_tc_map[0], 1);
	CU_ASSERT_EQUAL(p.prio_tc_map[1], 0);

	CU_ASSERT_EQUAL(ndl_mqprio_plan(1, 0, 0, &p), -EINVAL);
	CU_ASSERT_EQUAL(ndl_mqprio_plan(4, 4, 0, &p), -EINVAL);
	CU_ASSERT_EQUAL(ndl_mqprio_plan(4, 0, 16, &p), -EINVAL);
}

static void test_restorable(void)
{
	static struct ndl_qdiscs q, r;
	char why[256], diff[128];

	memset(&q, 0, sizeof(q));
	q.n = 2;
	snprintf(q.q[0].kind, sizeof(q.q[0].kind), "mq");
	q.q[0].parent = 0xffffffff;
	snprintf(q.q[1].kind, sizeof(q.q[1].kind), "fq_codel");
	q.q[1].parent = 1;
	CU_ASSERT_EQUAL(ndl_qdisc_check_restorable(&q, why, sizeof(why)), 0);
	snprintf(q.q[0].kind, sizeof(q.q[0].kind), "htb");
	q.q[0].handle = 0x10000;
	CU_ASSERT_EQUAL(ndl_qdisc_check_restorable(&q, why, sizeof(why)), -EBUSY);
	TU_ASSERT_CONTAINS(why, "htb qdisc (handle 1:)");

	/* Equality looks at options too. */
	r = q;
	CU_ASSERT(ndl_qdisc_equal(&q, &r, diff, sizeof(diff)));
	r.q[1].optlen = 1;
	r.q[1].opts[0] = 1;
	CU_ASSERT_FALSE(ndl_qdisc_equal(&q, &r, diff, sizeof(diff)));
	TU_ASSERT_CONTAINS(diff, "fq_codel 0: parent 0:1");
	r = q;
	r.n = 1;
	CU_ASSERT_FALSE(ndl_qdisc_equal(&q, &r, diff, sizeof(diff)));
}

/* ---- the record a later wultfw restores the qdiscs from ---- */

static void test_keep_record(void)
{
	static struct ndl_qdiscs saved;
	static struct ndl_keep k, back;
	char line[WULTFW_RESTORE_DATA_MAX], why[512], what[180];

	/* A user's root pfifo 5: (limit 77) and a default child: only the
	 * configured one is recorded. */
	memset(&saved, 0, sizeof(saved));
	saved.n = 2;
	snprintf(saved.q[0].kind, sizeof(saved.q[0].kind), "pfifo");
	saved.q[0].handle = 0x50000;
	saved.q[0].parent = 0xffffffff;
	saved.q[0].optlen = 4;
	memcpy(saved.q[0].opts, "\x4d\0\0\0", 4);
	snprintf(saved.q[1].kind, sizeof(saved.q[1].kind), "fq_codel");
	saved.q[1].parent = 0x50001;
	ndl_keep_init(&k, 7, "eth1", 4, 1, &saved);
	CU_ASSERT_EQUAL(k.user.n, 1);
	CU_ASSERT_FALSE(k.etf_root);
	CU_ASSERT_EQUAL_FATAL(ndl_keep_encode(&k, line, sizeof(line), why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(line, "v1 7 eth1 mqprio 1 1 pfifo 50000 ffffffff 4d000000");
	CU_ASSERT_EQUAL_FATAL(ndl_keep_decode(line, &back, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(back.ifindex, 7);
	CU_ASSERT_STRING_EQUAL(back.ifname, "eth1");
	CU_ASSERT_EQUAL(back.queue, 1);
	CU_ASSERT_EQUAL_FATAL(back.user.n, 1);
	CU_ASSERT(ndl_qdisc_same(&back.user.q[0], &saved.q[0]));
	ndl_keep_what(&k, what, sizeof(what));
	CU_ASSERT_STRING_EQUAL(what, "qdisc etf on eth1 TX queue 1 under a root mqprio 100: (before: pfifo 5: root)");

	/* One TX queue, defaults only. */
	saved.n = 0;
	ndl_keep_init(&k, 3, "eth2", 1, 0, &saved);
	CU_ASSERT_EQUAL(ndl_keep_encode(&k, line, sizeof(line), why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(line, "v1 3 eth2 etf 0 0");
	ndl_keep_what(&k, what, sizeof(what));
	CU_ASSERT_STRING_EQUAL(what, "qdisc etf as the root of eth2 (before: the defaults)");

	/* Too much to record: refused before anything changes. */
	saved.n = 1;
	saved.q[0].optlen = 1500;
	ndl_keep_init(&k, 3, "eth2", 4, 0, &saved);
	CU_ASSERT_EQUAL(ndl_keep_encode(&k, line, sizeof(line), why, sizeof(why)), -E2BIG);
	TU_ASSERT_CONTAINS(why, "more than the 2047 a state file line holds");

	CU_ASSERT_EQUAL(ndl_keep_decode("v1 7 eth1 tbf 0 0", &back, why, sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(ndl_keep_decode("v1 7 eth1 etf 0 2 pfifo 1 2 -", &back, why, sizeof(why)), -EINVAL);
	TU_ASSERT_CONTAINS(why, "qdisc 2 of 2");
	CU_ASSERT_EQUAL(ndl_keep_decode("v1 7 eth1 etf 0 1 pfifo 1 2 4d0", &back, why, sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(ndl_keep_decode("v1 7 eth1 etf 0 0 extra", &back, why, sizeof(why)), -EINVAL);
}

/* The restore op: a bad record is refused; an interface gone is done. */
static void test_restore_op(void)
{
	struct wultfw_ctx c = { .plugin = &ndl_LTX_wultfw_plugin, .cpu = -1,
				.sysfs_root = "/sys" };

	CU_ASSERT_PTR_NOT_NULL_FATAL(ndl_LTX_wultfw_plugin.restore);
	CU_ASSERT_EQUAL(ndl_LTX_wultfw_plugin.restore(&c, "nonsense"), -EINVAL);
	TU_ASSERT_CONTAINS(c.err, "not an ndl qdisc record");
	/* No interface has this index: its qdiscs went with it. */
	CU_ASSERT_EQUAL(ndl_LTX_wultfw_plugin.restore(&c, "v1 2147483000 gone0 mqprio 0 0"), 0);
}

/* ---- the register side, against the model ---- */

static void test_rtd_units(void)
{
	struct i210_model m;
	struct wfw_i210 nic;
	struct wfw_i210_io io;

	i210_model_init(&m, 0);
	io = i210_model_io_for(&m);
	wfw_i210_init(&nic, &io);
	i210_model_dma(&m, 800);
	i210_model_dma(&m, 12345);	/* the longest wins */
	i210_model_dma(&m, 3000);
	CU_ASSERT_EQUAL(wfw_i210_rtd_raw(&nic), 12345 / 16);
	CU_ASSERT_EQUAL(wfw_i210_rtd_raw(&nic), 0);	/* cleared on read */
	CU_ASSERT_EQUAL(wfw_i210_rtd_raw_to_ns(771), 12336);
	/* 100 us in 16 ns units is 6250: what the module returns as rtd_ns. */
	CU_ASSERT_EQUAL(wfw_i210_rtd_raw_to_ns(6250), 100000);
	/* Large values do not wrap in 32 bits. */
	CU_ASSERT_EQUAL(wfw_i210_rtd_raw_to_ns(0xfffffffeu), 0xfffffffeULL * 16);
}

static void test_txq_wthresh(void)
{
	struct i210_model m;
	struct wfw_i210 nic;
	struct wfw_i210_io io;
	uint32_t saved, q0 = 0x02100000u | 0x0101, q1 = 0x02100000u | 0x0808;

	i210_model_init(&m, 0);
	io = i210_model_io_for(&m);
	wfw_i210_init(&nic, &io);
	m.regs[I210_TXDCTL(0) / 4] = q0;
	m.regs[I210_TXDCTL(1) / 4] = q1;	/* WTHRESH 16 as igb sets it */
	CU_ASSERT_EQUAL(wfw_i210_txq_wthresh(&nic, 1), 16);
	saved = wfw_i210_txq_wthresh_clear(&nic, 1);
	CU_ASSERT_EQUAL(saved, q1);
	CU_ASSERT_EQUAL(wfw_i210_txq_wthresh(&nic, 1), 0);
	CU_ASSERT_EQUAL(m.regs[I210_TXDCTL(1) / 4], q1 & ~I210_TXDCTL_WTHRESH_MASK);
	CU_ASSERT_EQUAL(m.regs[I210_TXDCTL(0) / 4], q0);	/* other queue */
	/* igb changes another field meanwhile: restore keeps it. */
	m.regs[I210_TXDCTL(1) / 4] |= 0x1f;
	wfw_i210_txq_wthresh_restore(&nic, 1, saved);
	CU_ASSERT_EQUAL(m.regs[I210_TXDCTL(1) / 4], q1 | 0x1f);
	/* Clearing an already clear WTHRESH writes nothing. */
	m.nlog = 0;
	m.regs[I210_TXDCTL(0) / 4] = 0x02000000u;
	wfw_i210_txq_wthresh_clear(&nic, 0);
	CU_ASSERT_EQUAL(i210_model_find(&m, true, I210_TXDCTL(0), 0), -1);
}

/* ---- clocks ---- */

static void test_clock_offset(void)
{
	struct timex tx = { 0 };
	int64_t off, gap;

	CU_ASSERT_EQUAL_FATAL(ndl_clock_offset(CLOCK_TAI, CLOCK_TAI, &off, &gap), 0);
	CU_ASSERT(gap >= 0 && gap < 1000000);
	CU_ASSERT(off >= -gap && off <= gap);
	/* REALTIME = TAI - the kernel's TAI offset (0 unless set). */
	adjtimex(&tx);
	CU_ASSERT_EQUAL_FATAL(ndl_clock_offset(CLOCK_REALTIME, CLOCK_TAI, &off,
					       &gap), 0);
	CU_ASSERT(llabs(off + (int64_t)tx.tai * 1000000000LL) < 1000000);
	/* Stepping needs a settable clock; a PHC here there is none. */
	CU_ASSERT(ndl_clock_step(CLOCK_MONOTONIC, 1000) < 0);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("ndl plugin", NULL, NULL);
	CU_add_test(s, "option table", test_table_order);
	CU_add_test(s, "validate", test_validate);
	CU_add_test(s, "bounds and choices in the table", test_bounds);
	CU_add_test(s, "open: no I210", test_open_no_nic);
	CU_add_test(s, "open: exact reasons", test_open_reasons);
	CU_add_test(s, "sysfs helpers", test_sysfs_helpers);
	CU_add_test(s, "mqprio layout", test_mqprio_plan);
	CU_add_test(s, "qdisc restorable/equal", test_restorable);
	CU_add_test(s, "qdisc record for a later wultfw", test_keep_record);
	CU_add_test(s, "restore op", test_restore_op);
	CU_add_test(s, "RTD units (model)", test_rtd_units);
	CU_add_test(s, "per-queue WTHRESH (model)", test_txq_wthresh);
	CU_add_test(s, "clock offset", test_clock_offset);
	return tu_run();
}
