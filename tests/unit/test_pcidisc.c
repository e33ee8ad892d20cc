/* SPDX-License-Identifier: MIT */
/*
 * lib/pcidisc against hand-built `lspci -xxx` dumps (tests/data/, see
 * gen_pci_dumps.py) read through libpci's dump method, and a fake sysfs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcidisc/pcidisc.h"
#include "testutil.h"

#define DATA(f) TEST_DATA "/" f

static struct wfw_nic nics[WFW_PCIDISC_MAX];
static char why[512];

static size_t find(const char *dump, int want_err)
{
	struct wfw_pcidisc_opts o = { .dump = dump };
	size_t n = 99;

	CU_ASSERT_EQUAL(wfw_pcidisc_find(&o, nics, WFW_PCIDISC_MAX, &n, why,
					 sizeof(why)), want_err);
	return n;
}

static void test_no_i210(void)
{
	CU_ASSERT_EQUAL(find(DATA("pci-no-i210.txt"), 0), 0);
}

static void test_aspm_off(void)
{
	CU_ASSERT_EQUAL_FATAL(find(DATA("pci-i210-aspm-off.txt"), 0), 1);
	CU_ASSERT_STRING_EQUAL(nics[0].addr, "0000:01:00.0");
	CU_ASSERT_STRING_EQUAL(nics[0].model, "I210");
	CU_ASSERT_EQUAL(nics[0].device, 0x1533);
	CU_ASSERT_EQUAL(nics[0].aspm, 0);
	CU_ASSERT_STRING_EQUAL(nics[0].up_addr, "0000:00:1c.0");
	CU_ASSERT_EQUAL(nics[0].up_aspm, 0);
	/* sysfs-only facts are absent for a dump. */
	CU_ASSERT_TRUE(nics[0].from_dump);
	CU_ASSERT_EQUAL(nics[0].numa_node, -1);
	CU_ASSERT_STRING_EQUAL(nics[0].driver, "");
	CU_ASSERT_EQUAL(nics[0].if_up, -1);
}

static void test_aspm_l1(void)
{
	CU_ASSERT_EQUAL_FATAL(find(DATA("pci-i210-aspm-l1.txt"), 0), 1);
	CU_ASSERT_EQUAL(nics[0].aspm, 2);
	CU_ASSERT_EQUAL(nics[0].up_aspm, 2);
	CU_ASSERT_STRING_EQUAL(wfw_pcidisc_aspm_str(nics[0].aspm), "L1");
}

static void test_two_nics(void)
{
	CU_ASSERT_EQUAL_FATAL(find(DATA("pci-two-nics.txt"), 0), 2);
	CU_ASSERT_STRING_EQUAL(nics[0].addr, "0000:01:00.0");
	CU_ASSERT_EQUAL(nics[0].device, 0x157b);
	CU_ASSERT_EQUAL(nics[0].aspm, 3);
	CU_ASSERT_STRING_EQUAL(nics[0].up_addr, "0000:00:1c.0");
	CU_ASSERT_EQUAL(nics[0].up_aspm, 3);
	CU_ASSERT_STRING_EQUAL(nics[1].addr, "0000:02:00.0");
	CU_ASSERT_STRING_EQUAL(nics[1].model, "I211");
	/* Only 64 bytes of its config space in the dump: ASPM unknown. */
	CU_ASSERT_EQUAL(nics[1].aspm, WFW_ASPM_UNKNOWN);
	CU_ASSERT_STRING_EQUAL(nics[1].up_addr, "0000:00:1c.4");
	CU_ASSERT_EQUAL(nics[1].up_aspm, 0);
}

static void test_broken(void)
{
	find(DATA("pci-broken.txt"), -EINVAL);
	TU_ASSERT_CONTAINS(why, "pci-broken.txt");
	TU_ASSERT_CONTAINS(why, "Malformed line");
	find(DATA("does-not-exist.txt"), -ENOENT);
	TU_ASSERT_CONTAINS(why, "does-not-exist.txt");
	/* The library still works after an error. */
	CU_ASSERT_EQUAL(find(DATA("pci-i210-aspm-l1.txt"), 0), 1);
}

static void test_get(void)
{
	struct wfw_pcidisc_opts o = { .dump = DATA("pci-two-nics.txt") };
	struct wfw_nic nic;

	CU_ASSERT_EQUAL(wfw_pcidisc_get(&o, "01:00.0", &nic, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(nic.model, "I210");
	CU_ASSERT_EQUAL(wfw_pcidisc_get(&o, "0000:00:1c.0", &nic, why,
					sizeof(why)), 0);
	CU_ASSERT_PTR_NULL(nic.model);	/* a bridge, not an I210 */
	CU_ASSERT_EQUAL(wfw_pcidisc_get(&o, "0000:05:00.0", &nic, why,
					sizeof(why)), -ENODEV);
	TU_ASSERT_CONTAINS(why, "no PCI device at 0000:05:00.0");
	CU_ASSERT_EQUAL(wfw_pcidisc_get(&o, "01:00", &nic, why, sizeof(why)),
			-EINVAL);
	TU_ASSERT_CONTAINS(why, "bad PCI address '01:00'");
	CU_ASSERT_EQUAL(wfw_pcidisc_get(&o, "0000:01:00.9", &nic, why,
					sizeof(why)), -EINVAL);
}

static void mkfile(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* A fake sysfs: the I210 bound to igb with interface eth7 up, NUMA 1. */
static void test_sysfs(void)
{
	struct wfw_pcidisc_opts o = { .dump = DATA("pci-i210-aspm-off.txt") };
	char *root = tu_tmpdir(), p[512];
	struct wfw_nic nic;

	snprintf(p, sizeof(p), "mkdir -p %s/bus/pci/devices/0000:01:00.0/net/eth7 "
		 "%s/bus/pci/drivers/igb %s/class/net/eth7", root, root, root);
	CU_ASSERT_EQUAL_FATAL(system(p), 0);
	snprintf(p, sizeof(p), "%s/bus/pci/devices/0000:01:00.0/numa_node", root);
	mkfile(p, "1\n");
	snprintf(p, sizeof(p), "%s/bus/pci/devices/0000:01:00.0/driver", root);
	CU_ASSERT_EQUAL(symlink("../../drivers/igb", p), 0);
	snprintf(p, sizeof(p), "%s/class/net/eth7/flags", root);
	mkfile(p, "0x1003\n");
	o.sysfs = root;
	CU_ASSERT_EQUAL_FATAL(wfw_pcidisc_get(&o, "01:00.0", &nic, why,
					      sizeof(why)), 0);
	CU_ASSERT_FALSE(nic.from_dump);
	CU_ASSERT_EQUAL(nic.numa_node, 1);
	CU_ASSERT_STRING_EQUAL(nic.driver, "igb");
	CU_ASSERT_STRING_EQUAL(nic.netdev, "eth7");
	CU_ASSERT_EQUAL(nic.if_up, 1);
	mkfile(p, "0x1002\n");
	CU_ASSERT_EQUAL(wfw_pcidisc_get(&o, "01:00.0", &nic, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(nic.if_up, 0);
	tu_rmtree(root);
	free(root);
}

static char *scan_text(const char *dump, int want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_EQUAL(wfw_scan_nics(f, dump), want);
	fclose(f);
	return buf;
}

static void test_scan_output(void)
{
	char *t = scan_text(DATA("pci-two-nics.txt"), 0);

	TU_ASSERT_CONTAINS(t, "2 found");
	TU_ASSERT_CONTAINS(t, "0000:01:00.0  I210 [8086:157b]");
	TU_ASSERT_CONTAINS(t, "0000:02:00.0  I211 [8086:1539]");
	TU_ASSERT_CONTAINS(t, "aspm       L0s L1");
	TU_ASSERT_CONTAINS(t, "port aspm  disabled at 0000:00:1c.4");
	TU_ASSERT_CONTAINS(t, "driver     n/a (dump: sysfs only)");
	free(t);
	t = scan_text(DATA("pci-no-i210.txt"), 0);
	TU_ASSERT_CONTAINS(t, "0 found");
	TU_ASSERT_CONTAINS(t, "0x1533");
	free(t);
	t = scan_text(DATA("pci-broken.txt"), -EINVAL);
	TU_ASSERT_CONTAINS(t, "error: PCI dump");
	free(t);
}

static void test_ids(void)
{
	static const uint16_t ids[] = { 0x1533, 0x1536, 0x1537, 0x1538,
					0x1539, 0x157B, 0x157C };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		CU_ASSERT_PTR_NOT_NULL(wfw_pcidisc_model(0x8086, ids[i]));
	CU_ASSERT_PTR_NULL(wfw_pcidisc_model(0x8086, 0x15b8));	/* I219 */
	CU_ASSERT_PTR_NULL(wfw_pcidisc_model(0x10ec, 0x1533));
	CU_ASSERT_STRING_EQUAL(wfw_pcidisc_model(0x8086, 0x1539), "I211");
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("pcidisc", NULL, NULL);
	CU_add_test(s, "no I210", test_no_i210);
	CU_add_test(s, "I210 ASPM off", test_aspm_off);
	CU_add_test(s, "I210 ASPM L1", test_aspm_l1);
	CU_add_test(s, "two NICs", test_two_nics);
	CU_add_test(s, "broken dump", test_broken);
	CU_add_test(s, "device by address", test_get);
	CU_add_test(s, "sysfs facts", test_sysfs);
	CU_add_test(s, "scan output", test_scan_output);
	CU_add_test(s, "device IDs", test_ids);
	return tu_run();
}
