#!/bin/sh
# SPDX-License-Identifier: MIT
# Reproduce doc/measurements.md's first tables on this machine, as root from
# a built tree:  sh doc/measure.sh [CPU] [DATAPOINTS]   (default 1, 5000)
# Prints markdown: the machine, timer vs cyclictest at equal settings, hrt
# per requested C-state, and a launch-distance sweep of hrt and timer at
# equal settings. Every comparison uses the same CPU, priority, interval
# or launch-distance range, sleep rule and C-state policy: latency on a VM
# grows with the launch distance, so a random range is never compared with
# a fixed interval, and cyclictest -i (a fixed grid: each sleep is the
# interval minus the last wake-up's latency) only with the timer's mode
# grid, never with mode ldist (each sleep the whole launch distance).
set -eu
CPU=${1:-1}
N=${2:-5000}
top=$(cd "$(dirname "$0")/.." && pwd)
WULTFW=${WULTFW:-$top/wultfw}
STATS="$top/doc/latency_stats.py"
OUT=$(mktemp -d /tmp/wultfw-measure.XXXXXX)
export WULTFW_PLUGIN_PATH="$top/plugins/timer/.libs:$top/plugins/hrt/.libs:$top/sinks/csv/.libs"
sys=/sys/devices/system/cpu

machine() {
	echo "## Machine"
	echo
	echo "- CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs; measured CPU $CPU"
	echo "- kernel: $(uname -r); clockevent: $(cat $sys/../clockevents/clockevent$CPU/current_device 2>/dev/null || echo '?')"
	echo "- cpuidle driver: $(cat $sys/cpuidle/current_driver 2>/dev/null || echo none), governor: $(cat $sys/cpuidle/current_governor_ro 2>/dev/null || cat $sys/cpuidle/current_governor 2>/dev/null || echo none)"
	echo "- C-states of CPU $CPU: $(cat $sys/cpu$CPU/cpuidle/state*/name 2>/dev/null | paste -sd, - || true)"
	echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $N datapoints per row"
	echo
}

# run NAME SOURCE-KEYS [EXPERIMENT-KEYS]: one experiment, quietly.
run() {
	cat > "$OUT/$1.cfg" <<CFG
outdir = "$OUT";
experiments = ( { name = "$1"; source = { cpu = $CPU; $2 }; ${3:-}
    limits = { datapoints = $N; time = "10m"; }; sinks = ( { plugin = "csv"; } ); } );
CFG
	"$WULTFW" -q --no-progress -c "$OUT/$1.cfg" >"$OUT/$1.log" 2>&1 ||
		{ echo "| $1 | failed: $(grep -m1 error "$OUT/$1.log") |"; return 1; }
}

row() { # NAME LABEL [COLUMN]
	"$STATS" wult "$2" "${3:-WakeLatency}" < "$OUT/$1/datapoints.csv"
}

cyclic() { # LABEL [cyclictest options]
	label=$1; shift
	cyclictest -m -p90 -i200 -d0 -t1 -a"$CPU" -l"$N" -N -v -q "$@" >"$OUT/cyclictest.txt"
	"$STATS" cyclictest "$label" < "$OUT/cyclictest.txt"
}

header() {
	echo "| $1 | n | min | avg | median | p99 | p99.9 | max | ReqCState |"
	echo "|---|---|---|---|---|---|---|---|---|"
}

timer_vs_cyclictest() {
	t='plugin = "timer"; ldist = "200us"; priority = 90; mlock = true; reqcstate = false;'
	echo "## timer vs cyclictest: 200 us, SCHED_FIFO 90, mlock, CPU $CPU (us)"
	echo
	header run
	if command -v cyclictest >/dev/null; then
		cyclic "cyclictest -i200 --laptop (C-states allowed)" --laptop
	else
		echo "| cyclictest | not installed (Debian rt-tests) |"
	fi
	run grid200 "$t mode = \"grid\";" &&
		row grid200 "timer mode grid 200us (the same grid)"
	run ldist200 "$t mode = \"ldist\";" &&
		row ldist200 "timer mode ldist 200us (each sleep 200 us)"
	echo
	echo "cyclictest -i and timer mode grid sleep to a fixed grid (next deadline ="
	echo "previous + 200 us: each sleep is 200 us minus the last wake-up's latency"
	echo "and work); mode ldist sleeps 200 us from each arming (wult's launch"
	echo "distance). Where latency depends on how long the CPU slept, only the"
	echo "first two compare. cyclictest without --laptop holds /dev/cpu_dma_latency"
	echo "at 0 (POLL only where a cpuidle driver exists): compare it only with a"
	echo "timer run that holds the same, as doc/timer-vs-cyclictest.sh does."
	echo
}

hrt_per_cstate() {
	echo "## hrt per requested C-state, ldist 20 us - 1 ms (us)"
	echo
	if ! run hrt-all 'plugin = "hrt"; ldist = [ "20us", "1ms" ];' >/dev/null; then
		echo "hrt cannot run here: $(grep -m1 error "$OUT/hrt-all.log")"
		echo
		return 0
	fi
	header "C-states allowed, WakeLatency"
	row hrt-all "all" WakeLatency
	for f in $sys/cpu$CPU/cpuidle/state*/name; do
		[ -r "$f" ] || { echo "| (no cpuidle states: no restriction possible) |"; break; }
		st=$(cat "$f"); n=$(echo "$st" | tr -c 'A-Za-z0-9\n' _)
		run "hrt-$n" 'plugin = "hrt"; ldist = [ "20us", "1ms" ];' \
			"cstates = { only = [ \"$st\" ]; };" && row "hrt-$n" "only $st" WakeLatency
	done
	echo
	header "C-states allowed, IntrLatency"
	row hrt-all "all" IntrLatency
	echo
}

sweep() {
	echo "## launch-distance sweep, hrt and timer (priority 90), CPU $CPU, WakeLatency (us)"
	echo
	header "source, ldist"
	for r in "10us 200us" "200us 400us" "400us 600us" "800us 1ms" "2ms 4ms"; do
		set -- $r
		run "hrt-$1-$2" "plugin = \"hrt\"; ldist = [ \"$1\", \"$2\" ];" >/dev/null &&
			row "hrt-$1-$2" "hrt $1-$2"
		run "timer-$1-$2" "plugin = \"timer\"; ldist = [ \"$1\", \"$2\" ]; priority = 90; mlock = true;" &&
			row "timer-$1-$2" "timer $1-$2"
	done
	echo
}

[ "$(id -u)" = 0 ] || { echo "measure.sh: run as root (SCHED_FIFO, eBPF, C-state restriction)" >&2; exit 1; }
[ -x "$WULTFW" ] || { echo "measure.sh: build first: $WULTFW missing" >&2; exit 1; }
machine
timer_vs_cyclictest
hrt_per_cstate
sweep
echo "raw results: $OUT" >&2
