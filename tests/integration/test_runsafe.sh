#!/bin/sh
# Data safety of measurement runs (wultfw -c FILE): --force never removes
# the directory of a run that is still going; a removed or renamed result
# directory gets no file meant for another run; two runs of the embedded
# default in one second get one directory each; a run without a datapoint
# says why and does not exit 0; a sink's file stays inside the result
# directory; logs/wultfw.log holds every message said, also after kill -9.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}:$top/tests/plugins"
export WULTFW_STATE_DIR="$work/state"
cd "$work" || exit 1

# A run that goes until it is stopped, and a short one into the same place.
cat >long.cfg <<'CFG'
name = "race";
source = { plugin = "testsrc"; cpu = 0; rows_per_read = 7; delay = "2ms"; };
limits = { time = "10m"; };
sinks = ( { plugin = "csv"; } );
CFG
sed 's/"10m"/"200ms"/' long.cfg >short.cfg

# pid_of DIR: the pid info.yml of DIR names ("" if none).
pid_of() {
	sed -n "s/^pid: '\{0,1\}\([0-9]*\)'\{0,1\}$/\1/p" "$1/info.yml" 2>/dev/null
}
# running_with_rows DIR: the run in DIR has made its first rows.
running_with_rows() {
	grep -qF "status: 'running'" "$1/info.yml" 2>/dev/null && has_rows "$1/datapoints.csv" 1
}

# 1. --force of a run that is still going is refused, naming its pid.
"$WULTFW" -q -c long.cfg -o res --force 2>first.err &
first=$!
wait_until running_with_rows res/race || fail "the first run never started writing"
"$WULTFW" -q -c short.cfg -o res --force >second.out 2>&1
expect_status 1 $? "--force of a running run's directory fails"
expect_in second.out "res/race is the result directory of a run that is still going (pid $first): wait for it to end or stop it (kill $first)" \
	"and names the running pid and what to do"
[ "$(pid_of res/race)" = "$first" ] && ok "the running run's info.yml is untouched" ||
	fail "res/race/info.yml names pid '$(pid_of res/race)', not the running $first"
"$WULTFW" -q -c short.cfg -o res >third.out 2>&1
expect_status 1 $? "without --force too"
expect_in third.out "still going (pid $first)" "and says the same"

# 2. Renamed under the run, its directory keeps every file of the run:
# a new run under the old name gets none of them.
mv res/race res/moved
"$WULTFW" -q -c short.cfg -o res 2>new.err
expect_status 0 $? "a new run under the renamed run's old name runs"
second=$(pid_of res/race)
kill -INT $first
wait_bounded $first 60
expect_status 130 $? "the first run stops on SIGINT"
expect_in res/moved/info.yml "status: 'interrupted'" "its final info.yml is in its own (renamed) directory"
expect_in res/race/info.yml "status: 'complete'" "the new run's info.yml keeps its own status"
[ -n "$second" ] && [ "$second" != "$first" ] && [ "$(pid_of res/race)" = "$second" ] &&
	ok "and its own pid" || fail "res/race/info.yml names pid '$(pid_of res/race)', not the new run's '$second'"
"$WULTFW" calc res/race >calc.out 2>&1
expect_status 0 $? "calc of the new run's directory"
if grep -q "incomplete" calc.out; then fail "calc calls the new run incomplete"; else ok "calc takes it as complete"; fi
"$WULTFW" -q -c short.cfg -o res --force 2>force.err
expect_status 0 $? "--force of a finished run's directory still replaces it"

# 3. Two runs of the embedded default in one second: each gets its own
# numbered directory, while a name the user gave is still refused (1.).
# Its stamps for the next half minute are taken already, so they clash for
# sure (on a loaded machine a run may take seconds to load its plugins).
mkdir -p def
now=$(date +%s)
for s in $(seq 0 29); do
	d=def/timer-$(date -d "@$((now + s))" +%Y%m%d-%H%M%S)
	mkdir -p "$d/logs" && echo "status: 'complete'" >"$d/info.yml"
done
"$WULTFW" -o def >def1.out 2>&1 &
d1=$!
"$WULTFW" -o def >def2.out 2>&1
st2=$?
wait $d1
st1=$?
expect_status 0 $st1 "the first of two default runs at once"
expect_status 0 $st2 "the second of two default runs at once"
r1=$(sed -n 's/.*results in \(def\/timer-[0-9-]*\).*/\1/p' def1.out | head -1)
r2=$(sed -n 's/.*results in \(def\/timer-[0-9-]*\).*/\1/p' def2.out | head -1)
case "$r1 $r2" in
*-[0-9][0-9][0-9][0-9][0-9][0-9]-[0-9]*" "*-[0-9][0-9][0-9][0-9][0-9][0-9]-[0-9]*)
	ok "both took a numbered name ($r1, $r2)" ;;
*) fail "not both numbered: '$r1' '$r2'"; cat def1.out def2.out ;;
esac
[ -n "$r1" ] && [ "$r1" != "$r2" ] && ok "two directories" || fail "one directory for both: '$r1' '$r2'"
for r in "$r1" "$r2"; do
	expect_in "$r/info.yml" "reportid: '${r#def/}'" "$r: the report id has the number"
	# 10000 datapoints, or what the default's 30 s limit left a loaded
	# machine: every one that info.yml counts.
	n=$(sed -n 's/^datapoints: //p' "$r/info.yml")
	[ "${n:-0}" -gt 0 ] && [ "$(($(wc -l <"$r/datapoints.csv") - 1))" = "$n" ] &&
		ok "$r: all $n datapoints" || fail "$r: datapoints.csv does not hold info.yml's $n datapoints"
done

# 4. A run that cannot make a datapoint says why, is 'empty' and exits 4;
# the launch distance beyond the time limit is said at the start too,
# and logs/wultfw.log has that warning, said before the directory existed.
cat >empty.cfg <<'CFG'
name = "empty";
source = { plugin = "testsrc"; cpu = 0; ldist_max = "1m";
           ldist = "50s"; discard_every = 1; };
limits = { time = "300ms"; };
sinks = ( { plugin = "csv"; } );
CFG
"$WULTFW" -c empty.cfg -o emp >empty.out 2>&1
expect_status 4 $? "a run without a datapoint exits 4"
expect_in empty.out "empty.cfg:3: source.ldist: the shortest launch distance (50s) is not below the time limit (300ms)" \
	"a launch distance beyond the time limit is said at its line"
expect_in empty.out "experiment 'empty': no datapoint in" "the end says there is no datapoint"
expect_in emp/empty/info.yml "status: 'empty'" "info.yml says status empty"
expect_in emp/empty/info.yml "empty_reason: 'the shortest launch distance (50s)" "and why"
expect_in emp/empty/logs/wultfw.log "shortest launch distance (50s)" "the log has the warning said before it existed"
sed 's/ldist = "50s"; //' empty.cfg >discard.cfg
"$WULTFW" -q -c discard.cfg -o emp2 >discard.out 2>&1
expect_status 4 $? "all datapoints discarded: exits 4"
expect_in emp2/empty/info.yml "the source discarded all" "and info.yml says so"
sed 's/discard_every = 1; //' discard.cfg >good.cfg
"$WULTFW" -q -c good.cfg -o good
expect_status 0 $? "a run with datapoints still exits 0"
expect_in good/empty/info.yml "status: 'complete'" "and is complete"

# 5. A sink's file stays inside the result directory.
for f in '../../escape.csv' "$work/escape.csv" 'a/../../escape.csv' '..'; do
	cat >esc.cfg <<CFG
name = "a";
source = { plugin = "testsrc"; cpu = 0; total = 10; };
sinks = ( { plugin = "csv";
            file = "$f"; } );
CFG
	"$WULTFW" -q -c esc.cfg -o out2 >esc.out 2>&1
	expect_status 2 $? "csv file = \"$f\" is refused"
	expect_in esc.out "esc.cfg:4: sinks[0].file: \"$f\" is outside the result directory: give a name inside it" \
		"at its line, saying what to do"
done
[ ! -e escape.csv ] && [ ! -d out2 ] && ok "nothing was written" ||
	fail "a file outside the result directory was written"
cat >esc.cfg <<CFG
name = "a";
source = { plugin = "testsrc"; cpu = 0; total = 10; };
sinks = ( { plugin = "binary"; file = "$work/x.wfb"; },
          { plugin = "stats"; histogram = "../h.txt"; text_histogram = "sub/../../t.txt"; } );
CFG
"$WULTFW" -q -c esc.cfg -o out2 >esc.out 2>&1
expect_status 2 $? "binary and stats file options outside are refused"
expect_in esc.out "esc.cfg:3: sinks[0].file: \"$work/x.wfb\" is outside the result directory" "binary's file"
expect_in esc.out "esc.cfg:4: sinks[1].histogram: \"../h.txt\" is outside" "stats' histogram"
sed 's/histogram = "..\/h.txt"; //' esc.cfg >esc2.cfg
"$WULTFW" -q -c esc2.cfg -o out2 --check >esc2.out 2>&1
expect_status 2 $? "--check refuses them too"
expect_in esc2.out "sinks[1].text_histogram: \"sub/../../t.txt\" is outside" "stats' text_histogram"
cat >inside.cfg <<'CFG'
name = "a";
source = { plugin = "testsrc"; cpu = 0; total = 10; };
sinks = ( { plugin = "csv"; file = "my..data.csv"; },
          { plugin = "stats"; histogram = "..h.txt"; histogram_metrics = [ "LDist" ]; } );
CFG
"$WULTFW" -q -c inside.cfg -o out3
expect_status 0 $? "names with '..' inside a component are fine"
has_rows out3/a/my..data.csv 10 && [ -f out3/a/..h.txt ] && ok "and are written in the result directory" ||
	fail "out3/a lacks my..data.csv or ..h.txt"

# 6. logs/wultfw.log after kill -9: every message said is in it.
"$WULTFW" -c long.cfg -o killed --no-progress 2>killed.err &
k=$!
wait_until running_with_rows killed/race || fail "the run to kill never started writing"
kill -9 $k
wait $k 2>/dev/null
expect_in killed/race/logs/wultfw.log "wultfw: experiment 'race': source testsrc on CPU 0, results in killed/race" \
	"the log of a killed run has its messages"

finish
