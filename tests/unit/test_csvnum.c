/* SPDX-License-Identifier: MIT */
/*
 * The CSV reader's number conversion at its edges: the window paths (16
 * bytes at a time, and long cells of up to 24), the scalar scans and the general parser on fields
 * chosen to sit at each limit (2^53, 8 and 16 digits, the point's place,
 * signs, zeros, ties, 19 digits). Random fields are test_datafmt's job; these are
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

/* The window path of a FLOAT cell as the row loop picks it, by length. */
static int win_double(const struct win *w, double *x)
{
	if (w->n <= 16)
		return wfw_len_double(w->b, w->n, x);
	return w->n <= WFW_CELL_LONG ? wfw_long_double(w->b, w->n, x) : -1;
}

/* The same for an INT cell of a column with `dec` decimals. */
static int win_canon(const struct win *w, int dec, int64_t *x)
{
	if (w->n <= 16)
		return wfw_len_canon(w->b, w->n, dec, x);
	return w->n <= WFW_CELL_LONG ? wfw_long_canon(w->b, w->n, dec, x) : -1;
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
	{ "12345678.12345678", 1 },	/* 17 bytes: a long cell */
	{ "9007199254740992", 1 },	/* 2^53: the exact path's last value */
	{ "9007199254740993", 1 },	/* 2^53 + 1: rounds to even */
	{ "9007199254740995", 1 },	/* rounds up */
	{ "9999999999999999", 1 },	/* 16 digits, above 2^53 */
	{ "0.12345678", 1 },
	{ "90071992.54740993", 1 },	/* above 2^53 with a point: 17 bytes */
	{ "123456789.1", 0 },		/* 9 digits before the point */
	{ "1.123456789", 0 },		/* 9 after it */
	{ "99999999999999999", 1 },	/* 17 bytes */
	{ "4503599627370496.5", 1 },	/* a tie, 17 digits */
	{ "3280.9343441907167", 1 },	/* as wult writes it */
	{ "-3280.9343441907167", 1 },
	{ "9999999999999999999", 1 },	/* 19 digits, no point */
	{ "1234567890.123456789", 1 },	/* 19 digits, 20 bytes */
	{ "-999999999.9999999999", 1 },	/* 21 bytes */
	{ "123456789012345678.5", 1 }, { "-12345678901234567.25", 1 },
	{ "1234567890123456789.", 1 }, { ".1234567890123456789", 1 },
	{ "-.1234567890123456789", 1 }, { "0.000000000000000001", 1 },
	{ "-1844674407370955161", 1 },
	{ "0000000000000000.5", 1 },	/* leading zeros are digits too */
	{ "-000000000000000001.5", 1 },	/* 19 digits, 21 bytes */
	{ "-0000000000000000001.5", 0 },	/* 20 of them: strtod() */
	{ "12345678901234567890", 0 }, { "18446744073709551615", 0 },
	{ "-0000001234.5678901234567", 0 },	/* 24 bytes, 22 digits */
	{ "123456789012.34567890123", 0 },	/* 24 bytes */
	{ "1234567890123.45678901234", 0 },	/* 25 bytes */
	{ "1234567.123456789012e3", 0 }, { "12345678.1234567-8", 0 },
	{ "1234567890.1234567.8", 0 }, { "12345678901234567\"", 0 },
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
		fast = !win_double(&w, &x);
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
	{ "99999999999999999", 0, 1, 99999999999999999 },	/* 17 bytes */
	{ "1234567890123456789", 0, 1, 1234567890123456789 },
	{ "1234567890123456.789", 3, 1, 1234567890123456789 },
	{ "-1234567890123456.789", 3, 1, -1234567890123456789 },
	{ "9223372036854775.807", 3, 1, INT64_MAX },
	{ "-9223372036854775.807", 3, 1, -INT64_MAX },
	{ "9223372036854775.808", 3, 0, 0 },
	{ "-9223372036854775.808", 3, 0, 0 },
	{ "12345678901234567.89", 2, 1, 1234567890123456789 },
	{ "1234567890.123456789", 9, 1, 1234567890123456789 },
	{ "01234567890123456.789", 3, 0, 0 }, { "-0000000000000000.000", 3, 0, 0 },
	{ "12345678901234567.890", 3, 0, 0 },	/* 20 digits */
	{ "12345678901234567.8", 3, 0, 0 }, { "1234567890123456.78a", 3, 0, 0 },
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
		fast = !win_canon(&w, ints[i].dec, &a);
		scan = wfw_csvnum_scan_canon(w.b, end, ints[i].dec, &b) == end;
		if (scan != ints[i].ok)
			printf("\n  '%s' dec %d: canonical: %d", ints[i].s, ints[i].dec, scan);
		CU_ASSERT_EQUAL(scan, ints[i].ok);
		if (scan)
			CU_ASSERT_EQUAL(b, ints[i].want);
		if (fast)
			CU_ASSERT(scan && a == b);
		/* Every canonical field that fits a window is the window's. */
		if (scan && (w.n <= 16 ? ints[i].dec <= 8 : w.n <= WFW_CELL_LONG))
			CU_ASSERT(fast);
	}
}

/*
 * Long cells the csv formatter prints back as they are (15 digits or
 * fewer, see wfw_dec_odd()) and ones it does not: the row texts'
 * odd flag as csvread.c's float_plain() would set it.
 */
static const struct {
	const char *s;
	int odd;
} long_odd[] = {
	{ "-1234567.12345678", 0 }, { "-123456.123456789", 0 },
	{ "-12345.1234567891", 1 },	/* 10 decimals */
	{ "1234567.123456780", 1 },	/* a trailing zero */
	{ "-01234567.1234567", 1 },	/* a leading one */
	{ "12345678.12345678", 1 },	/* 16 digits */
	{ "3280.9343441907167", 1 }, { "12345678901234567", 1 },
};

static void test_long_odd(void)
{
	struct win w;

	for (size_t i = 0; i < sizeof(long_odd) / sizeof(long_odd[0]); i++) {
		bool odd = false;
		double x = 0;

		put(&w, long_odd[i].s);
		CU_ASSERT_FATAL(w.n > 16);
		CU_ASSERT(!wfw_long_double_odd(w.b, w.n, &x, &odd));
		CU_ASSERT(same_double(x, strtod(long_odd[i].s, NULL)));
		if (odd != long_odd[i].odd)
			printf("\n  '%s': odd %d", long_odd[i].s, odd);
		CU_ASSERT_EQUAL(odd, long_odd[i].odd);
	}
}

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * A random cell of 17 to 25 bytes: a sign now and then, a run of leading
 * zeros now and then, the point anywhere or nowhere, now and then a byte
 * that is no digit. Returns its fractional digits (0 without a point).
 */
static int long_cell(char *s, int len, uint64_t *x)
{
	uint64_t v = xorshift(x);
	int i = 0, zeros = v & 8 ? (int)(v >> 8 & 15) : 0, pt = -1;

	if (v & 1)
		s[i++] = '-';
	if (v >> 16 & 3)
		pt = i + (int)((v >> 20) % (uint64_t)(len - i));
	for (; i < len; i++)
		s[i] = i == pt ? '.' : (char)(i < zeros ? '0' : '0' + xorshift(x) % 10);
	if (!(v >> 28 & 15))
		s[(v >> 32) % (uint64_t)len] = "e+-.x,\"a"[v >> 40 & 7];
	s[len] = '\0';
	return pt < 0 ? 0 : len - pt - 1;
}

/*
 * Random long cells: the long path takes a FLOAT cell exactly when it is
 * [-]digits[.digits] of at most 19 digits in at most 24 bytes, and gives
 * strtod()'s bits; it takes an INT cell exactly as the scalar scan does,
 * with its value.
 */
static void test_long_random(void)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	unsigned bad = 0, took = 0;
	struct win w;
	char s[32];

	for (int k = 0; k < 200000; k++) {
		int len = 17 + k % 9, dec = long_cell(s, len, &x), nd;
		const char *end;
		double a = 0, b = 0;
		int64_t i = 0, j = 0;
		int fast, scan, ifast, iscan;

		put(&w, s);
		end = w.b + w.n;
		nd = (int)strspn(s + (*s == '-'), "0123456789");
		nd += s[*s == '-' ? nd + 1 : nd] == '.' ?
		      (int)strspn(s + (*s == '-') + nd + 1, "0123456789") : 0;
		fast = !win_double(&w, &a);
		scan = wfw_csvnum_scan_double(w.b, end, &b) == end;
		ifast = !win_canon(&w, dec, &i);
		iscan = wfw_csvnum_scan_canon(w.b, end, dec, &j) == end;
		took += fast;
		if (fast != (scan && len <= WFW_CELL_LONG && nd <= 19) ||
		    (fast && !same_double(a, strtod(s, NULL))) ||
		    ifast != (iscan && len <= WFW_CELL_LONG) || (ifast && i != j)) {
			if (bad++ < 5)
				printf("\n  '%s' dec %d: float %d/%d, int %d/%d", s, dec,
				       fast, scan, ifast, iscan);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(took > 10000);	/* the draw reaches the path */
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
	CU_add_test(s, "long FLOAT fields' row texts", test_long_odd);
	CU_add_test(s, "long fields at random against strtod()", test_long_random);
	CU_add_test(s, "m / 10^k at the 64-bit limits", test_div_pow10);
	CU_add_test(s, "m / 10^k, random m of every length", test_div_pow10_random);
	CU_add_test(s, "two cells at a time against one at a time", test_pair_edges);
	return tu_run();
}
