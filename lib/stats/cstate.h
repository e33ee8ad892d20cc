/* SPDX-License-Identifier: MIT */
/*
 * The order in which C-states (and any group names) are listed: by depth,
 * as an engineer reads them, not by when a file first mentioned them, so
 * that a CSV file and its binary twin, or two runs, list them alike.
 */
#ifndef WFW_STATS_CSTATE_H
#define WFW_STATS_CSTATE_H

/*
 * strcmp()-like: "POLL" first, then "C<number><suffix>" by the number (as
 * a number: C2 < C10), then by the suffix (C1 < C1E < C1_ACPI), then every
 * other name by strcmp(), and "-" (rows without a state) last. A total
 * order: equal only for equal names.
 */
int wfw_cstate_cmp(const char *a, const char *b);

#endif
