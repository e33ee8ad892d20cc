#!/bin/sh
# Nothing lost under kill -9 (issue 13): runs with the csv, binary and stats
# sinks killed at 20 points; every result directory must open in calc and
# report, say the run was killed, hold every row made up to the flush bound
# (counted from the data: the test source writes how many rows it made),
# and the C-state changes of each killed run (a fake sysfs) must be put
# back by the next run, `wultfw restore` or `wultfw scan`. Then a disk that
# is full before the run starts, and the real cpuidle sysfs where there is
# a cpuidle driver.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}:$top/tests/plugins"
export WULTFW_STATE_DIR="$work/state"
cd "$work" || exit 1
# Whatever happens, nothing stays changed and nothing stays mounted.
trap '"$WULTFW" restore --sysfs-root "$work/sysfs" >/dev/null 2>&1; "$WULTFW" restore >/dev/null 2>&1; umount "$work/full" 2>/dev/null; rm -rf "$work"' EXIT

sysfs="$work/sysfs"
cpu="$sysfs/devices/system/cpu"
mkfake() {	# mkfake REL TEXT
	mkdir -p "$(dirname "$sysfs/$1")" && printf '%s\n' "$2" >"$sysfs/$1"
}
mkfake devices/system/cpu/online 0-1
mkfake devices/system/cpu/cpu1/cpuidle/state0/name POLL
mkfake devices/system/cpu/cpu1/cpuidle/state0/disable 0
mkfake devices/system/cpu/cpu1/cpuidle/state1/name C1
mkfake devices/system/cpu/cpu1/cpuidle/state1/disable 0
mkfake devices/system/cpu/cpu1/cpuidle/state2/name C6
mkfake devices/system/cpu/cpu1/cpuidle/state2/disable 1
mkfake devices/system/cpu/cpuidle/current_governor haltpoll
mkfake devices/system/cpu/cpuidle/available_governors "ladder menu haltpoll"
# Settings the test source changes through the plugin API: one put back
# by file writes (wultfw_remember; below the sysfs root, the only place a
# later wultfw writes back), one by the plugin's own restore op
# (wultfw_remember_plugin: what ndl's qdiscs and i210's binding use).
knob="$sysfs/knob"
printf 'orig' >"$knob"
printf 'mine' >ownknob
settings() {
	echo "$(cat "$cpu/cpu1/cpuidle/state1/disable")$(cat "$cpu/cpu1/cpuidle/state2/disable") $(cat "$cpu/cpuidle/current_governor") $(cat "$knob") $(cat ownknob 2>/dev/null)"
}
original=$(settings)	# "01 haltpoll orig mine"; during a run "11 menu changed changed"

# Rows are made in batches of 7; the file sinks sync every 50 rows (the
# interval is far away), so at most 49 + 7 rows may be lost to a kill -9.
FLUSH_ROWS=50
BATCH=7
cat >kill.cfg <<CFG
name = "k";
source = { plugin = "testsrc"; cpu = 1; rows_per_read = $BATCH; delay = "2ms";
           progress = "made"; setting = "$knob"; own_setting = "$work/ownknob"; };
limits = { time = "10m"; };
cstates = { only = [ "POLL" ]; };
sinks = ( { plugin = "csv"; flush_interval = "1h"; flush_rows = $FLUSH_ROWS; },
          { plugin = "binary"; flush_interval = "1h"; flush_rows = $FLUSH_ROWS; },
          { plugin = "stats"; flush_interval = "50ms"; } );
CFG

# rows FILE: data rows in a result file, as calc counts them.
rows() {
	"$WULTFW" calc --metrics LDist "$1" 2>/dev/null | awk '$1 == "LDist" { print $3 }'
}

# check_killed DIR N: the directory a kill -9 left behind.
check_killed() {
	d=$1/k
	made=
	[ -f made ] && made=$(tr -d ' ' <made)
	if [ ! -f "$d/info.yml" ]; then
		# Killed before the result directory was made: only settings to check.
		[ -z "$made" ] && ok "kill $2: before the run started" ||
			fail "kill $2: rows made ($made) but no info.yml"
		return
	fi
	if [ ! -f "$d/datapoints.csv" ] && [ -z "$made" ]; then
		# Killed between info.yml and the sinks: nothing to read yet.
		expect_in "$d/info.yml" "status: 'running'" "kill $2: before the sinks opened, info.yml says running"
		return
	fi
	"$WULTFW" calc "$d" >calc.out 2>&1
	st=$?
	if [ -z "$made" ] && [ ! -s "$d/datapoints.csv" ]; then
		# Killed after the csv sink opened, before its header: calc
		# says so instead of computing (a slow, sanitized build makes
		# that window wide).
		expect_status 1 $st "kill $2: calc refuses a result killed before its first datapoint"
		expect_in calc.out "killed before its first datapoint" "kill $2: calc says why there is nothing"
	else
		expect_status 0 $st "kill $2: calc opens the result"
	fi
	expect_in calc.out "incomplete: the run was killed" "kill $2: calc says the run was killed"
	for f in datapoints.csv datapoints.wfb; do
		# Before the first row the sinks open one after the other: a
		# kill there (a loaded machine makes that window wide) leaves
		# the later ones unopened.
		if [ -z "$made" ] && [ ! -s "$d/$f" ]; then
			ok "kill $2: killed before $f was opened or written"
			continue
		fi
		n=$(rows "$d/$f")
		lost=$(( ${made:-0} - ${n:-0} ))
		if [ -n "$n" ] && [ "$lost" -ge 0 ] && [ "$lost" -lt $((FLUSH_ROWS + BATCH)) ]; then
			ok "kill $2: $f holds $n of $made rows made"
		else
			fail "kill $2: $f holds '$n' of '$made' rows made: more lost than $FLUSH_ROWS + $BATCH"
		fi
	done
	# Whole rows in order, none missing: Seq is 0, 1, 2, ...
	awk -F, 'NR > 1 && $1 != NR - 2 { bad = 1; exit } END { exit bad }' "$d/datapoints.csv" &&
		ok "kill $2: CSV rows are whole and in sequence" || fail "kill $2: CSV rows out of sequence"
	# Once the source made rows every sink is open, the stats sink too.
	[ -z "$made" ] && return
	python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["run"]; sys.exit(r["final"])' \
		"$d/stats.json" && ok "kill $2: stats.json is valid and not final" ||
		fail "kill $2: stats.json missing, invalid or claims to be final"
}

# says_killed FILE PID...: FILE names one of the PIDs as a killed run.
says_killed() {
	f=$1; shift
	for p in "$@"; do
		grep -qF "a killed wultfw (pid $p) left" "$f" && return 0
	done
	return 1
}

# 20 points of a run, fixed so every run of the test kills at the same ones.
left=
firsts=0
i=0
for delay in 0.01 0.03 0.06 0.1 0.15 0.2 0.25 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0 1.2 1.4 1.6 1.8 2.0; do
	i=$((i + 1))
	rm -f made
	"$WULTFW" -q --sysfs-root "$sysfs" -c kill.cfg -o "r$i" 2>"run$i.err" &
	pid=$!
	sleep "$delay"
	kill -9 $pid
	wait $pid 2>/dev/null
	check_killed "r$i" $i
	# A run killed before it put back what the run before left (a loaded
	# machine can be that slow) leaves that run's state file as it was.
	unrestored=
	for p in $left; do
		[ -e "$WULTFW_STATE_DIR/$p.state" ] && unrestored="$unrestored $p"
	done
	for p in $left; do
		case " $unrestored " in *" $p "*) continue ;; esac
		expect_in "run$i.err" "a killed wultfw (pid $p) left these settings changed" \
			"kill $i: the run first restored what kill $((i - 1)) left"
		firsts=$((firsts + 1))
	done
	now=$(settings)
	if [ "$now" != "$original" ]; then
		ls "$WULTFW_STATE_DIR"/*.state >/dev/null 2>&1 &&
			ok "kill $i: settings changed ($now), the state file remembers them" ||
			fail "kill $i: settings changed ($now) and no state file"
	fi
	# Every third time `wultfw restore`, once `scan`; else the next run restores.
	if [ $((i % 3)) = 0 ] && [ "$now" != "$original" ]; then
		"$WULTFW" restore --sysfs-root "$sysfs" >restore.out 2>&1
		expect_status 0 $? "kill $i: wultfw restore"
		says_killed restore.out $pid $unrestored &&
			ok "kill $i: restore says what the killed run left" ||
			fail "kill $i: restore names none of the killed runs ($pid$unrestored): $(head -3 restore.out | tr '\n' '|')"
		[ "$(settings)" = "$original" ] && ok "kill $i: restore put the settings back" ||
			fail "kill $i: after restore: $(settings), expected $original"
	elif [ $i = 10 ] && [ "$now" != "$original" ]; then
		"$WULTFW" scan --sysfs-root "$sysfs" >scan.out 2>&1
		says_killed scan.out $pid $unrestored &&
			ok "kill $i: scan says what the killed run left" ||
			fail "kill $i: scan names none of the killed runs ($pid$unrestored)"
		[ "$(settings)" = "$original" ] && ok "kill $i: scan put the settings back" ||
			fail "kill $i: after scan: $(settings)"
	fi
	# The runs whose state files the next run must put back first.
	left=$(ls "$WULTFW_STATE_DIR" 2>/dev/null | sed -n 's/^\([0-9]*\)\.state$/\1/p')
done

# Slow starts aside, most runs get to restoring their predecessor's leftovers.
[ "$firsts" -gt 0 ] && ok "$firsts runs first restored what the run before left" ||
	fail "no run restored what the run before it left"

# A run to the end after all that: it finds the last leftovers, and what it
# restores at its end must be the original settings, not a killed run's.
sed 's/time = "10m"/datapoints = 500; time = "5m"/' kill.cfg >end.cfg
"$WULTFW" -q --sysfs-root "$sysfs" -c end.cfg -o end 2>end.err
expect_status 0 $? "a complete run after the kills"
[ "$(settings)" = "$original" ] && ok "the settings are the original ones: $original" ||
	fail "after the last run: $(settings), expected $original"
ls "$WULTFW_STATE_DIR"/*.state >/dev/null 2>&1 && fail "a state file is left: $(ls "$WULTFW_STATE_DIR")" ||
	ok "no state file left"
"$WULTFW" calc end/k >calc.out 2>&1
grep -q incomplete calc.out && fail "calc calls a complete run incomplete" || ok "a complete run is not called incomplete"

# A plugin's change that cannot be put back (its file became a directory)
# stays in the state file, alone -- the file writes were done -- and says
# so at exit; `wultfw restore` fails on it, then puts it back once it can.
"$WULTFW" -q --sysfs-root "$sysfs" -c kill.cfg -o stuck 2>stuck.err &
pid=$!
wait_until sh -c '[ "$(cat ownknob)" = changed ]'
rm ownknob && mkdir ownknob
kill -INT $pid
wait_bounded $pid 60
expect_in stuck.err "cannot put back 'testsrc: test setting changed, only testsrc puts it back'" "a plugin change that cannot be put back is reported"
expect_in stuck.err "left changed, for 'wultfw restore' or the next run" "the run says what it leaves changed"
[ "$(cat "$cpu/cpu1/cpuidle/state1/disable") $(cat "$knob")" = "0 orig" ] &&
	ok "the file-write changes were put back" || fail "file-write changes not put back: $(settings)"
st=$(ls "$WULTFW_STATE_DIR"/*.state 2>/dev/null)
[ -n "$st" ] && grep -q "^plugin testsrc" $st && ! grep -q "^write " $st &&
	ok "the state file keeps the plugin's change alone" || fail "state file: $(cat $st 2>/dev/null)"
"$WULTFW" restore --sysfs-root "$sysfs" >restore.out 2>&1
expect_status 1 $? "wultfw restore fails while the plugin cannot put it back"
expect_in restore.out "cannot put back" "restore says why"
[ -n "$(ls "$WULTFW_STATE_DIR"/*.state 2>/dev/null)" ] && ok "the state file is kept for another try" ||
	fail "the state file is gone though nothing was put back"
rmdir ownknob && printf 'changed' >ownknob
"$WULTFW" restore --sysfs-root "$sysfs" >restore.out 2>&1
expect_status 0 $? "wultfw restore once the plugin can put it back"
expect_in restore.out "testsrc: $work/ownknob is 'mine' again" "the plugin's restore op said what it did"
[ "$(settings)" = "$original" ] && ok "everything is back: $original" || fail "after restore: $(settings)"
ls "$WULTFW_STATE_DIR"/*.state >/dev/null 2>&1 && fail "a state file is left" || ok "no state file left"

# A state file naming a plugin built before descriptors had a restore op
# (tests/plugins/shortdesc.c: its .size ends before one that is there):
# the core must not read past the descriptor's size, only say what to do.
dead=$(sh -c 'echo $$')
printf 'pid %s\npid_start 1\nboot_id -\nchange shortdesc: something changed\nplugin shortdesc\tv1 data\n' "$dead" \
	>"$WULTFW_STATE_DIR/$dead.state"
"$WULTFW" restore >restore.out 2>&1
expect_status 1 $? "wultfw restore fails on a plugin without a restore op"
expect_in restore.out "has no restore op: a newer build of it made this change" "it says the plugin has no restore op"
grep -q "read past the end" restore.out && fail "the core read past an old descriptor" ||
	ok "the core did not read past an old descriptor"
rm -f "$WULTFW_STATE_DIR/$dead.state"

# The report of a killed run: says so, and is made from its rows.
"$WULTFW" report -m LDist -o rep r20/k >report.out 2>&1
expect_status 0 $? "report opens a killed run's result"
expect_in report.out "incomplete: the run was killed" "report says the run was killed"

# A source that goes quiet longer than flush_interval: each batch is on the
# disk before the next is made (the read sleeps 150 ms, the interval is 100).
cat >quiet.cfg <<CFG
name = "k";
source = { plugin = "testsrc"; cpu = 1; rows_per_read = 5; delay = "150ms"; progress = "made"; };
limits = { time = "10m"; };
sinks = ( { plugin = "csv"; flush_interval = "100ms"; flush_rows = 1000000; },
          { plugin = "binary"; flush_interval = "100ms"; flush_rows = 1000000; } );
CFG
rm -f made
"$WULTFW" -q -c quiet.cfg -o quiet 2>/dev/null &
pid=$!
# Some batches in (when is the scheduler's business on a loaded machine).
wait_until sh -c '[ "$(tr -d " " <made 2>/dev/null)" -ge 25 ] 2>/dev/null'
kill -9 $pid
wait $pid 2>/dev/null
made=
[ -f made ] && made=$(tr -d ' ' <made)
for f in datapoints.csv datapoints.wfb; do
	n=$(rows "quiet/k/$f")
	[ -n "$n" ] && [ "$made" -ge 5 ] && [ $((made - n)) -le 5 ] &&
		ok "flush_interval: $f holds $n of $made rows (at most the batch in flight lost)" ||
		fail "flush_interval: $f holds '$n' of '$made' rows"
done

# A disk already full: info.yml is written before any sink opens, and
# records the failure.
if [ "$(id -u)" != 0 ]; then
	skip_part "the full-disk check needs root (it mounts a tmpfs)"
elif ! mkdir full || ! mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	skip_part "the full-disk check: cannot mount a tmpfs here (mount not allowed)"
else
	# Leave 12 KiB: room for info.yml (8 KiB) but not for the sinks' files.
	dd if=/dev/zero of=full/filler bs=4k count=13 2>/dev/null
	"$WULTFW" -q -c kill.cfg --sysfs-root "$sysfs" -o full >full.out 2>&1
	expect_status 1 $? "a run on a full disk fails"
	expect_in full/k/info.yml "status: 'failed'" "info.yml on the full disk records the failure"
	expect_in full/k/info.yml "No space left on device" "info.yml says the disk is full"
	[ "$(settings)" = "$original" ] && ok "the failed run put the settings back" ||
		fail "after the failed run: $(settings)"
	umount full
fi

# The real cpuidle sysfs: a killed run's changes put back by `wultfw restore`.
real=/sys/devices/system/cpu
if [ -n "${WULTFW_HIDE_CPUIDLE:-}" ] || [ ! -d "$real/cpu1/cpuidle/state0" ]; then
	skip_part "the real-sysfs restore: no cpuidle driver here (or WULTFW_HIDE_CPUIDLE)"
elif [ "$(id -u)" != 0 ]; then
	skip_part "the real-sysfs restore needs root"
else
	before=$(cat "$real"/cpu1/cpuidle/state*/disable "$real/cpuidle/current_governor" | tr '\n' ' ')
	cat >real.cfg <<'CFG'
name = "k";
source = { plugin = "timer"; cpu = 1; ldist = "200us"; };
limits = { time = "10m"; };
cstates = { only = [ "POLL" ]; };
sinks = ( { plugin = "csv"; } );
CFG
	"$WULTFW" -q -c real.cfg -o real 2>real.err &
	pid=$!
	# Wait for the change to be made: the run measures (a loaded machine
	# may take seconds to get there).
	wait_until has_rows real/k/datapoints.csv 1
	kill -9 $pid
	wait $pid 2>/dev/null
	during=$(cat "$real"/cpu1/cpuidle/state*/disable "$real/cpuidle/current_governor" | tr '\n' ' ')
	[ "$during" != "$before" ] && ok "the killed run left the real cpuidle settings changed ($during)" ||
		fail "the killed run changed nothing in the real sysfs ($during)"
	"$WULTFW" restore >restore.out 2>&1
	expect_status 0 $? "wultfw restore on the real sysfs"
	after=$(cat "$real"/cpu1/cpuidle/state*/disable "$real/cpuidle/current_governor" | tr '\n' ' ')
	[ "$after" = "$before" ] && ok "the real cpuidle settings are back ($after)" ||
		fail "real cpuidle settings: $after, before the run: $before"
fi
finish
