/* SPDX-License-Identifier: MIT */
/*
 * What a metric is, by the source that measured it: one table of
 * metric x source -> text (metricdoc.c), the one home of the texts that
 * `wultfw report --list-metrics` prints and the report page shows. A
 * source measures some metrics differently from wult (timer takes TBI and
 * TAI in user space around clock_nanosleep(), hrt in eBPF, tdt and i210
 * in the kernel module); where it does not, wult's text is used. Its unit:
 * units/wultunits.h.
 */
#ifndef WFW_METRICDOC_H
#define WFW_METRICDOC_H

/* A metric's unit: wfw_metric_unit(). */
#include "units/wultunits.h"

/*
 * What metric `name` is when `source` measured it (info.yml's `source:`:
 * timer, hrt, tdt, i210, ...; NULL or "" for wult's own results and files
 * without one): that source's text where it differs, else wult's, else "".
 */
const char *wfw_metric_descr(const char *name, const char *source);

#endif
