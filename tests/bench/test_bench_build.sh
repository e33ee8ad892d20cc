#!/bin/sh
# The benchmark programs (make bench) still build and run: each on a few
# datapoints, exit status 0, output read back whole. Their figures mean
# nothing at this size; this only keeps them in step with the APIs they
# drive (the sinks' descriptors, the core's files, lib/datafmt).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1
B=$top/tests/bench

# 4096 rows: one batch per csv run, five per binary run.
mkdir sinks
"$B/bench_sinks" -n 4096 -d "$work/sinks" >sinks.out 2>&1
expect_status 0 $? "bench_sinks: csv and binary sinks, read back"
expect_in sinks.out "binary  read, 10 cols" "bench_sinks: the last read-back ran"
"$B/bench_sinks" -n 4096 -d "$work/sinks" -x >sinks-x.out 2>&1
expect_status 0 $? "bench_sinks -x: writes discarded"
expect_in sinks-x.out "binary  sink, 10 cols" "bench_sinks -x: every sink ran"
[ -z "$(ls sinks)" ] && ok "bench_sinks left no file" || fail "bench_sinks left $(ls sinks)"

mkdir stats
"$B/bench_stats_sink" 100000 "$work/stats" >stats.out 2>&1
expect_status 0 $? "bench_stats_sink: 100000 datapoints"
expect_in stats.out "stats sink: 100000 datapoints" "bench_stats_sink: its figures"
expect_in stats/stats.json '"final": true' "bench_stats_sink: the final stats.json"

mkdir gen
"$B/gen_datapoints" 1000 "$work/gen" >gen.out 2>&1
expect_status 0 $? "gen_datapoints: 1000 rows"
[ "$(wc -l <gen/datapoints.csv)" = 1001 ] && ok "gen_datapoints: 1000 rows and a header" ||
	fail "gen_datapoints: $(wc -l <gen/datapoints.csv) lines in datapoints.csv"
mkdir genw
"$B/gen_datapoints" -w 1000 "$work/genw" >genw.out 2>&1
expect_status 0 $? "gen_datapoints -w: 1000 rows with wult's floats"
"$WULTFW" calc genw/datapoints.csv >genw.calc 2>&1
expect_status 0 $? "gen_datapoints -w: calc reads it"
grep -q '^[0-9]*\.[0-9]\{12,\},' genw/datapoints.csv && ok "gen_datapoints -w: latencies of wult's length" ||
	fail "gen_datapoints -w: no latency of 12 decimals or more: $(sed -n 2p genw/datapoints.csv)"
for f in csv wfb; do
	"$B/bench_floor" "gen/datapoints.$f" >floor.$f 2>&1
	expect_status 0 $? "bench_floor: gen_datapoints' $f file"
	expect_in floor.$f "13000 numeric values" "bench_floor: every numeric value of the $f file counted"
	expect_in floor.$f "statistics of the values" "bench_floor: the statistics' stage"
done
mkdir attrib
"$B/gen_attrib" 1000 "$work/attrib" >attrib.out 2>&1
expect_status 0 $? "gen_attrib: 1000 rows"
"$WULTFW" calc --explain 99 attrib >attrib.out 2>&1
expect_status 0 $? "gen_attrib: calc --explain reads what it wrote"
[ "$(wc -l <attrib/datapoints.csv)" = 1001 ] && ok "gen_attrib: 1000 rows and a header" ||
	fail "gen_attrib: $(wc -l <attrib/datapoints.csv) lines in datapoints.csv"
if grep -q "break" attrib.out; then fail "gen_attrib: rows break the identity:"; cat attrib.out; else
	ok "gen_attrib: every row's parts add up"; fi

# bench_groupby.sh on 2000 rows of 100 groups (pandas too where installed),
# its 1 M-group goal on 20 000 rows (seconds, not minutes)
MILLION_ROWS=20000 TMPDIR=$work sh "$abs_top_srcdir/tests/bench/bench_groupby.sh" "$top" 100 2000 >groupby.out 2>&1 &
wait_bounded $! 120
expect_status 0 $? "bench_groupby.sh: 100 groups of 2000 rows"
expect_in groupby.out "target: under 256 MiB" "bench_groupby.sh: its targets"
expect_in groupby.out "goal: 1 M groups of 20000 rows finish within --mem-limit 512M (-j 2): met" \
	"bench_groupby.sh: the 1 M-group goal"

# bench_compare.sh on 2000 rows, one round of cat and wultfw (seconds)
sh "$abs_top_srcdir/tests/bench/bench_compare.sh" --help >compare-help.out 2>&1
expect_status 0 $? "bench_compare.sh --help"
expect_in compare-help.out "Usage: bench_compare.sh" "bench_compare.sh --help: its usage"
TMPDIR=$work sh "$abs_top_srcdir/tests/bench/bench_compare.sh" --build "$top" --wultfw "$WULTFW" \
	--rows 2000 --rounds 1 --only cat,wultfw --timeout 60 >compare.out 2>&1 &
wait_bounded $! 120
expect_status 0 $? "bench_compare.sh: cat and wultfw on 2000 rows"
expect_in compare.out "wultfw_wfb: all 2000 " "bench_compare.sh: calc's answer on the binary twin"
expect_in compare.out "CPU/wultfw" "bench_compare.sh: its table of ratios"
finish
