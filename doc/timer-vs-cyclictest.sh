#!/bin/sh
# SPDX-License-Identifier: MIT
# Measure the timer source and cyclictest side by side on one CPU, same
# interval, SCHED_FIFO 90, locked memory, 20000 wake-ups each; prints a
# markdown table (doc/timer-vs-cyclictest.md). Run as root from the build
# directory: sh doc/timer-vs-cyclictest.sh [CPU] [LOOPS]
# Needs cyclictest (Debian rt-tests) and the csv sink.
set -eu
CPU=${1:-1}
LOOPS=${2:-20000}
WULTFW=${WULTFW:-./wultfw}
STATS="$(dirname "$0")/latency_stats.py"
OUT=$(mktemp -d /tmp/timer-vs-cyclictest.XXXXXX)

cat > "$OUT/exp.cfg" <<CFG
outdir = "$OUT";
limits = { datapoints = $LOOPS; };
sinks = ( { plugin = "csv"; } );
experiments = (
  { name = "timer-200us";
    source = { plugin = "timer"; cpu = $CPU; ldist = "200us"; priority = 90; mlock = true; }; },
  { name = "timer-100-300us";
    source = { plugin = "timer"; cpu = $CPU; ldist = [ "100us", "300us" ]; priority = 90; mlock = true; }; },
  { name = "timer-200us-noreqcstate";
    source = { plugin = "timer"; cpu = $CPU; ldist = "200us"; priority = 90; mlock = true; reqcstate = false; }; },
  { name = "timer-200us-other";
    source = { plugin = "timer"; cpu = $CPU; ldist = "200us"; priority = 0; }; },
  { name = "timer-200us-dma0";
    source = { plugin = "timer"; cpu = $CPU; ldist = "200us"; priority = 90; mlock = true; }; }
);
CFG

timer() {
	"$WULTFW" -q --no-progress -c "$OUT/exp.cfg" --only "$1"
	"$STATS" wult "$2" < "$OUT/$1/datapoints.csv"
}

cyclic() {
	# -N: ns, -v: every sample, -d0: the one thread runs at -i exactly
	cyclictest -m -p90 -i200 -d0 -t1 -a"$CPU" -l"$LOOPS" -N -v -q "$@" \
		> "$OUT/cyclictest.txt"
}

echo "| run | n | min | avg | median | p99 | p99.9 | max | ReqCState |"
echo "|---|---|---|---|---|---|---|---|---|"
cyclic --laptop
"$STATS" cyclictest "cyclictest -i200 --laptop (C-states allowed)" < "$OUT/cyclictest.txt"
timer timer-200us "timer ldist 200us"
timer timer-100-300us "timer ldist 100-300us"
timer timer-200us-noreqcstate "timer ldist 200us, reqcstate = false"
timer timer-200us-other "timer ldist 200us, priority 0 (SCHED_OTHER)"
cyclic
"$STATS" cyclictest "cyclictest -i200 (cpu_dma_latency 0: POLL only)" < "$OUT/cyclictest.txt"
# What cyclictest does by default, done by this script, not the plugin: hold
# /dev/cpu_dma_latency at 0 while the timer source runs. (The experiment
# key cstates = { only = [ "POLL" ]; } does not do it under the haltpoll
# governor, which ignores the cpuidle disable flags.)
exec 3>/dev/cpu_dma_latency
printf 0 >&3
timer timer-200us-dma0 "timer ldist 200us, cpu_dma_latency 0 held by the script"
exec 3>&-
echo "raw results: $OUT" >&2
