#!/bin/sh
# Remote SUTs through real OpenSSH: the test starts its own sshd instances
# (throw-away host key, a key it authorizes, its own sshd_config) listening
# only on 127.0.0.x, each standing for a SUT; the "SUT" runs this build's
# wultfw through --sut-wultfw. Cases: one SUT, four in parallel, failed
# authentication, no wultfw, another major version, the connection killed
# mid-run (then `fetch`), Ctrl-C on the controller, a run stopped by
# stop_above, a full disk on the controller while copying back. Every run
# has a time limit; the runs that are cut short (a lost connection,
# Ctrl-C) have a long one and are cut once they have rows, so no check
# depends on a run still going after a guessed time.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"

. "$srcdir/tests/integration/sshd_lib.sh"
SSHD_DIR=$work
sshd_test_begin test_remote

cleanup() {
	sshd_stop_runs "$work/sutdir"
	sshd_stop_all
	mountpoint -q "$work/full" 2>/dev/null && umount "$work/full"
	rm -rf "$work"
}
trap cleanup EXIT

sshd_keys || { fail "no keys"; finish; }
ssh-keygen -q -t ed25519 -N '' -C wultfw-test-other -f otherkey

# The "SUT" command: this build's binary with this build's plugins.
cat >sut-wultfw <<W
#!/bin/sh
WULTFW_PLUGIN_PATH='$WULTFW_PLUGIN_PATH' WULTFW_HIDE_CPUIDLE='${WULTFW_HIDE_CPUIDLE:-}' exec '$WULTFW' "\$@"
W
sed -i "s/WULTFW_HIDE_CPUIDLE='' //" sut-wultfw
printf '#!/bin/sh\necho "wultfw 99.0.0"\n' >old-wultfw
chmod 755 sut-wultfw old-wultfw

# sshd for sutN on 127.0.0.(N+1) (tests/integration/sshd_lib.sh).
: >ssh_config
for n in 1 2 3 4; do
	sshd_start sut$n 127.0.0.$((n + 1)) || { fail "sshd $n does not start"; finish; }
	eval "port$n=$sshd_port"
	sshd_host_config sut$n 127.0.0.$((n + 1)) $sshd_port >>ssh_config
done
cat >>ssh_config <<C
Host badauth
	HostName 127.0.0.2
	Port $port1
	User root
	IdentityFile $work/otherkey
	IdentitiesOnly yes
	UserKnownHostsFile $work/known_hosts
	GlobalKnownHostsFile /dev/null
C
# A SUT whose host key is not the one known_hosts has for it.
ssh-keygen -q -t ed25519 -N '' -C wultfw-test-wrong -f wronghostkey
echo "[127.0.0.2]:$port1 $(cat wronghostkey.pub)" >wrong_known_hosts
cat >>ssh_config <<C
Host badhostkey
	HostName 127.0.0.2
	Port $port1
	User root
	IdentityFile $work/userkey
	IdentitiesOnly yes
	UserKnownHostsFile $work/wrong_known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
C
ok "four sshd instances on 127.0.0.2-5"

cat >exp.cfg <<'CFG'
outdir = "res";
sinks = ( { plugin = "csv"; } );
experiments = (
  { name = "a"; source = { plugin = "timer"; cpu = 1; ldist = "100us"; }; limits = { datapoints = 300; time = "5m"; }; },
  { name = "b"; source = { plugin = "timer"; cpu = 1; ldist = "50us"; }; limits = { datapoints = 200; time = "5m"; }; }
);
CFG
# Runs to cut short: a bound for a hang only (cleanup stops them).
cat >long.cfg <<'CFG'
outdir = "res";
experiments = (
  { name = "long"; source = { plugin = "timer"; cpu = 1; ldist = "1ms"; };
    limits = { time = "15m"; }; sinks = ( { plugin = "csv"; } ); }
);
CFG
cat >big.cfg <<'CFG'
outdir = "res";
experiments = (
  { name = "big"; source = { plugin = "timer"; cpu = 1; ldist = "20us"; };
    limits = { datapoints = 5000; time = "5m"; }; sinks = ( { plugin = "csv"; } ); }
);
CFG

# Every command gets the test's ssh config and SUT directory ($work has no spaces).
ropts="--ssh-config $work/ssh_config --sut-dir $work/sutdir"
remote() { "$WULTFW" $ropts "$@"; }
fetch() { "$WULTFW" fetch $ropts "$@"; }
rows() { echo $(($(wc -l <"$1") - 1)); }

# --check validates on the controller and contacts nobody.
remote -H nosuchhost.invalid -c exp.cfg --check >check.out 2>&1
expect_status 0 $? "--check with -H needs no SUT"
expect_in check.out "valid (each SUT checks its machine" "--check says the SUT checks its machine"

# One SUT, through an ssh that counts its starts: a master connection, the
# run's one session, one archive of both results and the clean-up (and
# `-O exit`, which only talks to the local control socket).
mkdir countbin
real_ssh=$(command -v ssh)
cat >countbin/ssh <<C
#!/bin/sh
case " \$* " in *" -O "*) echo local ;; *) echo sut ;; esac >>$work/ssh.count
printf '%s\\n' "\$*" >>$work/ssh.args
exec $real_ssh "\$@"
C
chmod 755 countbin/ssh
PATH="$work/countbin:$PATH" remote -H sut1 --sut-wultfw "$work/sut-wultfw" -c exp.cfg >one.out 2>one.err
expect_status 0 $? "one SUT: both experiments ran"
n=$(grep -c sut ssh.count)
[ "$n" -le 4 ] && ok "$n ssh round trips for the SUT (at most 4)" ||
	{ fail "$n ssh processes reached the SUT, expected at most 4:"; cut -c1-300 ssh.args; }
[ "$(grep -c 'tar cf -' ssh.args)" = 1 ] && ok "both results came in one archive" ||
	fail "$(grep -c 'tar cf -' ssh.count) archives for two results"
grep -qE "^sut1 +done +500 +res/sut1/a, res/sut1/b$" one.out && ok "the table: host, status, datapoints, results" ||
	{ fail "the table:"; cat one.out; }
expect_in res/sut1/a/info.yml "host: 'sut1'" "info.yml names the SUT as the controller called it"
expect_in res/sut1/a/info.yml "sut_hostname: '$(uname -n)'" "info.yml names the SUT as it calls itself"
expect_in res/sut1/a/info.yml "status: 'complete'" "the SUT's run finished"
[ "$(rows res/sut1/a/datapoints.csv)" = 300 ] && [ "$(rows res/sut1/b/datapoints.csv)" = 200 ] &&
	ok "every datapoint came back" || fail "datapoints: $(rows res/sut1/a/datapoints.csv), $(rows res/sut1/b/datapoints.csv)"
[ -z "$(ls sutdir 2>/dev/null)" ] && ok "nothing left on the SUT after the copy" ||
	fail "left on the SUT: $(ls sutdir)"
remote -q -H sut1 --sut-wultfw "$work/sut-wultfw" -c exp.cfg 2>again.err
expect_status 2 $? "an existing result is not overwritten"
expect_in again.err "res/sut1/a exists already" "and the error names it"

# Settings from the command line reach the SUT (over the file's).
remote -q -H sut2 --sut-wultfw "$work/sut-wultfw" -c exp.cfg -o resset --only b \
	--datapoints 50 --ldist 70us 2>set.err
expect_status 0 $? "a run with --datapoints and --ldist"
[ "$(rows resset/sut2/b/datapoints.csv)" = 50 ] && ok "--datapoints reached the SUT" ||
	{ fail "--datapoints: $(rows resset/sut2/b/datapoints.csv) rows"; cat set.err; }
expect_in resset/sut2/b/info.yml "ldist_from: '70us'" "--ldist reached the SUT"

# A SUT's run that measured nothing: said as empty, exit status 4.
remote -H sut2 --sut-wultfw "$work/sut-wultfw" -c exp.cfg -o resempty --only a --no-progress \
	--ldist 5s --time 1s 2>empty.err
expect_status 4 $? "a SUT's run without a datapoint"
expect_in empty.err "sut2: empty: no datapoint" "is said as empty, not failed"

# Four SUTs in parallel and one that refuses the key, hosts from the file,
# two at a time: five are many, so progress is one summary line.
{ cat exp.cfg; echo 'hosts = [ "sut1", "sut2", "sut3", "badauth", "sut4" ];'; echo "sut_wultfw = \"$work/sut-wultfw\";"; } >four.cfg
remote -o res4 --jobs 2 --no-progress -c four.cfg >four.out 2>four.err
expect_status 1 $? "four SUTs and a failing one"
expect_in four.err "5 SUTs: 0 waiting, 0 running, 4 done, 1 failed (badauth)" "one summary line names the failed SUT"
[ "$(grep -c "sut[0-9]: " four.err)" = 0 ] && ok "no progress line per SUT" ||
	{ fail "progress lines per SUT:"; cat four.err; }
[ "$(grep -c "badauth: failed: cannot connect" four.err)" = 1 ] && ok "the failed SUT: one line" ||
	{ fail "badauth's error:"; cat four.err; }
grep -qE "^badauth +failed +- +-$" four.out && ok "the table has the failed SUT" ||
	{ fail "no failed row in the table:"; cat four.out; }
[ "$(grep -cE "^sut[1-4] +done +500 +res4/sut[1-4]/a, res4/sut[1-4]/b$" four.out)" = 4 ] &&
	ok "and four done, 500 datapoints each" ||
	{ fail "the table:"; cat four.out; }
good=0
for n in 1 2 3 4; do
	grep -qF "host: 'sut$n'" "res4/sut$n/a/info.yml" 2>/dev/null &&
		[ "$(rows "res4/sut$n/b/datapoints.csv")" = 200 ] && good=$((good + 1))
done
[ $good = 4 ] && ok "four complete result directories, each under its host" ||
	{ fail "only $good of 4 SUTs complete"; cat four.err; }
"$WULTFW" calc res4/*/a >calc.out 2>&1
expect_status 0 $? "calc reads the four results side by side"
# A diff of the four SUTs (tests/integration/test_report.sh opens reports
# in Chromium; here: one is made, naming every SUT).
if "$WULTFW" report -o rep4 res4/*/a >report.out 2>&1; then
	n=$(grep -o "sut[1-4]-a" rep4/data.js 2>/dev/null | sort -u | wc -l)
	[ "$n" = 4 ] && ok "report makes a diff of the four SUTs" ||
		fail "the report names $n of the 4 SUTs"
elif grep -q "plotly.min.js" report.out; then
	ok "report: $(head -1 report.out)"
else
	fail "report of the four SUTs:"; cat report.out
fi

# Authentication fails: one line naming the host and what to do.
remote -H badauth --sut-wultfw "$work/sut-wultfw" -o resbad -c exp.cfg 2>auth.err
expect_status 1 $? "authentication failure"
expect_in auth.err "badauth: failed: cannot connect (" "the error names the host"
expect_in auth.err "authentication failed: give the key with -K" "and says what to do"

remote -H badhostkey --sut-wultfw "$work/sut-wultfw" -o resbad -c exp.cfg 2>hostkey.err
expect_status 1 $? "host key mismatch"
expect_in hostkey.err "badhostkey: failed: cannot connect (" "the error names the host"
expect_in hostkey.err "host key is not trusted" "and says what is wrong"

# No wultfw on the SUT; another major version.
remote -H sut2 --sut-wultfw /nonexistent/wultfw -o resbad -c exp.cfg 2>nowfw.err
expect_status 1 $? "SUT without wultfw"
expect_in nowfw.err "sut2: failed: no usable '/nonexistent/wultfw' on the SUT" "says wultfw is missing there"
remote -H sut2 --sut-wultfw "$work/old-wultfw" -o resbad -c exp.cfg 2>ver.err
expect_status 1 $? "version mismatch"
expect_in ver.err "wultfw 99.0.0" "names the SUT's version"
expect_in ver.err "install the same major version on both" "and what to do"
[ ! -e resbad ] && ok "no result directory for runs that never started" || fail "resbad exists"

# A machine-dependent error on the SUT comes back at the controller's file:line.
printf '#!/bin/sh\nWULTFW_HIDE_CPUIDLE=1 exec %s/sut-wultfw "$@"\n' "$work" >hidden-wultfw
chmod 755 hidden-wultfw
cat >cs.cfg <<'CFG'
outdir = "rescs";
experiments = (
  { name = "cs"; source = { plugin = "timer"; cpu = 1; ldist = "100us"; };
    limits = { datapoints = 100; time = "5m"; }; sinks = ( { plugin = "csv"; } );
    cstates = { only = [ "POLL" ]; }; }
);
CFG
remote -H sut2 --sut-wultfw "$work/hidden-wultfw" -c cs.cfg 2>cs.err
expect_status 1 $? "an experiment that fails on the SUT"
expect_in cs.err "sut2: failed: experiment 'cs': cs.cfg:5: experiments[0].cstates.only: CPU 1 has no cpuidle states" \
	"the SUT's error at the controller's file:line"
[ -z "$(ls sutdir 2>/dev/null)" ] && ok "nothing left on the SUT" || fail "left on the SUT: $(ls sutdir)"

# scan -H runs the SUT's scan.
"$WULTFW" scan $ropts -H sut1 --sut-wultfw "$work/sut-wultfw" >scan.out 2>scan.err
expect_status 0 $? "scan -H"
expect_in scan.out "timer" "scan -H lists the SUT's sources"
"$WULTFW" scan --ssh-config "$work/ssh_config" -H badauth >/dev/null 2>scanbad.err
expect_status 1 $? "scan -H with failing authentication"
expect_in scanbad.err "badauth: cannot connect" "names the host"

# wait_for FILE-GLOB: until it exists (a bound, not a timing check).
wait_for() {
	wait_until sh -c "ls $1 >/dev/null 2>&1"
}
# sut_rows SUT: the SUT's running long run has written a datapoint.
sut_rows() {
	has_rows "$(ls -d "sutdir/run-"*"-$1" | tail -1)/out/long/datapoints.csv" 1
}
# sut_pid SUT: the pid of that SUT's run (a sutdir/run-*-SUT/pid).
sut_pid() {
	cat "$(ls -d "sutdir/run-"*"-$1" | tail -1)/pid"
}

# kill_tree PID: the sshd process and its sshd descendants, by id: the
# connection dies. Shells below them are left to end on the hangup, so a
# login script is never killed halfway (a pyenv rehash killed -9 leaves a
# lock that makes every later login wait a minute).
kill_tree() {
	for c in $(pgrep -P "$1"); do kill_tree "$c"; done
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = sshd ] && kill -9 "$1" 2>/dev/null
	return 0
}

# The connection dies mid-run: the run goes on without its controller
# (stopped here by SIGINT once that is seen); fetch collects it.
"$WULTFW" $ropts -H sut3 --sut-wultfw "$work/sut-wultfw" -o reslost -c long.cfg 2>lost.err &
ctl=$!
wait_for "sutdir/run-*-sut3/out/long/datapoints.csv" || fail "the SUT run did not start"
kill_tree "$(cat sshd-sut3.pid)"
wait_bounded $ctl 300
expect_status 1 $? "controller gives up on a lost connection"
expect_in lost.err "sut3: detached: lost the connection" "says the connection was lost"
expect_in lost.err "collect it later with 'wultfw fetch -H sut3'" "and how to collect the run"
wait_until sut_rows sut3 && kill -0 "$(sut_pid sut3)" 2>/dev/null &&
	ok "the SUT run goes on without its controller" || fail "the SUT run did not go on"
fetch -H sut3 -o reslost 2>fetch-down.err
expect_status 1 $? "fetch while the SUT is unreachable"
expect_in fetch-down.err "sut3: cannot connect" "fetch names the host"
kill -INT "$(sut_pid sut3)"
wait_for "sutdir/run-*-sut3/rc" || fail "the SUT run did not stop on SIGINT"
sshd_start sut3 127.0.0.4 "$port3" || fail "sshd 3 does not start again"
fetch -H sut3 -o reslost 2>fetch.err
expect_status 0 $? "fetch after the SUT is back"
expect_in reslost/sut3/long/info.yml "status: 'interrupted'" "fetched the whole result"
expect_in fetch.err "sut3: fetched reslost/sut3/long" "fetch says what it brought back"
n=$(rows reslost/sut3/long/datapoints.csv)
[ "$n" -gt 0 ] && expect_in reslost/sut3/long/info.yml "datapoints: $n" "nothing lost ($n datapoints)"
fetch -H sut3 -o reslost 2>fetch2.err
expect_status 0 $? "fetch again"
expect_in fetch2.err "sut3: no runs in" "nothing left to fetch"

# fetch says which runs are still going on; a second run is refused. The
# run goes on until Ctrl-C on its controller, which still collects it.
"$WULTFW" $ropts -H sut4 --sut-wultfw "$work/sut-wultfw" -o resrun -c long.cfg 2>running.ctl &
ctl=$!
wait_for "sutdir/run-*-sut4/out/long" || fail "the SUT run did not start"
fetch -H sut4 -o resrun 2>running.err
expect_in running.err "is still running (experiments begun: long" "fetch lists a running run"
remote -H sut4 --sut-wultfw "$work/sut-wultfw" -o resbusy -c exp.cfg 2>busy.err
expect_status 1 $? "no second run on a busy SUT"
expect_in busy.err "sut4: failed: a run is still going on on the SUT in" "says why"
wait_until sut_rows sut4 || fail "no datapoint from sut4 in 120 s"
kill -INT $ctl
wait_bounded $ctl 300
expect_status 130 $? "Ctrl-C: the controller still collects it"
expect_in resrun/sut4/long/info.yml "status: 'interrupted'" "sut4 stopped cleanly"

# Ctrl-C on the controller stops every SUT cleanly and brings back the
# data: sent once both SUTs have written a datapoint.
"$WULTFW" $ropts -H sut1,sut2 --sut-wultfw "$work/sut-wultfw" -o resint -c long.cfg 2>int.err &
ctl=$!
wait_until sut_rows sut1 && wait_until sut_rows sut2 ||
	fail "the SUT runs wrote no datapoint in 120 s"
kill -INT $ctl
wait_bounded $ctl 300
expect_status 130 $? "Ctrl-C: exit status 130"
for n in 1 2; do
	expect_in "resint/sut$n/long/info.yml" "status: 'interrupted'" "sut$n stopped cleanly"
	[ "$(rows "resint/sut$n/long/datapoints.csv")" -gt 0 ] && ok "sut$n: what was measured came back" ||
		fail "sut$n: no datapoints"
done
expect_in int.err "sut1: interrupted: stopped; what was measured is in" "the summary says interrupted"

# A SUT whose run crossed stop_above (testspike, a test plugin of this
# build, injects the crossing at datapoint 7): "stopped above", its
# results whole, exit status 6 as on one machine.
spikes="$top/tests/plugins"
if [ -f "$spikes/.libs/testspike.so" ]; then
	cat >sut-spike <<W
#!/bin/sh
WULTFW_PLUGIN_PATH='$WULTFW_PLUGIN_PATH:$spikes' exec '$WULTFW' "\$@"
W
	chmod 755 sut-spike
	cat >spike.cfg <<'CFG'
outdir = "res";
experiments = (
  { name = "spike";
    source = { plugin = "testspike"; cpu = 0; delay = "1ms"; spike = "1ms"; spike_at = 7; stop_above = "500us"; };
    limits = { time = "5m"; }; sinks = ( { plugin = "csv"; } ); }
);
CFG
	WULTFW_PLUGIN_PATH="$WULTFW_PLUGIN_PATH:$spikes" \
		"$WULTFW" $ropts -H sut2 --sut-wultfw "$work/sut-spike" -o resspike -c spike.cfg >spike.out 2>spike.err
	expect_status 6 $? "a SUT stopped by stop_above: exit status 6, as on one machine"
	expect_in spike.err "sut2: stopped above" "the SUT is said to have stopped above"
	expect_status 7 "$(rows resspike/sut2/spike/datapoints.csv)" "its 7 datapoints up to the crossing came back"
	expect_in resspike/sut2/spike/info.yml "status: 'stopped'" "its info.yml says stopped"
	expect_in resspike/sut2/spike/info.yml "stopped_by: 'stop_above: CPU 0: WakeLatency" "and by what"
else
	skip_part "stop_above over ssh: no $spikes/.libs/testspike.so to deploy (make check builds it)"
fi

# A full disk on the controller while copying back.
mkdir full
if mount -t tmpfs -o size=32k tmpfs full 2>/dev/null; then
	remote -H sut4 --sut-wultfw "$work/sut-wultfw" -o full -c big.cfg 2>full.err
	expect_status 1 $? "full disk while copying back"
	expect_in full.err "No space left on device" "says the disk is full"
	expect_in full.err "the SUT keeps them in" "says the SUT keeps the results"
	[ ! -e full/sut4/big ] && ok "no half result on the controller" || fail "full/sut4/big exists"
	[ "$(rows sutdir/run-*-sut4/out/big/datapoints.csv)" = 5000 ] &&
		ok "the SUT's copy is whole" || fail "the SUT's copy is not whole"
	umount full
	fetch -H sut4 -o full 2>fullfetch.err
	expect_status 0 $? "fetch once there is room"
	[ "$(rows full/sut4/big/datapoints.csv)" = 5000 ] && ok "all 5000 datapoints arrived" ||
		fail "after fetch: $(cat fullfetch.err)"
else
	skip_part "the full-disk case: cannot mount a tmpfs here"
fi
finish
