#!/bin/sh
# What an experiment on several CPUs does once, in the parent (issue 34,
# core/percpu_once.c): the C-states of every measured CPU stay set until
# the last CPU's run ended and are put back after it (a fake sysfs: a
# child stopped early does not put them back under the other; a kill -9
# of the parent leaves them to the next run, one of a child to the
# parent), then the same on the real cpuidle sysfs where there is a
# driver; collectors write one set of files into EXP/; the parent and the
# readers run on the housekeeping CPUs; --check names a CPU (listed or
# alone) another run holds (a warning: the run would go on too).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
export WULTFW_STATE_DIR="$work/state"
cd "$work" || exit 1
# Whatever happens, nothing stays changed.
trap '"$WULTFW" restore --sysfs-root "$work/sysfs" >/dev/null 2>&1; "$WULTFW" restore >/dev/null 2>&1; rm -rf "$work"' EXIT

online=$(cat /sys/devices/system/cpu/online)
case $online in
0-[1-9]*) ;;
*) skip_part "two CPUs 0 and 1 needed, this machine has $online"; finish ;;
esac

sysfs="$work/sysfs"
cpu="$sysfs/devices/system/cpu"
mkfake() {	# mkfake REL TEXT
	mkdir -p "$(dirname "$sysfs/$1")" && printf '%s\n' "$2" >"$sysfs/$1"
}
mkfake devices/system/cpu/online 0-1
for c in 0 1; do
	mkfake devices/system/cpu/cpu$c/cpuidle/state0/name POLL
	mkfake devices/system/cpu/cpu$c/cpuidle/state1/name C1
	mkfake devices/system/cpu/cpu$c/cpuidle/state2/name C6
	for s in 0 1 2; do
		mkfake devices/system/cpu/cpu$c/cpuidle/state$s/disable 0
	done
done
mkfake devices/system/cpu/cpuidle/current_governor haltpoll
mkfake devices/system/cpu/cpuidle/available_governors "ladder menu haltpoll"

# settings ROOT: both CPUs' state1 and state2 flags, and the governor.
settings() {
	_c="$1/devices/system/cpu"
	echo "$(cat "$_c"/cpu0/cpuidle/state[12]/disable "$_c"/cpu1/cpuidle/state[12]/disable | tr -d '\n') $(cat "$_c/cpuidle/current_governor")"
}
original=$(settings "$sysfs")	# "0000 haltpoll"; during a run "1111 menu"

cat >cs.cfg <<'CFG'
outdir = "r";
name = "cs";
source = { plugin = "timer"; cpu = "0-1"; ldist = "500us"; reqcstate = false; };
limits = { time = "100s"; };
cstates = { only = [ "POLL" ]; };
sinks = ( { plugin = "csv"; } );
CFG

# status DIR: the status its info.yml says.
status() {
	sed -n "s/^status: '*\([a-z]*\)'*\$/\1/p" "$1/info.yml" 2>/dev/null
}
not_running() {
	[ -n "$(status "$1")" ] && [ "$(status "$1")" != running ]
}
child_pid() {	# child_pid DIR: the pid its info.yml names
	sed -n 's/^pid: //p' "$1/info.yml"
}
gone() {
	! kill -0 "$1" 2>/dev/null
}
# start ROOT...: cs.cfg in the background ($run), both CPUs measuring.
start() {
	rm -rf r/cs
	"$WULTFW" -q -c cs.cfg "$@" >cs.out 2>&1 &
	run=$!
	for c in 0 1; do
		wait_until has_rows "r/cs/cpu$c/datapoints.csv" 20 ||
			fail "CPU $c: no 20 datapoints in 120 s"
	done
}

# 1. The changes stay until both runs ended, then go back, once.
start --sysfs-root "$sysfs"
now=$(settings "$sysfs")
[ "$now" = "1111 menu" ] && ok "both CPUs restricted and the governor switched while they measure" ||
	fail "while measuring: '$now', expected '1111 menu'"
kill -INT "$(child_pid r/cs/cpu0)"
wait_until not_running r/cs/cpu0 || fail "CPU 0's run did not end after SIGINT"
now=$(settings "$sysfs")
if [ "$(status r/cs/cpu1)" = running ]; then
	[ "$now" = "1111 menu" ] && ok "CPU 0's run ended, CPU 1's goes on: nothing put back yet" ||
		fail "CPU 0's run ended, CPU 1's goes on, and the settings are '$now'"
else
	fail "CPU 1's run ended with CPU 0's: $(status r/cs/cpu1)"
fi
kill -INT $run
wait_bounded $run 60
expect_status 130 $? "SIGINT to the parent ends the run, exit 130"
now=$(settings "$sysfs")
[ "$now" = "$original" ] && ok "after the last run: put back ($now)" ||
	fail "after the last run: '$now', expected '$original'"
ls "$WULTFW_STATE_DIR"/*.state >/dev/null 2>&1 && fail "a state file is left: $(ls "$WULTFW_STATE_DIR")" ||
	ok "no state file left"

# 2. kill -9 of the parent: its children stop, the next run puts back.
start --sysfs-root "$sysfs"
p0=$(child_pid r/cs/cpu0) p1=$(child_pid r/cs/cpu1)
kill -9 $run
wait $run 2>/dev/null
wait_until gone "$p0" && wait_until gone "$p1" && ok "the children stop with their parent" ||
	fail "a child of the killed parent runs on"
now=$(settings "$sysfs")
[ "$now" = "1111 menu" ] && ok "after kill -9 of the parent: left changed, in its state file" ||
	fail "after kill -9 of the parent: '$now'"
sed 's/cstates = .*//; s/time = "100s"/datapoints = 5; time = "100s"/; s/name = "cs"/name = "next"/' cs.cfg >next.cfg
timeout -k 10 120 "$WULTFW" -q -c next.cfg --sysfs-root "$sysfs" >next.out 2>&1
expect_status 0 $? "the next run"
now=$(settings "$sysfs")
[ "$now" = "$original" ] && ok "the next run put back what the killed parent changed" ||
	fail "after the next run: '$now', expected '$original'"

# 3. kill -9 of a child: the parent goes on and puts back at its end.
start --sysfs-root "$sysfs"
c0=$(child_pid r/cs/cpu0)
kill -9 "$c0"
wait_until gone "$c0" || fail "CPU 0's run outlived kill -9"
[ "$(status r/cs/cpu1)" = running ] || fail "CPU 1's run ended with CPU 0's: $(status r/cs/cpu1)"
now=$(settings "$sysfs")
[ "$now" = "1111 menu" ] && ok "CPU 0's run killed, CPU 1's goes on: nothing put back yet" ||
	fail "after kill -9 of a child: '$now'"
kill -INT $run
wait_bounded $run 60
st=$?
[ $st != 0 ] && [ $st != 124 ] && ok "a killed child fails the experiment (exit $st)" ||
	fail "a killed child: exit $st"
expect_in cs.out "the run of CPU 0 was killed by signal 9" "the parent names the killed CPU"
now=$(settings "$sysfs")
[ "$now" = "$original" ] && ok "the parent put back at its end" ||
	fail "after the parent's end: '$now', expected '$original'"

# 4. The same on this machine's cpuidle sysfs, where there is a driver.
real=/sys/devices/system/cpu
drv=$(cat $real/cpuidle/current_driver 2>/dev/null || echo none)
if [ -n "${WULTFW_HIDE_CPUIDLE:-}" ]; then
	skip_part "real C-states: wultfw told to see no cpuidle states (WULTFW_HIDE_CPUIDLE)"
elif [ ! -r $real/cpu0/cpuidle/state1/disable ] || [ ! -r $real/cpu1/cpuidle/state1/disable ]; then
	skip_part "real C-states: no cpuidle states here (driver $drv)"
elif [ "$(cat $real/cpu0/cpuidle/state0/name)" != POLL ]; then
	skip_part "real C-states: state0 of CPU 0 is not POLL (driver $drv)"
elif [ "$(cat $real/cpu[01]/cpuidle/state1/disable | tr -d '\n')" != 00 ]; then
	# Another run (another tree's test) holds them changed: not ours to judge.
	skip_part "real C-states: state1 is disabled already, by another run ($drv)"
else
	before="$(cat $real/cpu[01]/cpuidle/state1/disable | tr -d '\n') $(cat $real/cpuidle/current_governor)"
	start
	during="$(cat $real/cpu[01]/cpuidle/state1/disable | tr -d '\n') $(cat $real/cpuidle/current_governor)"
	case $during in
	11*) ok "real ($drv): state1 disabled on both CPUs while they measure ($during)" ;;
	*) fail "real ($drv): while measuring '$during'" ;;
	esac
	kill -INT "$(child_pid r/cs/cpu0)"
	wait_until not_running r/cs/cpu0
	now="$(cat $real/cpu[01]/cpuidle/state1/disable | tr -d '\n') $(cat $real/cpuidle/current_governor)"
	[ "$now" = "$during" ] && ok "real: CPU 0's run ended, nothing put back under CPU 1's" ||
		fail "real: CPU 0's run ended, settings '$now', were '$during'"
	kill -INT $run
	wait_bounded $run 60
	now="$(cat $real/cpu[01]/cpuidle/state1/disable | tr -d '\n') $(cat $real/cpuidle/current_governor)"
	[ "$now" = "$before" ] && ok "real: put back after the last run ($now)" ||
		fail "real: after the run '$now', expected '$before'"
fi

# 5. Collectors: one set of files, in EXP/, none in the CPUs' directories.
cat >coll.cfg <<'CFG'
outdir = "r";
name = "coll";
source = { plugin = "timer"; cpu = "0-1"; ldist = "500us"; reqcstate = false; };
limits = { datapoints = 300; time = "100s"; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "telemetry"; counters = [ "stat:ctxt" ]; period = "20ms"; } );
CFG
timeout -k 10 120 "$WULTFW" -q -c coll.cfg >coll.out 2>&1
expect_status 0 $? "two CPUs with a collector"
has_rows r/coll/telemetry.csv 1 && ok "the collector wrote EXP/telemetry.csv" ||
	fail "no rows in r/coll/telemetry.csv: $(ls r/coll)"
n=$(find r/coll -name 'telemetry*.csv' | wc -l)
[ "$n" = 1 ] && ok "one collector file for the experiment" ||
	fail "$n collector files: $(find r/coll -name 'telemetry*.csv')"
expect_in r/coll/info.yml "collectors: 'telemetry.csv'" "EXP/info.yml lists it"
rows=$(($(wc -l <r/coll/telemetry.csv) - 1))
expect_in r/coll/info.yml "collect0_rows: $rows" "EXP/info.yml counts its $rows rows"
# No counters named: the plugin gets one CPU, the first listed, and says so.
sed 's/name = "coll"/name = "colldef"/; s/counters = \[ "stat:ctxt" \]; //; s/datapoints = 300/datapoints = 100/' coll.cfg >colldef.cfg
timeout -k 10 120 "$WULTFW" -c colldef.cfg >colldef.out 2>&1
expect_status 0 $? "two CPUs with a collector of the default counters"
expect_in colldef.out "counters: none named, so CPU 0's (the measured CPU; of a list, the first)" "the collector says whose default counters it took"
expect_in r/colldef/info.yml "collect0_default_counters_cpu: '0'" "and info.yml"

# 6. Housekeeping: unpinned and said once when every CPU is measured;
#    where the user says otherwise.
ncpu=$(getconf _NPROCESSORS_ONLN)
if [ "$ncpu" = 2 ]; then
	sed 's/cpu = "0-1"/cpu = "all"/; s/name = "coll"/name = "hkall"/' coll.cfg >hkall.cfg
	timeout -k 10 120 "$WULTFW" -c hkall.cfg >hkall.out 2>&1
	expect_status 0 $? "cpu = all, no CPU left for housekeeping"
	n=$(grep -c "none is left for housekeeping" hkall.out)
	[ "$n" = 1 ] && ok "said once: no CPU left for housekeeping" ||
		fail "said $n times: $(cat hkall.out)"
	expect_in r/hkall/info.yml "housekeeping: 'unpinned'" "info.yml: unpinned"
	has_rows r/hkall/telemetry.csv 1 && ok "unpinned, the collector still runs" ||
		fail "no collector rows when unpinned"
else
	skip_part "housekeeping unpinned: needs exactly 2 online CPUs, this machine has $ncpu"
fi
sed 's/name = "cs"/name = "hk0"; housekeeping = "0"/; s/cstates = .*//' cs.cfg >hk0.cfg
rm -rf r/hk0
"$WULTFW" -q -c hk0.cfg >hk0.out 2>&1 &
run=$!
wait_until has_rows r/hk0/cpu1/datapoints.csv 20 || fail "housekeeping 0: no datapoints"
allowed() {	# allowed PID: its main thread's CPUs
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status"
}
[ "$(allowed $run)" = 0 ] && ok "the parent runs on housekeeping CPU 0" ||
	fail "the parent may run on $(allowed $run)"
c1=$(child_pid r/hk0/cpu1)
[ "$(allowed "$c1")" = 0 ] && ok "CPU 1's reader runs on housekeeping CPU 0" ||
	fail "CPU 1's reader may run on $(allowed "$c1")"
kill -INT $run
wait_bounded $run 60
expect_status 130 $? "housekeeping 0: SIGINT ends it"
expect_in r/hk0/info.yml "housekeeping: [0]" "info.yml names housekeeping CPU 0"
expect_in r/hk0/cpu1/info.yml "housekeeping: [0]" "and CPU 1's info.yml"
printf 'source = { plugin = "timer"; cpu = "0-1"; };\nhousekeeping = "x";\nname = "b";\n' >hkbad.cfg
"$WULTFW" -c hkbad.cfg --check >hkbad.out 2>&1
expect_status 2 $? "a bad housekeeping list: refused"
expect_in hkbad.out "hkbad.cfg:2: housekeeping: \"x\" is not a CPU list" "the error names the file, line, key and what a list is"

# 7. --check names a CPU that another run measures, listed or alone.
printf 'outdir = "r";\nname = "hold";\nsource = { plugin = "timer"; cpu = 1; ldist = "1ms"; };\nlimits = { time = "100s"; };\nsinks = ( { plugin = "csv"; } );\n' >hold.cfg
"$WULTFW" -q -c hold.cfg >hold.out 2>&1 &
hold=$!
wait_until has_rows r/hold/datapoints.csv 5 || fail "the holding run made no datapoints"
# No C-state policy: a machine without cpuidle states could not run it (exit 3).
sed 's/name = "cs"/name = "chk"/; s/cstates = .*//' cs.cfg >chk.cfg
"$WULTFW" -c chk.cfg --check >chk.out 2>&1
expect_status 0 $? "--check with CPU 1 held: valid (a run would go on, warning)"
expect_in chk.out "CPU 1 is being measured by another wultfw (pid $hold)" "--check names CPU 1 and who holds it"
# ... and so does the --check of CPU 1 alone (not a list).
sed 's/name = "hold"/name = "one"/' hold.cfg >one.cfg
"$WULTFW" -c one.cfg --check >one.out 2>&1
expect_status 0 $? "--check of held CPU 1 alone: valid (a run would go on, warning)"
expect_in one.out "CPU 1 is being measured by another wultfw (pid $hold)" "--check of one CPU names who holds it too"
kill -INT $hold
wait_bounded $hold 60 >/dev/null

finish
