#!/bin/sh
# The timer source's mode grid on the real kernel (cyclictest -i's fixed
# grid): every LTime lies on the grid, LDist is the distance each timer
# was armed with, and periods without a datapoint are no more than the
# skipped, discarded and lost ones. Exact checks on the raw timestamps,
# nothing that depends on how late a loaded machine wakes the thread.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1
cpu=1
[ -d /sys/devices/system/cpu/cpu1 ] || cpu=0

# info KEY DIR: a number from DIR/info.yml, empty if absent.
info() {
	sed -n "s/^$1: '*\([0-9]*\)'*\$/\1/p" "$2/info.yml"
}

# run NAME MODE LDIST: 2000 datapoints with the raw timestamps, bounded.
run() {
	cat >"$1.cfg" <<CFG
name = "$1";
source = { plugin = "timer"; cpu = $cpu; ldist = "$3"; mode = "$2"; raw = true; reqcstate = false; };
limits = { datapoints = 2000; time = "60s"; };
sinks = ( { plugin = "csv"; } );
CFG
	"$WULTFW" -c "$1.cfg" -o out --no-progress >"$1.out" 2>&1
}

# on_grid DIR PERIOD_NS: "rows R gaps G", or "bad: ..." for the first row
# off the grid, with LDist out of (0, period], or armed before the last
# wake-up. G: periods between rows that have no row.
on_grid() {
	awk -F, -v P="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			lt = $c["LTime"]; tai = $c["TAI"]
			ld = int($c["LDist"] * 1000 + 0.5)
			if (NR == 2) first = lt
			if ((lt - first) % P) { print "bad: row " NR - 1 " LTime " lt " off the grid"; exit 1 }
			if (ld <= 0 || ld > P) { print "bad: row " NR - 1 " LDist " ld " ns"; exit 1 }
			if (NR > 2 && lt <= last) { print "bad: row " NR - 1 " LTime not after the last"; exit 1 }
			if (NR > 2 && lt - ld < ptai) { print "bad: row " NR - 1 " armed before the last wake-up"; exit 1 }
			if (NR > 2) gaps += (lt - last) / P - 1
			last = lt; ptai = tai
		}
		END { if (NR > 1) printf "rows %d gaps %d\n", NR - 1, gaps }' "$1/datapoints.csv"
}

# accounted DIR GAPS: the gaps are within the skipped + discarded + lost.
accounted() {
	m=$(info timer_grid_missed "$1")
	d=$(info discarded "$1")
	o=$(info timer_overruns "$1")
	[ -n "$m" ] && [ -n "$d" ] && [ -n "$o" ] && [ "$2" -le $((m + d + o)) ]
}

run grid200 grid 200us
expect_status 0 $? "mode grid at 200 us"
expect_in out/grid200/info.yml "timer_mode: 'grid'" "info.yml records the mode"
res=$(on_grid out/grid200 200000)
case $res in
"rows 2000 "*) ok "2000 rows, every LTime on the 200 us grid, LDist in (0, 200 us], armed after the last wake-up ($res)" ;;
*) fail "mode grid at 200 us: ${res:-no rows}" ;;
esac
gaps=${res##* }
accounted out/grid200 "${gaps:-x}" && ok "$gaps empty periods, within timer_grid_missed $m + discarded $d + lost $o" ||
	fail "$gaps empty periods, but timer_grid_missed '$m' + discarded '$d' + lost '$o'"

# At 1 us no loop keeps up (a sleep alone costs more): deadlines are
# skipped, counted, and leave periods without a row.
run grid1 grid 1us
expect_status 0 $? "mode grid at 1 us"
res=$(on_grid out/grid1 1000)
case $res in
"rows 2000 "*) ok "every LTime on the 1 us grid ($res)" ;;
*) fail "mode grid at 1 us: ${res:-no rows}" ;;
esac
gaps=${res##* }
[ "$(info timer_grid_missed out/grid1)" -gt 0 ] && ok "skipped deadlines counted: $(info timer_grid_missed out/grid1)" ||
	fail "no skipped deadline counted at 1 us"
expect_in grid1.out "grid deadlines" "and warned about"
[ "${gaps:-0}" -gt 0 ] && accounted out/grid1 "$gaps" &&
	ok "$gaps empty periods, within timer_grid_missed $m + discarded $d + lost $o" ||
	fail "$gaps empty periods, timer_grid_missed '$m' + discarded '$d' + lost '$o'"

# The default, mode ldist: every sleep is LDist long from its arming.
run ldist200 ldist 200us
expect_status 0 $? "mode ldist at 200 us"
expect_in out/ldist200/info.yml "timer_mode: 'ldist'" "info.yml records mode ldist"
grep -q timer_grid_missed out/ldist200/info.yml && fail "mode ldist counts grid deadlines" ||
	ok "no grid count in mode ldist"
awk -F, 'NR > 1 && $3 != "200.000" { bad = 1 } END { exit bad }' out/ldist200/datapoints.csv &&
	ok "mode ldist: every LDist is 200.000 us" || fail "mode ldist: an LDist other than 200 us"

# A misspelt mode is refused at its line, with the choices.
printf 'name = "x";\nsource = { plugin = "timer"; mode = "gird"; };\nsinks = ( { plugin = "csv"; } );\n' >bad.cfg
"$WULTFW" -c bad.cfg --check >bad.out 2>&1
expect_status 2 $? "--check refuses mode = \"gird\""
expect_in bad.out 'bad.cfg:2: source.mode: "gird" is not allowed: use one of "ldist", "grid"' "at its line, with the choices"
finish
