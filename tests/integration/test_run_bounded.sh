#!/bin/sh
# tests/run-bounded.sh's test lock (doc/testing.md, "A test that needs the
# machine alone"): a test marked "# wultfw-test: alone" runs while no other
# test does and is told so; a test beside it waits for it; a bounded wait
# ends in a run that is told why it is not alone; the test's processes do
# not hold the lock; a test inside a test takes none. Fake tests against a
# lock file of this test's own, ordered by files, not by sleeping.
. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"
cd "$work" || exit 1
rb="$srcdir/tests/run-bounded.sh"
export WULTFW_TEST_LOCK="$work/lock"

# fake NAME ALONE: a test that writes what it was told and whether the
# lock's fd reached it, then waits (at most 60 s) for NAME.go.
fake() {
	{
		echo '#!/bin/sh'
		[ "$2" = alone ] && echo '# wultfw-test: alone'
		echo "n=$work/$1"
		echo 'echo "alone=${WULTFW_TEST_ALONE-unset} fd9=$([ -e /proc/$$/fd/9 ] && echo open || echo closed) a_ended=$([ -e '"$work"'/a.ended ] && echo yes || echo no)" >$n.said'
		echo 'i=0; while [ ! -e $n.go ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done'
		echo '[ -e $n.go ] || exit 1; touch $n.ended'
	} >"$1"
	chmod +x "$1"
}
# rb NAME [VAR=VALUE...]: NAME through run-bounded.sh as make runs it,
# outside this test (which holds the real lock shared), in the background.
rb() {
	_n=$1
	shift
	env -u WULTFW_TEST_LOCK_HELD -u WULTFW_TEST_ALONE "$@" sh "$rb" 120 "./$_n" >"$_n.out" 2>&1 &
}
said() { [ -e "$1.said" ]; }

fake a alone
fake b shared
rb a
apid=$!
wait_until said a || fail "the alone test never ran"
expect_in a.said "alone=yes fd9=closed" "the alone test is told it is alone; the lock's fd is not its"
rb b
bpid=$!
# b must not start before a ends (if it did, b.said says so below too).
sleep 1
[ ! -e b.said ] && ok "a test beside it waits" || fail "a test started while the alone test ran"
touch a.go
wait_bounded $apid 60
expect_status 0 $? "the alone test ends"
touch b.go
wait_bounded $bpid 60
expect_status 0 $? "the test beside it ran after"
expect_in b.said "alone=unset fd9=closed a_ended=yes" "a shared test started after the alone one ended, is told nothing, holds no fd of the lock"

# A bounded wait: the lock held shared here, an alone test waits 1 s.
fake c alone
touch c.go
exec 8<"$WULTFW_TEST_LOCK"
flock -s 8
rb c WULTFW_TEST_LOCK_WAIT=1
wait_bounded $! 60
expect_status 0 $? "an alone test that could not take the lock still runs"
expect_in c.said "alone=no: other tests held $WULTFW_TEST_LOCK for 1 s (WULTFW_TEST_LOCK_WAIT)" \
	"it is told why it is not alone"
expect_in c.out "held by other tests for 1 s" "run-bounded.sh says it in the log"
exec 8<&-

# Inside a test: no lock, and an alone test is told why.
fake d alone
touch d.go
rb d WULTFW_TEST_LOCK_HELD=1
wait_bounded $! 60
expect_in d.said "alone=no: run inside another test" "a test inside a test takes no lock"
finish
