#!/bin/sh
# stop_above: a datapoint above it ends the run (every CPU's), says which
# CPU, metric, value and datapoint, keeps everything up to it (the
# crossing one last) and exits 6. The crossing is injected (testspike's
# spike at a known datapoint on one CPU), not waited for; then the timer
# source made to cross by a SCHED_FIFO busy loop on one CPU (SKIP when it
# did not cross within its bound). Bad values: one line each.
# Alone: the FIFO 99 busy loop on the last CPU would starve other tests'
# threads there (test_attrib_trace fails beside one: its noise is not seen).
# wultfw-test: alone
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}:$top/tests/plugins"
cd "$work" || exit 1

cpus=$(awk -v l="$(cat /sys/devices/system/cpu/online)" 'BEGIN { n = split(l, p, ",");
	for (i = 1; i <= n; i++) { m = split(p[i], r, "-"); if (m == 1) r[2] = r[1];
		for (c = r[1]; c <= r[2]; c++) s = s (s == "" ? "" : " ") c }
	print s }')
last=${cpus##* }

# cfg NAME CPU SOURCE-OPTIONS STOP_ABOVE [LIMITS]: an experiment file.
cfg() {
	lim=${5:-}
	[ -n "$lim" ] || lim='time = "60s";'
	cat >"$1.cfg" <<CFG
outdir = "r";
name = "$1";
source = { plugin = "testspike"; cpu = $2; $3 stop_above = $4; };
limits = { $lim };
sinks = ( { plugin = "csv"; } );
CFG
}

rows() {
	echo $(($(wc -l <"$1") - 1))
}

# Two CPUs: the spike on the last one at datapoint 57 stops both.
if [ "$cpus" != "$last" ]; then
	cfg two '"all"' "spike = \"500us\"; spike_at = 57; spike_cpu = $last;" '"200us"'
	timeout 120 "$WULTFW" -c two.cfg >two.out 2>&1
	expect_status 6 $? "a crossing on CPU $last ends the run with exit status 6"
	expect_in two.out "experiment 'two' hit stop_above: CPU $last: WakeLatency 500.000us is above stop_above 200us at datapoint 57" \
		"says which CPU, metric, value and datapoint"
	d=r/two/cpu$last
	expect_status 57 "$(rows $d/datapoints.csv)" "CPU $last kept the 57 datapoints up to the crossing"
	expect_status "500.000" "$(tail -n 1 $d/datapoints.csv | cut -d, -f1)" "the crossing datapoint is the last one kept"
	expect_in r/two/info.yml "status: 'stopped'" "EXP/info.yml says stopped"
	expect_in r/two/info.yml "stopped_by: 'stop_above: CPU $last: WakeLatency" "EXP/info.yml says by what"
	for c in $cpus; do
		expect_in r/two/cpu$c/info.yml "status: 'stopped'" "CPU $c's info.yml says stopped"
		n=$(rows r/two/cpu$c/datapoints.csv)
		expect_in r/two/cpu$c/info.yml "datapoints: $n" "CPU $c's $n datapoints flushed and counted"
	done
	"$WULTFW" calc r/two >calc.out 2>&1
	expect_status 0 $? "the stopped experiment opens in calc"
else
	skip_part "stop_above on one CPU of two: this machine has one online CPU"
fi

# One CPU, the per-metric form: the same, from an ordinary run.
cfg one 0 'spike = "1ms"; spike_at = 5;' '{ WakeLatency = "999us"; }'
timeout 120 "$WULTFW" -c one.cfg >one.out 2>&1
expect_status 6 $? "a single-CPU run stops too, exit status 6"
expect_in one.out "hit stop_above: CPU 0: WakeLatency 1000.000us is above stop_above 999us at datapoint 5" "and says so"
expect_status 5 "$(rows r/one/datapoints.csv)" "it kept datapoints 1 to 5"
expect_in r/one/info.yml "status: 'stopped'" "its info.yml says stopped"

# Not crossed: an ordinary complete run.
cfg calm 0 'spike = "150us"; spike_at = 3;' '"150us"' 'datapoints = 40;'
timeout 120 "$WULTFW" -q -c calm.cfg >calm.out 2>&1
expect_status 0 $? "a datapoint equal to the limit is not above it"
expect_in r/calm/info.yml "status: 'complete'" "the run completes"

# Bad values: one line each, file:line, key and what to do.
cfg typo 0 '' '{ WakeLatancy = "200us"; }'
"$WULTFW" -c typo.cfg --check >typo.out 2>&1
expect_status 2 $? "an unknown metric is refused"
expect_in typo.out "typo.cfg:3: source.stop_above.WakeLatancy: no duration metric 'WakeLatancy' (did you mean 'WakeLatency'?)" "with a did-you-mean"
cfg seq 0 '' '{ Seq = "200us"; }'
"$WULTFW" -c seq.cfg --check >seq.out 2>&1
expect_status 2 $? "a metric that is not a duration is refused"
expect_in seq.out "no duration metric 'Seq'" "by name"
cfg unit 0 '' '"200"'
"$WULTFW" -c unit.cfg --check >unit.out 2>&1
expect_status 2 $? "a duration without a unit is refused"
expect_in unit.out "unit.cfg:3: source.stop_above: \"200\"" "at its line"
cfg big 0 '' '"2h"'
"$WULTFW" -c big.cfg --check >big.out 2>&1
expect_status 2 $? "a limit out of bounds is refused"
expect_in big.out "source.stop_above: \"2h\" is out of range: allowed 1ns to 1h" "with the bounds"

# The timer source on every CPU, a SCHED_FIFO busy loop on the last one:
# its timer thread wakes late until the loop is throttled.
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null || echo -1)
if [ "$cpus" = "$last" ]; then
	skip_part "timer crossing on one CPU of two: one online CPU"
elif [ "$rt" = -1 ] || ! command -v chrt >/dev/null; then
	skip_part "timer crossing: no RT throttling (sched_rt_runtime_us $rt) or no chrt: a FIFO busy loop would hang CPU $last"
else
	cat >timer.cfg <<'CFG'
outdir = "r";
name = "timer";
source = { plugin = "timer"; cpu = "all"; ldist = "1ms"; stop_above = "20ms"; };
limits = { time = "30s"; };
sinks = ( { plugin = "csv"; } );
CFG
	timeout 60 "$WULTFW" -c timer.cfg >timer.out 2>&1 &
	run=$!
	timeout 40 chrt -f 99 taskset -c "$last" sh -c 'while :; do :; done' &
	loop=$!
	wait_bounded $run 90
	st=$?
	kill $loop 2>/dev/null
	wait $loop 2>/dev/null
	# Which CPU crosses first is the machine's: another engineer's load
	# can delay CPU 0 past 20ms before the loop starts on CPU $last.
	hit=$(grep -o "hit stop_above: CPU [0-9]*: WakeLatency [0-9.]*us" timer.out)
	if [ $st = 6 ] && [ -n "$hit" ]; then
		ok "timer: $hit"
		expect_in r/timer/info.yml "status: 'stopped'" "the timer experiment says stopped"
		c=$(echo "$hit" | sed 's/.*CPU \([0-9]*\):.*/\1/')
		last_row=$(tail -n 1 "r/timer/cpu$c/datapoints.csv" | cut -d, -f1)
		awk -v v="$last_row" 'BEGIN { exit !(v > 20000) }' &&
			ok "CPU $c's last datapoint is the crossing one ($last_row us)" ||
			fail "CPU $c's last datapoint, $last_row us, is not above 20ms"
	elif [ $st = 0 ]; then
		skip_part "timer crossing: no datapoint above 20ms within 30 s, even on CPU $last under a FIFO busy loop"
	else
		fail "timer with stop_above: exit status $st:"; sed 's/^/    /' timer.out
	fi
fi

finish
