# Shared by the integration tests: run the real binary from the build tree.
# shellcheck shell=sh
set -u
top=${abs_top_builddir:?run through make check}
srcdir=${abs_top_srcdir:?run through make check}
WULTFW="$top/wultfw"
work=$(mktemp -d "${TMPDIR:-/tmp}/wultfw-it-XXXXXX")
trap 'rm -rf "$work"' EXIT
# The harness stops a test at its bound with TERM (tests/run-bounded.sh),
# and passes on make's Ctrl-C: exit through the EXIT trap, which cleans up
# (and stops what the test started outside its session).
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP
failures=0
skipped=

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

ok() {
	echo "ok: $*"
}

# expect_in FILE TEXT WHAT: FILE contains TEXT (fixed string).
expect_in() {
	if grep -qF -- "$2" "$1" 2>/dev/null; then ok "$3"; else
		fail "$3: '$2' not in $1:"; sed 's/^/    /' "$1" 2>/dev/null | head -20
	fi
}

# expect_status WANT GOT WHAT
# expect_status WANT GOT WHAT [FILE]: on a mismatch, FILE's tail (the
# command's stderr) goes to the log, to say why.
expect_status() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		fail "$3: exit status $2, expected $1"
		[ -z "${4:-}" ] || tail -20 "$4" | sed 's/^/    /'
	fi
}

# skip_part WHY: a part of the test this machine cannot do, or could not
# now (WHY names what it lacks, from the tool's own words or counters).
# The other parts go on; the test ends in SKIP naming every such part,
# unless a check failed.
skip_part() {
	echo "skipped: $*"
	skipped="${skipped:+$skipped; }$*"
}

# wait_until CMD...: run CMD every 0.1 s until it succeeds, at most 120 s
# (counted by the clock: on a loaded machine CMD itself takes time).
# For waiting on a background run instead of sleeping a guessed time: a
# loaded machine can take seconds to start one; the bound is for a hang.
wait_until() {
	_end=$(($(date +%s) + 120))
	until "$@"; do
		[ "$(date +%s)" -lt $_end ] || return 1
		sleep 0.1
	done
}

# wait_bounded PID SECONDS: wait for the background PID to end, at most
# SECONDS; its exit status, or 124 after stopping it (TERM, then KILL)
# when it runs longer: a run that ignores the signal it was sent.
wait_bounded() {
	_end=$(($(date +%s) + $2))
	while kill -0 "$1" 2>/dev/null && [ "$(date +%s)" -lt $_end ]; do
		sleep 0.1
	done
	if kill -0 "$1" 2>/dev/null; then
		kill "$1"; sleep 2; kill -9 "$1" 2>/dev/null
		wait "$1"
		return 124
	fi
	wait "$1"
}

# hrt_busy DIR: when hrt's own counters in DIR/info.yml show why the run
# got few datapoints, its CPU busy (each timer that found the CPU idle
# made a datapoint or a counted drop, give or take the few in flight when
# the run stopped), print that in one line and succeed. Fail when its
# timers found the CPU idle and datapoints went missing: that is a bug,
# not the machine.
hrt_busy() {
	_hi="$1/info.yml"
	[ -f "$_hi" ] || return 1
	_hsum() { sed -n "s/^$1: '*\([0-9]*\)'*\$/\1/p" "$_hi" | awk '{ s += $1 } END { print s + 0 }'; }
	_armed=$(_hsum hrt_timers_armed)
	_busy=$(_hsum hrt_busy_at_launch)
	_entries=$(_hsum 'hrt_idle_entries_state[0-9]*')
	_dropped=$(_hsum 'hrt_dropped_[a-z_]*')
	_rows=$(_hsum datapoints)
	grep -q '^hrt_timers_armed: ' "$_hi" || return 1
	[ $((_armed - _busy - _dropped - _rows)) -le 3 ] || return 1
	_s=$(sed -n "s/^duration: '*\([0-9.]*\).*/\1/p" "$_hi")
	if [ "$_entries" = 0 ]; then
		echo "CPU $(_hsum cpu) never idle: in $_s s hrt saw no idle entry of it"
	else
		echo "CPU $(_hsum cpu) hardly idle: in $_s s hrt saw $_entries idle entries, its timers found it idle $((_armed - _busy)) times ($_armed armed, $_busy found it busy): $_rows datapoints"
	fi
}

# has_rows FILE N: FILE exists and has N lines or more after its header.
has_rows() {
	[ -f "$1" ] && [ $(($(wc -l <"$1") - 1)) -ge "$2" ]
}

# data_as_csv DIR OUT: DIR's data file (datapoints.wfb or .csv) as CSV in OUT.
data_as_csv() {
	if [ -f "$1/datapoints.wfb" ]; then
		"$WULTFW" convert "$1/datapoints.wfb" -o "$2" 2>/dev/null
	else
		cp "$1/datapoints.csv" "$2"
	fi
}

finish() {
	if [ "$failures" -gt 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	if [ -n "$skipped" ]; then
		echo "SKIP: $skipped (the other checks passed)"
		exit 77
	fi
	exit 0
}
