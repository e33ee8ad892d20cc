#!/bin/sh
# include/exclude/keep_filtered in the experiment file, through the real
# binary: the limit counts the selected datapoints, every one of them
# satisfies the expression (checked with awk here), the rest go to
# filtered.csv, and a bad expression stops before anything is measured.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

cat >sel.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "sel";
    source = { plugin = "timer"; cpu = 1; ldist = [ "20us", "500us" ]; };
    limits = { datapoints = 1500; time = "5m"; };
    include = "LDist < 0.25ms";
    exclude = "WakeLatency > 10ms";
    keep_filtered = true;
    sinks = ( { plugin = "csv"; }, { plugin = "stats"; } );
  }
);
CFG
"$WULTFW" -q -c sel.cfg
expect_status 0 $? "a timer run with include, exclude and keep_filtered"
rows=$(($(wc -l <out/sel/datapoints.csv) - 1))
[ "$rows" = 1500 ] && ok "the limit counts the selected datapoints" ||
	fail "datapoints.csv has $rows rows, expected 1500"
bad=$(awk -F, 'NR > 1 && !($3 < 250 && $1 <= 10000)' out/sel/datapoints.csv | wc -l)
[ "$bad" = 0 ] && ok "every kept datapoint is selected" || fail "$bad kept rows are not selected"
left=$(($(wc -l <out/sel/filtered.csv) - 1))
bad=$(awk -F, 'NR > 1 && $3 < 250 && $1 <= 10000' out/sel/filtered.csv | wc -l)
[ "$left" -gt 0 ] && [ "$bad" = 0 ] && ok "filtered.csv has the $left others" ||
	fail "filtered.csv: $left rows, $bad of them selected"
expect_in out/sel/info.yml "select_kept: 1500" "info.yml counts the kept"
expect_in out/sel/info.yml "select_left_out: $left" "and those left out"
expect_in out/sel/info.yml "datapoints: 1500" "datapoints are the kept ones"
expect_in out/sel/logs/config 'include = "LDist < 0.25ms";' "logs/config repeats the selection"
"$WULTFW" calc out/sel/filtered.csv >calc.out 2>&1
expect_status 0 $? "calc opens filtered.csv"

# A misspelt column: at file:line with a caret, and no result directory;
# the timer declares its columns, so the file is refused as it is loaded.
sed 's/LDist < 0.25ms/LDst < 0.25ms/; s/"out"/"out2"/' sel.cfg >bad.cfg
"$WULTFW" -q -c bad.cfg >bad.err 2>&1
expect_status 2 $? "an unknown column is refused with the file"
expect_in bad.err "bad.cfg:6: experiments[0].include: unknown column 'LDst' (did you mean 'LDist'?)" "at file:line with a did-you-mean"
expect_in bad.err "  LDst < 0.25ms
  ^" "and a caret"
[ -e out2 ] && fail "a result directory was left behind" || ok "nothing measured"
# A syntax error is caught by --check, before any source opens.
sed 's/LDist < 0.25ms/LDist < < 0.25ms/' sel.cfg >syn.cfg
"$WULTFW" -c syn.cfg --check >syn.err 2>&1
expect_status 2 $? "--check refuses a syntax error"
expect_in syn.err "syn.cfg:6: experiments[0].include: a column, number or string is expected here" "at file:line"
"$WULTFW" -c bad.cfg --check >chk.err 2>&1
expect_status 2 $? "--check refuses the unknown column too"
expect_in chk.err "bad.cfg:6: experiments[0].include: unknown column 'LDst' (did you mean 'LDist'?); the columns are: WakeLatency, SilentTime, LDist, ReqCState, LTime, TBI, TAI (checked against the columns source 'timer' declares)" "with the timer's columns"
finish
