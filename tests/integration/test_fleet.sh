#!/bin/sh
# calc --fleet and report --fleet (issue 33): five made-up SUTs laid out
# as a remote run lays them out (OUT/HOST/EXPERIMENT/), one with a tail
# made worse; five rows per C-state, the flag on that SUT alone, the
# links to each SUT's report, the page drawn in Chromium without a
# JavaScript error; bad input said in one line.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# sut NAME BAD: fleet/NAME/timer, 3000 datapoints in POLL and C1; BAD 1:
# 2% of them at 300 us (p99.9 about 13x the others').
sut() {
	mkdir -p "fleet/$1/timer"
	awk -v bad="$2" -v seed="${#1}" 'BEGIN { print "ReqCState,WakeLatency,IntrLatency"
		for (i = 0; i < 3000; i++) {
			v = 10 + (i * 7919 + seed) % 13 + (i % 10) / 10
			if (bad && i % 100 < 2) v = 300
			printf "%s,%.1f,%.1f\n", i % 2 ? "C1" : "POLL", v, v + 2 } }' \
		>"fleet/$1/timer/datapoints.csv"
	printf "host: '%s'\nsource: timer\n" "$1" >"fleet/$1/timer/info.yml"
}
for s in sut1 sut2 sut4 sut5; do sut $s 0; done
sut sut3 1

# run OUT ERR ARGS...: wultfw ARGS within 120 s.
run() {
	_o=$1 _e=$2; shift 2
	"$WULTFW" "$@" >"$_o" 2>"$_e" &
	wait_bounded $! 120
}

# The table: a row per SUT per C-state ("all" too), OUTLIER on sut3's only.
run out err calc --fleet fleet
expect_status 0 $? "calc --fleet of a remote run's directory"
expect_in out "WakeLatency (us) per SUT:" "the metric by default"
head -4 out | grep -Eq '^SUT +C-state .* flag$' && ok "a column named flag" ||
	fail "no flag column: $(head -4 out)"
n=$(grep -Ec '^sut[1-5] +(POLL|C1|all) ' out)
[ "$n" = 15 ] && ok "15 rows: five SUTs, two C-states and all" || fail "$n rows of SUTs"
bad=$(grep OUTLIER out | awk '{ print $1 }' | sort -u | tr '\n' ' ')
[ "$bad" = "sut3 " ] && ok "sut3 flagged, no other" || fail "flagged: '$bad'"
[ "$(grep -c '^sut3 .*OUTLIER' out)" = 3 ] && ok "sut3 flagged in POLL, C1 and all" ||
	fail "sut3's rows: $(grep '^sut3' out)"
expect_in out "The group's reference: the median across SUTs" "the group's reference"
grep -Eq '^median +all +3000 ' out && ok "the reference row of all" || fail "no reference row of all"
grep -Eq '^pooled +all +15000 +[0-9.]+ +[0-9.]+ +300\.000 ' out && ok "the pooled row of all: sut3's tail in its p99.9" ||
	fail "pooled row of all: $(grep '^pooled +all' out)"
expect_in out "Flag rule: a SUT is flagged in a C-state when its p99.9 is more than 2 times the median p99.9 of the other SUTs in that C-state and above 1 us; 3 rows flagged." "the rule stated"

# The same as JSON and CSV; results given one by one, a name twice.
run out err calc --fleet --format json fleet
expect_status 0 $? "calc --fleet --format json"
[ "$(grep -o '"flagged": true' out | wc -l)" = 3 ] && ok "JSON: three rows flagged" ||
	fail "JSON: $(grep -c '"flagged": true' out) flagged"
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["rows"]) == 15' out &&
		ok "JSON parses, 15 rows" || fail "JSON does not parse to 15 rows"
fi
run out err calc --fleet -F csv fleet/sut1/timer fleet/sut3/timer fleet/sut1/timer
expect_status 0 $? "calc --fleet -F csv of three results"
expect_in out "kind,SUT,C-state,count,median,p99,p99.9,max,others_p99.9,flag" "the CSV header"
expect_in out "sut,sut1-2,all,3000," "the second sut1 named sut1-2"
grep -q '^sut,sut3,all,.*,OUTLIER$' out && ok "CSV: sut3 flagged" || fail "CSV: sut3 not flagged"
# A SUT whose file has its columns elsewhere: its row, but no pooled rows.
mkdir -p other/sut6/timer
awk -F, 'BEGIN { OFS = "," } { print $2, $1, $3 }' fleet/sut1/timer/datapoints.csv >other/sut6/timer/datapoints.csv
run out err calc --fleet fleet other
expect_status 0 $? "calc --fleet of SUTs whose files differ"
expect_in out "No pooled rows: SUT sut6's file cannot be pooled with the first's (its metric column is elsewhere in its file)." "why no pooled rows"
grep -Eq '^sut6 +all +3000 ' out && ok "sut6 named by its directory" || fail "no row of sut6"
run out err calc --fleet -m IntrLatency fleet
expect_in out "IntrLatency (us) per SUT:" "-m chooses the metric"

# --help lists --fleet (bash completion takes the options from it).
"$WULTFW" calc --help >h1 2>&1
"$WULTFW" report --help >h2 2>&1
grep -q -- '--fleet' h1 && grep -q -- '--fleet' h2 && ok "--help of calc and report lists --fleet" ||
	fail "--fleet not in calc --help or report --help"

# Bad input: one line naming the argument and what to do.
mkdir -p empty
run out err calc --fleet empty fleet
expect_status 1 $? "a directory with no result"
expect_in err "wultfw calc: empty: not a result, and no result in its subdirectories" "it is named"
[ "$(wc -l <err)" = 1 ] && ok "in one line" || fail "$(wc -l <err) lines"
run out err calc --fleet -m NoSuch fleet
expect_status 1 $? "-m naming no column"
expect_in err "no column 'NoSuch'" "the column named"
run out err calc --fleet fleet/sut1/timer
expect_status 1 $? "one SUT alone"
expect_in err "give two results or more" "what to do said"
run out err calc --fleet --explain fleet
expect_status 2 $? "--fleet with --explain refused"

# The page: OUT/index.html, each SUT's report in OUT/SUT/, linked.
run rout rerr report --fleet -o rep fleet
expect_status 0 $? "report --fleet"
expect_in rerr "rep/index.html (5 SUTs of WakeLatency, 3 rows flagged)" "said where"
n=0
for s in sut1 sut2 sut3 sut4 sut5; do
	if [ -s "rep/$s/index.html" ] && [ -s "rep/$s/data.js" ] &&
	   grep -qF "\"report\": \"$s/index.html\"" rep/data.js; then n=$((n + 1)); else
		fail "$s: no report in rep/$s, or no link to it"; fi
done
[ "$n" = 5 ] && ok "each SUT's report written and linked"
run rout rerr report --fleet -o rep fleet
expect_status 1 $? "an existing fleet report kept without -f"
run rout rerr report --fleet -f -o rep fleet
expect_status 0 $? "replaced with -f"
run rout rerr report --fleet -o rep2 --reportids a,b fleet
expect_status 2 $? "--reportids refused with --fleet"

chromium=$(command -v chromium || command -v chromium-browser)
if [ -z "$chromium" ]; then
	skip_part "no chromium (Debian package chromium) to open the fleet page in"
	finish
fi
. "$srcdir/tests/integration/report_open.sh"
page_open fleet "file://$PWD/rep/index.html" 1400,1800 "$work/fleet.png"
status=$(sed -n 's/.*<footer id="status" data-status="\([a-z]*\)"[^>]*>\([^<]*\).*/\1: \2/p' fleet.dom)
case "$status" in
"ok: ok: 3 plots, 15 rows, 3 flagged") ok "the page: $status" ;;
*) fail "the page says '${status:-nothing (did it load?)}'"
   grep -v -e dbus -e 'GL Driver' fleet.chromium.log | head -5 | sed 's/^/    /' ;;
esac
cp "$work/fleet.png" "$top/tests/integration/test_fleet.png" 2>/dev/null
n=$(grep -o '<tr class="outlier">' fleet.dom | wc -l)
[ "$n" = 3 ] && ok "three rows highlighted" || fail "$n rows highlighted"
grep -o '<tr class="outlier"><td><a href="[^"]*"' fleet.dom | grep -vq 'sut3/index.html' &&
	fail "a row other than sut3's highlighted" || ok "the highlighted rows are sut3's"
n=$(grep -o '<a href="sut[1-5]/index.html">' fleet.dom | sort -u | wc -l)
[ "$n" = 5 ] && ok "five SUTs linked" || fail "$n SUTs linked"
n=$(grep -o 'class="plot fleet js-plotly-plot"' fleet.dom | wc -l)
[ "$n" = 3 ] && ok "a plot per C-state and all drawn" || fail "$n plots drawn"
finish
