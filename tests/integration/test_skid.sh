#!/bin/sh
# The skid source through the real binary: a data breakpoint lands every
# sample exactly one instruction after the load; cpu-clock samples cover
# the runway; both run one part whatever `precise` says (their PMUs have no
# precise levels); a hardware event is refused in one line where there is
# no hardware PMU. Where breakpoints open but never count (some guests'
# hypervisors do not deliver debug exceptions; tests/shims/deadbp.c makes
# them so here), skid refuses them in well under a second, --check says
# so and scan does not offer them. Without sysfs cpuN/cache/ the buffer
# size comes from CPUID or sysconf. Every run has a time limit.
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
# Do breakpoints count here? --check runs skid's open(), whose probe counts
# reads of a watched byte; on a guest where they never fire it refuses.
cat >probe.cfg <<CFG
name = "probe";
limits = { time = "1m"; };
source = { plugin = "skid"; cpu = $cpu; event = "breakpoint"; buffer_size = 4096; };
sinks = ( { plugin = "csv"; } );
CFG
"$WULTFW" --check -c probe.cfg >probe.out 2>&1
if grep -q "breakpoint.*not permitted" probe.out; then
	echo "SKIP: $(grep -m1 'not permitted' probe.out)"; exit 77
fi
bp_dead=$(sed -n 's/.*event breakpoint: \(breakpoint events open but never count[^;]*\);.*/\1/p' probe.out)
[ -n "$bp_dead" ] && echo "note: $bp_dead: the breakpoint experiments are left out"
# The experiment of precise = "all": a breakpoint, or cpu-clock without.
all_event=breakpoint
[ -z "$bp_dead" ] || all_event=cpu-clock

bp_exp=""
[ -n "$bp_dead" ] || bp_exp="{ name = \"bp\";
    source = { plugin = \"skid\"; cpu = $cpu; event = \"breakpoint\";
               buffer_size = 4096; runway = 100; samples = 3000; }; },"
cat >skid.cfg <<CFG
outdir = "out";
limits = { time = "2m"; };
sinks = ( { plugin = "csv"; },
          { plugin = "stats"; group_by = "Precise"; table = false;
            text_histogram = "hist.txt"; } );
experiments = (
  $bp_exp
  { name = "clock";
    source = { plugin = "skid"; cpu = $cpu; event = "cpu-clock";
               runway = 1000; samples = 2000; };
  },
  { name = "all";
    source = { plugin = "skid"; cpu = $cpu; event = "$all_event";
               precise = "all"; buffer_size = 4096; runway = 50;
               samples = 500; };
  }
);
CFG
"$WULTFW" -q -c skid.cfg >run.out 2>&1
st=$?
expect_status 0 $st "the skid experiments run (breakpoint unless dead, cpu-clock, precise all)"
[ $st = 0 ] || cat run.out

if [ -z "$bp_dead" ]; then
	# Columns: Event,Precise,Skid,SkidBytes,Where,Time
	csv=out/bp/datapoints.csv
	expect_in "$csv" "Event,Precise,Skid,SkidBytes,Where,Time" "skid column names"
	rows=$(($(wc -l <"$csv") - 1))
	[ "$rows" -ge 3000 ] && ok "$rows breakpoint samples (>= 3000)" || fail "only $rows breakpoint samples"
	# The documented value: a data breakpoint traps after the load, so the
	# IP is the first NOP: Skid 1, 5 bytes (the load's length) after it.
	bad=$(awk -F, 'NR > 1 && !($1 == "breakpoint" && $3 == 1 && $4 == 5 && $5 == "runway")' "$csv" | head -3)
	[ -z "$bad" ] && ok "every breakpoint sample: Skid 1, SkidBytes 5, on the runway" ||
		fail "breakpoint samples elsewhere: $bad"
	expect_in out/bp/hist.txt "# Precise p0: 0 at 0, $rows above 0, 0 below 0, 0 not a number" "text histogram counts"
	expect_in out/bp/hist.txt "0 $rows" "text histogram: every sample in bin 0"
	# Lost samples (a reader starved on a loaded machine) are counted,
	# not hidden: info.yml says how many, and discarded includes them.
	lost=$(sed -n "s/^skid_lost: '\([0-9]*\)'$/\1/p" out/bp/info.yml)
	disc=$(sed -n 's/^discarded: \([0-9]*\)$/\1/p' out/bp/info.yml)
	[ -n "$lost" ] && [ "$lost" = "$disc" ] && ok "lost samples ($lost) counted as discarded" ||
		fail "info.yml: skid_lost '$lost', discarded '$disc'"
fi

# cpu-clock: the timer lands anywhere; the runway is most of the loop's
# time, so each tenth of it gets samples.
csv=out/clock/datapoints.csv
awk -F, 'NR > 1 { n++ } NR > 1 && $5 == "runway" { r++; b[int(($3 - 1) / 100)]++ }
	END {
		if (r * 2 < n) { print "only " r " of " n " samples on the runway"; exit 1 }
		for (i = 0; i < 10; i++) if (!b[i]) { print "no sample in runway instructions " i * 100 + 1 "-" i * 100 + 100; exit 1 }
	}' "$csv" >cover.out && ok "cpu-clock samples cover the runway in every 100 instructions" ||
	fail "cpu-clock: $(cat cover.out)"
expect_in out/clock/info.yml "bytes: twice the largest cache (" "info.yml: the buffer size and where it came from"

# precise = "all" of an event without precise levels (breakpoint,
# cpu-clock): one part, p0, and info.yml says why.
csv=out/all/datapoints.csv
n=$(awk -F, 'NR > 1 && $2 == "p0" { n++ } END { print n + 0 }' "$csv")
other=$(awk -F, 'NR > 1 && $2 != "p0" { print $2 }' "$csv" | sort -u | tr '\n' ' ')
[ "$n" -ge 500 ] && ok "precise all, $all_event: $n samples at p0" || fail "precise all, $all_event: $n samples at p0"
[ -z "$other" ] && ok "no other part" || fail "parts besides p0: $other"
expect_in out/all/info.yml "skid_precise_levels: 'none for a" "info.yml: no precise levels for $all_event"
expect_in out/all/info.yml "one part, p0'" "info.yml: one part"
expect_in out/all/hist.txt "# Precise p0:" "text histogram of the one part"
"$WULTFW" calc -g Precise -m Skid -f count,max out/all >calc.out 2>&1
expect_status 0 $? "calc -g Precise"
# Skid's unit as the stats sink says it (its schema's), not empty.
if grep -Eq '^ *Skid +instructions +p0 +[0-9]' calc.out; then ok "calc: skid per precise level, in instructions"; else
	fail "calc: no 'Skid ... p0' row:"; sed 's/^/    /' calc.out; fi
"$WULTFW" calc -g Wher out/all >calc.out 2>&1
expect_status 1 $? "calc -g with a column the result lacks"
expect_in calc.out "no text column 'Wher' to group by (did you mean 'Where'?); it has: Event, Precise, Where" "calc names the text columns, the nearest first"

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

# offered SCANFILE: the events skid's scan line offers, one per line.
offered() {
	sed -n 's/^  skid .*offered here: \([^;]*\).*/\1/p' "$1" | tr ',' '\n' | sed 's/^ *//'
}
nohwpmu=""
[ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ] || nohwpmu=yes

# wultfw scan: skid's line names the events offered here (with precise
# levels where the PMU has them) and, for each refused event, why.
"$WULTFW" scan >scan.out 2>&1
skidline=$(grep '^  skid ' scan.out)
if [ -z "$bp_dead" ]; then
	offered scan.out | grep -qx breakpoint && ok "scan: skid offers breakpoint, without precise levels" ||
		fail "scan: breakpoint not offered (no levels) in: $skidline"
fi
offered scan.out | grep -qx cpu-clock && ok "scan: skid offers cpu-clock, without precise levels" ||
	fail "scan: cpu-clock not offered (no levels) in: $skidline"
if [ -n "$nohwpmu" ]; then
	case "$skidline" in
	*"no hardware PMU:"*"refused: "*"cache-misses"*) ok "scan: cache-misses refused with the reason" ;;
	*) fail "scan: no refusal of cache-misses with its reason in: $skidline" ;;
	esac
	# The verdict is what skid can do here, not its default event's.
	case "$skidline" in
	*"skid     yes: with "*"event=cpu-clock"*"; its default event=cache-misses cannot: event cache-misses: no hardware PMU"*)
		ok "scan: skid yes with cpu-clock, its default said to need a hardware PMU" ;;
	*) fail "scan: skid's verdict is not 'yes: with event=...': $skidline" ;;
	esac
	if [ -z "$bp_dead" ]; then
		case "$skidline" in
		*"yes: with event=breakpoint or event=cpu-clock "*) ok "scan: skid yes with breakpoint too" ;;
		*) fail "scan: breakpoint not in skid's verdict: $skidline" ;;
		esac
	fi
fi

# A hardware event where there is no hardware PMU: one line, non-zero exit.
if [ -n "$nohwpmu" ]; then
	cat >hw.cfg <<CFG
source = { plugin = "skid"; cpu = $cpu; event = "cache-misses"; };
sinks = ( { plugin = "csv"; } );
name = "hw";
limits = { time = "1m"; };
CFG
	"$WULTFW" -q -c hw.cfg >hw.out 2>&1
	expect_status 1 $? "cache-misses refused"
	expect_in hw.out "wultfw: error: hw.cfg:1: source.event: event cache-misses: no hardware PMU: perf_event_open gives ENOENT and /sys/bus/event_source/devices has no cpu PMU (a VM without a virtual PMU?); offered here: " "the refusal names the event and the reason"
	expect_in hw.out "; refused: cache-misses, LLC-load-misses, branch-misses, instructions (the same reason)" "the others refused for the same reason, not said twice"
	[ "$(wc -l <hw.out)" = 1 ] && ok "one line" || { fail "more than one line:"; cat hw.out; }
	[ ! -e hw ] && ok "no result directory" || fail "a result directory was left behind"
else
	skip_part "the no-hardware-PMU refusal: this machine has a hardware PMU"
fi

# No sysfs cpuN/cache/ (a fake tree with only the online CPUs): the buffer
# size comes from CPUID's cache leaves or the C library, as info.yml says.
mkdir -p fakesys/devices/system/cpu
cp /sys/devices/system/cpu/online fakesys/devices/system/cpu/
cat >nocache.cfg <<CFG
name = "nocache";
limits = { time = "1m"; };
source = { plugin = "skid"; cpu = $cpu; event = "cpu-clock"; samples = 200; };
sinks = ( { plugin = "csv"; } );
CFG
"$WULTFW" -q --sysfs-root "$work/fakesys" -c nocache.cfg >nocache.out 2>&1
expect_status 0 $? "cpu-clock runs without sysfs cache/"
from=$(sed -n "s/^skid_buffer_size: '\(.*\)'$/\1/p" nocache/info.yml)
case "$from" in
*"bytes: twice the largest cache ("*" bytes, from CPUID leaf "*|*"bytes, from sysconf(_SC_LEVEL"*) ok "buffer size: $from" ;;
*) fail "info.yml skid_buffer_size: '$from'"; cat nocache.out ;;
esac

# Breakpoints that open but never count (tests/shims/deadbp.c, preloaded:
# the plugin's perf_event_open goes through the C library's syscall()).
shim="$top/tests/shims/.libs/deadbp.so"
skidso="$top/plugins/skid/.libs/skid.so"
if [ ! -f "$shim" ] || ! nm -D "$skidso" 2>/dev/null | grep -q ' U syscall@'; then
	skip_part "dead breakpoints: no shim, or skid.so does not import syscall() to shim"
elif ! LD_PRELOAD="$shim" "$WULTFW" --version >shim.out 2>&1; then
	skip_part "dead breakpoints: this build does not take a preloaded shim ($(head -1 shim.out))"
else
	dead="event breakpoint: breakpoint events open but never count on this machine: 0 of 512 reads of a watched byte counted (a hypervisor that does not deliver debug exceptions?); offered here: cpu-clock"
	sed 's/name = "probe"/name = "dead"/; s/time = "1m"/time = "10m"/' probe.cfg >dead.cfg
	t0=$(date +%s)
	LD_PRELOAD="$shim" "$WULTFW" -q -c dead.cfg >dead.out 2>&1
	st=$? t=$(($(date +%s) - t0))
	expect_status 1 $st "dead breakpoint refused"
	expect_in dead.out "wultfw: error: dead.cfg:3: source.event: $dead" "the refusal says why"
	[ ! -e dead ] && ok "refused before a result directory (in ${t}s, limit 10m)" ||
		fail "dead breakpoint: a result directory was made"
	[ "$t" -lt 60 ] && ok "not waiting out the time limit" || fail "refusal took ${t}s"
	LD_PRELOAD="$shim" "$WULTFW" --check -c dead.cfg >dead.out 2>&1
	expect_status 3 $? "--check: this machine cannot run it"
	expect_in dead.out "source 'skid' cannot run on this machine: $dead" "--check says why"
	LD_PRELOAD="$shim" "$WULTFW" scan >scan.out 2>&1
	offered scan.out | grep -qx breakpoint && fail "scan offers the dead breakpoint: $(grep '^  skid ' scan.out)" ||
		ok "scan does not offer breakpoint"
	expect_in scan.out "refused: breakpoint (breakpoint events open but never count on this machine" "scan: breakpoint refused with the reason"
	grep '^  skid ' scan.out | grep -q "event=breakpoint" &&
		fail "scan: skid's verdict names the dead breakpoint: $(grep '^  skid ' scan.out)" ||
		ok "scan: skid's verdict leaves the dead breakpoint out"

	# Sampling events alone dead: the probe passes, the run gets no
	# sample and ends 10 s later with the reason, not at its time limit.
	if [ -z "$bp_dead" ]; then
		sed 's/name = "probe"/name = "silent"/; s/time = "1m"/time = "10m"/' probe.cfg >silent.cfg
		t0=$(date +%s)
		WULTFW_DEADBP=sampling LD_PRELOAD="$shim" "$WULTFW" -q -c silent.cfg >silent.out 2>&1
		st=$? t=$(($(date +%s) - t0))
		expect_status 1 $st "a breakpoint that never samples: the run fails"
		expect_in silent.out "event breakpoint, precise 0: no sample in 10 s while the workload ran; it opened but never fired" "and says why"
		expect_in silent/info.yml "status: 'failed'" "info.yml: failed"
		expect_in silent/info.yml "skid_silent: 'event breakpoint, precise 0: no sample in 10 s" "info.yml: skid_silent"
		[ "$t" -lt 300 ] && ok "ended after ${t}s (limit 10m)" || fail "took ${t}s"
	fi
fi

if [ -n "$bp_dead" ] && [ "$failures" = 0 ]; then
	echo "SKIP: $bp_dead${skipped:+; $skipped} (cpu-clock, refusals and scan passed)"; exit 77
fi
finish
