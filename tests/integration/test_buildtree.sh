#!/bin/sh
# ./wultfw run from its build tree, without WULTFW_PLUGIN_PATH, finds the
# plugins built with it; a copy elsewhere (an installed one) does not look
# in the build tree.
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
finish
