#!/bin/sh
# Hostile input files that once crashed a reader (tests/data/regress/, some
# found by the fuzz targets in tests/fuzz/) run through the real binary: each
# must end with an ordinary exit status (0 or a one-line error), never a
# signal, and, in a sanitized build, with no sanitizer report. Result files
# go through wultfw calc, experiment files through wultfw --check -c. A file
# FILE.expect next to one holds text its error output must contain (for
# inputs that were once accepted though they should not have been).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# check_file FILE COMMAND...: run COMMAND on FILE and judge how it ended.
check_file() {
	f=$1
	shift
	"$@" "$f" >out 2>err
	st=$?
	name=${f#"$srcdir"/}
	if [ "$st" -ge 128 ]; then
		fail "$* $name: killed by signal $((st - 128))"
	elif grep -qE 'Sanitizer|runtime error:' err; then
		fail "$* $name: sanitizer report:"; head -20 err | sed 's/^/    /'
	elif [ -f "$f.expect" ] && ! grep -qF -- "$(cat "$f.expect")" err; then
		fail "$* $name: exit status $st, expected '$(cat "$f.expect")' in:"
		head -5 err | sed 's/^/    /'
	else
		ok "$* $name: exit status $st"
	fi
}

n=0
for f in "$srcdir"/tests/data/regress/*.csv "$srcdir"/tests/data/regress/*.wfb; do
	[ -e "$f" ] || continue
	check_file "$f" "$WULTFW" calc
	n=$((n + 1))
done
for f in "$srcdir"/tests/data/regress/*.cfg; do
	[ -e "$f" ] || continue
	check_file "$f" "$WULTFW" --check -c
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no regression files in tests/data/regress"
finish
