#!/bin/sh
# calc -g with a misspelt text column ("ReqCstate"): the
# one-line error gives the right spelling; a name like none gives none.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

printf 'WakeLatency,ReqCState,LDist\n1.5,POLL,10\n2.5,C1,20\n' >r.csv

# calc ARGS...: into out, within 60 s.
calc() {
	"$WULTFW" calc "$@" >out 2>&1 &
	wait_bounded $! 60
}
calc -g ReqCstate r.csv
expect_status 1 $? "calc -g ReqCstate fails"
expect_in out "no text column 'ReqCstate' to group by (did you mean 'ReqCState'?); it has: ReqCState" \
	"calc -g ReqCstate: did you mean ReqCState"
calc -g Grp r.csv
expect_status 1 $? "calc -g Grp fails"
if grep -q "did you mean" out; then fail "a suggestion for a name like none:"; cat out
else expect_in out "no text column 'Grp' to group by; it has: ReqCState" "calc -g Grp: the columns, no guess"; fi
finish
