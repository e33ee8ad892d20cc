#!/bin/sh
# The real binary with the timer source and the csv sink: a few thousand
# datapoints, a run stopped by SIGINT, and a result directory on a full
# filesystem. Every CSV left behind must be whole rows only.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

# check_csv FILE COLUMNS: every line has COLUMNS fields, numbers where due.
check_csv() {
	awk -F, -v n="$2" '
		NR == 1 { next }
		NF != n { print "line " NR ": " NF " fields"; bad = 1; exit }
		$1 !~ /^[0-9]+\.[0-9]+$/ { print "line " NR ": WakeLatency " $1; bad = 1; exit }
		END { exit bad }' "$1"
}

cat >timer.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "t3000";
    source = { plugin = "timer"; cpu = 1; ldist = [ "20us", "300us" ]; };
    limits = { datapoints = 3000; };
    sinks = ( { plugin = "csv"; } );
  }
);
CFG
"$WULTFW" -q -c timer.cfg
expect_status 0 $? "timer + csv run"
csv=out/t3000/datapoints.csv
# ReqCState only where CPU 1 has cpuidle states to name.
if [ -z "${WULTFW_HIDE_CPUIDLE:-}" ] && [ -r /sys/devices/system/cpu/cpu1/cpuidle/state0/name ]; then
	hdr="WakeLatency,SilentTime,LDist,ReqCState,LTime" ncol=5
else
	hdr="WakeLatency,SilentTime,LDist,LTime" ncol=4
fi
[ "$(head -1 "$csv")" = "$hdr" ] && ok "wult column names in the header: $hdr" ||
	fail "header '$(head -1 "$csv")', expected '$hdr'"
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" = 3000 ] && ok "3000 rows" || fail "expected 3000 rows, got $rows"
check_csv "$csv" $ncol && ok "every row whole and numeric" || fail "malformed CSV rows"
awk -F, 'NR > 1 && ($3 < 20 || $3 > 300) { bad = 1 } END { exit bad }' "$csv" &&
	ok "LDist within [20us, 300us]" || fail "LDist outside the range"
awk -F, 'NR > 1 && $2 > $3 { bad = 1 } END { exit bad }' "$csv" &&
	ok "SilentTime <= LDist" || fail "SilentTime larger than LDist"
for key in "toolname: 'wult'" "collector: 'wultfw " "cpunum: 1" "devid: 'timer'" "datapoints: 3000" "status: 'complete'" "format_version: '1.3'" "toolver: 'n/a (wultfw " "devdescr: 'wultfw timer source: clock_nanosleep"; do
	expect_in out/t3000/info.yml "$key" "info.yml has $key"
done

"$WULTFW" -q -c timer.cfg
expect_status 1 $? "a second run into the same result directory fails"
"$WULTFW" -q -c timer.cfg --force
expect_status 0 $? "--force replaces the old result directory"
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" = 3000 ] && ok "and writes a fresh CSV" || fail "after --force: $rows rows"
mkdir -p notres/t3000 && touch notres/t3000/precious
"$WULTFW" -q -c timer.cfg --force -o notres >notres.out 2>&1
expect_status 1 $? "--force does not remove a directory that is not a result directory"
[ -e notres/t3000/precious ] && ok "the precious file survives" || fail "--force removed a foreign directory"

# SIGINT mid-run: exit 130, a valid CSV with every datapoint info.yml counts.
cat >long.cfg <<'CFG'
name = "long";
source = { plugin = "timer"; cpu = 1; ldist = "500us"; };
limits = { time = "1m"; };
sinks = ( { plugin = "csv"; } );
CFG
"$WULTFW" -q -c long.cfg -o sig &
pid=$!
wait_until has_rows sig/long/datapoints.csv 101 || fail "no 101 rows in 120 s"
kill -INT $pid
wait $pid
expect_status 130 $? "SIGINT exits 130"
expect_in sig/long/info.yml "status: 'interrupted'" "info.yml says interrupted"
rows=$(($(wc -l <sig/long/datapoints.csv) - 1))
counted=$(sed -n 's/^datapoints: //p' sig/long/info.yml)
[ "$rows" -gt 100 ] && [ "$rows" = "$counted" ] && ok "CSV holds all $rows datapoints info.yml counts" ||
	fail "CSV has $rows rows, info.yml says $counted"
check_csv sig/long/datapoints.csv $ncol && ok "interrupted CSV is whole rows" || fail "interrupted CSV malformed"

# A full filesystem: a clear error, exit 1, whole rows, a valid info.yml.
if [ "$(id -u)" != 0 ]; then
	echo "skipped: the full-filesystem check needs root (tmpfs mount)"
	finish
fi
mkdir full
if ! mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	echo "skipped: cannot mount a tmpfs here"
	finish
fi
cat >full.cfg <<'CFG'
name = "full";
source = { plugin = "timer"; cpu = 1; ldist = "20us"; };
limits = { datapoints = 100000; };
sinks = ( { plugin = "csv"; } );
CFG
"$WULTFW" -q -c full.cfg -o full >full.out 2>&1
st=$?
expect_status 1 $st "a full filesystem fails the run"
expect_in full.out "No space left on device" "the error says the disk is full"
expect_in full.out "datapoints.csv" "the error names the file"
check_csv full/full/datapoints.csv $ncol && ok "CSV on the full disk is whole rows" || fail "CSV on the full disk is malformed"
rows=$(($(wc -l <full/full/datapoints.csv) - 1))
[ "$rows" -gt 500 ] && ok "the CSV kept the $rows rows that fit" || fail "the CSV kept only $rows rows of what fitted in 64 KiB"
tail -c 1 full/full/datapoints.csv | od -c | grep -q '\\n' && ok "CSV ends with a newline" || fail "CSV ends mid-row"
expect_in full/full/info.yml "status: 'failed'" "info.yml on the full disk records the failure"
expect_in full/full/info.yml "error: 'sink ''csv'' (sinks[0]): " "info.yml says what failed"
kept=$(sed -n "s/^csv_rows_in_file: '*\([0-9]*\)'*\$/\1/p" full/full/info.yml)
[ "$kept" = "$rows" ] && ok "info.yml counts the $rows rows the CSV kept" ||
	fail "info.yml says the CSV kept '$kept' rows, the file has $rows"
grep -q "^datapoints: $rows\$" full/full/info.yml && ok "datapoints counts them too" ||
	fail "info.yml's datapoints is not the $rows rows the file holds: $(grep '^datapoints' full/full/info.yml)"
umount full
finish
