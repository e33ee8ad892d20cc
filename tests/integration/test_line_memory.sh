#!/bin/sh
# Every reader's memory is bounded by the 1 MiB line limit (issue 29): a
# file with one 100 MB line is refused by calc, report, convert and filter,
# on one thread and in parts (-j 2, where calc reached 106 MB), and the
# peak RSS, measured by /usr/bin/time -v, stays under 32 MB. Also a 100 MB
# last line without its newline (was 200-340 MB), a megabyte of commas and
# a 100 MB info.yml. Memory, not time: nothing here judges how fast.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1
LIMIT_KB=32768

if ! /usr/bin/time -v true >/dev/null 2>&1; then
	echo "SKIP: no /usr/bin/time -v here (Debian package time) to measure the peak RSS"
	exit 77
fi

# 100 MB of the byte $1 (no newline).
hundred_mb() {
	head -c 100000000 /dev/zero | tr '\0' "$1"
}

{ printf 'WakeLatency,LDist\n1,2\n'; hundred_mb 1; printf ',2\n3,4\n'; } >line3.csv
{ printf 'WakeLatency,LDist\n1,2\n'; hundred_mb 1; } >tail.csv
{ printf 'WakeLatency,LDist\n1,2\n'; hundred_mb ,; printf '\n'; } >commas.csv

# peak WHAT TEXT CMD...: CMD fails with TEXT on stderr, its peak RSS under the limit.
peak() {
	what=$1 text=$2
	shift 2
	timeout 300 /usr/bin/time -v "$@" >out 2>err
	st=$?
	kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' err)
	if [ "$st" = 124 ]; then fail "$what: still running after 300 s"; return; fi
	expect_in err "$text" "$what: refused"
	if [ -z "$kb" ]; then fail "$what: no peak RSS from /usr/bin/time"
	elif [ "$kb" -lt $LIMIT_KB ]; then ok "$what: peak RSS $kb KB"
	else fail "$what: peak RSS $kb KB, the bound is $LIMIT_KB KB"; fi
}

long="the line is longer than 1048576 bytes (the limit)"
for f in line3 tail commas; do
	peak "calc $f.csv" "$f.csv:3: $long" "$WULTFW" calc "$f.csv"
	peak "calc -j 2 $f.csv" "$f.csv:3: $long" "$WULTFW" calc -j 2 "$f.csv"
	peak "report -j 2 $f.csv" "$f.csv:3: $long" "$WULTFW" report -j 2 -o "r-$f" "$f.csv"
	peak "convert -j 2 $f.csv" "$f.csv:3: $long" "$WULTFW" convert -j 2 "$f.csv" -o "$f.wfb"
	peak "filter -j 2 $f.csv" "$f.csv:3: $long" "$WULTFW" filter -j 2 "$f.csv" -o "f-$f"
done
rm -f line3.csv tail.csv commas.csv

# A 100 MB info.yml: ignored by calc and report, refused by filter.
mkdir res
printf 'WakeLatency,LDist\n1,2\n' >res/datapoints.csv
{ printf 'reportid: '; hundred_mb x; printf '\n'; } >res/info.yml
big="info.yml: larger than 1048576 bytes, the limit"
timeout 120 "$WULTFW" calc res >out 2>err
expect_status 0 $? "calc with a 100 MB info.yml"
peak "calc's warning" "$big" "$WULTFW" calc -F json res
peak "filter" "$big" "$WULTFW" filter res -o f-res
if [ -e f-res ]; then fail "filter left f-res behind"; else ok "filter wrote nothing"; fi
finish
