#!/bin/sh
# SPDX-License-Identifier: MIT
# cyclictest against the timer source at equal settings, side by side:
# CPU, SCHED_FIFO 90, locked memory, 200 us, LOOPS wake-ups each, in
# ROUNDS alternating rounds of
#   cyclictest -m -p90 -i200          a fixed grid: next = previous + 200 us
#   timer mode = "grid", 200us        the same grid
#   timer mode = "ldist", 200us       every sleep 200 us from its arming
# first with C-states allowed (cyclictest --laptop), then with
# /dev/cpu_dma_latency held at 0 (cyclictest's default; the script holds
# it for the timer runs), then one grid and one ldist run with ReqCState.
# Prints the machine and markdown tables (doc/timer-vs-cyclictest.md).
# Run as root from the build directory:
#   sh doc/timer-vs-cyclictest.sh [CPU] [LOOPS] [ROUNDS]   (1 20000 3)
# Needs cyclictest (Debian rt-tests) and the csv sink.
set -eu
CPU=${1:-1}
LOOPS=${2:-20000}
ROUNDS=${3:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
WULTFW=${WULTFW:-./wultfw}
STATS="$top/doc/latency_stats.py"
OUT=$(mktemp -d /tmp/timer-vs-cyclictest.XXXXXX)
: "${WULTFW_PLUGIN_PATH:=$PWD/plugins/timer/.libs:$PWD/sinks/csv/.libs}"
export WULTFW_PLUGIN_PATH

# cyclictest does not read cpuidle counters after each wake-up; with them
# the timer's grid sleeps would be shorter by their cost (~5 us here).
T="plugin = \"timer\"; cpu = $CPU; ldist = \"200us\"; priority = 90; mlock = true;"
cat > "$OUT/exp.cfg" <<CFG
outdir = "$OUT";
limits = { datapoints = $LOOPS; time = "10m"; };
sinks = ( { plugin = "csv"; } );
experiments = (
  { name = "grid"; source = { $T mode = "grid"; reqcstate = false; }; },
  { name = "ldist"; source = { $T mode = "ldist"; reqcstate = false; }; },
  { name = "grid-reqcstate"; source = { $T mode = "grid"; }; },
  { name = "ldist-reqcstate"; source = { $T mode = "ldist"; }; }
);
CFG

timer() { # EXPERIMENT LABEL
	"$WULTFW" -q --no-progress -c "$OUT/exp.cfg" --only "$1" --force
	missed=$(sed -n "s/^timer_grid_missed: '*\([0-9]*\)'*/\1/p" "$OUT/$1/info.yml")
	"$STATS" wult "$2${missed:+ (skipped $missed)}" < "$OUT/$1/datapoints.csv"
}

cyclic() { # LABEL [cyclictest options]
	label=$1; shift
	# -N: ns, -v: every sample, -d0: the one thread runs at -i exactly
	cyclictest -m -p90 -i200 -d0 -t1 -a"$CPU" -l"$LOOPS" -N -v -q "$@" \
		> "$OUT/cyclictest.txt"
	"$STATS" cyclictest "$label" < "$OUT/cyclictest.txt"
}

header() {
	echo "| run | n | min | avg | median | p99 | p99.9 | max | ReqCState |"
	echo "|---|---|---|---|---|---|---|---|---|"
}

# steal: the CPU's steal time (its vCPU not running on the host) and all
# its time, in USER_HZ ticks, from /proc/stat.
steal() {
	awk -v c="cpu$CPU" '$1 == c { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t }' /proc/stat
}

sys=/sys/devices/system/cpu
set -- $(steal)
st0=$1 all0=$2
echo "- $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs, kernel $(uname -r), cpuidle $(cat $sys/cpuidle/current_driver 2>/dev/null || echo none), CPU $CPU"
echo "- $(date -u '+%Y-%m-%d %H:%M UTC'); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "C-states allowed (cyclictest --laptop), us:"
echo
header
for r in $(seq "$ROUNDS"); do
	cyclic "#$r cyclictest -i200 --laptop" --laptop
	timer grid "#$r timer grid 200us"
	timer ldist "#$r timer ldist 200us"
done
echo
echo "/dev/cpu_dma_latency held at 0 (cyclictest's default), us:"
echo
header
# What cyclictest does by default, done by this script for the timer runs.
exec 3>/dev/cpu_dma_latency
printf 0 >&3
for r in $(seq "$ROUNDS"); do
	cyclic "#$r cyclictest -i200"
	timer grid "#$r timer grid 200us"
	timer ldist "#$r timer ldist 200us"
done
exec 3>&-
echo
echo "With ReqCState (cpuidle counters read after each wake-up), C-states allowed, us:"
echo
header
timer grid-reqcstate "timer grid 200us"
timer ldist-reqcstate "timer ldist 200us"
echo
set -- $(steal)
echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg); steal time of CPU $CPU over the runs: $((100 * ($1 - st0) / ($2 - all0 + 1)))% (the host ran other guests' work instead)"
echo "raw results: $OUT" >&2
