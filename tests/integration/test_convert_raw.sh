#!/bin/sh
# convert of a version 2 binary file to binary copies its blocks as they
# are (tools/convert_raw.c): the copy holds the same blocks and reads
# back equal (calc, and back to CSV byte for byte); damage is still found
# and named as the reader names it, --salvage and a file cut short work as
# before; version 1 files are still encoded afresh.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

awk 'BEGIN {
	srand(5);
	split("POLL C1 C1E C6", cs, " ");
	print "WakeLatency,IntrLatency,LDist,ReqCState,CC0%,SMICnt";
	for (i = 0; i < 40000; i++) {
		wl = 1 + rand() * 400;
		printf "%.3f,%s,%.3f,%s,%.2f,%d\n", wl, i % 101 ? sprintf("%.3f", wl * 0.9) : "",
			10 + rand() * 3990, cs[1 + int(rand() * 4)], rand() * 100, rand() < 0.01;
	}
}' >d.csv
"$WULTFW" convert d.csv -o d.wfb 2>err; expect_status 0 $? "CSV to binary"

u32() { od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '; }
# blocks FILE: the bytes after the header.
blocks() { tail -c +$(($(u32 "$1" 16) + 1)) "$1"; }

for j in 1 3; do
	"$WULTFW" convert -j $j d.wfb -o c$j.wfb 2>err; expect_status 0 $? "binary to binary, -j $j"
	expect_in err "40000 rows from d.wfb to c$j.wfb" "-j $j: says the rows"
	blocks d.wfb >in.blk; blocks c$j.wfb >out.blk
	cmp -s in.blk out.blk && ok "-j $j: the same blocks" || fail "-j $j: the blocks differ"
done
for f in "" "-c"; do
	"$WULTFW" calc $f d.wfb >calc.in 2>/dev/null
	"$WULTFW" calc $f c1.wfb >calc.out 2>/dev/null
	[ -s calc.in ] && cmp -s calc.in calc.out && ok "calc ${f:-} of the copy: the same" ||
		fail "calc ${f:-} of the copy differs"
done
"$WULTFW" convert c1.wfb -o back.csv 2>err; expect_status 0 $? "the copy to CSV"
cmp -s d.csv back.csv && ok "the copy to CSV: the CSV byte for byte" || fail "the copy to CSV differs"
"$WULTFW" convert d.wfb -o c1.wfb 2>err; expect_status 1 $? "an existing output is not replaced"
expect_in err "add --force" "and says how"
"$WULTFW" convert --force d.wfb -o c1.wfb 2>err; expect_status 0 $? "--force replaces it"
blocks c1.wfb >out.blk
cmp -s in.blk out.blk && ok "--force: the same blocks" || fail "--force: the blocks differ"

# Damage in block k's payload, then in its header: named as calc names it.
off=$(u32 d.wfb 16); k=0
while [ $k -lt 2 ]; do off=$((off + 16 + $(u32 d.wfb $((off + 4))))); k=$((k + 1)); done
for at in 100 5; do
	cp d.wfb bad.wfb
	b=$(od -An -tu1 -j $((off + at)) -N 1 d.wfb | tr -d ' ')
	printf "\\$(printf %o $(((b + 1) % 256)))" |
		dd of=bad.wfb bs=1 seek=$((off + at)) conv=notrunc 2>/dev/null
	"$WULTFW" calc bad.wfb >/dev/null 2>calc.err
	"$WULTFW" convert bad.wfb -o bad.out.wfb 2>err; expect_status 1 $? "damage at +$at: convert fails"
	expect_in err "bad.wfb: block 2 at byte $off: checksum mismatch" "damage at +$at: block 2 named"
	msg=$(sed -n 's/^wultfw calc: \(.*checksum mismatch.*\)/\1/p' calc.err)
	[ -n "$msg" ] && expect_in err "$msg" "damage at +$at: the reader's message" ||
		fail "damage at +$at: calc did not find it"
	[ ! -e bad.out.wfb ] && ok "damage at +$at: no output left" || fail "bad.out.wfb left behind"
	"$WULTFW" convert --salvage bad.wfb -o salv.wfb 2>err; expect_status 0 $? "damage at +$at: --salvage"
	"$WULTFW" convert --salvage bad.wfb -o salv.csv 2>/dev/null
	"$WULTFW" convert salv.wfb -o salv2.csv 2>/dev/null
	[ "$(wc -l <salv.csv)" -lt 40001 ] && cmp -s salv.csv salv2.csv &&
		ok "damage at +$at: salvaged rows as the CSV salvage" || fail "damage at +$at: salvage differs"
	rm -f salv.wfb salv.csv salv2.csv
done

# Cut short: the whole blocks copied, the rest said ignored.
head -c $(($(stat -c %s d.wfb) - 50)) d.wfb >cut.wfb
"$WULTFW" convert cut.wfb -o cut.out.wfb 2>err; expect_status 0 $? "a file cut short"
expect_in err "ignored the last" "says it ignored the cut block"
"$WULTFW" convert cut.out.wfb -o cut.csv 2>/dev/null
head -n "$(wc -l <cut.csv)" d.csv | cmp -s - cut.csv && ok "cut: the first rows" || fail "cut: rows differ"

# Version 1: encoded into blocks (threads or not: the same), then copied.
v1=$srcdir/tests/data/binary-v1/datapoints.wfb
"$WULTFW" convert -j 1 "$v1" -o v1a.wfb 2>err; expect_status 0 $? "version 1 to binary, -j 1"
"$WULTFW" convert -j 3 "$v1" -o v1b.wfb 2>err; expect_status 0 $? "version 1 to binary, -j 3"
cmp -s v1a.wfb v1b.wfb && ok "version 1: -j 3 the bytes of -j 1" || fail "version 1: -j 3 differs"
[ "$(od -An -tu2 -j 12 -N 2 v1a.wfb | tr -d ' ')" = 2 ] && ok "version 1: written as version 2" ||
	fail "version 1: not written as version 2"
"$WULTFW" convert v1a.wfb -o v1c.wfb 2>/dev/null && "$WULTFW" convert v1c.wfb -o v1.csv 2>/dev/null
cmp -s v1.csv "$srcdir/tests/data/binary-v1/datapoints.csv" && ok "version 1: its CSV view kept" ||
	fail "version 1: CSV view differs"
finish
