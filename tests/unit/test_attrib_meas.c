/* SPDX-License-Identifier: MIT */
/*
 * plugins/attrib, the measuring side's parts that need no BPF: IRQ names
 * from /proc/interrupts copies (tests/data/interrupts/: one recorded
 * here, others written in the kernel's format, odd and hostile ones), the
 * SMI count's availability on fake trees, and time order on made-up
 * records as the ring gives them. Any file gives a table or a one-line
 * error, never a crash (random bytes included; the sanitized build runs
 * this too).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "attrib_irqs.h"
#include "attrib_order.h"
#include "attrib_smi.h"
#include "testutil.h"

#define DATA(f) TEST_DATA "/interrupts/" f

static struct attrib_irqtab tab;
static char why[512];

static int rd(const char *path)
{
	why[0] = '\0';
	return attrib_irqtab_read(&tab, path, why, sizeof(why));
}

static void name_is(unsigned int irq, const char *want)
{
	const char *got = attrib_irqtab_name(&tab, irq);

	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	if (strcmp(got, want))
		printf("\nIRQ %u: \"%s\", want \"%s\"\n", irq, got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
}

static void test_recorded_amd(void)
{
	CU_ASSERT_EQUAL_FATAL(rd(DATA("amd-epyc-fc-2cpu.txt")), 0);
	CU_ASSERT_EQUAL(tab.n, 19);
	CU_ASSERT_EQUAL(tab.odd, 0);
	name_is(24, "ACPI:Ged");
	name_is(26, "ttyS0");
	name_is(36, "virtio1-req.0");
	name_is(43, "virtio3-event");
	CU_ASSERT_PTR_NULL(attrib_irqtab_name(&tab, 27));
	CU_ASSERT(tab.vec[ATTRIB_VEC_LOC] && tab.vec[ATTRIB_VEC_CAL] &&
		  tab.vec[ATTRIB_VEC_RES] && tab.vec[ATTRIB_VEC_IWI]);
	attrib_irqtab_free(&tab);
}

static void test_intel(void)
{
	CU_ASSERT_EQUAL_FATAL(rd(DATA("intel-composed-4cpu.txt")), 0);
	CU_ASSERT_EQUAL(tab.n, 9);
	CU_ASSERT_EQUAL(tab.odd, 0);
	name_is(0, "timer");
	name_is(9, "acpi");
	name_is(16, "ehci_hcd:usb1, i801_smbus");
	name_is(121, "PCIe PME, aerdrv, PCIe bwctrl");
	name_is(122, "eno1-TxRx-0");
	name_is(123, "");	/* no handler */
	CU_ASSERT(tab.vec[ATTRIB_VEC_LOC] && tab.vec[ATTRIB_VEC_CAL] &&
		  tab.vec[ATTRIB_VEC_RES] && tab.vec[ATTRIB_VEC_IWI]);
	attrib_irqtab_free(&tab);
}

static void test_arm64(void)
{
	unsigned int v;

	CU_ASSERT_EQUAL_FATAL(rd(DATA("arm64-composed-2cpu.txt")), 0);
	CU_ASSERT_EQUAL(tab.n, 3);
	name_is(11, "arch_timer");
	name_is(47, "virtio0-config");
	for (v = 0; v < ATTRIB_NVEC; v++)
		CU_ASSERT_FALSE(tab.vec[v]);
	attrib_irqtab_free(&tab);
}

static void test_crlf(void)
{
	CU_ASSERT_EQUAL_FATAL(rd(DATA("crlf.txt")), 0);
	name_is(24, "ACPI:Ged");
	CU_ASSERT(tab.vec[ATTRIB_VEC_LOC]);
	attrib_irqtab_free(&tab);
}

static void test_odd(void)
{
	CU_ASSERT_EQUAL_FATAL(rd(DATA("odd.txt")), 0);
	name_is(24, "first");		/* the first of two lines */
	name_is(28, "tab?and?bell");	/* control bytes made printable */
	name_is(30, "");
	CU_ASSERT_EQUAL(strlen(attrib_irqtab_name(&tab, 29)),
			ATTRIB_IRQ_NAME_LEN - 1);
	CU_ASSERT_PTR_NULL(attrib_irqtab_name(&tab, 25));	/* too few counts */
	CU_ASSERT_PTR_NULL(attrib_irqtab_name(&tab, 27));	/* not a count */
	/* 24 again, 25, "26 :", 99999999999, 27, words, "", "::::" */
	CU_ASSERT_EQUAL(tab.odd, 8);
	TU_ASSERT_CONTAINS(tab.first_odd, "odd.txt:4: fewer counts");
	CU_ASSERT(tab.vec[ATTRIB_VEC_LOC] && tab.vec[ATTRIB_VEC_CAL]);
	attrib_irqtab_free(&tab);
}

static void test_refused(void)
{
	CU_ASSERT_EQUAL(rd(DATA("empty.txt")), -EINVAL);
	TU_ASSERT_CONTAINS(why, "empty.txt: empty");
	CU_ASSERT_EQUAL(rd(DATA("no-header.txt")), -EINVAL);
	TU_ASSERT_CONTAINS(why, "no-header.txt:1: not the header");
	CU_ASSERT_EQUAL(rd(DATA("no-such-file")), -ENOENT);
	TU_ASSERT_CONTAINS(why, "cannot open");
	CU_ASSERT_PTR_NULL(tab.irq);
}

/* A NUL byte, a line beyond the bound, no final newline. */
static void test_made(void)
{
	char *dir = tu_tmpdir(), path[512];
	size_t i, big = ATTRIB_IRQ_LINE_MAX * 2;
	FILE *f;

	snprintf(path, sizeof(path), "%s/interrupts", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("           CPU0       CPU1\n", f);
	fputs(" 24:          1          0  IO-APIC   5-edge      nul", f);
	fputc('\0', f);
	fputs("name\n 25:          1          0  IO-APIC   5-edge      ", f);
	for (i = 0; i < big; i++)
		fputc('x', f);
	fputs("\n 26:          1          0  IO-APIC   5-edge      last", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(rd(path), 0);
	name_is(24, "nul?name");
	CU_ASSERT_PTR_NULL(attrib_irqtab_name(&tab, 25));
	name_is(26, "last");
	CU_ASSERT_EQUAL(tab.odd, 1);
	TU_ASSERT_CONTAINS(tab.first_odd, ":3: longer than");
	attrib_irqtab_free(&tab);
	tu_rmtree(dir);
	free(dir);
}

/* Random bytes and random mixes of real lines: a table or an error. */
static void test_random(void)
{
	static const char *const parts[] = {
		"CPU0 CPU1\n", " 24: 1 2  IO-APIC 5-edge  a\n", " 7:", "LOC:",
		"  ", "\n", "\t", ":", "99999999999999999999", "-", ", ",
		"  x, y\n", "\r\n", " 1 2 3 4 5 6 7 8 9 10",
	};
	char *dir = tu_tmpdir(), path[512];
	unsigned int seed = 30, round;

	snprintf(path, sizeof(path), "%s/interrupts", dir);
	for (round = 0; round < 400; round++) {
		FILE *f = fopen(path, "w");
		int i, n = rand_r(&seed) % 400;

		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		for (i = 0; i < n; i++) {
			if (round % 2)
				fputc(rand_r(&seed) % 256, f);
			else
				fputs(parts[rand_r(&seed) % (sizeof(parts) / sizeof(parts[0]))], f);
		}
		fclose(f);
		if (rd(path) == 0) {
			size_t k;

			for (k = 0; k < tab.n; k++) {
				const char *c;

				for (c = tab.irq[k].name; *c; c++)
					CU_ASSERT(*c >= 0x20 && *c < 0x7f);
				CU_ASSERT(!k || tab.irq[k - 1].irq < tab.irq[k].irq);
			}
			attrib_irqtab_free(&tab);
		} else {
			CU_ASSERT(why[0] != '\0' && !strchr(why, '\n'));
		}
	}
	tu_rmtree(dir);
	free(dir);
}

static void test_vec_names(void)
{
	CU_ASSERT_STRING_EQUAL(attrib_vec_name(ATTRIB_VEC_LOC), "LOC");
	CU_ASSERT_STRING_EQUAL(attrib_vec_name(ATTRIB_VEC_IWI), "IWI");
	CU_ASSERT_PTR_NULL(attrib_vec_name(ATTRIB_NVEC));
}

/* ---- SMI count: fake trees ---- */

static char *mktree(const char *vendor)
{
	char *dir = tu_tmpdir(), path[512], text[128];

	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/dev", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/dev/cpu", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/dev/cpu/1", dir);
	mkdir(path, 0755);
	snprintf(text, sizeof(text), "processor\t: 0\n%s%s\nflags\t\t: fpu\n",
		 vendor ? "vendor_id\t: " : "model\t\t: 1", vendor ? vendor : "");
	free(tu_write(dir, "proc/cpuinfo", text));
	return dir;
}

static void mkd(const char *dir, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	mkdir(path, 0755);
}

static void test_smi_amd(void)
{
	char *dir = mktree("AuthenticAMD");
	struct attrib_smi s;

	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, NULL, why, sizeof(why)), -EOPNOTSUPP);
	TU_ASSERT_CONTAINS(why, "MSR_SMI_COUNT is Intel's and this CPU is AuthenticAMD");
	CU_ASSERT_EQUAL(s.fd, -1);
	attrib_smi_close(&s);
	tu_rmtree(dir);
	free(dir);
	dir = mktree(NULL);
	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, NULL, why, sizeof(why)), -EOPNOTSUPP);
	TU_ASSERT_CONTAINS(why, "not x86");
	/* A stand-in event (tests) is not vendor-bound: it fails on the PMU. */
	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, "tsc", why, sizeof(why)), -ENOENT);
	TU_ASSERT_CONTAINS(why, "cannot count tsc on CPU 1: the kernel has no msr PMU");
	/* An event name is a name, not a path out of the PMU's events/. */
	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, "../type", why, sizeof(why)), -EINVAL);
	TU_ASSERT_CONTAINS(why, "smi_event '../type': give an msr PMU event's name");
	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, "a/b", why, sizeof(why)), -EINVAL);
	tu_rmtree(dir);
	free(dir);
}

static void test_smi_intel(void)
{
	char *dir = mktree("GenuineIntel"), path[512];
	unsigned char msr[0x40] = { 0 };
	struct attrib_smi s;
	uint64_t n = 0;
	FILE *f;

	/* No msr PMU: why, naming it. */
	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, NULL, why, sizeof(why)), -ENOENT);
	TU_ASSERT_CONTAINS(why, "no msr PMU");
	CU_ASSERT_EQUAL(s.fd, -1);
	/* An msr PMU without smi: its events named, and the msr device's. */
	mkd(dir, "sys");
	mkd(dir, "sys/bus");
	mkd(dir, "sys/bus/event_source");
	mkd(dir, "sys/bus/event_source/devices");
	mkd(dir, "sys/bus/event_source/devices/msr");
	mkd(dir, "sys/bus/event_source/devices/msr/events");
	free(tu_write(dir, "sys/bus/event_source/devices/msr/type", "11\n"));
	free(tu_write(dir, "sys/bus/event_source/devices/msr/events/tsc", "event=0x00\n"));
	free(tu_write(dir, "sys/bus/event_source/devices/msr/events/tsc.unit", "x\n"));
	msr[0x34] = 7;
	snprintf(path, sizeof(path), "%s/dev/cpu/1/msr", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(msr, 1, sizeof(msr), f);
	fclose(f);
	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, NULL, why, sizeof(why)), -ENOENT);
	TU_ASSERT_CONTAINS(why, "the msr PMU has no smi event (it has: tsc)");
	TU_ASSERT_CONTAINS(why, "/dev/cpu/1/msr has it, but");
	/* The events there: only a real PMU opens, a fake tree says so. */
	free(tu_write(dir, "sys/bus/event_source/devices/msr/events/smi", "event=0x04\n"));
	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, NULL, why, sizeof(why)), -ENODEV);
	TU_ASSERT_CONTAINS(why, "fake tree");
	free(tu_write(dir, "sys/bus/event_source/devices/msr/events/smi", "umask=4\n"));
	CU_ASSERT_EQUAL(attrib_smi_open(&s, 1, dir, NULL, why, sizeof(why)), -EINVAL);
	TU_ASSERT_CONTAINS(why, "msr/events/smi: not a PMU type or event");
	CU_ASSERT_EQUAL(attrib_smi_read(&s, &n), -EBADF);
	attrib_smi_close(&s);
	tu_rmtree(dir);
	free(dir);
}

/* ---- time order ---- */

static struct attrib_event ev_at(uint64_t ts, unsigned int kind, unsigned int id)
{
	struct attrib_event e = { .ts = ts, .kind = kind, .id = id };

	return e;
}

/* An IRQ's pair inside a softirq program's claim, and equal stamps. */
static void test_order_sort(void)
{
	struct attrib_event ev[] = {
		ev_at(100, ATTRIB_SWITCH, 7),
		ev_at(130, ATTRIB_IRQ_ENTRY, 24),	/* nested: before ... */
		ev_at(140, ATTRIB_IRQ_EXIT, 24),
		ev_at(120, ATTRIB_SOFTIRQ_ENTRY, 3),	/* ... the claim's own */
		ev_at(150, ATTRIB_SOFTIRQ_EXIT, 3),
		ev_at(150, ATTRIB_VEC_ENTRY, 0),	/* same ts: stays after */
	};
	size_t n = sizeof(ev) / sizeof(ev[0]);

	CU_ASSERT_EQUAL(attrib_order_sort(ev, n), 1);
	CU_ASSERT_EQUAL(ev[1].kind, ATTRIB_SOFTIRQ_ENTRY);
	CU_ASSERT_EQUAL(ev[2].kind, ATTRIB_IRQ_ENTRY);
	CU_ASSERT_EQUAL(ev[3].kind, ATTRIB_IRQ_EXIT);
	CU_ASSERT_EQUAL(ev[4].kind, ATTRIB_SOFTIRQ_EXIT);
	CU_ASSERT_EQUAL(ev[5].kind, ATTRIB_VEC_ENTRY);
	CU_ASSERT_EQUAL(attrib_order_sort(ev, n), 0);
	CU_ASSERT_EQUAL(attrib_order_sort(ev, 0), 0);
}

/* Random shuffles of nearby records: sorted, stable, nothing lost. */
static void test_order_random(void)
{
	struct attrib_event ev[300];
	unsigned int seed = 30, round;
	size_t i;

	for (round = 0; round < 200; round++) {
		uint64_t sum = 0, sum2 = 0;

		for (i = 0; i < 300; i++) {
			ev[i] = ev_at(i * 10 + rand_r(&seed) % 50, ATTRIB_SWITCH,
				      (unsigned int)i);
			sum += ev[i].id;
		}
		attrib_order_sort(ev, 300);
		for (i = 0; i < 300; i++) {
			sum2 += ev[i].id;
			if (i)
				CU_ASSERT(ev[i - 1].ts < ev[i].ts ||
					  (ev[i - 1].ts == ev[i].ts &&
					   ev[i - 1].id < ev[i].id));
		}
		CU_ASSERT_EQUAL(sum, sum2);
	}
}

static void test_order_late(void)
{
	struct attrib_event ev[] = {
		ev_at(90, ATTRIB_IRQ_EXIT, 24),		/* older than 100 */
		ev_at(95, ATTRIB_SWITCH, 7),
		ev_at(100, ATTRIB_SWITCH, 8),		/* equal: not late */
		ev_at(120, ATTRIB_SWITCH, 9),
	};
	uint64_t last = 100;

	memcpy(ev[1].comm, "noise", 6);
	CU_ASSERT_EQUAL(attrib_order_late(ev, 4, &last), 2);
	CU_ASSERT_EQUAL(ev[0].kind, ATTRIB_LOST);
	CU_ASSERT_EQUAL(ev[0].ts, 100);
	CU_ASSERT_EQUAL(ev[0].dur, 10);
	CU_ASSERT_EQUAL(ev[0].id, 1);
	CU_ASSERT_EQUAL(ev[1].kind, ATTRIB_LOST);
	CU_ASSERT_EQUAL(ev[1].dur, 5);
	CU_ASSERT_EQUAL(ev[1].comm[0], '\0');
	CU_ASSERT_EQUAL(ev[2].kind, ATTRIB_SWITCH);
	CU_ASSERT_EQUAL(ev[3].ts, 120);
	CU_ASSERT_EQUAL(last, 120);
	CU_ASSERT_EQUAL(attrib_order_late(ev, 0, &last), 0);
	CU_ASSERT_EQUAL(last, 120);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("attrib_irqs", NULL, NULL);
	CU_add_test(s, "recorded here (AMD guest)", test_recorded_amd);
	CU_add_test(s, "Intel server format", test_intel);
	CU_add_test(s, "arm64 format", test_arm64);
	CU_add_test(s, "CRLF", test_crlf);
	CU_add_test(s, "odd lines", test_odd);
	CU_add_test(s, "refused files", test_refused);
	CU_add_test(s, "NUL, long line, no newline", test_made);
	CU_add_test(s, "random files", test_random);
	CU_add_test(s, "vector names", test_vec_names);
	s = CU_add_suite("attrib_smi", NULL, NULL);
	CU_add_test(s, "not Intel", test_smi_amd);
	CU_add_test(s, "Intel: no msr PMU, no smi event, fake PMU", test_smi_intel);
	s = CU_add_suite("attrib_order", NULL, NULL);
	CU_add_test(s, "nested records sorted", test_order_sort);
	CU_add_test(s, "random near order", test_order_random);
	CU_add_test(s, "older than handed on: lost", test_order_late);
	return tu_run();
}
