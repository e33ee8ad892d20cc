# Shared by the integration tests: run the real binary from the build tree.
# shellcheck shell=sh
set -u
top=${abs_top_builddir:?run through make check}
srcdir=${abs_top_srcdir:?run through make check}
WULTFW="$top/wultfw"
work=$(mktemp -d "${TMPDIR:-/tmp}/wultfw-it-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

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
expect_status() {
	if [ "$1" = "$2" ]; then ok "$3"; else fail "$3: exit status $2, expected $1"; fi
}

# wait_until CMD...: run CMD every 0.1 s until it succeeds, at most 120 s.
# For waiting on a background run instead of sleeping a guessed time: a
# loaded machine can take seconds to start one; the bound is for a hang.
wait_until() {
	_w=0
	until "$@"; do
		_w=$((_w + 1)); [ $_w -lt 1200 ] || return 1
		sleep 0.1
	done
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
	exit 0
}
