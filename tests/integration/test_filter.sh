#!/bin/sh
# wultfw filter, and --include/--exclude of calc and convert, on a result
# made up here (same on every machine): the rows kept must be exactly the
# rows an independent awk computation selects.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# A wult-style result: 3000 rows from a fixed-seed generator.
mkdir -p res
awk 'BEGIN {
	srand(7);
	split("POLL C1 C6", cs, " ");
	print "WakeLatency,IntrLatency,LDist,SilentTime,ReqCState,SMICnt";
	for (i = 0; i < 3000; i++) {
		ld = 10 + rand() * 490;
		wl = 1 + rand() * 200;
		printf "%.3f,%.3f,%.3f,%.3f,%s,%d\n", wl, wl * 0.9, ld, ld * 0.8,
			cs[1 + int(rand() * 3)], rand() < 0.05;
	}
}' >res/datapoints.csv
cat >res/info.yml <<'YML'
toolname: 'wult'
toolver: '1.12.65'
format_version: '1.3'
reportid: 'made-up'
cpu: 1
devid: 'timer'
datapoints: 3000
YML

# select AWK-CONDITION: the rows awk keeps, header first.
select() {
	awk -F, "NR == 1 || ($1)" res/datapoints.csv
}

inc='ReqCState == "C6" && WakeLatency > 0.1ms'
"$WULTFW" filter res -o f1 --include "$inc" --exclude 'SMICnt > 0' 2>f1.err
expect_status 0 $? "filter --include --exclude"
select '$5 == "C6" && $1 > 100 && !($6 > 0)' >f1.want
kept=$(($(wc -l <f1.want) - 1))
[ "$kept" -gt 100 ] && [ "$kept" -lt 1000 ] && ok "the expression selects $kept of 3000 rows" ||
	fail "the made-up data should select some rows, not $kept"
cmp -s f1/datapoints.csv f1.want && ok "the rows kept are those awk selects, byte for byte" ||
	{ fail "filter kept other rows than awk"; diff f1.want f1/datapoints.csv | head -5; }
for key in "datapoints: $kept" "filter_rows_kept: $kept" "filter_rows_read: 3000" \
	"reportid: 'made-up'" "format_version: '1.3'" "filter_exclude: 'SMICnt > 0'" \
	"filtered_from: 'res/datapoints.csv'"; do
	expect_in f1/info.yml "$key" "info.yml: $key"
done
expect_in f1/info.yml "filter_include: 'ReqCState == \"C6\" && WakeLatency > 0.1ms'" "info.yml: the include expression"
[ -d f1/logs ] && ok "a complete result directory (logs/)" || fail "no logs/ in the filtered result"

# Operators, parentheses, negation and units against awk.
"$WULTFW" filter res -o f2 --include '!(LDist < 0.2ms || ReqCState != "POLL") || SilentTime <= 20' 2>/dev/null
select '!($3 < 200 || $5 != "POLL") || $4 <= 20' >f2.want
cmp -s f2/datapoints.csv f2.want && ok "! || != <= and parentheses select what awk selects" ||
	fail "filter f2 differs from awk"

# --metrics keeps some columns, in the file's order.
"$WULTFW" filter res -o f3 --metrics ReqCState,WakeLatency --exclude 'LDist >= 250us' 2>/dev/null
awk -F, 'NR == 1 || !($3 >= 250) { print $1 "," $5 }' res/datapoints.csv >f3.want
cmp -s f3/datapoints.csv f3.want && ok "--metrics keeps WakeLatency and ReqCState only" ||
	fail "filter --metrics differs from awk"

# A filtered result is a result: filter it again, calc it.
"$WULTFW" filter f1 -o f4 --include 'IntrLatency < 150' 2>/dev/null
select '$5 == "C6" && $1 > 100 && !($6 > 0) && $2 < 150' >f4.want
cmp -s f4/datapoints.csv f4.want && ok "filtering a filtered result" || fail "second filter differs"

"$WULTFW" calc -f count -m WakeLatency res --include "$inc" --exclude 'SMICnt > 0' >calc.out 2>&1
expect_status 0 $? "calc --include --exclude"
expect_in calc.out " $kept" "calc counts the $kept selected rows"

"$WULTFW" convert res/datapoints.csv -o sel.wfb --include "$inc" --exclude 'SMICnt > 0' 2>/dev/null
expect_status 0 $? "convert --include --exclude"
"$WULTFW" filter sel.wfb -o f5 --to csv 2>/dev/null
cmp -s f5/datapoints.csv f1.want && ok "convert selects the same rows (through the binary format)" ||
	fail "convert --include kept other rows"

# same_values A B: same lines and fields, numbers equal as doubles (the
# csv writer prints the shortest text that reads back as the same double).
same_values() {
	[ "$(wc -l <"$1")" = "$(wc -l <"$2")" ] || return 1
	awk -F, 'NR == FNR { a[FNR] = $0; next }
		{ n = split(a[FNR], x, ",");
		  if (n != NF) bad = 1;
		  for (i = 1; i <= NF; i++) if (x[i] != $i && x[i] + 0 != $i + 0) bad = 1 }
		END { exit bad }' "$1" "$2"
}

# wult's own result directories (formats 1.2 and 1.3) open in calc and filter.
for v in 1.2 1.3; do
	w="$srcdir/tests/data/wult-$v"
	"$WULTFW" calc -c -f count "$w" >wcalc.out 2>&1
	expect_status 0 $? "calc opens wult's format $v result"
	"$WULTFW" filter "$w" -o "w$v" --include 'ReqCState == "C6" && IntrLatency > 50us' 2>/dev/null
	expect_status 0 $? "filter opens wult's format $v result"
	awk -F, 'NR == 1 || ($6 == "C6" && $3 > 50)' "$w/datapoints.csv" >w.want
	same_values "w$v/datapoints.csv" w.want && ok "and keeps the rows awk selects" ||
		fail "filter of wult $v differs from awk"
	expect_in "w$v/info.yml" "format_version: '$v'" "the filtered result keeps wult's info.yml"
done

# -j N reads in chunks on N threads: the same bytes as one thread, also
# where a chunk cannot be read alone (a column changing its type, a quoted
# field, a bad row: then the file is read again by one thread).
same_as_j1() {	# NAME INPUT [OPTION...]: filter -j 3 and -j 1 agree
	name=$1; in=$2; shift 2
	"$WULTFW" filter "$in" -o "$name.j1" -j 1 "$@" 2>"$name.j1.err"
	s1=$?
	"$WULTFW" filter "$in" -o "$name.j3" -j 3 "$@" 2>"$name.j3.err"
	s3=$?
	sed "s/$name\.j1/OUT/" "$name.j1.err" >"$name.j1.msg"
	sed "s/$name\.j3/OUT/" "$name.j3.err" >"$name.j3.msg"
	data=datapoints.csv	# (a binary input: datapoints.wfb unless --to csv)
	[ -e "$name.j1/$data" ] || data=datapoints.wfb
	[ $s1 = $s3 ] && cmp -s "$name.j1.msg" "$name.j3.msg" &&
		{ [ $s1 != 0 ] || cmp -s "$name.j1/$data" "$name.j3/$data"; } &&
		ok "filter -j 3 writes what -j 1 writes: $name" ||
		{ fail "filter -j 3 differs from -j 1: $name"; cat "$name.j1.err" "$name.j3.err"; }
}
mkdir -p ty quoted badrow
awk 'BEGIN { print "A,B,C,D";
	for (i = 0; i < 4000; i++)	# B: 3 decimals, then 2; C: empty, then numbers
		printf "%d,%.*f,%s,%s\n", i, i < 3000 ? 3 : 2, i / 7,
			i < 2500 ? "" : i % 5, i % 3 ? "x" : "y" }' >ty/datapoints.csv
awk 'BEGIN { print "A,B";
	for (i = 0; i < 4000; i++) printf "%d,%s\n", i, i == 3000 ? "\"q,1\"" : "t" }' >quoted/datapoints.csv
awk 'BEGIN { print "A,B";
	for (i = 0; i < 4000; i++) printf "%d.5,%s\n", i, i == 3500 ? "1,2" : "t" }' >badrow/datapoints.csv
same_as_j1 res res
same_as_j1 metrics res -m LDist,ReqCState
same_as_j1 sel res --include 'ReqCState == "C6"'
same_as_j1 wult12 "$srcdir/tests/data/wult-1.2"
same_as_j1 types ty
same_as_j1 quoted quoted
same_as_j1 badrow badrow
"$WULTFW" convert res/datapoints.csv -o res.wfb 2>/dev/null
same_as_j1 binary res.wfb
same_as_j1 binsel res.wfb -m WakeLatency,ReqCState --exclude 'ReqCState == "C1"'
same_as_j1 bincsv res.wfb --to csv
same_as_j1 binselcsv res.wfb --to csv -m WakeLatency,ReqCState --exclude 'ReqCState == "C1"'

# Bad input: did-you-mean, caret, no clobbering.
"$WULTFW" filter res -o bad --include 'WakeLatncy > 3' >bad.err 2>&1
expect_status 1 $? "an unknown column fails"
expect_in bad.err "unknown column 'WakeLatncy' (did you mean 'WakeLatency'?)" "with a did-you-mean"
expect_in bad.err "WakeLatency, IntrLatency, LDist, SilentTime, ReqCState, SMICnt" "listing the columns"
[ ! -e bad ] && ok "and writes nothing" || fail "a failed filter left bad/ behind"
"$WULTFW" filter res -o bad --include 'LDist > 5 && && SMICnt' >bad.err 2>&1
expect_status 1 $? "a syntax error fails"
printf '  LDist > 5 && && SMICnt\n               ^\n' >caret.want
tail -2 bad.err >caret.got
cmp -s caret.want caret.got && ok "with a caret under the fault" || { fail "caret"; cat bad.err; }
"$WULTFW" filter res -o bad --include 'SMICnt > 1ms' >bad.err 2>&1
expect_status 1 $? "a unit the column cannot take fails"
"$WULTFW" filter res -o f1 --include 'LDist > 1' >bad.err 2>&1
expect_status 1 $? "an existing output is not replaced"
expect_in bad.err "exists already" "and says so"
"$WULTFW" filter res -o f1 --force --include 'LDist > 1' 2>/dev/null
expect_status 0 $? "--force replaces it"
"$WULTFW" filter res -o bad -m LDis >bad.err 2>&1
expect_in bad.err "unknown column 'LDis' (did you mean 'LDist'?)" "--metrics with a did-you-mean"
# --metrics takes fnmatch(3) patterns too: the columns they match, in the
# file's order; a pattern that matches nothing is an error, with a hint.
"$WULTFW" filter res -o glob1 -m '*Latency' 2>/dev/null
expect_status 0 $? "filter -m '*Latency'"
awk -F, '{ print $1 "," $2 }' res/datapoints.csv >glob1.want
cmp -s glob1/datapoints.csv glob1.want && ok "-m '*Latency' keeps WakeLatency and IntrLatency" ||
	{ fail "-m '*Latency'"; head -2 glob1/datapoints.csv; }
"$WULTFW" filter res -o glob2 -m 'S*,LDist' 2>/dev/null
head -1 glob2/datapoints.csv >glob2.hdr
echo "LDist,SilentTime,SMICnt" | cmp -s - glob2.hdr && ok "-m 'S*,LDist': matches and a name, in the file's order" ||
	fail "-m 'S*,LDist' wrote $(cat glob2.hdr)"
"$WULTFW" filter res -o bad -m 'WakeLatency,*Latncy' >bad.err 2>&1
expect_status 1 $? "a pattern that matches no column fails"
expect_in bad.err "no column matches '*Latncy' (did you mean '*Latency'?)" "naming it, with a did-you-mean"
[ ! -e bad ] && ok "and writes nothing" || fail "bad/ written"
# A damaged block found mid-read leaves no half-written result behind.
cp res.wfb dmg.wfb
size=$(stat -c %s dmg.wfb)
printf '\377\377\377\377\377\377\377\377' |
	dd of=dmg.wfb bs=1 seek=$((size - 64)) conv=notrunc 2>/dev/null
"$WULTFW" filter dmg.wfb -o dmgout -j 1 >dmg.err 2>&1
expect_status 1 $? "a damaged binary file fails filter"
expect_in dmg.err "removed the partial dmgout" "and says it removed the partial output"
[ ! -e dmgout ] && ok "which is gone" || fail "dmgout/ left behind: $(ls dmgout)"
# --force over a result: the old one stays until the new one is whole.
"$WULTFW" filter res -o keep --include 'LDist > 1' 2>/dev/null
cp -a keep keep.orig
"$WULTFW" filter dmg.wfb -o keep --force -j 1 >dmg.err 2>&1
expect_status 1 $? "--force with a damaged input fails"
expect_in dmg.err "left as it was: keep" "and says the old result stays"
diff -r keep keep.orig >/dev/null && ok "the old result kept, file for file" || fail "--force lost the old result"
ls -d keep.partial-* 2>/dev/null && fail "a partial result left beside it" || ok "nothing left beside it"
"$WULTFW" filter res -o keep --force --include 'LDist > 100' 2>err
expect_status 0 $? "--force with a good input replaces it"
expect_in keep/info.yml "filter_include: 'LDist > 100'" "with the new result"
ls -d keep.partial-* 2>/dev/null && fail "a partial result left after success" || ok "and nothing beside it"
# NEWRESULT holding the input: refused, the input untouched.
cp -a res resc
for args in "resc -o resc --force" "resc -o resc" "resc/datapoints.csv -o resc --force" "resc -o ./resc/ --force"; do
	# shellcheck disable=SC2086
	"$WULTFW" filter $args --include 'LDist > 1' >self.err 2>&1
	expect_status 1 $? "filter $args: refused"
	expect_in self.err "holds the input" "filter $args: says why"
done
diff -r res resc >/dev/null && ok "the input untouched" || fail "the input changed"
# A file or a foreign directory as NEWRESULT: no hint of a --force that would not help.
echo x >afile
"$WULTFW" filter res -o afile >self.err 2>&1
expect_status 1 $? "a file as NEWRESULT: refused"
expect_in self.err "not a wultfw result directory (no logs/), which --force would not remove either" "says --force would not help"
"$WULTFW" filter --help >help.out 2>&1
expect_in help.out "Usage: wultfw filter RESULT -o NEWRESULT" "filter --help"
finish
