#!/bin/sh
# convert of a CSV file to binary with -j N parses the file in chunks on N
# threads (tools/csv2bin_par.c): the file is byte for byte -j 1's,
# text columns numbered in file order. Where a chunk cannot be read alone
# (a quoted field, a column changing its type, a bad row) the output is
# cut back to its header and one reader converts the file, with -j 1's
# messages and errors.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# wult-like rows; ReqCState's names come in a different order in every
# chunk, a new one ("C10") only near the end, some cells empty.
wultlike() {	# ROWS
	awk -v n="$1" 'BEGIN {
		srand(7);
		split("POLL C1 C1E C6", cs, " ");
		print "WakeLatency,SilentTime,IntrLatency,IntrOff,LDist,ReqCState,CC0%,CC1%,PC6%,SMICnt";
		for (i = 0; i < n; i++) {
			wl = 1 + rand() * 400;
			c = i > n - 300 && i % 7 == 0 ? "C10" : i % 97 ? cs[1 + int(rand() * 4)] : "";
			printf "%.3f,%.3f,%s,%d,%.3f,%s,%.2f,%.3f,%.2f,%d\n", wl, 2000 + rand() * 2000,
				i % 101 ? sprintf("%.3f", wl * 0.9) : "", rand() < 0.5,
				10 + rand() * 3990, c, rand() * 100, rand() * 100, rand() * 10,
				rand() < 0.01;
		}
	}'
}

# conv NAME INPUT J [OPTION...]: convert with -j J into NAME.jJ.wfb; its
# messages with the output named OUT in NAME.jJ.msg, its status in NAME.jJ.st.
conv() {
	name=$1; in=$2; j=$3; shift 3
	"$WULTFW" convert -j "$j" "$@" "$in" -o "$name.j$j.wfb" 2>"$name.j$j.err"
	echo $? >"$name.j$j.st"
	sed "s/$name\.j$j\.wfb/OUT/" "$name.j$j.err" >"$name.j$j.msg"
}

# same_as_j1 NAME INPUT: -j 2 and -j 3 write -j 1's file, messages, status.
same_as_j1() {
	for j in 1 2 3; do conv "$1" "$2" $j; done
	for j in 2 3; do
		cmp -s "$1.j1.st" "$1.j$j.st" && cmp -s "$1.j1.msg" "$1.j$j.msg" &&
			{ [ "$(cat "$1.j1.st")" != 0 ] || cmp -s "$1.j1.wfb" "$1.j$j.wfb"; } &&
			ok "convert -j $j writes what -j 1 writes: $1" ||
			{ fail "convert -j $j differs from -j 1: $1"; cat "$1.j1.err" "$1.j$j.err"; }
	done
}

# Whether -j 3 kept what its chunks wrote: CUT when the output was cut back
# to its header for one reader, else the readers that opened INPUT.
how_read() {	# INPUT
	strace -f -qq -e trace=openat,ftruncate -o trace "$WULTFW" convert -j 3 -f \
		"$1" -o how.wfb 2>/dev/null
	if grep -q ftruncate trace; then echo CUT; else grep -c "\"$1\"" trace; fi
}
have_strace=false
command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null && have_strace=true
$have_strace || skip_part "whether -j 3 kept its chunks: no working strace (Debian package strace)"

# expect_chunked WHAT INPUT: -j 3 kept the conversion its chunks made.
expect_chunked() {
	$have_strace || return 0
	n=$(how_read "$2")
	[ "$n" != CUT ] && [ "$n" -gt 3 ] && ok "$1: read in chunks ($n readers)" ||
		fail "$1: not kept from chunks: $n"
}

wultlike 60000 >w.csv
same_as_j1 wult w.csv
"$WULTFW" convert wult.j3.wfb -o w3.back.csv 2>/dev/null
cmp -s w.csv w3.back.csv && ok "-j 3's file back to CSV: the CSV byte for byte" ||
	fail "-j 3's file back to CSV differs from the CSV"
"$WULTFW" calc -c -F csv -f count,min,max -m LDist wult.j3.wfb >calc3 2>/dev/null
"$WULTFW" calc -c -F csv -f count,min,max -m LDist w.csv >calcc 2>/dev/null
[ -s calcc ] && cmp -s calcc calc3 && ok "calc -c of -j 3's file: the CSV's per C-state" ||
	{ fail "calc -c of -j 3's file differs"; diff calcc calc3 | head; }
expect_chunked "-j 3" w.csv

# CRLF line ends.
sed 's/$/\r/' w.csv >crlf.csv
same_as_j1 crlf crlf.csv
expect_chunked CRLF crlf.csv

# A quoted field late in the file.
awk 'NR == 50000 { sub(/,C[0-9E]*,|,POLL,|,,/, ",\"C1,x\","); } { print }' w.csv >quoted.csv
same_as_j1 quoted quoted.csv
# SilentTime turns from INT (3 decimals) to FLOAT late; -j 1 says so and reads again.
awk -F, -v OFS=, 'NR == 55000 { $2 = "2.5e3" } { print }' w.csv >tofloat.csv
same_as_j1 tofloat tofloat.csv
expect_in tofloat.j3.err "column types changed after the first rows (SilentTime: numbers with 3 decimals, then numbers)" "-j 3: the type change said as -j 1 says it, naming the column"
# A bad row: the same error, no output.
awk 'NR == 40000 { print "1,2,3"; next } { print }' w.csv >badrow.csv
same_as_j1 badrow badrow.csv
expect_in badrow.j3.err "badrow.csv:40000: 3 fields, the header has 10 columns" "-j 3: the bad row named by its line"
[ ! -e badrow.j3.wfb ] && ok "-j 3: no output after the bad row" || fail "-j 3 left badrow.j3.wfb behind"
if $have_strace; then
	for f in quoted tofloat badrow; do
		n=$(how_read $f.csv)
		[ "$n" = CUT ] && ok "$f: the chunks' output cut back for one reader" ||
			fail "$f: chunks' output kept ($n)"
	done
fi

# Text names past the first rows that outgrow the room the header kept:
# -j 1 converts again with every row's names; so does -j 3.
awk 'BEGIN { print "A,Name"; for (i = 0; i < 6000; i++) printf "%d,%s\n", i, i < 2000 ? "t" : "name-" i }' >names.csv
same_as_j1 names names.csv
expect_in names.j3.err "more names after the first rows" "-j 3: more names said as -j 1 says it"

# A selection is applied by one reader, as before.
conv sel w.csv 1 --include 'ReqCState == "C6"'
conv sel w.csv 3 --include 'ReqCState == "C6"'
cmp -s sel.j1.wfb sel.j3.wfb && cmp -s sel.j1.msg sel.j3.msg && ok "-j 3 with --include: -j 1's file" ||
	fail "-j 3 with --include differs"

finish
