#!/bin/sh
# Our results opened by wult's own tools (calc, filter, report): a timer
# result (ReqCState with "none"/"several" where a sleep had no one state),
# one measured as on a machine without cpuidle (WULTFW_HIDE_CPUIDLE=1: no
# ReqCState column) and an hrt result. wult is not a Debian package: set
# WULTFW_WULT_SRC to a directory holding clones of intel/wult, intel/pepc
# and intel/stats-collect (scripts/install-deps.sh --wult installs the
# Python packages they need), or put an installed `wult` on PATH.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

# What every wult-family tool needs, checked without wult itself.
cat >t.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "timer";
    source = { plugin = "timer"; cpu = 1; ldist = [ "20us", "500us" ]; };
    limits = { datapoints = 2000; time = "5m"; };
    sinks = ( { plugin = "csv"; } );
  }
);
CFG
"$WULTFW" -q -c t.cfg
expect_status 0 $? "a timer measurement"
if grep -qE '(^|,)(,|$)' out/timer/datapoints.csv; then
	fail "out/timer/datapoints.csv has an empty cell (wult rejects the file)"
else
	ok "no empty cell in the timer result"
fi
expect_in out/timer/info.yml "format_version: '1.3'" "format version 1.3"
expect_in out/timer/info.yml "toolname: 'wult'" "toolname wult"

if [ -n "${WULTFW_WULT_SRC:-}" ]; then
	export PYTHONPATH="$WULTFW_WULT_SRC/wult:$WULTFW_WULT_SRC/pepc:$WULTFW_WULT_SRC/stats-collect"
	wult() { /usr/bin/python3 "$WULTFW_WULT_SRC/wult/wult" "$@"; }
	wult --version >wv.out 2>&1 || {
		echo "SKIP: wult from WULTFW_WULT_SRC=$WULTFW_WULT_SRC does not start: $(tail -1 wv.out)"
		exit 77
	}
elif ! command -v wult >/dev/null; then
	[ "$failures" -gt 0 ] && finish
	echo "SKIP: no wult (not a Debian package; set WULTFW_WULT_SRC to clones of intel/wult, pepc, stats-collect)"
	exit 77
fi
ok "wult $(wult --version 2>&1 | tail -1)"

sed 's/"out"/"out-nc"/' t.cfg >nc.cfg
WULTFW_HIDE_CPUIDLE=1 "$WULTFW" -q -c nc.cfg
expect_status 0 $? "a timer measurement as without cpuidle"
results="out/timer out-nc/timer"
# hrt needs an idle CPU: on a busy machine its datapoints come slowly.
sed 's/"timer"; cpu/"hrt"; cpu/; s/name = "timer"/name = "hrt"/; s/time = "5m"; }/time = "60s"; }/' t.cfg >hrt.cfg
# Not beside tests/hrt/hrt-test.sh or test_report (make -j2 check).
exec 9>/tmp/wultfw-hrt-tests.lock
flock -w 600 9 || fail "/tmp/wultfw-hrt-tests.lock held for 10 minutes"
if "$WULTFW" -c hrt.cfg --check >hrt.check 2>&1; then
	"$WULTFW" -q -c hrt.cfg 2>hrt.err
	st=$?
	# Bounded by time: a busy CPU 1 may leave it no datapoint at all
	# (exit 4), which hrt's own counters then show (hrt_busy).
	if [ $st = 4 ] && why=$(hrt_busy out/hrt); then
		skip_part "the hrt result: $why"
	else
		expect_status 0 $st "an hrt measurement"
		[ $st = 0 ] || sed 's/^/    /' hrt.err
		results="$results out/hrt"
	fi
else
	skip_part "the hrt result: $(grep -m1 warning hrt.check)"
fi
exec 9>&-

# wult calc: every result loads, with our row count and no format warning.
for r in $results; do
	wult calc "$r" >calc.out 2>&1
	expect_status 0 $? "wult calc $r"
	rows=$(($(wc -l <"$r/datapoints.csv") - 1))
	expect_in calc.out "Datapoints count: $rows" "wult calc $r: all $rows datapoints"
	if grep -q "format version" calc.out; then
		fail "wult calc $r warns about the format: $(grep 'format version' calc.out)"
	fi
done

# The requested-state values are names wult filters on like any other:
# the first row's value (a state, none or several) selects at least it.
# (By the column's name: LTime came after it since issue 30.)
col=$(head -1 out/timer/datapoints.csv | tr ',' '\n' | grep -nx ReqCState | cut -d: -f1)
v=$(awk -F, -v c="$col" 'NR == 2 { print $c }' out/timer/datapoints.csv)
wult filter --include "ReqCState == '$v'" out/timer -o wf >wf.out 2>&1
expect_status 0 $? "wult filter on ReqCState == '$v'"
kept=$(awk -F, -v c="$col" -v v="$v" 'NR > 1 && $c == v' out/timer/datapoints.csv | wc -l)
got=$(($(wc -l <wf/datapoints.csv 2>/dev/null || echo 1) - 1))
[ "$kept" = "$got" ] && ok "wult kept the $kept rows that are '$v'" ||
	fail "wult filter kept $got rows, expected $kept"

# A result `wultfw filter` wrote opens in wult too.
"$WULTFW" filter out/timer -o ff --include 'LDist < 0.3ms' 2>/dev/null
wult calc ff >ffc.out 2>&1
expect_status 0 $? "wult calc of a wultfw-filtered result"
rows=$(($(wc -l <ff/datapoints.csv) - 1))
expect_in ffc.out "Datapoints count: $rows" "wult sees its $rows datapoints"

# wult report of all of them together, and our report of wult's result.
# shellcheck disable=SC2086
wult report -o wrep $results >wrep.out 2>&1
expect_status 0 $? "wult report of $results"
expect_in wrep/report-data/intro_tbl.json "Wult version n/a (wultfw " \
	"wult's report says no wult version collected it, wultfw did"
expect_in wrep/report-data/intro_tbl.json "timer (wultfw timer source: " \
	"and its Device ID row names wultfw's source"
if [ -s wf/info.yml ]; then
	"$WULTFW" report -o ourrep wf 2>/dev/null
	expect_status 0 $? "wultfw report of a wult-filtered result"
fi
finish
