/* SPDX-License-Identifier: MIT */
/*
 * The CSV reader's number conversion at its edges: the window paths (16
 * bytes at a time), the scalar scans and the general parser on fields
 * chosen to sit at each limit (2^53, 8 and 16 digits, the point's place,
 * signs, zeros, ties). Random fields are test_datafmt's job; these are
 * the ones a random draw rarely makes.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/csvnum.h"
#include "testutil.h"

/* A field copied into a window padded with commas, as the reader sees it. */
struct win {
	char b[WFW_CSV_WIN + 32];
	int n;
};

static void put(struct win *w, const char *s)
{
	w->n = (int)strlen(s);
	memset(w->b, ',', sizeof(w->b));
	memcpy(w->b, s, (size_t)w->n);
}

static int same_double(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

/*
 * FLOAT fields: whichever of the three paths takes one gives strtod()'s
 * bits, and none takes what strtod() does not read whole; `fast` says
 * whether the window path must take it.
 */
static const struct {
	const char *s;
	int fast;
} floats[] = {
	{ "0", 1 }, { "-0", 1 }, { "0.0", 1 }, { "-0.000", 1 },
	{ "92.291", 1 }, { "-92.291", 1 }, { "0.001", 1 }, { "1.5", 1 },
	{ "12345678", 1 }, { "1234.5678", 1 }, { "1234567.12345678", 1 },
	{ "12345678.12345678", 0 },	/* 17 bytes */
	{ "9007199254740992", 1 },	/* 2^53: the exact path's last value */
	{ "9007199254740993", 1 },	/* 2^53 + 1: rounds to even */
	{ "9007199254740995", 1 },	/* rounds up */
	{ "9999999999999999", 1 },	/* 16 digits, above 2^53 */
	{ "0.12345678", 1 },
	{ "90071992.54740993", 0 },	/* above 2^53 with a point: 17 bytes */
	{ "123456789.1", 0 },		/* 9 digits before the point */
	{ "1.123456789", 0 },		/* 9 after it */
	{ "99999999999999999", 0 },	/* 17 bytes */
	{ "4503599627370496.5", 0 },	/* a tie, too long for a window */
	{ "1.", 1 }, { ".5", 1 }, { "-.5", 1 }, { ".", 0 }, { "-", 0 }, { "00.5", 1 }, { "-00", 1 },
	{ "1e3", 0 }, { "+1", 0 }, { "1.0e-2", 0 }, { "nan", 0 }, { "inf", 0 },
};

static void test_float_edges(void)
{
	struct win w;

	for (size_t i = 0; i < sizeof(floats) / sizeof(floats[0]); i++) {
		char *stop;
		double want = strtod(floats[i].s, &stop), x = 0, y = 0, z = 0;
		int num = stop != floats[i].s && !*stop, fast, scan;
		const char *end;

		put(&w, floats[i].s);
		end = w.b + w.n;
		fast = !wfw_len_double(w.b, w.n, &x);
		scan = wfw_csvnum_scan_double(w.b, end, &y) == end;
		CU_ASSERT_EQUAL(!wfw_csvnum_parse_double(w.b, (size_t)w.n, &z), num);
		if (num)
			CU_ASSERT(same_double(z, want));
		if (!num)
			CU_ASSERT(!fast && !scan);
		if (fast != floats[i].fast)
			printf("\n  '%s': window path took it: %d", floats[i].s, fast);
		CU_ASSERT_EQUAL(fast, floats[i].fast);
		if (fast)
			CU_ASSERT(scan && same_double(x, want));
		if (scan)
			CU_ASSERT(same_double(y, want));
	}
}

/*
 * INT fields of a column with `dec` decimals: the window path and the
 * scalar scan take the same ones, with the same value; `want` is the
 * scaled integer, `ok` whether the field is canonical at all.
 */
static const struct {
	const char *s;
	int dec, ok;
	int64_t want;
} ints[] = {
	{ "0", 0, 1, 0 }, { "0.000", 3, 1, 0 }, { "8.959", 3, 1, 8959 },
	{ "-8.959", 3, 1, -8959 }, { "3280.934", 3, 1, 3280934 },
	{ "12345678.901", 3, 1, 12345678901 },
	{ "9223372036854775807", 0, 1, INT64_MAX },
	{ "-9223372036854775807", 0, 1, -INT64_MAX },
	{ "-9223372036854775808", 0, 0, 0 },	/* the empty cell's value */
	{ "9223372036854775808", 0, 0, 0 },
	{ "-0", 0, 0, 0 }, { "-0.000", 3, 0, 0 },	/* no negative zero */
	{ "01.000", 3, 0, 0 }, { "1.00", 3, 0, 0 }, { "1.0000", 3, 0, 0 },
	{ "1", 3, 0, 0 }, { "1.5", 0, 0, 0 }, { "+1", 0, 0, 0 }, { "1e3", 0, 0, 0 },
	{ ".500", 3, 0, 0 }, { "-", 0, 0, 0 }, { "", 0, 0, 0 },
	{ "99999999.99999999", 8, 1, 9999999999999999 },
	{ "1.123456789", 9, 1, 1123456789 },
};

static void test_int_edges(void)
{
	struct win w;

	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		int64_t a = 0, b = 0;
		const char *end;
		int fast, scan;

		put(&w, ints[i].s);
		end = w.b + w.n;
		fast = w.n <= 16 && !wfw_len_canon(w.b, w.n, ints[i].dec, &a);
		scan = wfw_csvnum_scan_canon(w.b, end, ints[i].dec, &b) == end;
		if (scan != ints[i].ok)
			printf("\n  '%s' dec %d: canonical: %d", ints[i].s, ints[i].dec, scan);
		CU_ASSERT_EQUAL(scan, ints[i].ok);
		if (scan)
			CU_ASSERT_EQUAL(b, ints[i].want);
		if (fast)
			CU_ASSERT(scan && a == b);
		/* Every canonical field that fits a window is the window's. */
		if (scan && w.n <= 16 && ints[i].dec <= 8)
			CU_ASSERT(fast);
	}
}

/*
 * The two-cell path (wfw_fixed_word(), wfw_pair_div()) against the one-cell
 * paths: it takes a cell exactly when the cell is [0-9]+ with `dec` digits
 * after a point, 8 digits at most (and no leading zero for an INT), and
 * then gives the one-cell path's value, in either lane.
 */
static const char *const cells[] = {
	"0", "5", "05", "00", "8.959", "3280.934", "0.000", "12345678",
	"123456789", "1234567.8", "12345678.9", "1.2345678", "0.1234567",
	"00000001", "007.500", ".5", "5.", "", "-1.5", "-0", "1e3", "+1",
	"9223372036854775807", "1234567890123456", "99999999", "9999999.9",
	"9.9999999", "1.123456789", "0.00000001", "1..5", "1.5.", "12.34",
	"1234.5678", "99999.999", "1 ", "1,5", "0.5\r",
};

/* What the two-cell path must take, worked out the slow way. */
static int fixed_layout(const char *s, int dec, int canon)
{
	size_t n = strlen(s), whole = strspn(s, "0123456789");

	if (!whole || whole + (size_t)dec > 8 || (canon && whole > 1 && *s == '0'))
		return 0;
	if (!dec)
		return whole == n;
	return s[whole] == '.' && strspn(s + whole + 1, "0123456789") == (size_t)dec &&
	       whole + 1 + (size_t)dec == n;
}

static void check_pair(const char *s, int dec, int canon)
{
	struct wfw_fixed fx = wfw_fixed(dec, canon != 0), f3 = wfw_fixed(3, false);
	struct win w, o;
	uint64_t a = 0, b = 0;
	double old = 0, x, y;
	int took, one;
	int64_t i = 0;

	put(&w, s);
	put(&o, "8.959");
	took = !wfw_fixed_word(w.b, (size_t)w.n, &fx, &a);
	if (canon) {
		one = w.n <= 16 && !wfw_len_canon(w.b, w.n, dec, &i);
		old = (double)i;
	} else {
		one = w.n <= 16 && !wfw_len_double(w.b, w.n, &old);
	}
	if (took != fixed_layout(s, dec, canon))
		printf("\n  '%s' dec %d canon %d: two-cell path took it: %d", s, dec, canon, took);
	CU_ASSERT_EQUAL(took, fixed_layout(s, dec, canon));
	if (!took)
		return;
	CU_ASSERT(one);
	CU_ASSERT(!wfw_fixed_word(o.b, (size_t)o.n, &f3, &b));
	wfw_pair_div(a, b, canon ? 1.0 : wfw_pow10_exact[dec], 1000.0, &x, &y);
	CU_ASSERT(same_double(x, old) && same_double(y, 8.959));
	wfw_pair_div(b, a, 1000.0, canon ? 1.0 : wfw_pow10_exact[dec], &y, &x);
	CU_ASSERT(same_double(x, old) && same_double(y, 8.959));
}

static void test_pair_edges(void)
{
	char s[32];

	for (size_t k = 0; k < sizeof(cells) / sizeof(cells[0]); k++)
		for (int dec = 0; dec <= 9; dec++)
			for (int canon = 0; canon <= 1; canon++)
				check_pair(cells[k], dec, canon);
	/* Every split of 1 to 10 digits: the largest values of each layout. */
	for (int nd = 1; nd <= 10; nd++)
		for (int dec = 0; dec < nd; dec++) {
			int whole = nd - dec;

			memset(s, '9', sizeof(s));
			s[whole] = '.';
			s[nd + 1] = '\0';
			if (!dec)
				s[whole] = '\0';
			check_pair(s, dec, 0);
			check_pair(s, dec, 1);
			s[0] = '1';
			check_pair(s, dec, 1);
		}
}

/* m / 10^k, correctly rounded, against strtod() of the same decimal. */
static void test_div_pow10(void)
{
	static const uint64_t ms[] = {
		1, 5, 9007199254740993ULL, 18014398509481985ULL,
		123456789012345678ULL, UINT64_MAX, 10000000000000000000ULL,
		(1ULL << 63) + 1,
	};
	char text[64];

	for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		for (int k = 0; k <= 27; k++) {
			double got = wfw_div_pow10(ms[i], k), want;

			snprintf(text, sizeof(text), "%llue-%d", (unsigned long long)ms[i], k);
			want = strtod(text, NULL);
			if (!same_double(got, want))
				printf("\n  %s: %.17g, strtod %.17g", text, got, want);
			CU_ASSERT(same_double(got, want));
		}
	}
}

/* Random m of every length against strtod, for every k: rounding ties included by chance. */
static void test_div_pow10_random(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	unsigned bad = 0;
	char text[64];

	for (int i = 0; i < 100000; i++) {
		uint64_t m;
		int k = i % 28;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		m = x >> (i / 28 % 64);
		snprintf(text, sizeof(text), "%llue-%d", (unsigned long long)m, k);
		if (!same_double(wfw_div_pow10(m, k), strtod(text, NULL)) && bad++ < 5)
			printf("\n  %s: %.17g, strtod %.17g", text, wfw_div_pow10(m, k),
			       strtod(text, NULL));
	}
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("csvnum", NULL, NULL);
	CU_add_test(s, "FLOAT fields at the paths' limits", test_float_edges);
	CU_add_test(s, "INT fields at the paths' limits", test_int_edges);
	CU_add_test(s, "m / 10^k at the 64-bit limits", test_div_pow10);
	CU_add_test(s, "m / 10^k, random m of every length", test_div_pow10_random);
	CU_add_test(s, "two cells at a time against one at a time", test_pair_edges);
	return tu_run();
}
