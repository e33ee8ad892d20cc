#!/bin/sh
# Root's state directory as another user would plant it (issue 29): a
# state directory or file of nobody's, one others can write, symbolic
# links, writes outside the sysfs root (absolute, "..", through a link),
# a cpuN.lock pointing at a victim; files WULTFW_PLOTLY_JS and
# WULTFW_REPORT_ASSETS name for report; links where report --force writes.
# restore, runs and report refuse
# each in one line naming the file, and the victim outside the state
# directory keeps its contents and its mtime.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}:$top/tests/plugins"
cd "$work" || exit 1

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: planting files as another user needs root"
	exit 77
fi
# as_nobody CMD...: CMD as the unprivileged user nobody.
if setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
elif runuser -u nobody -- true 2>/dev/null; then
	as_nobody() { runuser -u nobody -- "$@"; }
else
	echo "SKIP: neither setpriv nor runuser can run a command as nobody here"
	exit 77
fi
chmod 755 "$work"	# nobody reaches its own directory below
mkdir nob && chown nobody: nob
nob="$work/nob"

victim="$work/victim"
# The victim as it is: contents and mtime (to the nanosecond).
look() { printf '%s|%s' "$(cat "$victim")" "$(stat -c %y "$victim")"; }
# fresh: the victim as it was, with an old mtime any write would change.
fresh() {
	printf 'precious\n' >"$victim"
	touch -d '2020-01-01 00:00:00' "$victim"
	before=$(look)
}
fresh
untouched() {	# untouched WHAT
	[ "$(look)" = "$before" ] && ok "$1: the victim is untouched" ||
		fail "$1: the victim changed: $(look), was $before"
}
T=$(printf '\t')
dead=$(sh -c 'echo $$')	# a pid no process has now
# state TEXT-AFTER-THE-CHANGE-LINE: a state file of a dead run.
state() { printf 'pid %s\nchange x\n%s' "$dead" "$1"; }

# refused WHAT STATUS OUT EXPECT...: the wultfw run just before exited 1
# (STATUS), OUT holds every EXPECT, the victim is as it was.
refused() {
	_what=$1 _st=$2 _out=$3
	shift 3
	expect_status 1 "$_st" "$_what: refused"
	for _e in "$@"; do
		expect_in "$_out" "$_e" "$_what: says '$_e'"
	done
	untouched "$_what"
}

# 1. The issue's reproducer: a state directory of nobody's.
as_nobody sh -c "mkdir '$nob/sd' && printf 'pid $dead\nchange x\nwrite $victim\tPWNED\n' >'$nob/sd/1.state'"
WULTFW_STATE_DIR="$nob/sd" timeout 60 "$WULTFW" restore >1.out 2>&1
refused "nobody's state directory" $? 1.out \
	"state directory $nob/sd: owned by uid 65534, not by root: refused" "remove it"
# Every run restores leftovers first and takes its CPU's lock there.
cat >t.cfg <<'CFG'
name = "t";
source = { plugin = "testsrc"; cpu = 1; rows_per_read = 5; };
limits = { datapoints = 10; time = "30s"; };
sinks = ( { plugin = "csv"; } );
CFG
fresh
WULTFW_STATE_DIR="$nob/sd" timeout 60 "$WULTFW" -q -c t.cfg -o r1 >run1.out 2>&1
refused "a run with nobody's state directory" $? run1.out \
	"CPU 1's lock: state directory $nob/sd: owned by uid 65534"
[ -d r1/t ] && fail "the run went on without its lock" || ok "the run stopped before its result directory"

# Root's own state directory from here on.
export WULTFW_STATE_DIR="$work/state"
mkdir -m 755 state
sd="$WULTFW_STATE_DIR"

fresh
# 2. A state file of nobody's in root's directory (planted, then moved in).
as_nobody sh -c "printf 'pid $dead\nchange x\nwrite $victim\tPWNED\n' >'$nob/2.state'"
mv "$nob/2.state" "$sd/"
timeout 60 "$WULTFW" restore >2.out 2>&1
refused "nobody's state file" $? 2.out "$sd/2.state: owned by uid 65534, not by root: refused" \
	"check what it holds and remove it"
[ -f "$sd/2.state" ] && ok "nobody's state file is kept for a look" || fail "nobody's state file is gone"
rm -f "$sd/2.state"

fresh
# 3. Root's file that others can write.
state "write $victim${T}PWNED
" >"$sd/3.state"
chmod 666 "$sd/3.state"
timeout 60 "$WULTFW" restore >3.out 2>&1
refused "a state file others can write" $? 3.out "$sd/3.state: writable by others (mode 0666): refused"
chmod 664 "$sd/3.state"
fresh
timeout 60 "$WULTFW" restore >3g.out 2>&1
refused "a state file its group can write" $? 3g.out "$sd/3.state: writable by its group (mode 0664): refused"
rm -f "$sd/3.state"

fresh
# 4. A symbolic link planted as the state file.
as_nobody sh -c "printf 'pid $dead\nchange x\nwrite $victim\tPWNED\n' >'$nob/real.state' && ln -s '$nob/real.state' '$nob/4.state'"
mv "$nob/4.state" "$sd/"
timeout 60 "$WULTFW" restore >4.out 2>&1
refused "a symbolic link as the state file" $? 4.out "$sd/4.state: a symbolic link: refused"
rm -f "$sd/4.state"
fresh
# And WULTFW_STATE_DIR naming a link to a directory of such files.
as_nobody sh -c "mkdir '$nob/sd2' && printf 'pid $dead\nchange x\nwrite $victim\tPWNED\n' >'$nob/sd2/1.state'"
ln -s "$nob/sd2" statelink
WULTFW_STATE_DIR="$work/statelink" timeout 60 "$WULTFW" restore >4d.out 2>&1
refused "WULTFW_STATE_DIR a symbolic link" $? 4d.out "state directory $work/statelink: a symbolic link: refused"

# 5. Root's state files whose writes leave the sysfs root: absolute, by
# "..", and through a link nobody planted in a directory of the fake
# sysfs it can write. Nothing in such a file is put back, not even its
# harmless first change.
sysfs="$work/sysfs"
mkdir -p "$sysfs/devices" "$sysfs/pub"
printf 'orig\n' >"$sysfs/devices/knob"
chown nobody: "$sysfs/pub"
as_nobody ln -s "$work" "$sysfs/pub/link"
n=10
for w in "$victim" "$sysfs/../victim" "$sysfs/devices/../../victim" "$sysfs/pub/link/victim"; do
	n=$((n + 1))
	state "write $sysfs/devices/knob${T}changed
change y
write $w${T}PWNED
" >"$sd/$n.state"
	says="$sd/$n.state: line 5: the write to $w (change 'y') leads outside the sysfs root $sysfs, the only place wultfw writes back: refused, nothing in it is put back; check the file and remove it"
	# A run restores leftovers first: it says so and measures on.
	fresh
	timeout 60 "$WULTFW" -q --sysfs-root "$sysfs" -c t.cfg -o "r$n" >run$n.out 2>&1
	expect_in run$n.out "$says" "a run finding a write to $w: refuses it"
	untouched "a run finding a write to $w"
	timeout 60 "$WULTFW" restore --sysfs-root "$sysfs" >$n.out 2>&1
	refused "restore of a write to $w" $? $n.out "$says"
	[ "$(cat "$sysfs/devices/knob")" = orig ] && ok "a write to $w: not even the first change was made" ||
		fail "a write to $w: the first change was made"
	rm -f "$sd/$n.state"
done
fresh
# The real /sys as the root: the issue's file, as root's.
state "write $victim${T}PWNED
" >"$sd/20.state"
timeout 60 "$WULTFW" restore >20.out 2>&1
refused "a write outside /sys" $? 20.out "$sd/20.state: line 3: the write to $victim (change 'x') leads outside the sysfs root /sys,"
rm -f "$sd/20.state"
fresh
# A change with no way to put it back is no change wultfw knows.
state "" >"$sd/21.state"
timeout 60 "$WULTFW" restore >21.out 2>&1
refused "a change without writes" $? 21.out "$sd/21.state: line 2: change 'x' has no 'write' or 'plugin' line"
rm -f "$sd/21.state"

fresh
# 6. cpu1.lock: a symbolic link to the victim, planted by nobody.
as_nobody ln -s "$victim" "$nob/cpu1.lock"
mv "$nob/cpu1.lock" "$sd/"
timeout 60 "$WULTFW" -q -c t.cfg -o r6 >6.out 2>&1
refused "cpu1.lock a symbolic link" $? 6.out "CPU 1's lock: $sd/cpu1.lock: a symbolic link: refused"
rm -f "$sd/cpu1.lock"

# The legitimate flow still works: a run takes its lock and leaves no
# state behind; a run's own change below the fake sysfs is put back after
# kill -9 by `wultfw restore --sysfs-root`.
timeout 60 "$WULTFW" -q -c t.cfg -o r7 >7.out 2>&1
expect_status 0 $? "a run with root's state directory"
[ "$(cat "$sd/cpu1.lock" 2>/dev/null)" != "" ] && ok "it took the CPU's lock, naming its pid" ||
	fail "no pid in $sd/cpu1.lock"
state "write $sysfs/devices/knob${T}orig
" >"$sd/30.state"
printf 'changed\n' >"$sysfs/devices/knob"
timeout 60 "$WULTFW" restore --sysfs-root "$sysfs" >30.out 2>&1
expect_status 0 $? "root's own state file is restored"
[ "$(cat "$sysfs/devices/knob")" = orig ] && ok "the knob below the sysfs root is back" ||
	fail "knob: $(cat "$sysfs/devices/knob")"

fresh
# 7. Files the environment names for a report, as root: another user's,
# or a private file behind a link, are refused and never copied.
printf 'SECRET\n' >secret
chmod 600 secret
printf '/* plotly */\n' >plotly.min.js
as_nobody sh -c "mkdir '$nob/assets' && printf x >'$nob/assets/plotly.min.js' && ln -s '$work/secret' '$nob/assets/index.html'"
WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets" WULTFW_PLOTLY_JS="$nob/assets/plotly.min.js" \
	timeout 60 "$WULTFW" report -m LDist -o rep1 r7/t >rep1.out 2>&1
expect_status 1 $? "report with nobody's WULTFW_PLOTLY_JS: refused"
expect_in rep1.out "$nob/assets/plotly.min.js (from WULTFW_PLOTLY_JS): owned by uid 65534, not by root: refused" \
	"report says whose file it is"
WULTFW_REPORT_ASSETS="$nob/assets" WULTFW_PLOTLY_JS="$work/plotly.min.js" \
	timeout 60 "$WULTFW" report -m LDist -o rep2 r7/t >rep2.out 2>&1
expect_status 1 $? "report with a private file behind WULTFW_REPORT_ASSETS: refused"
expect_in rep2.out "$nob/assets/index.html (from WULTFW_REPORT_ASSETS): not readable by others (mode 0600): the report would publish it: refused" \
	"report says it would publish a private file"
grep -rqs SECRET rep1 rep2 && fail "the private file went into a report" || ok "the private file stayed private"
# 8. report --force over a report whose files became links to a victim:
# the links are refused, never followed.
WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets" WULTFW_PLOTLY_JS="$work/plotly.min.js" \
	timeout 60 "$WULTFW" report -m LDist -o rep3 r7/t >rep3.out 2>&1
expect_status 0 $? "a report to replace"
for f in data.js index.html; do
	rm -f "rep3/$f" && ln -s "$victim" "rep3/$f"
	WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets" WULTFW_PLOTLY_JS="$work/plotly.min.js" \
		timeout 60 "$WULTFW" report --force -m LDist -o rep3 r7/t >rep3.out 2>&1
	expect_status 1 $? "report --force with $f a link to the victim: refused"
	expect_in rep3.out "rep3/$f is a symbolic link: refusing to write through it" "report says $f is a link"
	untouched "report --force over a link at $f"
	rm -f "rep3/$f" && : >"rep3/$f"
done
# 9. A result whose info.yml is a link to a file root can read: calc and
# report do not follow it, so its lines never reach a report.
printf 'status: SECRET-LINE\n' >secret-yml
chmod 600 secret-yml
mkdir r9 && cp -r r7/t r9/t && rm r9/t/info.yml && ln -s "$work/secret-yml" r9/t/info.yml
WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets" WULTFW_PLOTLY_JS="$work/plotly.min.js" \
	timeout 60 "$WULTFW" report -m LDist -o rep9 r9/t >rep9.out 2>&1
expect_status 0 $? "report of a result whose info.yml is a link: made without it"
expect_in rep9.out "r9/t/info.yml: a symbolic link, not followed" "report says the link is not followed"
grep -rqs SECRET-LINE rep9 && fail "the linked file went into the report" || ok "the linked file stayed out of the report"
timeout 60 "$WULTFW" calc r9/t >calc9.out 2>&1
expect_status 0 $? "calc of that result"
grep -qs SECRET-LINE calc9.out && fail "calc printed the linked file" || ok "calc did not print the linked file"
# 10. A result directory whose datapoints.csv links to a private file:
# filter would copy it world-readable, report list its first line.
mkdir -p r10/t && ln -s "$work/secret-yml" r10/t/datapoints.csv
timeout 60 "$WULTFW" filter r10/t -o f10 --include 'index >= 0' >f10.out 2>&1
expect_status 1 $? "filter of a result whose datapoints.csv is a link: refused"
expect_in f10.out "r10/t/datapoints.csv: a symbolic link, not followed in a result directory" "filter says why"
grep -rqs SECRET-LINE f10 && fail "filter copied the linked file" || ok "filter copied nothing"
timeout 60 "$WULTFW" report --list-metrics r10/t >l10.out 2>&1
grep -qs SECRET-LINE l10.out && fail "report listed the linked file's line" || ok "report listed nothing of it"
# The same in one CPU's directory of an experiment of several CPUs.
mkdir -p r10/pc/cpu0 r10/pc/cpu1 && cp r7/t/datapoints.csv r10/pc/cpu0/ &&
	ln -s "$work/secret-yml" r10/pc/cpu1/datapoints.csv
timeout 60 "$WULTFW" calc r10/pc >c10.out 2>&1
expect_status 1 $? "calc of CPUs one of which is a link: refused"
expect_in c10.out "r10/pc/cpu1/: its datapoints file is a symbolic link, not followed" "calc says which CPU"
grep -qs SECRET-LINE c10.out && fail "calc quoted the linked file" || ok "calc quoted nothing of it"
untouched "after everything"
finish
