#!/bin/sh
# SMICnt per datapoint (doc/attribution.md) through the real binary with
# the attrib annotator on CPU 1, timer source: by default SMICnt where the
# CPU has MSR_SMI_COUNT as the msr PMU's smi event, else no column and
# info.yml's attrib_smi saying why; then the eBPF read path itself with the
# msr PMU's tsc event standing in (smi_event = "tsc", for tests only):
# every row with a breakdown carries a positive count, at least the
# interval's length in TSC ticks and at most a loose bound above it.
# Needs root and BTF; skips naming what is missing.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1
lock=/tmp/wultfw-attrib-tests.lock	# one attribution loaded at a time
msr=/sys/bus/event_source/devices/msr

# cfg NAME ANNOTATOR-OPTIONS
cfg() {
	cat >"$1.cfg" <<CFG
name = "$1";
source = { plugin = "timer"; cpu = 1; priority = 90; ldist = [ "100us", "2ms" ]; };
limits = { time = "3s"; };
annotate = ( { plugin = "attrib"; $2 } );
sinks = ( { plugin = "csv"; } );
CFG
}

run() {
	flock -w 120 "$lock" timeout 120 "$WULTFW" -q -c "$1.cfg" -o r >"$1.out" 2>&1
}

# col DIR NAME: whether datapoints.csv has the column.
col() {
	head -1 "$1/datapoints.csv" | tr ',' '\n' | grep -qx "$2"
}

# smi_event is a name under the msr PMU's events/, never a path: refused at
# file:line by --check, before anything is read (no root or BTF needed).
cfg badname 'smi_event = "../type";'
timeout 60 "$WULTFW" --check -c badname.cfg >badname.out 2>&1
expect_status 2 $? "--check refuses smi_event = \"../type\""
expect_in badname.out "badname.cfg:4: annotate[0].smi_event: '../type' is no msr event name" "at file:line, naming the key"

cfg plain ""
run plain
st=$?
if [ $st != 0 ] && grep -q "annotator 'attrib' (annotate\[0\]) cannot run here" plain.out; then
	echo "SKIP: $(sed -n "s/.*cannot run here: //p" plain.out | head -1)"
	exit 77
fi
expect_status 0 $st "a timer run with attribution, smi_event at its default"
smi=$(sed -n "s/^attrib_smi: //p" r/plain/info.yml)
if col r/plain SMICnt; then
	expect_in r/plain/info.yml "attrib_smi: 'SMICnt from MSR_SMI_COUNT (perf msr/smi)" "info.yml says where SMICnt comes from"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["ExitTime"] != "" && $c["SMICnt"] !~ /^[0-9]+$/ { bad++ }
		END { exit bad > 0 }' r/plain/datapoints.csv &&
		ok "SMICnt: a count on every row with a breakdown" ||
		fail "SMICnt: rows with a breakdown but no count"
else
	[ -n "$smi" ] && ok "no SMICnt column here, info.yml says why: $smi" ||
		fail "no SMICnt column and no attrib_smi in info.yml"
fi

cfg none 'smi_event = "";'
run none
expect_status 0 $? "smi_event = \"\""
col r/none SMICnt && fail "smi_event = \"\": an SMICnt column" ||
	ok "smi_event = \"\": no SMICnt column"
expect_in r/none/info.yml "attrib_smi: 'not counted: smi_event is \"\"'" "info.yml says SMIs were not counted"

# The read path, with msr/tsc standing in for msr/smi.
if [ ! -e "$msr/type" ]; then
	skip_part "stand-in: this machine has no msr PMU ($msr)"
	finish
fi
if [ ! -e "$msr/events/tsc" ]; then
	skip_part "stand-in: the msr PMU here has no tsc event (it has: $(ls "$msr/events" | tr '\n' ' '))"
	finish
fi
mhz=$(awk -F: '/^cpu MHz/ { print $2 + 0; exit }' /proc/cpuinfo)
if [ -z "$mhz" ]; then
	skip_part "stand-in: no 'cpu MHz' in /proc/cpuinfo to size the TSC counts by"
	finish
fi
cfg tsc 'smi_event = "tsc";'
run tsc
expect_status 0 $? "a timer run with msr/tsc standing in for SMICnt"
expect_in r/tsc/logs/wultfw.log "a stand-in for tests" "the run warns that SMICnt is a stand-in"
expect_in r/tsc/info.yml "attrib_smi: 'SMICnt from msr/tsc, a stand-in for tests" "info.yml says so"
# TSC ticks from the record before the interval to the one at or after its
# end: at least the latency (half the cpu MHz, for a TSC slower than it),
# at most twice the launch distance, the latency and 50 ms at that rate
# (the record before is at worst the thread going to sleep).
awk -F, -v mhz="$mhz" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["ExitTime"] == "" { empty++; next }
	{
		n++; t = $c["SMICnt"]; lat = $c["WakeLatency"]; ld = $c["LDist"]
		if (t !~ /^[0-9]+$/ || t == 0) { none++; next }
		if (t < lat * mhz * 0.5) { low++; if (!fl) fl = NR ": " t " ticks, " lat " us" }
		if (t > (ld + lat + 50000) * mhz * 2) { high++; if (!fh) fh = NR ": " t " ticks, " ld " + " lat " us" }
	}
	END { printf "rows %d empty %d none %d low %d high %d\n%s\n%s\n", n, empty, none, low, high, fl, fh }
	' r/tsc/datapoints.csv >tsc.chk
set -- $(head -1 tsc.chk) x x x x x x x x x x
if [ "$1" != rows ] || [ "$2" -lt 10 ]; then
	fail "stand-in: too few rows with a breakdown to check ($*)"
else
	expect_in r/tsc/info.yml "attrib_smi_rows_unknown: '0'" "stand-in: info.yml counts no row without SMICnt"
	[ "$6" = 0 ] && ok "stand-in: a positive count on every one of $2 rows with a breakdown ($4 without one)" ||
		fail "stand-in: $6 of $2 rows with a breakdown have no or a 0 count ($(grep attrib_smi r/tsc/info.yml | tr '\n' ' '))"
	[ "$8" = 0 ] && [ "${10}" = 0 ] &&
		ok "stand-in: every count within the interval's bounds in TSC ticks (cpu MHz $mhz)" ||
		fail "stand-in: $8 counts below the latency, ${10} far above it (first, by line: $(sed -n 2,3p tsc.chk | tr '\n' ' '))"
fi
finish
