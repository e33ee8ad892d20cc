#!/bin/sh
# convert never writes over its own input, and --force replaces OUT only
# once the new file is whole (tools/replace.c): a failure half way
# keeps the old OUT and leaves no partial file beside it. An OUT whose
# name says the other format than --to is written, with a warning; -o - is
# refused, not a file named '-'.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

awk 'BEGIN {
	srand(9);
	print "WakeLatency,LDist,ReqCState";
	for (i = 0; i < 60000; i++)
		printf "%.3f,%.3f,C%d\n", 1 + rand() * 400, 10 + rand() * 3990, 1 + int(rand() * 3);
}' >d.csv
"$WULTFW" convert d.csv -o d.wfb 2>err; expect_status 0 $? "CSV to binary"
cp d.csv d.csv.orig; cp d.wfb d.wfb.orig
ln d.wfb hard.wfb

# same_file IN OUT: refused, even with --force, and IN is untouched.
same_file() {
	"$WULTFW" convert --force "$1" -o "$2" --to binary 2>err
	expect_status 1 $? "$1 -o $2: refused"
	expect_in err "is the input $1 itself" "$1 -o $2: says why"
	cmp -s d.csv d.csv.orig && cmp -s d.wfb d.wfb.orig && ok "$1 -o $2: input intact" ||
		fail "$1 -o $2: the input changed"
}
same_file d.csv d.csv
same_file d.wfb ./d.wfb
same_file d.wfb hard.wfb

# A damaged block half way: the old OUT stays, byte for byte.
u32() { od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '; }
off=$(u32 d.wfb 16); k=0
while [ $k -lt 4 ]; do off=$((off + 16 + $(u32 d.wfb $((off + 4))))); k=$((k + 1)); done
cp d.wfb bad.wfb
printf 'XXXX' | dd of=bad.wfb bs=1 seek=$((off + 40)) conv=notrunc 2>/dev/null
echo old >old.csv; echo old >old.wfb
for j in 1 2; do
	for out in old.csv old.wfb; do
		"$WULTFW" convert --force -j $j bad.wfb -o $out 2>err
		expect_status 1 $? "-j $j --force onto $out: fails on the damage"
		expect_in err "$out left as it was" "-j $j $out: says so"
		[ "$(cat $out)" = old ] && ok "-j $j $out: the old file kept" ||
			fail "-j $j $out: the old file was replaced"
	done
done
ls | grep -q partial && fail "a partial file left: $(ls | grep partial)" || ok "no partial file left"

# Success replaces; the name printed is the one given.
"$WULTFW" convert --force d.wfb -o old.csv 2>err; expect_status 0 $? "--force replaces"
expect_in err "60000 rows from d.wfb to old.csv" "names OUT"
cmp -s old.csv d.csv && ok "the new file in place" || fail "old.csv is not the new file"
ls | grep -q partial && fail "a partial file left after success" || ok "nothing left beside it"

"$WULTFW" convert d.csv -o x.wfb --to csv 2>err; expect_status 0 $? "--to csv into x.wfb"
expect_in err "warning: writing CSV into x.wfb, whose name says binary" "warns of the name"
cmp -s x.wfb d.csv && ok "it is CSV" || fail "x.wfb is not the CSV"

# -o - is no file called '-' (it was, silently).
timeout 60 "$WULTFW" convert d.wfb -o - --to csv >out 2>err; expect_status 2 $? "-o -: refused"
expect_in err "convert writes a file, not standard output" "-o -: says what to do"
[ ! -e ./- ] && ok "-o -: no file named '-'" || fail "-o - made a file named '-'"
finish
