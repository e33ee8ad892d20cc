/* SPDX-License-Identifier: MIT */
/* data.js numbers: a float's text is printf's "%.7g", byte for byte. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/jsnum.h"
#include "testutil.h"

static int differs(double v)
{
	char a[WFW_JS_NUM_MAX], b[WFW_JS_NUM_MAX];
	size_t n = wfw_js_g7(a, v);

	if (isfinite(v))
		snprintf(b, sizeof(b), "%.7g", v);
	else
		strcpy(b, "null");
	if (n == strlen(b) && !strcmp(a, b))
		return 0;
	fprintf(stderr, "%a: '%s', printf '%s'\n", v, a, b);
	return 1;
}

/* Every 4099th float bit pattern, both signs, every exponent. */
static void test_spread(void)
{
	unsigned bad = 0;

	for (uint64_t x = 0; x <= 0xffffffffull; x += 4099) {
		uint32_t u = (uint32_t)x;
		float f;

		memcpy(&f, &u, sizeof(f));
		bad += differs(f);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* Halfway cases round to even as printf does; carries into a new digit. */
static void test_ties_and_carries(void)
{
	static const double v[] = {
		1234567.5, 1234568.5, 123456.75, 123456.25, 9999999.5, 999999.95f,
		0.5, 2.5, 1e7, 1e-4, 1e-5, 9.9999999e-5f, 100000, 1e6, 1e15, 1e-11,
		0, -0.0, -1234567.5, 3.0517578125e-05, INFINITY, -INFINITY, NAN,
		/* not floats: printf's text */
		0.1, 1.0 / 3, 1e300, 5e-324, 12345678.9,
	};
	unsigned bad = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		bad += differs(v[i]);
	/* every float in [1e6, 1e6 + 2^16), and around 1e-4 */
	for (float f = 1e6f; f < 1e6f + 65536; f = nextafterf(f, INFINITY))
		bad += differs(f);
	for (float f = 9.99e-5f; f < 1.001e-4f; f = nextafterf(f, INFINITY))
		bad += differs(f);
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_u64(void)
{
	char b[WFW_JS_NUM_MAX];

	CU_ASSERT_EQUAL(wfw_js_u64(b, 0), 1);
	CU_ASSERT_STRING_EQUAL(b, "0");
	CU_ASSERT_EQUAL(wfw_js_u64(b, UINT64_MAX), 20);
	CU_ASSERT_STRING_EQUAL(b, "18446744073709551615");
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("jsnum", NULL, NULL);
	CU_add_test(s, "floats as %.7g, across the range", test_spread);
	CU_add_test(s, "ties, carries, zeros, non-floats", test_ties_and_carries);
	CU_add_test(s, "integers", test_u64);
	return tu_run();
}
