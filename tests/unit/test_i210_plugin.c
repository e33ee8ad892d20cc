/* SPDX-License-Identifier: MIT */
/*
 * plugins/i210: the driver_override dance against a fake sysfs tree whose
 * write hook plays the kernel (moves the driver link), and open()'s exact
 * reasons for refusing, from lspci -xxx dumps. No I210 and no module here.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wultfw/plugin.h>

#include "bind.h"
#include "testutil.h"

#define DATA(f) TEST_DATA "/" f
#define ADDR "0000:01:00.0"

extern const struct wultfw_plugin i210_LTX_wultfw_plugin;

static char *root;
static char wlog[16][128];
static int nw;
static bool probe_fails;

/* Run a shell command; every %1$s in fmt is the argument. */
#define sh(fmt, a) do { \
		char cmd_[1024]; \
		snprintf(cmd_, sizeof(cmd_), fmt, a); \
		CU_ASSERT_EQUAL_FATAL(system(cmd_), 0); \
	} while (0)

/* The kernel's side of bind/unbind, as far as the dance can observe it. */
static void fake_kernel(void *arg, const char *path, const char *val)
{
	char link[PATH_MAX], drv[64];
	const char *rel = path + strlen(root) + 1;

	(void)arg;
	snprintf(wlog[nw++ % 16], sizeof(wlog[0]), "%s=%s", rel, val);
	snprintf(link, sizeof(link), "%s/bus/pci/devices/" ADDR "/driver", root);
	if (sscanf(rel, "bus/pci/drivers/%63[^/]", drv) != 1)
		return;
	if (!strcmp(rel + strlen(rel) - 7, "/unbind")) {
		unlink(link);
	} else if (!strcmp(rel + strlen(rel) - 5, "/bind")) {
		char target[128];

		if (probe_fails && !strcmp(drv, "wultfw_i210"))
			return;
		snprintf(target, sizeof(target), "../../drivers/%s", drv);
		CU_ASSERT_EQUAL(symlink(target, link), 0);
	}
}

static void make_tree(bool with_ours)
{
	root = tu_tmpdir();
	sh("mkdir -p %1$s/bus/pci/devices/" ADDR "/net/eth7 %1$s/bus/pci/drivers/igb "
	   "%1$s/class/net/eth7", root);
	sh("touch %1$s/bus/pci/drivers/igb/bind %1$s/bus/pci/drivers/igb/unbind "
	   "%1$s/bus/pci/devices/" ADDR "/driver_override", root);
	sh("ln -s ../../drivers/igb %1$s/bus/pci/devices/" ADDR "/driver; "
	   "echo 0x1002 >%1$s/class/net/eth7/flags", root);
	if (with_ours)
		sh("mkdir %1$s/bus/pci/drivers/wultfw_i210 && touch "
		   "%1$s/bus/pci/drivers/wultfw_i210/bind "
		   "%1$s/bus/pci/drivers/wultfw_i210/unbind", root);
	nw = 0;
	probe_fails = false;
}

static void drop_tree(void)
{
	tu_rmtree(root);
	free(root);
}

static char *file(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return tu_read(p);
}

static void bind_setup(struct i210_bind *b)
{
	i210_bind_init(b, root, ADDR);
	b->hook = fake_kernel;
}

static void test_take_restore(void)
{
	struct i210_bind b;
	char why[512], drv[64];
	char *ov;

	make_tree(true);
	bind_setup(&b);
	CU_ASSERT_EQUAL_FATAL(i210_bind_take(&b, "wultfw_i210", why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(b.orig, "igb");
	CU_ASSERT_EQUAL(i210_bind_current(&b, drv, sizeof(drv)), 0);
	CU_ASSERT_STRING_EQUAL(drv, "wultfw_i210");
	/* Override first, then unbind from igb, then bind to ours. */
	CU_ASSERT_EQUAL_FATAL(nw, 3);
	CU_ASSERT_STRING_EQUAL(wlog[0], "bus/pci/devices/" ADDR "/driver_override=wultfw_i210");
	CU_ASSERT_STRING_EQUAL(wlog[1], "bus/pci/drivers/igb/unbind=" ADDR);
	CU_ASSERT_STRING_EQUAL(wlog[2], "bus/pci/drivers/wultfw_i210/bind=" ADDR);

	CU_ASSERT_EQUAL(i210_bind_restore(&b, "wultfw_i210", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(i210_bind_current(&b, drv, sizeof(drv)), 0);
	CU_ASSERT_STRING_EQUAL(drv, "igb");
	ov = file("bus/pci/devices/" ADDR "/driver_override");
	CU_ASSERT_STRING_EQUAL(ov, "\n");	/* override cleared */
	free(ov);
	CU_ASSERT_EQUAL(nw, 6);
	CU_ASSERT_STRING_EQUAL(wlog[3], "bus/pci/drivers/wultfw_i210/unbind=" ADDR);
	CU_ASSERT_STRING_EQUAL(wlog[5], "bus/pci/drivers/igb/bind=" ADDR);
	/* Restoring twice does nothing. */
	CU_ASSERT_EQUAL(i210_bind_restore(&b, "wultfw_i210", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(nw, 6);
	drop_tree();
}

static void test_module_missing(void)
{
	struct i210_bind b;
	char why[512], drv[64];

	make_tree(false);
	bind_setup(&b);
	CU_ASSERT_EQUAL(i210_bind_take(&b, "wultfw_i210", why, sizeof(why)), -ENOENT);
	TU_ASSERT_CONTAINS(why, "modprobe wultfw_i210");
	CU_ASSERT_EQUAL(nw, 0);		/* nothing touched */
	CU_ASSERT_EQUAL(i210_bind_restore(&b, "wultfw_i210", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(nw, 0);
	CU_ASSERT_EQUAL(i210_bind_current(&b, drv, sizeof(drv)), 0);
	CU_ASSERT_STRING_EQUAL(drv, "igb");
	drop_tree();
}

static void test_probe_fails(void)
{
	struct i210_bind b;
	char why[512], drv[64];
	char *ov;

	make_tree(true);
	bind_setup(&b);
	probe_fails = true;	/* e.g. the reset timed out */
	CU_ASSERT_EQUAL(i210_bind_take(&b, "wultfw_i210", why, sizeof(why)), -EIO);
	TU_ASSERT_CONTAINS(why, "bound to 'no driver', expected 'wultfw_i210'");
	/* Given back to igb at once, override cleared. */
	CU_ASSERT_EQUAL(i210_bind_current(&b, drv, sizeof(drv)), 0);
	CU_ASSERT_STRING_EQUAL(drv, "igb");
	ov = file("bus/pci/devices/" ADDR "/driver_override");
	CU_ASSERT_STRING_EQUAL(ov, "\n");
	free(ov);
	CU_ASSERT_FALSE(b.moved);
	drop_tree();
}

/* ---- giving the NIC back after a kill, from the record alone ---- */

int i210_restore_parse(const char *data, struct i210_bind *b);

/* The record i210 leaves in the state file, parsed back with the hook on. */
static void giveback_setup(struct i210_bind *b, const char *orig)
{
	static char data[1200];	/* b->sysfs points into it */

	snprintf(data, sizeof(data), "v1 " ADDR " %s %s", orig, root);
	CU_ASSERT_EQUAL_FATAL(i210_restore_parse(data, b), 0);
	CU_ASSERT_STRING_EQUAL(b->addr, ADDR);
	CU_ASSERT_STRING_EQUAL(b->sysfs, root);
	b->hook = fake_kernel;
}

static void expect_igb_no_override(void)
{
	struct i210_bind b;
	char drv[64], *ov;

	i210_bind_init(&b, root, ADDR);
	CU_ASSERT_EQUAL(i210_bind_current(&b, drv, sizeof(drv)), 0);
	CU_ASSERT_STRING_EQUAL(drv, "igb");
	ov = file("bus/pci/devices/" ADDR "/driver_override");
	CU_ASSERT(!strcmp(ov, "\n") || !strcmp(ov, ""));
	free(ov);
}

/* Killed at every step of the take: each state goes back to igb. */
static void test_giveback_after_kill(void)
{
	struct i210_bind b;
	char why[512];
	int stop;

	/* Kill after 0, 1 (override), 2 (unbound) and 3 (ours) writes. */
	for (stop = 0; stop <= 3; stop++) {
		make_tree(true);
		if (stop >= 1)
			sh("printf wultfw_i210 >%s/bus/pci/devices/" ADDR "/driver_override", root);
		if (stop >= 2)
			sh("rm %s/bus/pci/devices/" ADDR "/driver", root);
		if (stop >= 3)
			sh("ln -s ../../drivers/wultfw_i210 %s/bus/pci/devices/" ADDR "/driver", root);
		nw = 0;
		giveback_setup(&b, "igb");
		CU_ASSERT_EQUAL(i210_bind_giveback(&b, "wultfw_i210", why, sizeof(why)), 0);
		expect_igb_no_override();
		/* Writes: unbind if ours, clear our override, bind if unbound. */
		CU_ASSERT_EQUAL(nw, (stop >= 3) + (stop >= 1) + (stop >= 2));
		/* Twice: nothing more to do. */
		nw = 0;
		CU_ASSERT_EQUAL(i210_bind_giveback(&b, "wultfw_i210", why, sizeof(why)), 0);
		CU_ASSERT_EQUAL(nw, 0);
		drop_tree();
	}
}

/* Someone else's driver, a device gone, an unbind that does not take. */
static void test_giveback_edges(void)
{
	struct i210_bind b;
	char why[512];

	make_tree(true);
	sh("mkdir %1$s/bus/pci/drivers/vfio-pci; rm %1$s/bus/pci/devices/" ADDR "/driver; "
	   "ln -s ../../drivers/vfio-pci %1$s/bus/pci/devices/" ADDR "/driver", root);
	giveback_setup(&b, "igb");
	CU_ASSERT_EQUAL(i210_bind_giveback(&b, "wultfw_i210", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(nw, 0);		/* theirs now: left alone */

	sh("rm %1$s/bus/pci/devices/" ADDR "/driver; "
	   "ln -s ../../drivers/wultfw_i210 %1$s/bus/pci/devices/" ADDR "/driver", root);
	b.hook = NULL;		/* a kernel that does not let go */
	CU_ASSERT_EQUAL(i210_bind_giveback(&b, "wultfw_i210", why, sizeof(why)), -EIO);
	TU_ASSERT_CONTAINS(why, "is bound to 'wultfw_i210', expected 'igb'");

	sh("rm -r %1$s/bus/pci/devices/" ADDR, root);
	CU_ASSERT_EQUAL(i210_bind_giveback(&b, "wultfw_i210", why, sizeof(why)), 0);
	drop_tree();
	CU_ASSERT_EQUAL(i210_restore_parse("v1 " ADDR " igb", &b), -EINVAL);
	CU_ASSERT_EQUAL(i210_restore_parse("v2 " ADDR " igb /sys", &b), -EINVAL);
	CU_ASSERT_EQUAL(i210_restore_parse("v1 " ADDR " - /s y s", &b), 0);
	CU_ASSERT_STRING_EQUAL(b.orig, "");
	CU_ASSERT_STRING_EQUAL(b.sysfs, "/s y s");
}

/*
 * The plugin's restore op, as a later wultfw calls it: on the window
 * where only the override was written (igb still bound; binding igb
 * again would fail with EBUSY on a real kernel) it only clears it.
 */
static void test_restore_op(void)
{
	struct wultfw_ctx c = { .plugin = &i210_LTX_wultfw_plugin, .cpu = -1,
				.sysfs_root = "/sys" };
	char data[1200];

	CU_ASSERT_PTR_NOT_NULL_FATAL(i210_LTX_wultfw_plugin.restore);
	make_tree(true);
	sh("printf wultfw_i210 >%s/bus/pci/devices/" ADDR "/driver_override", root);
	snprintf(data, sizeof(data), "v1 " ADDR " igb %s", root);
	CU_ASSERT_EQUAL(i210_LTX_wultfw_plugin.restore(&c, data), 0);
	expect_igb_no_override();
	CU_ASSERT_EQUAL(i210_LTX_wultfw_plugin.restore(&c, "garbage"), -EINVAL);
	TU_ASSERT_CONTAINS(c.err, "not an i210 binding record");
	drop_tree();
}

/* ---- open() reasons ---- */

static struct wultfw_value opts[6];
static struct {		/* plugins/i210/i210.c: struct i210_cfg */
	const char *pci;
	bool force;
	const char *pci_dump;
	bool raw;
} cfg;
static struct wultfw_ctx ctx;

static int open_with(const char *pci, const char *dump, const char *sysfs,
		     bool force)
{
	struct wultfw_source_info info;

	memset(opts, 0, sizeof(opts));
	memset(&ctx, 0, sizeof(ctx));
	opts[0].set = true;
	opts[0].s = pci;
	opts[1].set = true;
	opts[1].b = force;
	opts[2].set = dump != NULL;
	opts[2].s = dump;
	opts[3].set = true;
	cfg.pci = pci;
	cfg.force = force;
	cfg.pci_dump = dump;
	cfg.raw = false;
	ctx.sysfs_root = sysfs ? sysfs : "/sys";
	ctx.plugin = &i210_LTX_wultfw_plugin;
	ctx.opts = opts;
	ctx.cfg = &cfg;
	return i210_LTX_wultfw_plugin.source->open(&ctx, &info);
}

static void test_open_reasons(void)
{
	CU_ASSERT_STRING_EQUAL(i210_LTX_wultfw_plugin.name, "i210");
	CU_ASSERT_EQUAL(open_with("auto", DATA("pci-no-i210.txt"), NULL, false), -ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "no I210/I211 NIC found (PCI IDs 8086:{0x1533");
	CU_ASSERT_PTR_NULL(ctx.priv);

	CU_ASSERT_EQUAL(open_with("0000:00:1f.6", DATA("pci-no-i210.txt"), NULL,
				  false), -ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "0000:00:1f.6 is not an I210/I211 (it is 8086:15b8");

	CU_ASSERT_EQUAL(open_with("0000:03:00.0", DATA("pci-two-nics.txt"), NULL,
				  false), -ENODEV);
	TU_ASSERT_CONTAINS(ctx.err, "no PCI device at 0000:03:00.0");

	CU_ASSERT_EQUAL(open_with("auto", DATA("pci-two-nics.txt"), NULL, false),
			-EINVAL);
	TU_ASSERT_CONTAINS(ctx.err, "2 I210/I211 NICs found (0000:01:00.0, 0000:02:00.0)");

	CU_ASSERT_EQUAL(open_with("auto", DATA("pci-broken.txt"), NULL, false),
			-EINVAL);
	TU_ASSERT_CONTAINS(ctx.err, "Malformed line");

	CU_ASSERT_EQUAL(open_with("02:00.0", DATA("pci-two-nics.txt"), NULL,
				  false), -EOPNOTSUPP);
	TU_ASSERT_CONTAINS(ctx.err, "0000:02:00.0 (I211) found in the dump");
	CU_ASSERT_PTR_NULL(ctx.priv);
}

static void test_open_iface_up(void)
{
	make_tree(true);
	sh("echo 0x1003 >%1$s/class/net/eth7/flags", root);
	CU_ASSERT_EQUAL(open_with("auto", DATA("pci-i210-aspm-l1.txt"), root,
				  false), -EBUSY);
	TU_ASSERT_CONTAINS(ctx.err, "interface eth7 is up");
	TU_ASSERT_CONTAINS(ctx.err, "force = true");
	/* Forced, it gets past that check (and stops at the dump). */
	CU_ASSERT_EQUAL(open_with("auto", DATA("pci-i210-aspm-l1.txt"), root,
				  true), -EOPNOTSUPP);
	drop_tree();
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("i210 plugin", NULL, NULL);
	CU_add_test(s, "take and restore", test_take_restore);
	CU_add_test(s, "module not loaded", test_module_missing);
	CU_add_test(s, "probe fails: given back", test_probe_fails);
	CU_add_test(s, "given back after a kill at each step", test_giveback_after_kill);
	CU_add_test(s, "given back: edges", test_giveback_edges);
	CU_add_test(s, "restore op", test_restore_op);
	CU_add_test(s, "open: exact reasons", test_open_reasons);
	CU_add_test(s, "open: interface up", test_open_iface_up);
	return tu_run();
}
