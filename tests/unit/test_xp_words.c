/* SPDX-License-Identifier: MIT */
/* lib/explain: a tail's words (calc --explain, the report), thread names. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"
#include "explain/words.h"
#include "testutil.h"

/* A row of latency lat: part `cat` big, the rest idle exit. */
static struct wfw_xp_row row(double lat, int cat, double big, const char *cause,
			     int64_t pid, uint64_t n)
{
	struct wfw_xp_row r = { .lat = lat, .cause = cause, .pid = pid,
				.cstate = "C6", .row = n };

	r.t[cat] = big;
	r.t[WFW_XP_EXIT] += lat - big;
	return r;
}

static char *words(const struct wfw_xp_in *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(wfw_xp_print(f, in), 0);
	fclose(f);
	return buf;
}

/* 12 rows: 7 IRQ, 4 NET_RX, a thread as the max; the doc's layout. */
static void test_words(void)
{
	struct wfw_xp_row r[12];
	struct wfw_xp_threads th = { 0 };
	int64_t pid = 42;
	char *comm = "sshd", *s;
	struct wfw_xp_in in = { .metric = "WakeLatency", .unit = "us", .pct = 99.9,
				.nvalues = 10000, .rows = r, .n = 12, .ntail = 12,
				.thr = 400, .threads = &th };

	th.pid = &pid;
	th.comm = &comm;
	th.n = 1;
	for (int i = 0; i < 7; i++)
		r[i] = row(400, WFW_XP_IRQ, 370 + 5 * i, "irq:24 virtio1-input.0", -1, 100 + i);
	for (int i = 0; i < 4; i++)
		r[7 + i] = row(600 + i, WFW_XP_SOFTIRQ, 580 + i, "softirq:NET_RX", -1, 200 + i);
	r[11] = row(900, WFW_XP_THREAD, 880, "thread", 42, 500);
	in.max = &r[11];
	s = words(&in);
	CU_ASSERT_STRING_EQUAL(s,
		"WakeLatency p99.9 (400.0 us) and above: 12 of 10000 datapoints, 400.0 to 900.0 us\n"
		"  IRQ        44%  dominant in 7: irq:24 virtio1-input.0 in 7 (median 385.0 us)\n"
		"  softirq    38%  dominant in 4: softirq:NET_RX in 4 (median 581.5 us)\n"
		"  thread     14%  dominant in 1: sshd (pid 42) in 1 (median 880.0 us)\n"
		"  NMI         0%\n"
		"  idle exit   3%\n"
		"max: 900.0 us, row 501, ReqCState C6: thread 880.0 us, idle exit 20.00 us; dominant sshd (pid 42)\n");
	free(s);
	/* one C-state's rows: the group named, a hostile name as text */
	in.group_col = "ReqCState";
	in.group = "C6\x1b[2J";
	s = words(&in);
	TU_ASSERT_CONTAINS(s, "WakeLatency p99.9 (400.0 us) and above in ReqCState C6\\x1b[2J: 12 of 10000 datapoints,");
	free(s);
}

/* Four IRQs: three named (more rows first), one counted; lost rows said. */
static void test_more_causes(void)
{
	static const char *const irq[] = { "irq:1 a", "irq:2 b", "irq:3 c", "irq:4 d" };
	struct wfw_xp_row r[12];
	struct wfw_xp_in in = { .metric = "IntrLatency", .unit = "us", .pct = 99,
				.nvalues = 2000, .rows = r, .n = 10, .ntail = 12, .thr = 100 };
	char *s;

	for (int i = 0; i < 10; i++)	/* 1: 1 row, 2: 2, 3: 3, 4: 4 */
		r[i] = row(100, WFW_XP_IRQ, 50, irq[i < 1 ? 0 : i < 3 ? 1 : i < 6 ? 2 : 3], -1, i);
	r[9].t[0] = NAN;
	r[9].cause = NULL;
	s = words(&in);
	TU_ASSERT_CONTAINS(s, "IntrLatency p99 (100.0 us) and above: 12 of 2000 datapoints (the 10 largest analysed), 100.0 to 100.0 us\n");
	TU_ASSERT_CONTAINS(s, "  IRQ        50%  dominant in 9: irq:3 c in 3 (median 50.00 us), irq:4 d in 3 (median 50.00 us), "
			   "irq:2 b in 2 (median 50.00 us), and 1 more in 1\n");
	TU_ASSERT_CONTAINS(s, "  1 without a breakdown (events lost), left out of the shares\n");
	free(s);
}

/* Names from the measured system: control bytes escaped; too few rows. */
static void test_hostile_and_few(void)
{
	struct wfw_xp_row r = row(50, WFW_XP_IRQ, 40, "irq:9 \x1b[31mred\n", -1, 3);
	struct wfw_xp_in in = { .metric = "WakeLatency", .unit = "us", .pct = 99.9,
				.nvalues = 500, .max = &r };
	char *s;

	r.cstate = "C\x7f";
	s = words(&in);
	CU_ASSERT_STRING_EQUAL(s,
		"WakeLatency p99.9 and above: too few datapoints (500; p99.9 needs 1000)\n"
		"max: 50.00 us, row 4, ReqCState C\\x7f: IRQ 40.00 us, idle exit 10.00 us; dominant irq:9 \\x1b[31mred\\x0a\n");
	free(s);
	r.t[2] = NAN;
	s = words(&in);
	CU_ASSERT_STRING_EQUAL(strstr(s, "max:"), "max: 50.00 us, row 4, ReqCState C\\x7f: no breakdown (events lost)\n");
	free(s);
}

/* A name of a megabyte: its first 200 bytes, not cutting a character. */
static void test_long_name(void)
{
	char *name = malloc(1 << 20), *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(name && f);
	memset(name, 'a', (1 << 20) - 1);
	name[(1 << 20) - 1] = '\0';
	memcpy(name + 199, "\xc3\xa9", 2);	/* e-acute across byte 200 */
	wfw_xp_put_name(f, name);
	fclose(f);
	CU_ASSERT_EQUAL(len, 199 + 3);
	CU_ASSERT_STRING_EQUAL(buf + 199, "...");
	CU_ASSERT_EQUAL(wfw_xp_name_len("short"), 5);
	free(buf);
	free(name);
}

/* The composer's other sentences: "other", estimated medians, notes, a broken max. */
static void test_say(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct wfw_xp_say s = { .f = f, .st = WFW_XP_TERMINAL, .metric = "WakeLatency",
				.unit = "us", .decimals = 3 };
	struct wfw_xp_catsum other = { .dominant = 2, .ncauses = 1,
				       .cause = { { .name = "smi", .rows = 2, .median = NAN } } };
	struct wfw_xp_catsum nmi = { .share = 0.004, .dominant = 3, .ncauses = 1,
				     .cause = { { .name = "nmi", .rows = 3, .median = 1.5, .estimated = true } } };
	struct wfw_xp_notes n = { .none = 1, .broken = 2, .nocause = 3, .lost = "ring full",
				  .lattxt = "WakeLatency", .explained = 5,
				  .col = { true, true, true, false }, .have = { 5, 0, 5 },
				  .sum = { 12, 0, 1 } };
	struct wfw_xp_max m = { .lat = 80, .row = 7, .kind = WFW_XP_MAX_BROKEN };
	struct wfw_xp_head h = { .pct = 99.9, .group_col = "ReqCState", .group = "C6" };

	CU_ASSERT_FATAL(f != NULL);
	wfw_xp_say_cat(&s, WFW_XP_OTHER, &other);
	wfw_xp_say_cat(&s, WFW_XP_NMI, &nmi);
	wfw_xp_say_notes(&s, &n);
	wfw_xp_say_max(&s, &m);
	wfw_xp_say_head(&s, &h);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf,
		"  other           dominant in 2: smi in 2\n"
		"  NMI        <1%  dominant in 3 (median ~1.500 us)\n"
		"  1 without a breakdown (events lost; info.yml attrib_lost: ring full), left out of the shares\n"
		"  2 whose parts do not add up to WakeLatency, left out of the shares\n"
		"  3 with a breakdown but no Cause\n"
		"  counted in them: IRQs 12, softirqs -, NMIs 1, SMIs not available\n"
		"max: 80.00 us, row 7: its parts do not add up to its WakeLatency\n"
		"WakeLatency in ReqCState C6: no datapoints\n");
	free(buf);
}

static void test_cause_cat(void)
{
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("irq:LOC"), WFW_XP_IRQ);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("softirq:RCU"), WFW_XP_SOFTIRQ);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("thread"), WFW_XP_THREAD);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("nmi"), WFW_XP_NMI);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("idle-exit"), WFW_XP_EXIT);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("irq:24 virtio1-input.0"), WFW_XP_IRQ);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("smi"), WFW_XP_OTHER);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("irq:"), WFW_XP_OTHER);	/* no name */
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("softirq:"), WFW_XP_OTHER);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat("IRQ:24"), WFW_XP_OTHER);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat(""), WFW_XP_OTHER);
	CU_ASSERT_EQUAL(wfw_xp_cause_cat(NULL), WFW_XP_OTHER);
}

/* Load text as attrib-threads.csv; the error's text into err. */
static int load(const char *text, struct wfw_xp_threads *t, char *err, size_t n)
{
	char *dir = tu_tmpdir(), *path = tu_write(dir, "attrib-threads.csv", text);
	int ret = wfw_xp_threads_load(t, path, err, n);

	tu_rmtree(dir);
	free(path);
	free(dir);
	return ret;
}

static void test_threads(void)
{
	struct wfw_xp_threads t;
	char err[512];

	CU_ASSERT_EQUAL(load("PID,Comm\r\n88,kworker/1:2\r\n7,\"a,b\"\"c\"\n"
			     "9,\"two\nlines\"\n7,later\n3,<img src=x onerror=alert(1)>\n",
			     &t, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(t.n, 4);
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t, 88), "kworker/1:2");
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t, 7), "a,b\"c");	/* the first line of 7 */
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t, 9), "two\nlines");
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t, 3), "<img src=x onerror=alert(1)>");
	CU_ASSERT_PTR_NULL(wfw_xp_comm(&t, 4));
	wfw_xp_threads_free(&t);
	CU_ASSERT_EQUAL(wfw_xp_threads_load(&t, "/nonexistent/attrib-threads.csv",
					    err, sizeof(err)), -ENOENT);
}

/* A bad file is refused whole, naming its line. */
static void test_threads_bad(void)
{
	static const struct { const char *text, *err; } bad[] = {
		{ "PID,Name\n1,a\n", "attrib-threads.csv:1: not the header PID,Comm" },
		{ "PID,Comm\n1,a\n2\n", "attrib-threads.csv:3: one field where PID,Comm are two" },
		{ "PID,Comm\n1,\"a\nb\"\nx,c\n", "attrib-threads.csv:4: a pid that is no whole number" },
		{ "PID,Comm\n1,a,b\n", "attrib-threads.csv:2: more than two fields" },
		{ "PID,Comm\n1,\"open\n", "attrib-threads.csv:3: a quote never closed" },
		{ "PID,Comm\n-1,a\n", "attrib-threads.csv:2: a pid that is no whole number" },
		{ "PID,Comm\n1,\"a\"b\n", "attrib-threads.csv:2: text after a closing quote" },
	};
	struct wfw_xp_threads t;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(load(bad[i].text, &t, err, sizeof(err)), -EINVAL);
		TU_ASSERT_CONTAINS(err, bad[i].err);
		CU_ASSERT_EQUAL(t.n, 0);
	}
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("explain", NULL, NULL);
	CU_add_test(s, "words", test_words);
	CU_add_test(s, "more_causes", test_more_causes);
	CU_add_test(s, "hostile_and_few", test_hostile_and_few);
	CU_add_test(s, "say", test_say);
	CU_add_test(s, "cause_cat", test_cause_cat);
	CU_add_test(s, "long_name", test_long_name);
	CU_add_test(s, "threads", test_threads);
	CU_add_test(s, "threads_bad", test_threads_bad);
	return tu_run();
}
