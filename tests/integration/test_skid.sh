#!/bin/sh
# The skid source through the real binary: a data breakpoint lands every
# sample exactly one instruction after the load; cpu-clock samples cover
# the runway; a hardware event is refused in one line where there is no
# hardware PMU; precise = "all" runs every level as its own part.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

[ "$(uname -m)" = x86_64 ] || { echo "SKIP: the skid workload generator writes x86-64 code; this is $(uname -m)"; exit 77; }
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo none)
if [ "$paranoid" = none ]; then
	echo "SKIP: no /proc/sys/kernel/perf_event_paranoid: this kernel has no perf events"; exit 77
fi
if [ "$(id -u)" != 0 ] && [ "$paranoid" -gt 2 ]; then
	echo "SKIP: perf_event_paranoid is $paranoid and not root: perf_event_open is refused"; exit 77
fi

cpu=$(($(getconf _NPROCESSORS_ONLN) - 1))
cat >skid.cfg <<CFG
outdir = "out";
sinks = ( { plugin = "csv"; },
          { plugin = "stats"; group_by = "Precise"; table = false;
            text_histogram = "hist.txt"; } );
experiments = (
  { name = "bp";
    source = { plugin = "skid"; cpu = $cpu; event = "breakpoint";
               buffer_size = 4096; runway = 100; samples = 3000; };
  },
  { name = "clock";
    source = { plugin = "skid"; cpu = $cpu; event = "cpu-clock";
               runway = 1000; samples = 2000; };
  },
  { name = "all";
    source = { plugin = "skid"; cpu = $cpu; event = "breakpoint";
               precise = "all"; buffer_size = 4096; runway = 50;
               samples = 500; };
  }
);
CFG
"$WULTFW" -q -c skid.cfg >run.out 2>&1
st=$?
if [ $st != 0 ] && grep -q "breakpoint.*not permitted" run.out; then
	echo "SKIP: $(grep -m1 'not permitted' run.out)"; exit 77
fi
expect_status 0 $st "breakpoint, cpu-clock and all-levels experiments run"
[ $st = 0 ] || cat run.out

# Columns: Event,Precise,Skid,SkidBytes,Where,Time
csv=out/bp/datapoints.csv
expect_in "$csv" "Event,Precise,Skid,SkidBytes,Where,Time" "skid column names"
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" -ge 3000 ] && ok "$rows breakpoint samples (>= 3000)" || fail "only $rows breakpoint samples"
# The documented value: a data breakpoint traps after the load, so the IP
# is the first NOP: Skid 1, 5 bytes (the load's length) after the load.
bad=$(awk -F, 'NR > 1 && !($1 == "breakpoint" && $3 == 1 && $4 == 5 && $5 == "runway")' "$csv" | head -3)
[ -z "$bad" ] && ok "every breakpoint sample: Skid 1, SkidBytes 5, on the runway" ||
	fail "breakpoint samples elsewhere: $bad"
expect_in out/bp/hist.txt "# Precise p0: 0 at 0, $rows above 0, 0 below 0, 0 not a number" "text histogram counts"
expect_in out/bp/hist.txt "0 $rows" "text histogram: every sample in bin 0"
# Lost samples (a reader starved on a loaded machine) are counted, not
# hidden: info.yml says how many, and discarded includes them.
lost=$(sed -n "s/^skid_lost: '\([0-9]*\)'$/\1/p" out/bp/info.yml)
disc=$(sed -n 's/^discarded: \([0-9]*\)$/\1/p' out/bp/info.yml)
[ -n "$lost" ] && [ "$lost" = "$disc" ] && ok "lost samples ($lost) counted as discarded" ||
	fail "info.yml: skid_lost '$lost', discarded '$disc'"

# cpu-clock: the timer lands anywhere; the runway is most of the loop's
# time, so each tenth of it gets samples.
csv=out/clock/datapoints.csv
awk -F, 'NR > 1 { n++ } NR > 1 && $5 == "runway" { r++; b[int(($3 - 1) / 100)]++ }
	END {
		if (r * 2 < n) { print "only " r " of " n " samples on the runway"; exit 1 }
		for (i = 0; i < 10; i++) if (!b[i]) { print "no sample in runway instructions " i * 100 + 1 "-" i * 100 + 100; exit 1 }
	}' "$csv" >cover.out && ok "cpu-clock samples cover the runway in every 100 instructions" ||
	fail "cpu-clock: $(cat cover.out)"

# precise = "all": the breakpoint PMU accepts every level; a part each.
csv=out/all/datapoints.csv
for l in 0 1 2 3; do
	n=$(awk -F, -v l=p$l 'NR > 1 && $2 == l && $3 == 1 { n++ } END { print n + 0 }' "$csv")
	[ "$n" -ge 500 ] && ok "precise $l: $n samples, Skid 1" || fail "precise $l: $n samples with Skid 1"
done
expect_in out/all/hist.txt "# Precise p3:" "text histogram per precise level"
"$WULTFW" calc -g Precise -m Skid -f count,max out/all >calc.out 2>&1
expect_status 0 $? "calc -g Precise"
if grep -Eq '^ *Skid +p3 +[0-9]' calc.out; then ok "calc: skid per precise level"; else
	fail "calc: no 'Skid ... p3' row:"; sed 's/^/    /' calc.out; fi
"$WULTFW" calc -g Wher out/all >calc.out 2>&1
expect_status 1 $? "calc -g with a column the result lacks"
expect_in calc.out "no text column 'Wher' to group by; it has: Event, Precise, Where" "calc names the text columns"

# A misspelt event: did-you-mean at file:line, before anything runs.
for typo in cache-mises Cpu-Clock breakpont; do
	cat >typo.cfg <<CFG
name = "typo";
source = { plugin = "skid"; cpu = $cpu; event = "$typo"; };
sinks = ( { plugin = "csv"; } );
CFG
	"$WULTFW" --check -c typo.cfg >typo.out 2>&1
	expect_status 2 $? "--check refuses event '$typo'"
	expect_in typo.out "typo.cfg:2: source.event" "the typo '$typo' is named at file:line"
	expect_in typo.out "did you mean" "with a suggestion"
done
expect_in typo.out "did you mean 'breakpoint'?" "breakpont -> breakpoint"

# wultfw scan: skid's line names the events and precise levels offered
# here and, for each refused event, why.
"$WULTFW" scan >scan.out 2>&1
skidline=$(grep '^  skid ' scan.out)
case "$skidline" in
*"offered here:"*"breakpoint (precise "*) ok "scan: skid offers breakpoint with its precise levels" ;;
*) fail "scan: no 'offered here: ... breakpoint (precise' in: $skidline" ;;
esac
if [ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	case "$skidline" in
	*"refused: "*"cache-misses"*"(no hardware PMU:"*) ok "scan: cache-misses refused with the reason" ;;
	*) fail "scan: no refusal of cache-misses with its reason in: $skidline" ;;
	esac
fi

# A hardware event where there is no hardware PMU: one line, non-zero exit.
if [ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	cat >hw.cfg <<CFG
source = { plugin = "skid"; cpu = $cpu; event = "cache-misses"; };
sinks = ( { plugin = "csv"; } );
name = "hw";
CFG
	"$WULTFW" -q -c hw.cfg >hw.out 2>&1
	expect_status 1 $? "cache-misses refused"
	expect_in hw.out "wultfw: error: hw.cfg:1: source.event: event cache-misses: no hardware PMU: perf_event_open gives ENOENT and /sys/bus/event_source/devices has no cpu PMU (a VM without a virtual PMU?); offered here: " "the refusal names the event and the reason"
	[ "$(wc -l <hw.out)" = 1 ] && ok "one line" || { fail "more than one line:"; cat hw.out; }
	[ ! -e hw ] && ok "no result directory" || fail "a result directory was left behind"
else
	echo "note: this machine has a hardware PMU: the refusal is not tested here"
fi
finish
