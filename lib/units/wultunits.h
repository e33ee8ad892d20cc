/* SPDX-License-Identifier: MIT */
/*
 * Units of wult's metrics. CSV files carry no units, but a column named
 * as one of wult's metrics has the unit wult defines for it (wult's
 * metric definitions, wultdata/defs/wult/{wult,ndl}.yml; the raw columns
 * as wultfw's sinks write them), so CSV results -- ours and wult's -- get
 * units by name.
 */
#ifndef WFW_UNITS_WULTUNITS_H
#define WFW_UNITS_WULTUNITS_H

#include <stdbool.h>

/*
 * The unit ("us", "MHz", "%", "ns", "cycles") of wult metric `name`, or of
 * a raw one as wultfw writes it, or "" if none known. What a metric is:
 * datafmt/metricdoc.h.
 */
const char *wfw_wult_unit(const char *name);

/*
 * The unit of metric `name`: the file's (`schema_unit`, NULL or "" for
 * none) first, then the known one (wfw_wult_unit()), else "".
 */
const char *wfw_metric_unit(const char *name, const char *schema_unit);

/*
 * wult's columns of names (ReqCState): a CSV without rows still knows
 * them as such, so `ReqCState == "C6"` selects nothing instead of failing.
 */
bool wfw_wult_is_text(const char *name);

#endif
