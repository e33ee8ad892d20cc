/* SPDX-License-Identifier: MIT */
/*
 * The fleet comparison (calc --fleet, report --fleet): the SUTs' results
 * found among the arguments (fleet_members.c), their table, one row per
 * SUT per C-state flagged against the other SUTs (stats/grouptab.h,
 * fleet_table.c), and the page (report_fleet.c).
 */
#ifndef WFW_TOOLS_FLEET_H
#define WFW_TOOLS_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/grouptab.h"
#include "tools/calc.h"

struct fleet_member {
	char label[64];		/* its row's name: info.yml host/machine, else a directory's */
	char dir[4096];		/* the result as found (for its own report) */
	char file[4096];	/* its datapoints (wfw_result_locate()) */
};

struct fleet {
	struct fleet_member *m;
	size_t n, cap;
};

/*
 * The SUTs' results among args: each a result directory (or file), or a
 * directory of SUTs' results laid out as `wultfw -H` lays them out
 * (HOST/EXPERIMENT/) or one level less (SUT/). Two SUTs of one name get
 * "-2", "-3". 0, or an error said on stderr in one line naming the
 * argument (who: "calc", "report").
 */
int fleet_members(char **args, size_t n, const char *who, struct fleet *fl);
void fleet_free(struct fleet *fl);

/* The table of fl (flagged), from cfg's metric. 0 or an error said. */
int fleet_table(const struct fleet *fl, const struct group_cfg *cfg, const char *who,
		struct wfw_grouptab *t);

/* The table as CSV and as JSON (links: each SUT's report, or NULL). */
void fleet_print_csv(const struct wfw_grouptab *t, FILE *f);
void fleet_print_json(const struct wfw_grouptab *t, const char *const *links,
		      const struct fleet *fl, FILE *f);

/* calc --fleet: c->res's arguments as a fleet, in c->format. */
int calc_fleet(struct calc *c);

#endif
