#!/bin/sh
# wultfw keeps its reading thread on the CPUs it was started with (taskset),
# off the measured one; started on the measured CPU only, it says that it
# moves the thread elsewhere. Two runs on one CPU: the second is warned.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="$top/tests/plugins"
# Its own state directory: other tests measuring CPU 1 at the same time
# (make -j check) hold the shared one's CPU locks.
export WULTFW_STATE_DIR="$work/state"

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ] || ! command -v taskset >/dev/null; then
	echo "SKIP: needs 2 online CPUs and taskset (this machine: $(getconf _NPROCESSORS_ONLN), $(command -v taskset || echo no taskset))"
	exit 77
fi
cat >"$work/one.cfg" <<'CFG'
name = "one";
source = { plugin = "testsrc"; cpu = 1; total = 50; };
sinks = ( { plugin = "testsink"; } );
CFG
taskset -c 1 "$WULTFW" -c "$work/one.cfg" -o "$work/out1" >"$work/only1.out" 2>&1
expect_status 0 $? "a run started on the measured CPU only"
expect_in "$work/only1.out" "wultfw was started on CPU 1 only (taskset?)" "says the reading thread goes elsewhere"
taskset -c 0 "$WULTFW" -c "$work/one.cfg" -o "$work/out0" >"$work/only0.out" 2>&1
expect_status 0 $? "a run started on another CPU"
if grep -qF "started on CPU" "$work/only0.out"; then
	fail "a warning although the given CPUs leave room: $(cat "$work/only0.out")"
else
	ok "no warning when the given CPUs leave room"
fi

# Two runs measuring one CPU at once: the second is told who else is there.
cat >"$work/slow.cfg" <<'CFG'
name = "slow";
source = { plugin = "testsrc"; cpu = 1; total = 0; delay = "20ms"; };
limits = { time = "10m"; };
sinks = ( { plugin = "testsink"; } );
CFG
"$WULTFW" -q -c "$work/slow.cfg" -o "$work/outslow" 2>"$work/slow.err" &
slow=$!
wait_until grep -qs "status: 'running'" "$work/outslow/slow/info.yml" ||
	fail "the first run never started: $(cat "$work/slow.err")"
"$WULTFW" -c "$work/one.cfg" -o "$work/out2" >"$work/second.out" 2>&1
expect_status 0 $? "a second run on the same CPU still measures"
expect_in "$work/second.out" "another wultfw (pid $slow) is measuring CPU 1 too" "and is told which process measures CPU 1"
kill -INT $slow; wait_bounded $slow 60
"$WULTFW" -c "$work/one.cfg" -o "$work/out3" >"$work/third.out" 2>&1
if grep -qF "another wultfw" "$work/third.out"; then
	fail "a warning after the first run ended: $(cat "$work/third.out")"
else
	ok "the lock goes with the run"
fi
finish
