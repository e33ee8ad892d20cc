#!/bin/sh
# ./wultfw run from its build tree, without WULTFW_PLUGIN_PATH, finds the
# plugins built with it and its sources' report page (lib/report/build-paths
# beside it); a copy elsewhere (an installed one) does not look in the build
# tree, and the binary holds no build path to look in.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
unset WULTFW_PLUGIN_PATH

"$WULTFW" help timer >"$work/help" 2>&1
expect_status 0 $? "help timer from the build tree exits 0"
expect_in "$work/help" "file: $top/plugins/timer/" "the timer plugin comes from the build tree"
"$WULTFW" list-plugins >"$work/list" 2>&1
expect_in "$work/list" "csv        datapoints.csv" "list-plugins finds the csv sink of the build tree"

cp "$WULTFW" "$work/wultfw"
"$work/wultfw" help timer >"$work/copy" 2>&1
if grep -qF "file: $top/" "$work/copy"; then
	fail "a wultfw outside the build tree loaded a plugin of it"
else
	ok "a wultfw outside the build tree does not look in it"
fi
# An explicit path is the whole search path before the installed one.
WULTFW_PLUGIN_PATH="$top/tests/plugins" "$WULTFW" help timer >"$work/env" 2>&1
if grep -qF "file: $top/plugins/" "$work/env"; then
	fail "WULTFW_PLUGIN_PATH did not replace the build tree's plugins"
else
	ok "WULTFW_PLUGIN_PATH replaces the build tree's plugins"
fi

# The report's page: the sources' for ./wultfw, from build-paths.
unset WULTFW_REPORT_ASSETS WULTFW_PLOTLY_JS
printf 'WakeLatency\n5\n' >"$work/one.csv"
if ! grep -q '^plotly=.' "$top/lib/report/build-paths"; then
	skip_part "the report's page from the build tree: configure found no plotly.js"
else
	"$WULTFW" report -o "$work/rep" "$work/one.csv" 2>"$work/rep.err"
	expect_status 0 $? "report from the build tree"
	cmp -s "$work/rep/report.js" "$srcdir/lib/report/assets/report.js" &&
		ok "its page is the sources' (lib/report/build-paths)" ||
		fail "the build tree's report did not take the sources' page"
fi
if grep -qF "$srcdir/lib/report/assets" "$WULTFW"; then
	fail "the sources' page directory is compiled into wultfw"
else
	ok "no sources' path compiled into wultfw"
fi
if command -v strace >/dev/null; then
	timeout 60 strace -f -e trace=access,openat,open,stat,newfstatat -o "$work/trace" \
		"$work/wultfw" report -o "$work/rep2" "$work/one.csv" >/dev/null 2>&1
	if grep -F -e "$srcdir/lib/report" -e "$top/lib/report" "$work/trace" | grep -q .; then
		fail "a wultfw outside the build tree looked for the report's page in it"
	else
		ok "a wultfw outside the build tree does not look in it for the report's page"
	fi
else
	skip_part "where a copy looks for the report's page: no strace"
fi
finish
