/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "units/duration.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	uint64_t ns;
} units[] = {
	{ "ns", 1ULL },
	{ "us", 1000ULL },
	{ "ms", 1000000ULL },
	{ "s", 1000000000ULL },
	{ "m", 60ULL * 1000000000ULL },
	{ "h", 3600ULL * 1000000000ULL },
};

/*
 * Integer arithmetic only, so "0.1ms" is exactly 100000 ns and a value
 * written by wfw_format_duration() parses back to the same number.
 */
static const char *skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* "12.5" at *p: whole part, fraction digits and their scale (10^digits). */
static int parse_decimal(const char **pp, uint64_t *whole, uint64_t *frac,
			 uint64_t *scale)
{
	const char *p = *pp;

	for (*whole = 0; isdigit((unsigned char)*p); p++) {
		if (*whole > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		*whole = *whole * 10 + (uint64_t)(*p - '0');
	}
	*frac = 0;
	*scale = 1;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++) {
			if (*scale >= 1000000000000000000ULL)
				return -ERANGE;
			*frac = *frac * 10 + (uint64_t)(*p - '0');
			*scale *= 10;
		}
	}
	*pp = p;
	return 0;
}

/* The unit at *p, in ns; 0 when there is none. */
static uint64_t parse_unit(const char **pp)
{
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].name);

		if (!strncmp(*pp, units[i].name, n) && !isalpha((unsigned char)(*pp)[n])) {
			*pp += n;
			return units[i].ns;
		}
	}
	return 0;
}

int wfw_parse_duration(const char *text, uint64_t *ns)
{
	const char *p = skip_space(text);
	uint64_t whole, frac, scale, mult;
	int ret;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	/* Zero needs no unit. */
	if (p[0] == '0' && !p[1 + strspn(p + 1, " \t")]) {
		*ns = 0;
		return 0;
	}
	ret = parse_decimal(&p, &whole, &frac, &scale);
	if (ret)
		return ret;
	p = skip_space(p);
	mult = parse_unit(&p);
	if (!mult || *skip_space(p))
		return -EINVAL;
	if (whole > UINT64_MAX / mult)
		return -ERANGE;
	/* The fraction must land on a whole nanosecond. */
	if (frac && mult > UINT64_MAX / frac)
		return -ERANGE;
	if ((frac * mult) % scale)
		return -EDOM;
	*ns = whole * mult + frac * mult / scale;
	return *ns < whole * mult ? -ERANGE : 0;
}

const char *wfw_duration_error(int ret)
{
	if (ret == -ERANGE)
		return "is out of range (at most about 584 years)";
	if (ret == -EDOM)
		return "is not a whole number of nanoseconds (the resolution of durations)";
	return "is not a duration (a number and a unit: ns, us, ms, s, m, h)";
}

void wfw_format_duration(uint64_t ns, char *buf, size_t len)
{
	int i;

	/* The largest unit that divides the value exactly: round-trips. */
	for (i = (int)(sizeof(units) / sizeof(units[0])) - 1; i > 0; i--)
		if (ns && ns % units[i].ns == 0)
			break;
	snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns, units[i].name);
}

uint64_t wfw_duration_unit_ns(const char *unit)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name))
			return units[i].ns;
	return 0;
}
