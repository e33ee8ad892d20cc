/* SPDX-License-Identifier: MIT */
/*
 * Numbers in CSV fields, for the CSV reader: recognising the plain
 * decimals the csv sink writes for INT columns, and decimal text to a
 * correctly rounded double (a fast exact path for the common case, exact
 * 128-bit division for 17-19 digit mantissas, strtod() for the rest).
 */
#ifndef WFW_CSVNUM_H
#define WFW_CSVNUM_H

#include <stddef.h>
#include <stdint.h>

enum { WFW_NUM_NO, WFW_NUM_OTHER, WFW_NUM_CANON };

/*
 * Is s[0..n) a number? WFW_NUM_CANON: a plain decimal the csv sink would
 * write for an INT column (*dec = its fractional digits, at most 9; the
 * scaled value fits 64 bits and is not WULTFW_CELL_EMPTY); WFW_NUM_OTHER:
 * anything else strtod() reads completely ("nan" and "inf" included).
 */
int wfw_csvnum_classify(const char *s, size_t n, int *dec);

/*
 * Parse a canonical decimal with exactly `dec` fractional digits starting
 * at s and ending at a field end (',', CR, LF or `end`). Returns the end
 * of the number, or NULL when the field is anything else.
 */
const char *wfw_csvnum_scan_canon(const char *s, const char *end, int dec,
				  int64_t *out);

/*
 * The fast path for FLOAT fields: [-]digits[.digits] (at most 19 digits)
 * at s up to a field end, correctly rounded into *out. Returns the end of
 * the number, or NULL for anything else (then use parse_double).
 */
const char *wfw_csvnum_scan_double(const char *s, const char *end, double *out);

/* s[0..n) as a double, correctly rounded; -1 when it is not a number. */
int wfw_csvnum_parse_double(const char *s, size_t n, double *out);

#endif
