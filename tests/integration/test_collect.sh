#!/bin/sh
# Collectors through the real binary: a timer experiment with two telemetry
# collectors. Their files must be present, whole and counted in info.yml
# after a normal end, after SIGINT, and next to a collector that failed.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

# check_coll DIR FILE INDEX COLUMNS: a collector's CSV is whole, numeric,
# in time order, and has the rows info.yml says (collectINDEX_rows).
check_coll() {
	f="$1/$2"
	[ -s "$f" ] || { fail "$f missing or empty"; return; }
	awk -F, -v n="$4" '
		NR == 1 { if ($1 != "Time" || $2 != "SampleWindow") { print "header: " $0; bad = 1 }; next }
		NF != n { print "line " NR ": " NF " fields"; bad = 1; exit }
		{ for (i = 1; i <= n; i++) if ($i !~ /^-?[0-9]+$/) { print "line " NR ": field " i " is " $i; bad = 1; exit } }
		$1 <= last { print "line " NR ": Time goes back"; bad = 1; exit }
		{ last = $1 }
		END { exit bad }' "$f" && ok "$2: whole numeric rows in time order" || fail "$2 malformed"
	rows=$(($(wc -l <"$f") - 1))
	counted=$(sed -n "s/^collect$3_rows: //p" "$1/info.yml")
	[ "$rows" -gt 0 ] && [ "$rows" = "$counted" ] && ok "$2: $rows rows, as info.yml counts" ||
		fail "$2: $rows rows, info.yml says '$counted'"
}

write_cfg() {	# write_cfg LIMIT SECOND_COUNTER
	cat >coll.cfg <<CFG
name = "coll";
source = { plugin = "timer"; cpu = 1; ldist = [ "100us", "1ms" ]; };
limits = { $1 };
sinks = ( { plugin = "csv"; } );
collect = (
  { plugin = "telemetry"; counters = [ "interrupts:LOC:cpu1", "stat:cpu1:idle", "stat:ctxt" ];
    period = "10ms"; clear = true; },
  { plugin = "telemetry"; counters = [ "$2" ]; period = "50ms"; file = "net.csv"; }
);
CFG
}

# A normal end.
write_cfg 'datapoints = 1000;' "net:lo:rx_packets"
"$WULTFW" -q -c coll.cfg -o normal
expect_status 0 $? "timer with two collectors"
expect_in normal/coll/info.yml "collectors: 'telemetry.csv, net.csv'" "info.yml lists both collector files"
expect_in normal/coll/info.yml "status: 'complete'" "the measurement completed"
check_coll normal/coll telemetry.csv 0 5
check_coll normal/coll net.csv 1 3
rows=$(($(wc -l <normal/coll/datapoints.csv) - 1))
[ "$rows" = 1000 ] && ok "the main source's 1000 datapoints" || fail "datapoints.csv has $rows rows"

# SIGINT mid-run: exit 130 and every file whole.
write_cfg 'time = "1m";' "net:lo:rx_packets"
"$WULTFW" -q -c coll.cfg -o sig &
pid=$!
# Mid-run: once every file holds a row (written out every second).
wait_until has_rows sig/coll/datapoints.csv 1 && wait_until has_rows sig/coll/telemetry.csv 1 &&
	wait_until has_rows sig/coll/net.csv 1 || fail "no rows in the files of a running run after 120 s"
kill -INT $pid
wait $pid
expect_status 130 $? "SIGINT exits 130"
expect_in sig/coll/info.yml "status: 'interrupted'" "info.yml says interrupted"
expect_in sig/coll/info.yml "collectors: 'telemetry.csv, net.csv'" "and lists both collector files"
check_coll sig/coll telemetry.csv 0 5
check_coll sig/coll net.csv 1 3

# A collector that cannot run: said why, the rest goes on.
write_cfg 'datapoints = 500;' "net:nosuch0:rx_packets"
"$WULTFW" -c coll.cfg -o failing 2>failing.err
expect_status 5 $? "a failing collector does not stop the measurement, but the exit status says data is missing"
expect_in failing.err "collector telemetry (net.csv) cannot run here: counter 'net:nosuch0:rx_packets'" "the failure is named"
expect_in failing.err "the measurement goes on without it" "and says the measurement goes on"
expect_in failing/coll/info.yml "collect1_error: 'cannot run here: counter ''net:nosuch0:rx_packets''" "info.yml records it"
expect_in failing/coll/info.yml "collectors: 'telemetry.csv'" "info.yml lists only the one that ran"
expect_in failing/coll/info.yml "collectors_failed: 1" "and counts the one that did not"
expect_in failing/coll/info.yml "status: 'complete'" "the measurement itself completed"
tail -n 1 failing.err >failing.last
expect_in failing.last "results in failing/coll, without the data of collector telemetry (net.csv)" "the run's final line names the lost collector"
[ -e failing/coll/net.csv ] && fail "the failed collector left a file" || ok "no file from the failed collector"
check_coll failing/coll telemetry.csv 0 5

# A counter that goes away mid-run: its column ends with empty cells and a
# logged reason; the other counter and the measurement go on.
mkdir -p fakeproc
printf '           CPU0       CPU1\n  24:    1    2   PCI-MSI eth0\n LOC:   10   20   Local timer\n' >fakeproc/interrupts
cat >gone.cfg <<CFG
name = "gone";
source = { plugin = "timer"; cpu = 1; ldist = "500us"; };
limits = { time = "1m"; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "telemetry"; proc_root = "$work/fakeproc"; period = "10ms";
              counters = [ "interrupts:24:cpu0", "interrupts:LOC:cpu1" ]; } );
CFG
"$WULTFW" -c gone.cfg -o gone >gone.out 2>&1 &
pid=$!
# The counter goes once it was sampled; the run stops once that was noticed
# (waits, not guessed sleeps: a loaded machine may take seconds for either).
wait_until has_rows gone/gone/telemetry.csv 1 || fail "no telemetry row in 120 s"
printf '           CPU0       CPU1\n LOC:   10   25   Local timer\n' >fakeproc/interrupts.new
mv fakeproc/interrupts.new fakeproc/interrupts
wait_until grep -q "went away" gone.out
kill -INT $pid
wait $pid
expect_status 130 $? "a run whose counter went away goes on until stopped"
expect_in gone.out "counter interrupts:24:cpu0 went away" "the vanished counter is logged"
grep -q '^[0-9]*,[0-9]*,1,20$' gone/gone/telemetry.csv && grep -q '^[0-9]*,[0-9]*,,25$' gone/gone/telemetry.csv &&
	ok "its column holds values, then empty cells; the other goes on" ||
	{ fail "telemetry.csv does not end the vanished column with empty cells:"; sed -n '1,3p;$p' gone/gone/telemetry.csv; }

# on_demand: one sample per batch of the main source (requests that come
# while it samples merge), at most max_samples.
cat >od.cfg <<'CFG'
name = "od";
source = { plugin = "timer"; cpu = 1; ldist = [ "100us", "300us" ]; };
limits = { datapoints = 2000; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "telemetry"; counters = [ "stat:ctxt" ]; mode = "on_demand"; },
            { plugin = "telemetry"; counters = [ "stat:ctxt" ]; mode = "on_demand";
              max_samples = 3; file = "three.csv"; } );
CFG
"$WULTFW" -q -c od.cfg -o od
expect_status 0 $? "timer with on_demand collectors"
check_coll od/od telemetry.csv 0 3
asked=$(sed -n 's/^collect0_requests: //p' od/od/info.yml)
rows=$(($(wc -l <od/od/telemetry.csv) - 1))
[ -n "$asked" ] && [ "$rows" -ge 1 ] && [ "$rows" -le "$asked" ] && [ "$asked" -le 2000 ] &&
	ok "on_demand: $rows samples for $asked batches of the main source" ||
	fail "on_demand: $rows samples, requests '$asked' (want 1 <= samples <= requests <= 2000)"
rows=$(($(wc -l <od/od/three.csv) - 1))
[ "$rows" = 3 ] && ok "on_demand with max_samples = 3 took 3" || fail "three.csv has $rows samples"

# A self-paced collector that always has more (testsampler: 10 rows a read,
# forever) must not hold the run open at its end: the drain after stop()
# ends at a short read (it once went on until the disk was full).
cat >endless.cfg <<'CFG'
name = "endless";
source = { plugin = "timer"; cpu = 1; ldist = "100us"; };
limits = { datapoints = 200; time = "20s"; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "testsampler"; } );
CFG
WULTFW_PLUGIN_PATH="$top/tests/plugins:${WULTFW_BUILD_PLUGIN_PATH:?}" \
	timeout -s KILL 120 "$WULTFW" -q -c endless.cfg -o endless >endless.out 2>&1
expect_status 0 $? "a collector that never runs dry ends with the run"
rows=$(($(wc -l <endless/endless/testsampler.csv) - 1))
[ "$rows" -gt 0 ] && [ "$(stat -c %s endless/endless/testsampler.csv)" -lt 10000000 ] &&
	ok "its file has $rows rows, not an endless drain" ||
	fail "testsampler.csv: $rows rows, $(stat -c %s endless/endless/testsampler.csv) bytes"

# Only samplers can be collectors; mistakes at file:line before anything runs.
cat >bad.cfg <<'CFG'
name = "bad";
source = { plugin = "timer"; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "timer"; }, { plugin = "telemetry"; counters = [ "stat:ctxt" ]; period = "1ns"; } );
CFG
"$WULTFW" --check -c bad.cfg >bad.out 2>&1
expect_status 2 $? "--check refuses bad collectors"
expect_in bad.out "bad.cfg:4: collect[0]" "a delayed-event source as a collector is named at file:line"
expect_in bad.out "only samplers" "and says why"
expect_in bad.out "collect[1].period" "an out-of-range collector option is named"
finish
