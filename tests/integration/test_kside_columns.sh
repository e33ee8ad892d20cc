#!/bin/sh
# Raw columns with and without measured overheads: a wult file that has
# WakeLatencyRaw, IntrLatencyRaw, AIOverhead and IntrOverhead (written by
# sources that measure their timestamping cost) and one without them (hrt
# leaves them out) read in calc and report, alone and side by side.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1
raw="$srcdir/tests/data/wult-raw-1.3"
plain="$srcdir/tests/data/wult-1.3"

"$WULTFW" calc "$raw" >calc.out 2>&1
expect_status 0 $? "calc of a wult file with the overhead columns"
for m in WakeLatencyRaw IntrLatencyRaw AIOverhead IntrOverhead TotCyc; do
	grep -q "^$m " calc.out && ok "calc lists $m" || fail "calc does not list $m"
done
"$WULTFW" calc "$raw" "$plain" -m WakeLatency,IntrLatency >both.out 2>&1
expect_status 0 $? "calc of files with and without them, side by side"
expect_in both.out "diff vs" "and compares the columns both have"
"$WULTFW" calc "$plain" -m AIOverhead >none.out 2>&1
expect_in none.out "matches no column" "an absent overhead column is said, not invented"
"$WULTFW" report "$raw" "$plain" -o rep >rep.out 2>&1
st=$?
expect_status 0 $st "report of both"
# Why, in the log: once seen failing (1) only under the sanitizers.
[ $st = 0 ] || tail -20 rep.out | sed 's/^/    /'
[ -s rep/index.html ] && ok "the report is written" || fail "no rep/index.html"
finish
