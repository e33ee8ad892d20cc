/* SPDX-License-Identifier: MIT */
/* The report directory and the files every report carries. */
#ifndef WFW_REPORT_ASSETS_H
#define WFW_REPORT_ASSETS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Create dir (and parents). An existing dir is refused unless `force` and
 * it holds a report (data.js), whose files are then overwritten.
 */
int wfw_report_prepare_dir(const char *dir, bool force, char *err,
			   size_t errlen);

/*
 * Copy the page (index.html, report.js, report.css from
 * $WULTFW_REPORT_ASSETS or the installed copy) and plotly.min.js
 * ($WULTFW_PLOTLY_JS or the one configure found) into dir.
 */
int wfw_report_copy_assets(const char *dir, char *err, size_t errlen);
/* The same for report --fleet's page (fleet.html as index.html, fleet.js). */
int wfw_report_copy_fleet_assets(const char *dir, char *err, size_t errlen);

/*
 * A build tree's wultfw: the sources' page directory and the plotly.js
 * configure found (empty if none), from lib/report/build-paths beside
 * the binary. False for an installed wultfw.
 */
bool wfw_report_build_paths(char *assets, size_t alen, char *plotly,
			    size_t plen);

/*
 * Create (or, under --force, replace) dir/name for writing, 0644 less the
 * umask, never through a symbolic link planted there: its fd, or a
 * negative errno with err filled.
 */
int wfw_report_create(const char *dir, const char *name, char *err,
		      size_t errlen);

#endif
