/* SPDX-License-Identifier: MIT */
/*
 * Units of wult's metrics. CSV files carry no units, but a column named
 * as one of wult's metrics has the unit wult defines for it (wult's
 * metric definitions, wultdata/defs/wult/{wult,ndl}.yml), so CSV results
 * -- ours and wult's -- get units by name.
 */
#ifndef WFW_WULTUNITS_H
#define WFW_WULTUNITS_H

#include <stdbool.h>

/* The unit ("us", "MHz", "%") of wult metric `name`, or "" if none known. */
const char *wfw_wult_unit(const char *name);

/* What wult metric `name` is, in a few words, or "" if unknown. */
const char *wfw_wult_descr(const char *name);

/*
 * wult's columns of names (ReqCState): a CSV without rows still knows
 * them as such, so `ReqCState == "C6"` selects nothing instead of failing.
 */
bool wfw_wult_is_text(const char *name);

#endif
