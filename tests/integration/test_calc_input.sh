#!/bin/sh
# Hostile and unusual CSV input to wultfw calc and convert (issues 13, 14,
# 16): NUL bytes and invalid UTF-8 in any field, bounded line and name
# lengths with whole error messages, a table width that does not grow with
# the input, empty cells in numeric columns, and a column whose type
# changes after the rows the one-pass reader learns from.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1
H="$srcdir/tests/data/hostile"

# calc_fails FILE STATUS TEXT WHAT: calc exits STATUS, stderr one line with TEXT.
calc_fails() {
	"$WULTFW" calc "$1" >out 2>err
	expect_status "$2" $? "$4: exit status"
	expect_in err "$3" "$4"
	if [ "$(wc -l <err)" -ne 1 ]; then fail "$4: not one line:"; cat err; fi
}

calc_fails "$H/nul-reqcstate.csv" 1 "nul-reqcstate.csv:2: column ReqCState: a NUL byte in a text field" \
	"a NUL in a text field is an error, not an over-read"
calc_fails "$H/nul-after-name.csv" 1 "nul-after-name.csv:3: column ReqCState: a NUL byte" \
	"a NUL after a known name"
calc_fails "$H/nul-number.csv" 1 "nul-number.csv:3: column WakeLatency: '2\\x00.5' is not a number" \
	"a NUL inside a number is shown escaped"
"$WULTFW" convert "$H/nul-reqcstate.csv" -o nul.wfb >out 2>&1
expect_status 1 $? "convert refuses a NUL too (no silent empty field)"

# A 70 KB column name: the whole message, reason first, name cut.
calc_fails "$H/long-name.csv" 1 "long-name.csv:1: column 2: the name is longer than 1024 bytes (the limit): NNNNNNNNNN" \
	"a 70 KB column name"
expect_in err "... (70000 bytes)" "the name is cut and its size given"
if [ "$(wc -c <err)" -gt 400 ]; then fail "the message is $(wc -c <err) bytes"; else ok "the message is short"; fi
"$WULTFW" convert "$H/long-name.csv" -o long.wfb >out 2>&1
expect_in out "the name is longer than 1024 bytes (the limit)" "convert gives the whole message too"

# A 100 MB header line: an error at the 1 MiB bound, no padding printed.
head -c 100000000 /dev/zero | tr '\0' 'A' >big.csv
printf '\n1\n' >>big.csv
calc_fails big.csv 1 "big.csv:1: the line is longer than 1048576 bytes (the limit)" "a 100 MB header line"
if [ "$(wc -c <out)" -ne 0 ]; then fail "calc printed $(wc -c <out) bytes"; else ok "nothing on stdout"; fi
rm -f big.csv
# The same bound for a data line (a 2 MiB field), with its line number.
{ echo "WakeLatency,Note"; echo "1.5,a"; printf '2.5,'; head -c 2097152 /dev/zero | tr '\0' 'x'; echo; } >longline.csv
calc_fails longline.csv 1 "longline.csv:3: the line is longer than 1048576 bytes (the limit)" "a 2 MiB data line"

# Invalid UTF-8: read as bytes; JSON escapes what is not UTF-8.
"$WULTFW" calc -c -g 'Req'"$(printf '\377')"'CState' -F json "$H/invalid-utf8.csv" >out.json 2>err
expect_status 0 $? "calc on invalid UTF-8 names and values"
if /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["results"][0]["stats"]["datapoints"] == 3 else 1)' out.json; then
	ok "its JSON is valid and counts 3 rows"
else fail "invalid JSON:"; cat out.json; fi
expect_in out.json 'C\u00c3(' "an invalid byte is escaped as U+00XX"

# Names of 1000 bytes: every table line stays short.
"$WULTFW" calc -c -f count,max "$H/wide-names.csv" >out 2>err
expect_status 0 $? "calc with 1000-byte names"
w=$(awk '{ if (length($0) > w) w = length($0) } END { print w }' out)
if [ "$w" -le 200 ]; then ok "table width $w"; else fail "table width $w grows with the names"; fi
expect_in out "WWWWWWWWWWWWWWW..." "a long name is cut with ..."

# Empty cells in numeric columns are skipped and counted (issue 16).
"$WULTFW" calc -f count,min,max,mean "$H/empty-cells.csv" >out 2>err
expect_status 0 $? "calc with empty cells"
expect_in err "WakeLatency: skipped 1 empty and 0 NaN cells" "empties counted"
expect_in err "CC0%: skipped 1 empty and 1 NaN cells" "empty and NaN told apart"
expect_in out "WakeLatency  us        3  1.500  3.500  2.500" "statistics without the empty cell"
# ... and survive CSV -> binary -> CSV byte for byte.
"$WULTFW" convert "$H/empty-cells.csv" -o e.wfb >out 2>&1 && "$WULTFW" convert e.wfb -o e.csv >>out 2>&1
expect_status 0 $? "convert with empty cells"
if cmp -s "$H/empty-cells.csv" e.csv; then ok "empty cells round-trip"; else
	fail "round trip differs:"; diff "$H/empty-cells.csv" e.csv | head; fi

# Quotes, "" escapes, a quoted newline, CRLF, no final newline.
"$WULTFW" calc -g 'Req"C"State' -f count,mean "$H/quoted-crlf.csv" >out 2>err
expect_status 0 $? "calc on quoted fields and CRLF"
expect_in out "Req\"C\"State" "an escaped quote in a name"
expect_in out "C1               2  2.500" "the quoted C-state is a group"

# One pass: INT for the first 1000 rows, then a value with more decimals.
awk 'BEGIN { print "WakeLatency,ReqCState"; for (i = 0; i < 3000; i++)
	printf "%s,%s\n", i == 2500 ? "1.2345" : sprintf("%.3f", i / 1000), i % 2 ? "C1" : "C6" }' >retype.csv
"$WULTFW" calc -j 1 -f count,min,max,mean,median -F json retype.csv >out.json 2>err
expect_status 0 $? "calc on a column that turns from INT to FLOAT"
/usr/bin/python3 - out.json <<'PY' && ok "values before and after the change agree with a direct computation" || fail "retype statistics"
import json, statistics, sys
v = [1.2345 if i == 2500 else round(i / 1000, 3) for i in range(3000)]
s = json.load(open(sys.argv[1]))["results"][0]["stats"]["metrics"]["WakeLatency"]["all"]
ok = s["count"] == 3000 and s["min"] == min(v) and s["max"] == max(v)
ok = ok and abs(s["mean"] - statistics.fmean(v)) < 1e-9 and s["median"] == statistics.median(v)
sys.exit(0 if ok else 1)
PY

# A name first seen after the learned rows still selects (--include).
awk 'BEGIN { print "WakeLatency,ReqCState"; for (i = 0; i < 3000; i++)
	printf "%d.000,%s\n", i, i < 2000 ? "C1" : "C6" }' >late.csv
"$WULTFW" calc -f count --include 'ReqCState == "C6"' late.csv >out 2>err
expect_in err "1000 of 3000 rows selected" "a late name selects its rows"

# A text column made of numbers after its first rows: one line, named.
awk 'BEGIN { print "A,B"; for (i = 0; i < 2000; i++) printf "%d,%s\n", i, i < 1500 ? "x" : "7" }' >mixed.csv
calc_fails mixed.csv 1 "mixed.csv:2: column B: 'x' is not a number (line 1502 holds the number '7')" \
	"text then numbers in one column"

# Numbers, then text in the second half: with two threads the same error.
awk 'BEGIN { print "A,B"; for (i = 0; i < 20000; i++) printf "%d,%s\n", i, i < 15000 ? i : "x" }' >mix2.csv
"$WULTFW" calc -j 2 -f count mix2.csv >out 2>err
expect_status 1 $? "-j 2 with text after numbers fails"
expect_in err "mix2.csv:15002: column B: 'x' is not a number" "and names the line, as one thread would"

# A CSV with a header and no rows (a run that kept nothing, a filter that
# selected nothing): wult's ReqCState still holds names, the rest numbers.
echo "WakeLatency,ReqCState,CC6%" >none.csv
for t in calc filter convert; do
	case $t in
	calc) "$WULTFW" calc --include 'ReqCState == "C6"' none.csv >out 2>err ;;
	filter) "$WULTFW" filter none.csv -o none.f --include 'ReqCState != "C6"' >out 2>err ;;
	convert) "$WULTFW" convert none.csv -o none.wfb --include 'ReqCState == "C6"' >out 2>err ;;
	esac
	expect_status 0 $? "header only: $t selects by ReqCState"
done
"$WULTFW" calc --include 'ReqCState == "C1"' none.wfb >out 2>err
expect_status 0 $? "header only: its binary twin too"
"$WULTFW" calc -f count none.csv >out 2>err
expect_in out "CC6%" "header only: the numbers' columns are metrics"
grep -q "^ReqCState" out && fail "header only: ReqCState taken as numbers" || ok "header only: ReqCState no metric"

# -c without C-states says why, from the run's info.yml.
mkdir -p "$work/nocs"
printf 'WakeLatency,LDist\n1.5,100\n' >"$work/nocs/datapoints.csv"
printf "cpuidle_driver: 'none'\ncstates: 'no cpuidle states'\n" >"$work/nocs/info.yml"
"$WULTFW" calc -c "$work/nocs" >/dev/null 2>"$work/nocs.err"
expect_in "$work/nocs.err" "no ReqCState column, --per-cstate shows all rows only (its run: cpuidle driver none, no cpuidle states)" "calc -c says why there are no C-states"
finish
