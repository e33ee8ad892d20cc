#!/bin/sh
# The binary format from the command line: convert both ways byte for byte,
# the binary file at most half the CSV, a flipped byte reported by calc and
# convert with its block and offset (found here by walking the block
# headers with od), --salvage, a file cut short, a version 1 file.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

awk 'BEGIN {
	srand(11);
	split("POLL C1 C1E C6", cs, " ");
	print "WakeLatency,IntrLatency,LDist,ReqCState,CC0%,SMICnt";
	for (i = 0; i < 30000; i++) {
		ld = 10 + rand() * 3990;
		wl = 1 + rand() * 400;
		printf "%.3f,%.3f,%.3f,%s,%.2f,%d\n", wl, wl * 0.9, ld,
			cs[1 + int(rand() * 4)], rand() * 100, rand() < 0.01;
	}
}' >d.csv

"$WULTFW" convert d.csv -o d.wfb 2>err; expect_status 0 $? "convert CSV to binary"
"$WULTFW" convert d.wfb -o back.csv 2>err; expect_status 0 $? "convert binary to CSV"
if cmp -s d.csv back.csv; then ok "CSV -> binary -> CSV byte for byte"; else
	fail "CSV -> binary -> CSV differs"; fi
"$WULTFW" convert -j 1 d.wfb -o back1.csv 2>err; expect_status 0 $? "convert -j 1 (no threads)"
cmp -s d.csv back1.csv && ok "-j 1: byte for byte" || fail "-j 1: binary -> CSV differs"
# Binary to binary: blocks encoded on 3 threads are the blocks of one.
"$WULTFW" convert -j 1 d.wfb -o bb1.wfb 2>err; expect_status 0 $? "convert -j 1 binary to binary"
"$WULTFW" convert -j 3 d.wfb -o bb3.wfb 2>err; expect_status 0 $? "convert -j 3 binary to binary"
cmp -s bb1.wfb bb3.wfb && ok "-j 3 binary -> binary: the bytes of -j 1" ||
	fail "-j 3 binary -> binary differs from -j 1"
csv=$(stat -c %s d.csv); bin=$(stat -c %s d.wfb)
if [ $((2 * bin)) -le "$csv" ]; then ok "binary $bin bytes <= half of CSV $csv"; else
	fail "binary $bin bytes > half of CSV $csv"; fi
"$WULTFW" calc d.wfb >calc.out 2>err; expect_status 0 $? "calc on the binary file"

u32() { od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '; }

# Flip a byte in the middle; the block holding it, from the headers.
size=$bin; flip=$((size / 2))
off=$(u32 d.wfb 16); k=0
while :; do
	next=$((off + 16 + $(u32 d.wfb $((off + 4)))))
	[ "$next" -gt "$flip" ] && break
	off=$next; k=$((k + 1))
done
cp d.wfb bad.wfb
printf '\377' | dd of=bad.wfb bs=1 seek="$flip" conv=notrunc 2>/dev/null
cmp -s d.wfb bad.wfb && printf '\000' | dd of=bad.wfb bs=1 seek="$flip" conv=notrunc 2>/dev/null
"$WULTFW" calc bad.wfb >/dev/null 2>err; st=$?
[ "$st" -ne 0 ] && ok "calc fails on a damaged block" || fail "calc accepted a damaged block"
expect_in err "bad.wfb: block $k at byte $off: checksum mismatch" "calc names block $k at byte $off"
expect_in err "wultfw convert --salvage" "calc says what to do"
"$WULTFW" convert bad.wfb -o bad.csv 2>err; expect_status 1 $? "convert fails on a damaged block"
expect_in err "block $k at byte $off: checksum mismatch" "convert names the block"
[ ! -e bad.csv ] && ok "no half-converted output" || fail "bad.csv left behind"
"$WULTFW" convert -j 3 bad.wfb -o bad.wfb.out --to binary 2>err
expect_status 1 $? "convert -j 3 to binary fails on a damaged block"
expect_in err "block $k at byte $off: checksum mismatch" "and names the block"
[ ! -e bad.wfb.out ] && ok "no half-converted binary output" || fail "bad.wfb.out left behind"
"$WULTFW" convert --salvage bad.wfb -o salv.csv 2>err; expect_status 0 $? "convert --salvage"
expect_in err "1 damaged block skipped (block $k at byte $off: checksum mismatch)" "salvage says what it skipped, and where"
rows=$(($(wc -l <salv.csv) - 1))
if [ "$rows" -gt 0 ] && [ "$rows" -lt 30000 ]; then ok "salvaged $rows of 30000 rows"; else
	fail "salvaged $rows rows"; fi
expect_in err ", $((30000 - rows)) rows lost" "and how many rows were lost"

# Cut short as by kill -9 mid-write: the whole blocks, the rest ignored.
head -c $((size - 100)) d.wfb >cut.wfb
"$WULTFW" calc cut.wfb >/dev/null 2>err; expect_status 0 $? "calc on a file cut short"
expect_in err "ignored" "calc says it ignored the cut block"
"$WULTFW" convert cut.wfb -o cut.csv 2>err; expect_status 0 $? "convert a file cut short"
expect_in err "ignored the last" "convert says it ignored the cut block"
if head -n "$(wc -l <cut.csv)" d.csv | cmp -s - cut.csv; then ok "cut file: its rows are the first rows"; else
	fail "cut file rows differ from the start of the CSV"; fi

# Version 1 files still read.
"$WULTFW" calc "$srcdir/tests/data/binary-v1/datapoints.wfb" >/dev/null 2>err
expect_status 0 $? "calc on a version 1 file"
"$WULTFW" convert "$srcdir/tests/data/binary-v1/datapoints.wfb" -o v1.csv 2>err
if cmp -s v1.csv "$srcdir/tests/data/binary-v1/datapoints.csv"; then ok "version 1 file converts as before"; else
	fail "version 1 file converts differently"; fi
# Parts (calc -j): blocks split among threads, the same statistics (the
# version 1 file holds extremes whose mean and std merge to other roundings).
for f in d.wfb cut.wfb "$srcdir/tests/data/binary-v1/datapoints.wfb"; do
	fn=count,min,max,median,p99,mean,std
	case $f in *v1*) fn=count,min,max,median,p99 ;; esac
	"$WULTFW" calc -f $fn -j 1 -c "$f" >j1.out 2>/dev/null
	"$WULTFW" calc -f $fn -j 3 -c "$f" >j3.out 2>/dev/null
	if [ -s j1.out ] && cmp -s j1.out j3.out; then ok "calc -j 3 = -j 1 on ${f##*/}"; else
		fail "calc -j 3 differs from -j 1 on $f"; fi
done
"$WULTFW" calc -j 2 bad.wfb >/dev/null 2>err; expect_status 1 $? "calc -j 2 fails on a damaged block"
expect_in err "bad.wfb: block $k at byte $off: checksum mismatch" "calc -j 2 names block $k"
# One pass over CSV: types learned from the first rows. Names seen late
# fit the header's spare room; a type that changes late (row 1500 here) or
# thousands of late names make convert to binary start again with the
# types of every row; the CSV writer prints each value by its type then.
awk 'BEGIN { print "WakeLatency,ReqCState";
	for (i = 0; i < 3000; i++) printf "%d.500,C%d\n", i, i < 2000 ? i % 3 : i % 9 }' >names.csv
"$WULTFW" convert names.csv -o names.wfb 2>err; expect_status 0 $? "convert with late names"
grep -q again err && fail "late names did not fit the header's room" || ok "late names fit the header's room"
"$WULTFW" convert names.wfb -o names.back.csv 2>err
cmp -s names.csv names.back.csv && ok "late names: byte for byte" || fail "late names differ"
awk 'BEGIN { print "WakeLatency,ReqCState";
	for (i = 0; i < 3000; i++) printf "%s,%s\n", i == 1500 ? "1.2345" : i ".500",
		i < 2000 ? "C" (i % 3) : "Name" i }' >late.csv
"$WULTFW" convert late.csv -o late.wfb 2>err; expect_status 0 $? "convert with a late type change"
expect_in err "converting again" "convert says it starts again"
"$WULTFW" convert late.csv -o late.csv.csv 2>err; expect_status 0 $? "late type change to CSV"
for f in late.wfb late.csv.csv; do
	"$WULTFW" calc -f count,min,max,mean "$f" >late.out 2>/dev/null
	"$WULTFW" calc -f count,min,max,mean -j 1 late.csv >late.ref 2>/dev/null
	cmp -s late.out late.ref && ok "late type change: $f holds the same values" ||
		fail "late type change: $f differs"
done
finish
