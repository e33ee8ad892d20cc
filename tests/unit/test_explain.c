/* SPDX-License-Identifier: MIT */
/*
 * calc --explain's pure parts: the exact percentile over passes (log
 * buckets, then linear ones, then the kept values) against a sort, for
 * spread, equal, negative and extreme values; attrib-threads.csv as a
 * hostile file may have it; the causes' categories; a row's identity;
 * a tail's sums, causes, medians and merge.
 */
#include "config.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "explain_impl.h"
#include "testutil.h"

/* ---- the percentile ---- */

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 11;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The passes as calc --explain runs them, over v; how many in *passes. */
static void select_passes(struct xr *r, const int64_t *v, size_t n, double p, int *passes)
{
	uint64_t *counts = calloc(XR_LOG_BUCKETS, sizeof(*counts));

	for (size_t i = 0; i < n; i++)
		counts[xr_log_bucket(v[i])]++;
	xr_start(r, n, p, counts);
	*passes = 1;
	while (r->state == XR_HIST && *passes < 20) {
		size_t nb = xr_buckets(r);

		free(counts);
		counts = calloc(nb, sizeof(*counts));
		for (size_t i = 0; i < n; i++) {
			size_t b = xr_bucket(r, v[i]);

			if (b != SIZE_MAX)
				counts[b]++;
		}
		xr_narrow(r, counts);
		++*passes;
	}
	if (r->state == XR_KEEP) {
		int64_t *keep = malloc((r->inside ? r->inside : 1) * sizeof(*keep));
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (v[i] >= r->lo && v[i] <= r->hi && k < r->inside)
				keep[k++] = v[i];
		CU_ASSERT_EQUAL(xr_pick(r, keep, k), 0);
		free(keep);
		++*passes;
	}
	free(counts);
}

/* The percentile of v against a sort: rank k's value, the tail's start, the value. */
static void check_pct(const int64_t *v, size_t n, double p)
{
	int64_t *s = malloc(n * sizeof(*s)), from;
	double h = (double)(n - 1) * (p / 100.0), want;
	uint64_t k = p >= 100 ? n - 1 : (uint64_t)h, k1 = k + 1 < n ? k + 1 : k;
	size_t i = 0;
	struct xr r;
	int passes;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp64);
	select_passes(&r, v, n, p, &passes);
	CU_ASSERT_EQUAL_FATAL(r.state, XR_KNOWN);
	CU_ASSERT_EQUAL(r.vk, s[k]);
	want = (double)s[k] + (k == n - 1 ? 0 : h - (double)k) * ((double)s[k1] - (double)s[k]);
	/* the tail: the values at or above the percentile */
	while (i < n && (double)s[i] < want)
		i++;
	from = xr_tail_from(&r);
	CU_ASSERT(i < n && from <= s[i] && (!i || from > s[i - 1]));
	CU_ASSERT_DOUBLE_EQUAL(xr_value(&r, s[i]), want, 1e-9 * (1 + (want < 0 ? -want : want)));
	free(s);
}

static void test_log_buckets(void)
{
	int64_t v[] = { INT64_MIN, -1, 0, 1, 63, 64, 65, 127, 128, 129, 1000, 20990, 1 << 20,
			INT64_MAX / 2, INT64_MAX - 1, INT64_MAX };
	size_t last = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t b = xr_log_bucket(v[i]);
		int64_t lo, hi;

		CU_ASSERT(b < XR_LOG_BUCKETS);
		CU_ASSERT(b >= last);
		last = b;
		xr_log_bounds(b, &lo, &hi);
		CU_ASSERT(lo <= v[i] && v[i] <= hi);
	}
	/* buckets tile the values: each starts where the last ended */
	for (size_t b = 1; b < XR_LOG_BUCKETS; b++) {
		int64_t lo0, hi0, lo1, hi1;

		xr_log_bounds(b - 1, &lo0, &hi0);
		xr_log_bounds(b, &lo1, &hi1);
		CU_ASSERT_EQUAL(hi0 + 1, lo1);
	}
	CU_ASSERT_EQUAL(xr_log_bucket(INT64_MAX), XR_LOG_BUCKETS - 1);
}

static void test_pct_spread(void)
{
	static const double p[] = { 0, 1, 50, 90, 99, 99.9, 99.99, 100 };
	size_t n = 100000;
	int64_t *v = malloc(n * sizeof(*v));
	uint64_t s = 1;

	for (size_t i = 0; i < n; i++)
		v[i] = 2000 + (int64_t)(rnd(&s) % 40000) + (i % 997 == 0 ? 5000000 : 0);
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		check_pct(v, n, p[i]);
	check_pct(v, 1, 99.9);
	check_pct(v, 2, 50);
	free(v);
}

/* Many values in one log bucket: linear buckets narrow it, then it is kept. */
static void test_pct_narrowed(void)
{
	size_t n = 600000;
	int64_t *v = malloc(n * sizeof(*v));
	uint64_t s = 7;
	struct xr r;
	int passes;

	for (size_t i = 0; i < n; i++)
		v[i] = 1 << 20 | (int64_t)(rnd(&s) % 8192);
	select_passes(&r, v, n, 99.9, &passes);
	CU_ASSERT(passes >= 3);	/* log, linear, then keep or known */
	check_pct(v, n, 99.9);
	check_pct(v, n, 50);
	free(v);
}

/* Equal values (one of width one), negatives, the extremes of int64. */
static void test_pct_edges(void)
{
	size_t n = 400000;
	int64_t *v = malloc(n * sizeof(*v));
	uint64_t s = 3;
	struct xr r;
	int passes;

	for (size_t i = 0; i < n; i++)
		v[i] = 20990;
	select_passes(&r, v, n, 99.9, &passes);
	CU_ASSERT_EQUAL(r.state, XR_KNOWN);
	CU_ASSERT_EQUAL(xr_tail_from(&r), 20990);
	CU_ASSERT_EQUAL(r.le, n);
	/* 400000 equal values in a bucket of width 256: narrowed, not kept */
	for (size_t i = 0; i < n; i++)
		v[i] = 20990 + (i % 2);
	check_pct(v, n, 99);
	for (size_t i = 0; i < n; i++)
		v[i] = (int64_t)rnd(&s) - (int64_t)(1ull << 52);
	v[0] = INT64_MIN;
	v[1] = INT64_MAX;
	check_pct(v, n, 0);
	check_pct(v, n, 50);
	check_pct(v, n, 100);
	for (size_t i = 0; i < n; i++)	/* most at both ends of int64 */
		v[i] = i % 2 ? INT64_MIN + (int64_t)(i % 5) : INT64_MAX - (int64_t)(i % 7);
	check_pct(v, n, 50);
	check_pct(v, n, 49.9999);
	select_passes(&r, v, 0, 99.9, &passes);
	CU_ASSERT_EQUAL(r.state, XR_EMPTY);
	free(v);
}

/* ---- attrib-threads.csv ---- */

static void parse(struct xthreads *t, const char *text, size_t len)
{
	memset(t, 0, sizeof(*t));
	CU_ASSERT_EQUAL(wfw_xp_threads_parse(&t->t, text, len, WFW_XP_THREADS_SKIP,
					     "d/attrib-threads.csv", t->err, sizeof(t->err)), 0);
}

static void test_threads_good(void)
{
	static const char f[] = "PID,Comm\r\n88,kworker/1:2\r\n7,\"a,b\"\n9,\"say \"\"hi\"\"\"\n"
				"\n10,\"two\nlines\"\n88,later\n0,swapper/1\n";
	struct xthreads t;

	parse(&t, f, sizeof(f) - 1);
	CU_ASSERT_STRING_EQUAL(t.err, "");
	CU_ASSERT_EQUAL(t.t.n, 5);
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 88), "kworker/1:2");	/* the first line */
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 7), "a,b");
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 9), "say \"hi\"");
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 10), "two\nlines");
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 0), "swapper/1");
	CU_ASSERT_PTR_NULL(wfw_xp_comm(&t.t, 8));
	wfw_xp_threads_free(&t.t);
}

static void test_threads_hostile(void)
{
	static const char f[] = "PID,Comm\n1,one\nabc,x\n2,t\0wo\n-3,neg\n4,\"open\n"
				"5,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
				"6,a,b\n99999999999,big\n7,\"q\"x\n8,\x1b[31mred\n";
	struct xthreads t;

	parse(&t, f, sizeof(f) - 1);
	/* 1, bad lines, a quote closed only in line 11 ("q"), then 8 */
	CU_ASSERT_EQUAL(t.t.n, 2);
	TU_ASSERT_CONTAINS(t.err, "4 such lines left out");
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 8), "\x1b[31mred");
	TU_ASSERT_CONTAINS(t.err, "d/attrib-threads.csv:3: a pid that is no whole number");
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 1), "one");
	CU_ASSERT_PTR_NULL(wfw_xp_comm(&t.t, 2));
	wfw_xp_threads_free(&t.t);

	parse(&t, "PID,Comm\n2,t\0wo\n3,x\n", sizeof("PID,Comm\n2,t\0wo\n3,x\n") - 1);
	TU_ASSERT_CONTAINS(t.err, ":2: a NUL byte; 1 such line left out");
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 3), "x");
	wfw_xp_threads_free(&t.t);

	parse(&t, "Comm,PID\n1,x\n", 13);
	TU_ASSERT_CONTAINS(t.err, ":1: not the header PID,Comm");
	CU_ASSERT_EQUAL(t.t.n, 0);
	wfw_xp_threads_free(&t.t);

	parse(&t, "", 0);
	TU_ASSERT_CONTAINS(t.err, "not the header");
	wfw_xp_threads_free(&t.t);
}

static void test_threads_lines(void)
{
	static const char f[] = "PID,Comm\n5,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
				"6,a,b\n99999999999,big\n7,\"q\"x\n8,\x1b[31mred\n9,ok\n";
	struct xthreads t;
	char e[64];

	parse(&t, f, sizeof(f) - 1);
	TU_ASSERT_CONTAINS(t.err, ":2: a field longer than 64 bytes; 4 such lines left out");
	CU_ASSERT_EQUAL(t.t.n, 2);
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 9), "ok");
	wfw_xp_escape(e, sizeof(e), wfw_xp_comm(&t.t, 8));
	CU_ASSERT_STRING_EQUAL(e, "\\x1b[31mred");
	wfw_xp_escape(e, sizeof(e), "a\\b\x7f\xc3\xa9");
	CU_ASSERT_STRING_EQUAL(e, "a\\\\b\\x7f\\xc3\\xa9");
	wfw_xp_escape(e, 6, "abcdefgh");
	CU_ASSERT_STRING_EQUAL(e, "abcde");
	wfw_xp_escape(e, 6, "abc\x01");	/* an escape is never cut in half */
	CU_ASSERT_STRING_EQUAL(e, "abc");
	wfw_xp_threads_free(&t.t);
}

static int load_beside(struct xthreads *t, const char *data)
{
	return wfw_xp_threads_beside(&t->t, data, t->path, sizeof(t->path), &t->found,
				     t->err, sizeof(t->err));
}

static void test_threads_files(void)
{
	char *dir = tu_tmpdir(), *data = tu_write(dir, "datapoints.csv", "x\n"), path[600];
	struct xthreads t;
	FILE *f;

	CU_ASSERT_EQUAL(load_beside(&t, data), 0);
	CU_ASSERT(!t.found);
	CU_ASSERT_STRING_EQUAL(t.err, "");
	snprintf(path, sizeof(path), "%s/attrib-threads.csv", dir);
	CU_ASSERT_EQUAL(mkfifo(path, 0600), 0);
	CU_ASSERT_EQUAL(load_beside(&t, data), 0);	/* never blocks */
	TU_ASSERT_CONTAINS(t.err, "attrib-threads.csv: not a regular file");
	unlink(path);
	f = fopen(path, "w");
	CU_ASSERT_EQUAL(fseek(f, (16L << 20) + 1, SEEK_SET), 0);
	fputc('\n', f);
	fclose(f);
	CU_ASSERT_EQUAL(load_beside(&t, data), 0);
	TU_ASSERT_CONTAINS(t.err, "larger than 16 MiB");
	CU_ASSERT_EQUAL(t.t.n, 0);
	free(tu_write(dir, "attrib-threads.csv", "PID,Comm\n4,four\n"));
	CU_ASSERT_EQUAL(load_beside(&t, data), 0);
	CU_ASSERT_STRING_EQUAL(wfw_xp_comm(&t.t, 4), "four");
	wfw_xp_threads_free(&t.t);
	tu_rmtree(dir);
	free(dir);
	free(data);
}

/* ---- rows, tails (causes' categories: test_xp_words) ---- */

static struct xrow row(int64_t lat, int64_t irq, int64_t sirq, int64_t nmi, int64_t thr,
		       int64_t ex)
{
	struct xrow r = { .lat = lat, .t = { [WFW_XP_IRQ] = irq, [WFW_XP_SOFTIRQ] = sirq,
					     [WFW_XP_NMI] = nmi, [WFW_XP_THREAD] = thr,
					     [WFW_XP_EXIT] = ex }, .pid = -1,
			  .cnt = { 1, XEMPTY, 0, XEMPTY } };

	r.kind = xrow_kind(&r);
	return r;
}

static void test_identity(void)
{
	CU_ASSERT_EQUAL(row(100, 10, 20, 30, 0, 40).kind, XROW_OK);
	CU_ASSERT_EQUAL(row(100, 10, 20, 30, 0, 41).kind, XROW_BROKEN);
	CU_ASSERT_EQUAL(row(100, 10, 20, 30, XEMPTY, 40).kind, XROW_NONE);
	CU_ASSERT_EQUAL(row(100, -10, 20, 30, 20, 40).kind, XROW_BROKEN);
	CU_ASSERT_EQUAL(row(100, XBAD, 20, 30, 0, 40).kind, XROW_BROKEN);
	/* a sum that would wrap around to the latency */
	CU_ASSERT_EQUAL(row(-2, INT64_MAX, INT64_MAX, 0, 0, 0).kind, XROW_BROKEN);
}

static void test_tail(void)
{
	struct xtail a, b;
	struct xrow r;
	struct xcause **cs;
	char *names[] = { "irq:24 x", "idle-exit", "thread" };
	size_t map[] = { 1, 0, 2 };	/* b's names are in another order */
	size_t n;

	xtail_init(&a, 1000);
	xtail_init(&b, 1000);
	r = row(100, 60, 0, 0, 0, 40);
	CU_ASSERT_EQUAL(xtail_add(&a, &r, 1, WFW_XP_IRQ), 0);
	r = row(300, 250, 0, 0, 0, 50);
	CU_ASSERT_EQUAL(xtail_add(&a, &r, 1, WFW_XP_IRQ), 0);
	r = row(90, 0, 0, 0, 80, 10);
	CU_ASSERT_EQUAL(xtail_add(&a, &r, XKEY_THREAD | 88, WFW_XP_THREAD), 0);
	r = row(50, 0, 0, 0, 0, XEMPTY);
	CU_ASSERT_EQUAL(xtail_add(&a, &r, XKEY_NONE, WFW_XP_OTHER), 0);
	/* b: irq:24 x is its name 1 (map[1] = 0), idle-exit its name 0 */
	r = row(200, 120, 0, 0, 0, 80);
	CU_ASSERT_EQUAL(xtail_add(&b, &r, 2, WFW_XP_IRQ), 0);
	r = row(60, 0, 0, 0, 0, 60);
	CU_ASSERT_EQUAL(xtail_add(&b, &r, 1, WFW_XP_EXIT), 0);
	r = row(70, 0, 0, 0, 0, 69);
	CU_ASSERT_EQUAL(xtail_add(&b, &r, XKEY_NONE, WFW_XP_OTHER), 0);
	CU_ASSERT_EQUAL(xtail_merge(&a, &b, map, 3), 0);
	CU_ASSERT_EQUAL(a.n, 7);
	CU_ASSERT_EQUAL(a.none, 1);
	CU_ASSERT_EQUAL(a.broken, 1);
	CU_ASSERT_EQUAL(a.nb, 5);
	CU_ASSERT_EQUAL(a.min, 50);
	CU_ASSERT_EQUAL(a.max, 300);
	CU_ASSERT_DOUBLE_EQUAL(a.sum_lat, 750, 0);
	CU_ASSERT_DOUBLE_EQUAL(a.sum_t[WFW_XP_IRQ], 430, 0);
	CU_ASSERT_DOUBLE_EQUAL(a.sum_t[WFW_XP_EXIT], 240, 0);
	CU_ASSERT_DOUBLE_EQUAL(a.sum_cnt[WFW_XP_CNT_IRQ], 5, 0);
	CU_ASSERT_EQUAL(a.n_cnt[WFW_XP_CNT_SWIRQ], 0);
	n = xtail_sorted(&a, names, WFW_XP_IRQ, &cs);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(cs[0]->key, 1);
	CU_ASSERT_EQUAL(cs[0]->n, 3);
	CU_ASSERT_DOUBLE_EQUAL(wfw_acc_percentile(&cs[0]->acc, 50), 120, 0);
	free(cs);
	n = xtail_sorted(&a, names, WFW_XP_THREAD, &cs);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(xkey_pid(cs[0]->key), 88);
	free(cs);
	n = xtail_sorted(&a, names, WFW_XP_EXIT, &cs);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(cs[0]->key, 2);
	free(cs);
	CU_ASSERT_PTR_NULL(xtail_find(&a, 3));
	xtail_free(&a);
	xtail_free(&b);
}

/* Most rows first; ties by name, then threads by pid; the idle exit last. */
static void test_order(void)
{
	struct xtail t;
	struct xrow r = row(100, 50, 30, 0, 10, 10);
	char *names[] = { "irq:b", "irq:a" };
	struct xcause **cs;
	int order[WFW_XP_NCAT];

	xtail_init(&t, 10);
	for (int i = 0; i < 300; i++)	/* more causes than the first table holds */
		CU_ASSERT_EQUAL(xtail_add(&t, &r, XKEY_THREAD | (uint64_t)(1000 - i), WFW_XP_THREAD), 0);
	CU_ASSERT_EQUAL(xtail_add(&t, &r, 1, WFW_XP_IRQ), 0);
	CU_ASSERT_EQUAL(xtail_add(&t, &r, 2, WFW_XP_IRQ), 0);
	CU_ASSERT_EQUAL(xtail_sorted(&t, names, WFW_XP_IRQ, &cs), 2);
	CU_ASSERT_EQUAL(cs[0]->key, 2);	/* irq:a before irq:b */
	free(cs);
	CU_ASSERT_EQUAL(xtail_sorted(&t, names, WFW_XP_THREAD, &cs), 300);
	CU_ASSERT_EQUAL(xkey_pid(cs[0]->key), 701);
	CU_ASSERT_EQUAL(xkey_pid(cs[299]->key), 1000);
	free(cs);
	xtail_order(&t, order);
	CU_ASSERT_EQUAL(order[0], WFW_XP_IRQ);
	CU_ASSERT_EQUAL(order[1], WFW_XP_SOFTIRQ);
	CU_ASSERT_EQUAL(order[2], WFW_XP_THREAD);
	CU_ASSERT_EQUAL(order[3], WFW_XP_NMI);
	CU_ASSERT_EQUAL(order[4], WFW_XP_EXIT);
	xtail_free(&t);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return CU_get_error();
	s = CU_add_suite("explain", NULL, NULL);
	CU_add_test(s, "log buckets tile int64", test_log_buckets);
	CU_add_test(s, "exact percentiles of spread values", test_pct_spread);
	CU_add_test(s, "a crowded bucket narrowed", test_pct_narrowed);
	CU_add_test(s, "equal, negative and extreme values", test_pct_edges);
	CU_add_test(s, "attrib-threads.csv", test_threads_good);
	CU_add_test(s, "attrib-threads.csv: hostile lines", test_threads_hostile);
	CU_add_test(s, "attrib-threads.csv: bad lines counted, comms escaped", test_threads_lines);
	CU_add_test(s, "attrib-threads.csv: missing, FIFO, too large", test_threads_files);
	CU_add_test(s, "a row's identity", test_identity);
	CU_add_test(s, "a tail's sums, causes and merge", test_tail);
	CU_add_test(s, "causes and categories in order", test_order);
	return tu_run();
}
