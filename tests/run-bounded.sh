#!/bin/sh
# The harness's bound per test (tests/local.mk runs every test through it):
# run TEST in a session of its own; should it still run after BOUND
# seconds, stop every process of that session (TERM, then KILL 10 s later)
# and fail it with one line naming the test and the bound. Otherwise the
# test's own exit status. Whatever the test leaves running in its session
# is stopped too, and said. Processes a test puts in sessions of their own
# (test_remote's SUT runs, started with setsid by the tool) are that test's
# to stop, in its EXIT trap, which lib.sh makes run on TERM.
# Usage: run-bounded.sh BOUND TEST [ARGS...]
#
# Tests that need the machine to themselves (test_attrib.sh's quiet part:
# anything else running on CPU 1 is attributed, not idle exit) say so with
# the line "# wultfw-test: alone" in their first 4 KiB. Every test holds
# the test lock (WULTFW_TEST_LOCK, /tmp/wultfw-tests.lock: all trees of
# this machine) while it runs: shared, or exclusive for those. The wait is
# bounded (WULTFW_TEST_LOCK_WAIT seconds, 900); after it a test runs
# anyway, saying so here, and WULTFW_TEST_ALONE tells it: "yes" when it
# holds the lock exclusively, else why not. Each test holds this one lock
# only, and its processes do not inherit it; a test run inside another
# (WULTFW_TEST_LOCK_HELD set) takes none.
bound=${1:?usage: run-bounded.sh BOUND TEST [ARGS...]}
shift
test=${1:?usage: run-bounded.sh BOUND TEST [ARGS...]}

lock=${WULTFW_TEST_LOCK:-/tmp/wultfw-tests.lock}
lock_wait=${WULTFW_TEST_LOCK_WAIT:-900}
mode=-s
if head -c 4096 "$test" 2>/dev/null | grep -q '^# wultfw-test: alone$'; then
	mode=-x
	WULTFW_TEST_ALONE="no: $lock not taken"
fi
if [ -n "${WULTFW_TEST_LOCK_HELD:-}" ]; then
	WULTFW_TEST_ALONE="no: run inside another test, which holds $lock"
elif ! command -v flock >/dev/null; then
	echo "run-bounded.sh: no flock(1): $test runs beside any other test"
	WULTFW_TEST_ALONE="no: no flock(1) to take $lock with"
elif ! { [ -e "$lock" ] || : >>"$lock"; } 2>/dev/null || [ ! -f "$lock" ] || [ ! -r "$lock" ]; then
	echo "run-bounded.sh: cannot read $lock: $test runs beside any other test"
	WULTFW_TEST_ALONE="no: cannot read $lock"
else
	exec 9<"$lock"
	_t0=$(date +%s)
	if flock $mode -w "$lock_wait" 9; then
		[ $mode = -x ] && WULTFW_TEST_ALONE=yes
		_w=$(($(date +%s) - _t0))
		[ $_w -lt 10 ] || echo "run-bounded.sh: waited $_w s for $lock"
	else
		echo "run-bounded.sh: $lock held by other tests for $lock_wait s (WULTFW_TEST_LOCK_WAIT): $test runs without it"
		WULTFW_TEST_ALONE="no: other tests held $lock for $lock_wait s (WULTFW_TEST_LOCK_WAIT)"
	fi
	WULTFW_TEST_LOCK_HELD=1
	export WULTFW_TEST_LOCK_HELD
fi
[ $mode = -x ] && export WULTFW_TEST_ALONE

# A background child of a shell without job control is no process group
# leader, so setsid(1) makes the session in place: its id is $!. Such a
# child starts with SIGINT and SIGQUIT ignored, which a shell script cannot
# undo: env gives the test their defaults, as when make runs it directly.
t_start=$(date +%s)
env --default-signal=INT,QUIT setsid "$@" 9<&- &
sid=$!

# members: the live processes still in the test's session (zombies are
# their parents' to reap), one "pid command" a line.
members() {
	ps -e -o sid=,stat=,pid=,args= |
		awk -v s="$sid" '$1 == s && $2 !~ /^Z/ { $1 = $2 = ""; print substr($0, 3) }'
}

# stop_session SIG: SIG to the session, then up to 10 s for it to empty,
# then KILL to whatever is left.
stop_session() {
	pkill "-$1" -s "$sid" 2>/dev/null
	_end=$(($(date +%s) + 10))
	while [ -n "$(members)" ] && [ "$(date +%s)" -lt $_end ]; do
		sleep 0.2
	done
	pkill -KILL -s "$sid" 2>/dev/null
}

# make's Ctrl-C reaches this process group only: pass it on.
trap 'stop_session INT; kill "$watch" 2>/dev/null; exit 130' INT
trap 'stop_session TERM; kill "$watch" 2>/dev/null; exit 143' TERM
trap 'stop_session HUP; kill "$watch" 2>/dev/null; exit 129' HUP

# The watchdog: ALRM to this shell after BOUND seconds; its sleep goes
# with it when the test ends first.
expired=
trap 'expired=1' ALRM
(
	trap 'kill "$s" 2>/dev/null; exit 0' TERM
	sleep "$bound" & s=$!
	wait "$s" && kill -ALRM $$
) &
watch=$!

wait "$sid"
st=$?
if [ -n "$expired" ]; then
	echo "FAIL: $test: still running after $bound s, the bound per test (TEST_BOUND); stopped with every process of its session"
	echo "run-bounded.sh: what ran then:"
	members | sed 's/^/    /'
	stop_session TERM
	wait "$sid"
	st=1
fi
kill "$watch" 2>/dev/null
# Its time, for finding what makes check-all long (doc/testing.md).
echo "run-bounded.sh: $test ran $(($(date +%s) - t_start)) s"
left=$(members)
if [ -n "$left" ]; then
	echo "run-bounded.sh: $test left these running; stopped them:"
	echo "$left" | sed 's/^/    /'
	stop_session TERM
fi
exit $st
