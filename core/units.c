/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "units.h"

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
int wfw_parse_duration(const char *text, uint64_t *ns)
{
	const char *p = text;
	uint64_t whole = 0, frac = 0, frac_scale = 1, mult = 0;
	size_t i;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	/* Zero needs no unit. */
	if (p[0] == '0' && !p[1 + strspn(p + 1, " \t")]) {
		*ns = 0;
		return 0;
	}
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++) {
			if (frac_scale >= 1000000000000000000ULL)
				return -ERANGE;
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_scale *= 10;
		}
	}
	while (isspace((unsigned char)*p))
		p++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].name);

		if (!strncmp(p, units[i].name, n) && !isalpha((unsigned char)p[n])) {
			mult = units[i].ns;
			p += n;
			break;
		}
	}
	if (!mult)
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return -EINVAL;
	if (whole > UINT64_MAX / mult)
		return -ERANGE;
	/* The fraction must land on a whole nanosecond. */
	if ((frac * mult) % frac_scale)
		return -ERANGE;
	if (frac && mult > UINT64_MAX / frac)
		return -ERANGE;
	*ns = whole * mult + frac * mult / frac_scale;
	if (*ns < whole * mult)
		return -ERANGE;
	return 0;
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
