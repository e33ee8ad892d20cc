#!/bin/sh
# ABI v2 with the real plugins: what their option tables declare is shown
# by 'wultfw help PLUGIN' and enforced when the file is loaded (--check),
# each violation at file:line with the allowed range or values; a launch
# distance outside what the source can take is refused the same way.
. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="$WULTFW_BUILD_PLUGIN_PATH"

check() {	# check NAME SOURCE-GROUP: --check of a file with that source
	printf 'name = "x";\nsource = { plugin = %s\n};\nsinks = ( { plugin = "csv"; } );\n' \
		"$2" >"$work/$1.cfg"
	"$WULTFW" --check -c "$work/$1.cfg" >"$work/$1.out" 2>&1
}

"$WULTFW" help timer >"$work/help-timer" 2>&1
expect_status 0 $? "help timer"
expect_in "$work/help-timer" "allowed: 1us to 1m" "help timer shows the launch distance bounds"
"$WULTFW" help tdt >"$work/help-tdt" 2>&1
expect_in "$work/help-tdt" 'allowed: one of "tdt", "hrt"' "help tdt shows the devices"

check tsc '"tdt"; cpu = 0;
  device = "tsc";'
expect_status 2 $? "tdt device \"tsc\" is refused when the file is loaded"
expect_in "$work/tsc.out" "tsc.cfg:3: source.device: \"tsc\" is not allowed: use one of \"tdt\", \"hrt\"" "at file:line, with the devices"

check ldist '"timer"; cpu = 0;
  ldist = [ "10us", "2m" ];'
expect_status 2 $? "a launch distance beyond timer's limits is refused"
expect_in "$work/ldist.out" "ldist.cfg:3: source.ldist: [10us, 2m] is outside what source 'timer' can take: [1us, 1m]" "at file:line, with the limits"

check prio '"timer"; cpu = 0;
  priority = 100;'
expect_status 2 $? "timer priority above its bound is refused"
expect_in "$work/prio.out" "prio.cfg:3: source.priority: 100 is out of range: allowed" "at file:line, with the range"

# A duration echoed as written ("0s"), not as parsed ("0ns").
check period '"telemetry";
  period = "0s";'
expect_status 2 $? "telemetry period 0s is refused"
expect_in "$work/period.out" "period.cfg:3: source.period: \"0s\" is out of range: allowed 100us to 1h" \
	"the period as the file wrote it"

if [ -e "$top/plugins/hrt/hrt.la" ]; then
	check ring '"hrt"; cpu = 0;
  ring_kib = 8;'
	expect_status 2 $? "hrt ring_kib below its bound is refused"
	expect_in "$work/ring.out" "ring.cfg:3: source.ring_kib: 8 is out of range: allowed 16 to 262144 KiB" "at file:line, with range and unit"
else
	skip_part "hrt's ring_kib bound: hrt is not built here (no clang, bpftool or BTF)"
fi
finish
