#!/bin/sh
# wultfw keeps its reading thread on the CPUs it was started with (taskset),
# off the measured one; started on the measured CPU only, it says that it
# moves the thread elsewhere.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="$top/tests/plugins"

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
finish
