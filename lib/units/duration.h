/* SPDX-License-Identifier: MIT */
/* Values with units: durations ("10us", "1.5s") in nanoseconds. */
#ifndef WFW_UNITS_DURATION_H
#define WFW_UNITS_DURATION_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a duration: a non-negative decimal number followed by one of
 * ns, us, ms, s, m, h (a plain 0 needs none). Returns 0 or -EINVAL (bad
 * syntax, unknown unit), -ERANGE (too long for 64-bit nanoseconds) or
 * -EDOM (a fraction of a nanosecond).
 */
int wfw_parse_duration(const char *text, uint64_t *ns);

/* What is wrong with a duration wfw_parse_duration() refused with ret. */
const char *wfw_duration_error(int ret);

/* Format ns in the largest unit that divides it: "10us", "1500us", "3s". */
void wfw_format_duration(uint64_t ns, char *buf, size_t len);

/* Nanoseconds in one of the duration units (ns, us, ms, s, m, h), else 0. */
uint64_t wfw_duration_unit_ns(const char *unit);

#endif
