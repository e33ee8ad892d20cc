#!/bin/sh
# Annotators through the real binary (issue 30): the test annotator joined
# to the test source's intervals adds its columns to every datapoint, in
# the CSV and the binary file alike, in the source's order, with empty
# cells where it knows nothing; the selection and the sinks see them; its
# file and info.yml keys land in the result; a source with no interval, an
# annotator that cannot run or fails mid-run, and a wrong name each end
# the run with one line naming the annotator.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}:$top/tests/plugins"
cd "$work" || exit 1

# cfg NAME SOURCE-EXTRA ANNOTATOR-EXTRA [TOP-EXTRA]
cfg() {
	cat >"$1.cfg" <<CFG
name = "$1";
source = { plugin = "testsrc"; cpu = 1; total = 1000; rows_per_read = 64; $2 };
annotate = ( { plugin = "testannot"; $3 } );
sinks = ( { plugin = "csv"; }, { plugin = "binary"; } );
${4-}
CFG
}

# 1. Joined: every row has the source's columns, then the annotator's.
cfg a "interval = true;" ""
timeout 60 "$WULTFW" -q -c a.cfg -o r >a.out 2>&1
expect_status 0 $? "a run with an annotator"
d=r/a
expect_in "$d/datapoints.csv" "Seq,LDist,ReqCState,LTime,WakeLatency,HalfLat,RestLat,AnnotSeq,Parity" \
	"the annotator's columns follow the source's"
awk -F, 'NR == 1 { next }
	{ n++ }
	$8 != NR - 2 { print "line " NR ": AnnotSeq " $8; bad = 1; exit }
	$1 % 7 == 6 { if ($6 != "" || $7 != "" || $9 != "") { print "line " NR ": not empty"; bad = 1; exit }; next }
	sprintf("%.3f", $6 + $7) != $5 { print "line " NR ": " $6 " + " $7 " != " $5; bad = 1; exit }
	($4 / 1000000 % 2 ? "odd" : "even") != $9 { print "line " NR ": parity " $9; bad = 1; exit }
	END { if (n != 1000) { print n " rows"; bad = 1 }; exit bad }' "$d/datapoints.csv" >join.out &&
	ok "1000 rows, each in order, its halves adding up to WakeLatency, every seventh empty" ||
	fail "the join: $(cat join.out)"
data_as_csv "$d" bin.csv
cmp -s bin.csv "$d/datapoints.csv" && ok "the binary file holds the same annotated rows" ||
	fail "binary and CSV differ: $(diff bin.csv "$d/datapoints.csv" | head -3)"
expect_in "$d/testannot.txt" "intervals 1000" "the annotator's own file is in the result"
expect_in "$d/info.yml" "testannot_intervals: '1000'" "its info.yml key too"

# 2. The selection sees the annotator's columns.
cfg sel "interval = true;" "" 'include = "Parity == \"odd\"";'
timeout 60 "$WULTFW" -q -c sel.cfg -o r >sel.out 2>&1
expect_status 0 $? "include on an annotator's column"
n=$(awk -F, 'NR > 1 && $9 != "odd" { bad++ } END { print bad + 0 }' r/sel/datapoints.csv)
rows=$(($(wc -l <r/sel/datapoints.csv) - 1))
[ "$n" = 0 ] && [ "$rows" -gt 400 ] && [ "$rows" -lt 500 ] && ok "only odd rows kept ($rows)" ||
	fail "include Parity: $rows rows, $n not odd"

# 3. A source that names no interval: refused before anything is measured.
cfg noiv "" ""
timeout 60 "$WULTFW" -q -c noiv.cfg -o r >noiv.out 2>&1
expect_status 1 $? "an annotator beside a source with no interval"
expect_in noiv.out "annotator 'testannot': testsrc names no interval" "says the source names no interval"
[ ! -e r/noiv/datapoints.csv ] && ok "no datapoints file for it" || fail "r/noiv/datapoints.csv exists"

# 4. An annotator that cannot run here.
cfg fo "interval = true;" 'fail_open = "no such thing here";'
timeout 60 "$WULTFW" -q -c fo.cfg -o r >fo.out 2>&1
expect_status 1 $? "an annotator that cannot run"
grep -q "fo.cfg:3: annotate\[0\].fail_open: no such thing here" fo.out &&
	ok "its reason, at its option's line" || fail "fo.out: $(cat fo.out)"

# 5. One that fails mid-run: the run fails, what was written stays whole.
cfg fa "interval = true;" "fail_after = 300;"
timeout 60 "$WULTFW" -q -c fa.cfg -o r >fa.out 2>&1
expect_status 1 $? "an annotator failing mid-run"
expect_in fa.out "annotator 'testannot' (annotate[0]): simulated failure after 300 intervals" \
	"names the annotator and its reason"
rows=$(($(wc -l <r/fa/datapoints.csv) - 1))
[ "$rows" -ge 256 ] && [ "$rows" -le 300 ] && ok "the rows annotated before it stay ($rows)" ||
	fail "r/fa/datapoints.csv: $rows rows"

# 6. A wrong name, and a plugin of another kind.
cfg typo "interval = true;" ""
sed -i 's/"testannot"/"testanot"/' typo.cfg
timeout 60 "$WULTFW" -q -c typo.cfg -o r >typo.out 2>&1
expect_status 2 $? "a misspelt annotator"
expect_in typo.out "did you mean 'testannot'?" "a did-you-mean"
cfg kind "interval = true;" ""
sed -i 's/plugin = "testannot"/plugin = "csv"/' kind.cfg
timeout 60 "$WULTFW" -q -c kind.cfg -o r >kind.out 2>&1
expect_status 2 $? "a sink as an annotator"
expect_in kind.out "is a sink, but an annotator is expected here" "says what kind it is"
timeout 60 "$WULTFW" list-plugins >list.out 2>&1
expect_in list.out "annotators:" "list-plugins lists annotators"
expect_in list.out "testannot" "... the test annotator among them"
finish
