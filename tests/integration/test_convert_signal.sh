#!/bin/sh
# wultfw convert stopped by SIGINT or SIGTERM on each of its paths: exit
# 128+N, one line saying how many rows went where, and an output of whole
# rows (blocks) holding the input's first rows, which calc and convert
# read as they are (a binary header gets the names seen so far). With
# --force the old OUT is kept and the new rows stay beside it.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# 2 M rows; the name C10 first seen at row 20000 (after the first rows).
awk 'BEGIN {
	srand(7);
	split("POLL C1 C6", cs, " ");
	print "Idx,WakeLatency,LDist,ReqCState,SMICnt";
	for (i = 0; i < 2000000; i++)
		printf "%d,%.3f,%.3f,%s,%d\n", i, 1 + rand() * 200, 10 + rand() * 4000,
			(i >= 20000 && i % 5 == 0) ? "C10" : cs[1 + i % 3], i % 7;
}' >raw.csv
"$WULTFW" convert raw.csv -o raw.wfb 2>/dev/null
expect_status 0 $? "the binary twin of 2 M rows"

# grown FILE: FILE holds more than 1 MiB (more than a first buffer).
grown() {
	s=$(stat -c %s "$1" 2>/dev/null)
	[ "${s:-0}" -gt 1048576 ]
}

# interrupt NAME SIG STATUS IN OUT WRITTEN [OPTION...]: convert IN to OUT,
# stopped by SIG once WRITTEN (OUT, or where --force writes it) grew.
interrupt() {
	name=$1 sig=$2 want=$3 in=$4 out=$5 written=$6; shift 6
	"$WULTFW" convert "$in" -o "$out" "$@" 2>"$name.err" &
	pid=$!
	until grown $written || ! kill -0 $pid 2>/dev/null; do
		sleep 0.01
	done
	kill -"$sig" $pid 2>/dev/null
	wait $pid
	st=$?
	if [ $st = 0 ]; then
		echo "SKIP: $name: convert ended before SIG$sig reached it"
		return 1
	fi
	expect_status "$want" $st "$name: SIG$sig exits $want"
	expect_in "$name.err" "interrupted by SIG$sig: the first " "$name: one line says so"
	rows=$(sed -n 's/.*interrupted by SIG[A-Z]*: the first \([0-9]*\) rows.*/\1/p' "$name.err")
	[ "${rows:-0}" -gt 0 ] && [ "$rows" -lt 2000000 ] && ok "$name: $rows rows said" ||
		fail "$name: rows said: '$rows'"
}

# first NAME FILE: FILE holds the first $rows rows of raw.csv, as calc
# and convert read it.
first() {
	n=$("$WULTFW" calc -m Idx -f count "$2" 2>"$1.calc" | awk '$1 == "Idx" { print $2 }')
	[ "$n" = "$rows" ] && [ ! -s "$1.calc" ] && ok "$1: calc reads its $rows rows" ||
		{ fail "$1: calc reads '$n' rows, said $rows"; cat "$1.calc"; }
	case $2 in
	*.wfb) "$WULTFW" convert "$2" -o "$1.back.csv" 2>/dev/null ;;
	*) cp "$2" "$1.back.csv" ;;
	esac
	head -n $((rows + 1)) raw.csv | cmp -s - "$1.back.csv" &&
		ok "$1: the input's first rows, byte for byte" || fail "$1: not the input's first rows"
}

interrupt tobin INT 130 raw.csv tobin.wfb tobin.wfb -j 2 && first tobin tobin.wfb
interrupt tobin1 INT 130 raw.csv tobin1.wfb tobin1.wfb -j 1 && first tobin1 tobin1.wfb
interrupt tocsv TERM 143 raw.wfb tocsv.csv tocsv.csv -j 2 && first tocsv tocsv.csv
interrupt tocsv1 INT 130 raw.wfb tocsv1.csv tocsv1.csv -j 1 && first tocsv1 tocsv1.csv

# --force over an old file: it stays; the new rows beside it.
echo old >old.csv
if interrupt force INT 130 raw.wfb old.csv "old.csv.partial-*" --force; then
	[ "$(cat old.csv)" = old ] && ok "force: the old OUT kept" || fail "force: old.csv replaced"
	expect_in force.err "old.csv left as it was" "force: says so"
	set -- old.csv.partial-*
	[ -f "$1" ] && first force "$1" || fail "force: no partial file beside it"
fi
finish
