#!/bin/sh
# Telemetry through the real binary on a machine that lacks some counters:
# cpuidle is hidden (WULTFW_HIDE_CPUIDLE, as on a machine without a cpuidle
# driver), so those counters are left out, named in one warning at the
# setting's file:line (by --check first) and in info.yml, and the rest is
# sampled; strict = true refuses; none readable fails. telemetry_samples is
# the rows written on time-limited runs. A period shorter than one sample
# (a fake /proc/interrupts of 12 MB) is said at --check and at start.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
export WULTFW_HIDE_CPUIDLE=1
cd "$work" || exit 1

# same WHAT A B: two numbers that must be equal.
same() {
	[ -n "$2" ] && [ "$2" = "$3" ] && ok "$1 ($2)" || fail "$1: '$2' and '$3'"
}

rows() { echo $(($(wc -l <"$1") - 1)); }

cat >miss.cfg <<'CFG'
name = "miss";
source = { plugin = "timer"; cpu = 1; ldist = [ "100us", "1ms" ]; };
limits = { time = "2s"; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "telemetry"; period = "10ms"; clear = true;
              counters = [ "stat:ctxt", "cpuidle:cpu1:state0:usage",
                           "stat:cpu:idle", "cpuidle:cpu1:state1:time" ]; } );
CFG
lost="cpuidle:cpu1:state0:usage, cpuidle:cpu1:state1:time (CPU 1 has no cpuidle states (hidden by WULTFW_HIDE_CPUIDLE))"

"$WULTFW" -c miss.cfg --check >check.out 2>&1
expect_status 3 $? "--check: valid, but this machine lacks counters"
expect_in check.out "miss.cfg:6: collect[0].counters: collector 'telemetry': 2 of 4 counters cannot be read here and are left out: $lost" \
	"--check names them at the setting's line, with the reason"

"$WULTFW" -c miss.cfg -o out >run.out 2>&1
expect_status 0 $? "the run goes on with the counters it can read"
n=$(grep -c "cannot be read here" run.out)
[ "$n" = 1 ] && ok "one warning for both" || { fail "$n warnings about missing counters:"; cat run.out; }
expect_in run.out "miss.cfg:6: collect[0].counters: collector telemetry (telemetry.csv): 2 of 4 counters cannot be read here and are left out: $lost; strict = true makes this an error" \
	"the run's warning is at the setting's line too"
head -n 1 out/miss/telemetry.csv >hdr
expect_in hdr "Time,SampleWindow,stat:ctxt,stat:cpu:idle" "telemetry.csv has the counters read"
expect_in out/miss/info.yml "collect0_telemetry_unavailable: '$lost'" "info.yml names the counters left out and why"
expect_in out/miss/info.yml "collectors_failed: 0" "the collector did not fail"
same "time-limited collector: telemetry_samples is the rows of telemetry.csv" \
	"$(sed -n "s/^collect0_telemetry_samples: '\(.*\)'/\1/p" out/miss/info.yml)" "$(rows out/miss/telemetry.csv)"
same "and collect0_rows too" "$(sed -n 's/^collect0_rows: //p' out/miss/info.yml)" "$(rows out/miss/telemetry.csv)"

# strict: a missing counter is an error, as a collector that cannot run.
sed 's/clear = true;/clear = true; strict = true;/' miss.cfg >strict.cfg
"$WULTFW" -c strict.cfg --check >strict-check.out 2>&1
expect_status 3 $? "strict: --check says the collector cannot run"
expect_in strict-check.out "strict.cfg:6: collect[0].counters: collector 'telemetry' cannot run on this machine: counter 'cpuidle:cpu1:state0:usage': CPU 1 has no cpuidle states" \
	"naming the first missing counter at its line"
"$WULTFW" -q -c strict.cfg -o strict --datapoints 200 >strict.out 2>&1
expect_status 5 $? "strict: the measurement runs, the collector's data is missing"
[ -e strict/miss/telemetry.csv ] && fail "strict: a telemetry.csv anyway" || ok "strict: no telemetry.csv"

# None readable: the collector fails.
cat >none.cfg <<'CFG'
name = "none";
source = { plugin = "timer"; cpu = 1; ldist = "200us"; };
limits = { datapoints = 200; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "telemetry"; counters = [ "cpuidle:cpu1:state0:usage", "net:nosuch0:rx_packets" ]; } );
CFG
"$WULTFW" -c none.cfg -o none >none.out 2>&1
expect_status 5 $? "no counter readable: the collector fails"
expect_in none.out "none of its counters can be read here: cpuidle:cpu1:state0:usage (CPU 1 has no cpuidle states" "and says why for each"
expect_in none.out "; net:nosuch0:rx_packets (" "naming the other too"

# The shipped example on a machine without cpuidle: it runs, with its
# collector's file (fewer datapoints than it asks, for time).
"$WULTFW" -c "$srcdir/examples/telemetry-cost.cfg" -o ex --datapoints 300 >ex.out 2>&1
expect_status 0 $? "examples/telemetry-cost.cfg runs without cpuidle"
[ -s ex/telemetry-cost/collector-10ms/telemetry.csv ] || [ -s ex/collector-10ms/telemetry.csv ] &&
	ok "with its telemetry.csv" || { fail "no telemetry.csv:"; ls -R ex; }
expect_in ex.out "3 of 7 counters cannot be read here" "naming the 3 cpuidle counters"

# The main source: counters left out the same way; a period shorter than
# one sample of a 12 MB /proc/interrupts is said at --check and at start;
# telemetry_samples is the rows of a time-limited run.
mkdir proc
awk 'BEGIN { print "           CPU0"
	for (i = 0; i < 200000; i++) printf "%6d:  %20d   PCI-MSI   filler filler filler\n", 1000 + i, i
	print " LOC:   12345   Local timer interrupts" }' >proc/interrupts
cat >main.cfg <<CFG
name = "main";
source = { plugin = "telemetry"; proc_root = "$work/proc";
           period = "100us";
           counters = [ "interrupts:LOC:cpu0", "cpuidle:cpu1:state0:usage" ]; };
limits = { time = "2s"; };
sinks = ( { plugin = "csv"; } );
CFG
"$WULTFW" -c main.cfg --check >main-check.out 2>&1
expect_status 3 $? "main source: --check warns"
expect_in main-check.out "main.cfg:4: source.counters: source 'telemetry': 1 of 2 counters cannot be read here" "of the counter left out"
expect_in main-check.out "main.cfg:3: source.period: source 'telemetry': period 100us is shorter than this machine can sample this counter: about every " \
	"and of the period, at its line"
"$WULTFW" -c main.cfg -o main >main.out 2>&1
expect_status 0 $? "main source runs with the counter it can read"
warn=$(grep -n "source.period: telemetry: period 100us is shorter" main.out | cut -d: -f1)
start=$(grep -n "experiment 'main': source telemetry" main.out | cut -d: -f1)
[ -n "$warn" ] && [ -n "$start" ] && [ "$warn" -lt "$start" ] &&
	ok "the achievable period is said before sampling starts" || { fail "no period warning before the start:"; cat main.out; }
expect_in main/main/info.yml "telemetry_period_achievable_ns: '" "info.yml has the achievable period"
expect_in main/main/info.yml "telemetry_period_achieved_ns: '" "and the achieved one"
same "time-limited main source: telemetry_samples is the rows of datapoints.csv" \
	"$(sed -n "s/^telemetry_samples: '\(.*\)'/\1/p" main/main/info.yml)" "$(rows main/main/datapoints.csv)"
finish
