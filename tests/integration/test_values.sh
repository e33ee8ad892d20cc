#!/bin/sh
# Values that are no measurement (issue 29): NaN, infinities in every
# spelling the readers take, decimals beyond a double (1e400), 1e308,
# subnormals, INT64 extremes and negative values, in CSV and in the binary
# twin, through calc, report, filter and convert. calc and report leave
# out NaN and out-of-range values (infinite, beyond 3.4e38) and say how
# many; filter and convert carry every value as read. Nothing crashes and
# no table or page holds "inf" or "nan" (doc/stats.md, "Values"). The
# stats sink gets the same values in tests/unit/test_stats_sink.c.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1
odd="$srcdir/tests/data/hostile/odd-values.csv"

# Every run bounded: a loop on a value would end here, not at the harness's.
wfw() {
	timeout 120 "$WULTFW" "$@"
}

# ended WHAT STATUS: exited with STATUS, not a signal; no sanitizer report.
ended() {
	if [ "$2" -ge 128 ]; then fail "$1: killed by signal $(($2 - 128))"
	elif grep -qE 'Sanitizer|runtime error:' err; then
		fail "$1: sanitizer report:"; head -20 err | sed 's/^/    /'
	else expect_status 0 "$2" "$1"; fi
}

# no_odd_cell FILE WHAT: no inf, nan or NaN token in FILE.
no_odd_cell() {
	if grep -qiwE -- '-?(inf|infinity|nan)' "$1"; then
		fail "$2: a non-number in the output:"; grep -iwE -- '-?(inf|infinity|nan)' "$1" | head -5
	else ok "$2: no inf or nan in it"; fi
}

# js_ok DIR WHAT: DIR/data.js is JSON after "window.WFW_REPORT =", without
# NaN or Infinity (which JSON has not).
js_ok() {
	if /usr/bin/python3 -c '
import json, sys
t = open(sys.argv[1]).read()
t = t[t.index("=") + 1:].rstrip().rstrip(";")
def bad(c): raise ValueError(c)
json.loads(t, parse_constant=bad)' "$1/data.js" 2>err2; then ok "$2: data.js is valid JSON"
	else fail "$2: data.js:"; head -3 err2; fi
}

# The reproducer: one -inf row, then its binary twin.
printf 'WakeLatency,LDist\n-inf,10\n' >x.csv
wfw report -o o1 x.csv >out 2>err
ended "report on a -inf row (was signal 11)" $?
expect_in err "x.csv: WakeLatency: skipped 0 empty, 0 NaN and 1 out-of-range cells" "report says what it skipped"
wfw convert x.csv -o x.wfb >out 2>err
ended "convert of the -inf row to binary" $?
wfw report -o o2 x.wfb >out 2>err
ended "report on the binary twin (was signal 11)" $?
js_ok o2 "the binary twin's report"
# One -inf among enough rows for the dense scatter (past 2000 points).
{ echo "WakeLatency,LDist"; echo "-inf,5"; echo "inf,6"; echo "nan,7"
  awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%d.5,%d\n", i % 97, i }'; } >dense.csv
wfw report -o o3 dense.csv >out 2>err
ended "report on infinities among 5000 rows" $?
js_ok o3 "the dense report"

# Every spelling: 4 NaN, 9 out of range, 6 values (a subnormal, -5, 0x1p3).
wfw calc "$odd" >table 2>err
ended "calc on every spelling" $?
expect_in err "WakeLatency: skipped 0 empty, 4 NaN and 9 out-of-range cells (infinite, or beyond 3.4e38 in magnitude)" \
	"calc counts NaN and out-of-range cells apart"
expect_in err "LDist: skipped 1 empty and 0 NaN cells" "INT64 extremes are values, the empty cell is not"
expect_in table "WakeLatency  us        6                 -5.000     1.417                 4.294   1.250" \
	"statistics of the 6 values in range"
expect_in table "9.22337203685478e+18" "INT64_MAX as the digits a double holds"
no_odd_cell table "calc's table"
wfw convert "$odd" -o odd.wfb >out 2>err
ended "convert to binary" $?
wfw calc odd.wfb >table2 2>err
ended "calc on the binary twin" $?
if cmp -s table table2; then ok "the binary twin gives the same table"; else
	fail "tables differ:"; diff table table2 | head; fi
wfw calc -j 2 -c "$odd" >table3 2>err
ended "calc -j 2 -c (parts, groups)" $?
no_odd_cell table3 "calc -c's table"
# Parts merged (calc -j): a column empty in one part, text in another, a
# metric after it (fuzz_values found its values lost with -j 2).
printf 'W,C,R,S\n,0.5,C1,\n2.500,,C6,1\n3.500,nan,,2\n' >parts.csv
wfw calc -j 1 -f count parts.csv >one 2>err && wfw calc -j 2 -f count parts.csv >two 2>>err
ended "calc -j 1 and -j 2 on a column empty in one part" $?
if cmp -s one two; then ok "-j 2 counts what -j 1 counts"; else fail "-j 1 and -j 2 differ:"; diff one two; fi
wfw calc -F json "$odd" >calc.json 2>err
ended "calc --json" $?
if /usr/bin/python3 -c '
import json, sys
def bad(c): raise ValueError(c)
m = json.load(open(sys.argv[1]), parse_constant=bad)["results"][0]["stats"]["metrics"]["WakeLatency"]
sys.exit(0 if (m["out_of_range_cells"], m["nan_cells"], m["all"]["count"]) == (9, 4, 6) else 1)' calc.json 2>err2
then ok "JSON: out_of_range_cells 9, nan_cells 4, count 6, no NaN or Infinity"
else fail "calc's JSON:"; cat err2; head -30 calc.json; fi

# report, CSV and binary, one reader and parts.
wfw report -o r1 "$odd" >out 2>err
ended "report on every spelling" $?
expect_in err "WakeLatency: skipped 0 empty, 4 NaN and 9 out-of-range cells" "report counts them as calc does"
js_ok r1 "its report"
wfw report -j 2 -m WakeLatency,LDist -o r2 odd.wfb >out 2>err
ended "report -j 2 on the binary twin" $?
js_ok r2 "the binary twin's report"

# A collector's counters out of range: left out of the timeline, said.
mkdir tl
printf 'WakeLatency,LTime\n1.5,1000000000\n2.5,2000000000\n' >tl/datapoints.csv
printf "collectors: 'telemetry.csv'\n" >tl/info.yml
printf 'Time,irq:total,cpu:x\n1000000000,5,inf\n2000000000,-inf,1\ninf,3,2\n3000000000,1e300,nan\n' >tl/telemetry.csv
wfw report -o r3 tl >out 2>err
ended "report with a timeline of infinities" $?
expect_in err "telemetry.csv: 4 values out of range (infinite, or beyond 3.4e38 in magnitude) left out" \
	"the timeline says what it left out"
js_ok r3 "the timeline's report"

# filter and convert carry every value as read.
wfw filter --include 'WakeLatency > 1000' "$odd" -o f1 >out 2>err
ended "filter on infinities" $?
expect_in err "5 of 19 rows" "inf, Infinity, INF, 1e400 and 1e308 are above 1000"
wfw filter --include 'WakeLatency != WakeLatency' -o f2 odd.wfb >out 2>err
ended "filter on NaN (binary)" $?
expect_in err "4 of 19 rows" "the 4 NaN rows, read as NaN, not as empty cells"
wfw convert odd.wfb -o back.csv >out 2>err
ended "binary back to CSV" $?
expect_in back.csv "nan,4000,C6" "nan(0xe4b7e) is a NaN, not the empty cell its bits would be"
expect_in back.csv "-inf,11000,C1" "-1e400 is -inf"
expect_in back.csv "4.94065645841247e-324,14000,C6" "the subnormal, in digits that read back to it"
expect_in back.csv "-5,9223372036854775807,C6" "INT64_MAX is kept exactly"
finish
