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
finish
