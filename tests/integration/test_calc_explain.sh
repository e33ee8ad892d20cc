#!/bin/sh
# wultfw calc --explain (doc/attribution.md): on a synthetic result of
# 10000 datapoints whose 1% tail is known -- 91 rows dominated by
# irq:24 virtio1-input.0, 6 by softirq:NET_RX, 3 by the thread 88,
# the largest row 533 us in C6 -- the shares, counts, medians and the
# max row it prints, the same from the binary twin and in parts, -c,
# --include, JSON, an exact percentile where one log bucket holds
# 300000 rows, and every way the input can be wrong: no attribution
# columns, some missing, no attrib_latency, empty breakdowns, rows that
# break the identity, a Cause index out of range, a CausePID the threads
# file lacks, and hostile threads files (huge, NUL bytes, a FIFO, a pid
# that is no number, a comm with control characters).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# Every run bounded: a FIFO or a loop must not hang the test.
explain() {
	timeout 60 "$WULTFW" calc "$@"
}

# gen DIR [awk assignments]: the result. none/broken: rows (space-separated)
# whose breakdown is empty / whose ExitTime is 1 ns too long; pid: the
# CausePID of row 9900 (a thread's).
gen() {
	_d=$1
	shift
	mkdir -p "$_d"
	awk -v none="${none-}" -v broken="${broken-}" -v pid="${pid:-88}" '
	function us(ns) { return sprintf("%d.%03d", ns / 1000, ns % 1000) }
	function row(lat, irq, sirq, nmi, thr, ex, ic, sc, nc, cause, cpid) {
		if (i in nb) {
			print us(lat), st, "", "", "", "", "", "", "", "", "", ""
			return
		}
		if (i in br)
			ex++
		print us(lat), st, us(irq), us(sirq), us(nmi), us(thr), us(ex), ic, sc, nc, cause, cpid
	}
	BEGIN {
		OFS = ","
		split(none, a, " "); for (k in a) nb[a[k]] = 1
		split(broken, a, " "); for (k in a) br[a[k]] = 1
		print "WakeLatency,ReqCState,IRQTime,SoftIRQTime,NMITime,ThreadTime,ExitTime,IRQCnt,SWIRQCnt,NMICnt,Cause,CausePID"
		for (i = 1; i <= 10000; i++) {
			st = i % 2 ? "C1" : "C6"
			j = i / 100
			if (i % 100) {
				lat = 20000 + (i % 100) * 10
				row(lat, 1000, 0, 0, 0, lat - 1000, 1, 0, 0, "idle-exit", "")
			} else if (j <= 90) {
				row(70000 + 1000 * j, 50000 + 1000 * j, 2000, 0, 0, 18000, 1, 1, 0,
				    "irq:24 virtio1-input.0", "")
			} else if (j <= 96) {
				row(80000, 1000, 60000, 0, 0, 19000, 1, 3, 0, "softirq:NET_RX", "")
			} else if (j <= 99) {
				row(90000, 0, 0, 0, 70000, 20000, 0, 0, 0, "thread", j == 99 ? pid : 88)
			} else {
				row(533000, 500000, 2000, 1000, 0, 30000, 2, 1, 1, "irq:24 virtio1-input.0", "")
			}
		}
	}' >"$_d/datapoints.csv"
	printf "attrib: 'on'\nattrib_latency: WakeLatency\nattrib_start: LTime\n" >"$_d/info.yml"
	printf "attrib_smi: 'no MSR_SMI_COUNT on this CPU'\nattrib_lost: '12'\n" >>"$_d/info.yml"
	printf 'PID,Comm\n88,kworker/1:2\n' >"$_d/attrib-threads.csv"
}

# same WANT GOT WHAT: two files alike, else the difference.
same() {
	if cmp -s "$1" "$2"; then ok "$3"; else fail "$3:"; diff "$1" "$2" | head -20; fi
}

gen r

# ---- the 1% tail, known by construction ----
# irq:24: IRQTime 51..140 us and 500 us, median the 46th of 91: 96 us;
# shares of the 11678 us summed: IRQ 9101 (78%), softirq 542 (5%),
# thread 210 (2%), NMI 1 (<1%), idle exit 1824 (16%). p99: rank 9899.01,
# 20.99 + 0.01 * (71 - 20.99) = 21.49 us.
cat >want99 <<'EOF'
WakeLatency p99 (21.49 us) and above: 100 of 10000 datapoints, 71.00 to 533.0 us
  IRQ        78%  dominant in 91: irq:24 virtio1-input.0 in 91 (median 96.00 us)
  softirq     5%  dominant in 6: softirq:NET_RX in 6 (median 60.00 us)
  thread      2%  dominant in 3: kworker/1:2 (pid 88) in 3 (median 70.00 us)
  NMI        <1%
  idle exit  16%
  counted in them: IRQs 98, softirqs 109, NMIs 1, SMIs not available (no MSR_SMI_COUNT on this CPU)
max: 533.0 us, row 10000, ReqCState C6: IRQ 500.0 us (2 IRQs), idle exit 30.00 us, softirq 2.000 us (1 softirq), NMI 1.000 us (1 NMI); dominant irq:24 virtio1-input.0
EOF
explain --explain 99 r >out99 2>err99
expect_status 0 $? "calc --explain 99"
same want99 out99 "the p99 tail: shares, causes, counts, medians, the max row"
[ ! -s err99 ] && ok "nothing on stderr for a clean result" || { fail "stderr:"; cat err99; }

# The default percentile, checked against a sort of the column: the rows
# at or above p99.9 (linear between ranks 9989 and 9990) are 10.
sort -t, -k1,1n r/datapoints.csv | awk -F, 'NR > 1 { v[NR - 2] = $1 * 1000 }
	END { h = 9999 * 0.999; k = int(h); p = v[k] + (h - k) * (v[k + 1] - v[k]);
	      for (i = 0; i < 10000; i++) n += v[i] >= p; print n }' >n999
explain --explain r >out999 2>&1
expect_status 0 $? "calc --explain (default 99.9)"
expect_in out999 "WakeLatency p99.9 (151.0 us) and above: $(cat n999) of 10000 datapoints, 152.0 to 533.0 us" \
	"p99.9: as many rows as a sort finds at or above it"
expect_in out999 "  IRQ        89%  dominant in 10: irq:24 virtio1-input.0 in 10 (median 136.5 us)" \
	"p99.9: the ten largest are irq:24's"

# CausePID is a thread's pid, no measure: not among calc's default
# metrics, computed when named.
explain r >plain.out 2>&1
expect_status 0 $? "plain calc of an attributed result"
expect_in plain.out "IRQTime" "plain calc computes the attribution times"
grep -q "CausePID" plain.out && fail "plain calc computes statistics of CausePID" ||
	ok "plain calc leaves CausePID out"
explain -m CausePID r >pid.out 2>&1
expect_in pid.out "CausePID" "calc -m CausePID still computes it"

# ---- the binary twin, and parts ----
mkdir b
timeout 120 "$WULTFW" convert r/datapoints.csv -o b/datapoints.wfb >/dev/null 2>&1 || fail "convert to binary"
cp r/info.yml r/attrib-threads.csv b/
for v in "b" "-j 2 b" "-j 2 r" "-j 1 r"; do
	# shellcheck disable=SC2086
	explain --explain 99 $v >v.out 2>&1
	same want99 v.out "calc --explain 99 $v prints what the CSV gives"
done

# ---- grouping: each C-state its own percentile ----
explain --explain 99 -c r >outc 2>&1
expect_status 0 $? "calc --explain 99 -c"
expect_in outc "WakeLatency p99 (21.49 us) and above: 100 of 10000 datapoints" "-c: all rows first"
# C1: 50 values, each 100 times; its p99 is the largest, held by 100 rows.
expect_in outc "WakeLatency p99 (20.99 us) and above in ReqCState C1: 100 of 5000 datapoints, 20.99 to 20.99 us" \
	"-c: C1's p99, its ties all in"
expect_in outc "  idle exit  95%  dominant in 100 (median 19.99 us)" "-c: C1's tail is idle exit"
expect_in outc "WakeLatency p99 (111.0 us) and above in ReqCState C6: 50 of 5000 datapoints, 112.0 to 533.0 us" \
	"-c: C6's p99"
expect_in outc "max: 20.99 us, row 99, ReqCState C1: idle exit 19.99 us, IRQ 1.000 us (1 IRQ); dominant idle-exit" \
	"-c: C1's max row, the first of its ties"
[ "$(grep -c '^WakeLatency' outc)" = 3 ] && ok "-c: all, C1, C6" || fail "-c: $(grep -c '^WakeLatency' outc) groups"
explain --explain 99 -c -j 2 b >v.out 2>&1
same outc v.out "-c: the binary twin in parts prints the same"
explain --explain 99 -g Cause r >outg 2>&1
expect_in outg "in Cause softirq:NET_RX: 6 of 6 datapoints" "-g Cause: a group per cause"
explain --explain 99 -g Nope r >v.out 2>&1
expect_status 1 $? "-g with a column the result lacks"
expect_in v.out "no text column 'Nope' to group by; it has: ReqCState, Cause" "-g: the columns it could group by"

# A group column of many values: refused, not 30 KB per value and part.
awk -F, -v OFS=, 'NR == 1 { print $0, "Tag"; next } { print $0, "t" NR }' r/datapoints.csv >tags.csv
printf "attrib_latency: WakeLatency\n" >info.yml
explain --explain -g Tag tags.csv >v.out 2>&1
expect_status 1 $? "-g with 10000 values"
expect_in v.out "tags.csv: Tag has more than 1024 values" "-g with 10000 values: said"
rm info.yml

# ---- a selection: rows keep their numbers in the file ----
explain --explain 99 --include 'ReqCState == "C6"' r >outs 2>errs
expect_status 0 $? "--include"
expect_in errs "5000 of 10000 rows selected" "--include: said"
expect_in outs "WakeLatency p99 (111.0 us) and above: 50 of 5000 datapoints" "--include: C6's tail"
expect_in outs "max: 533.0 us, row 10000," "--include: the row as the file numbers it"
explain --explain 99 --include 'ReqCState == "C6"' -j 2 b >v.out 2>/dev/null
same outs v.out "--include: the binary twin in parts prints the same"

# ---- JSON: the same numbers ----
explain --explain 99 --json r >j.out 2>&1
expect_status 0 $? "--json"
explain --explain 99 -F json -j 2 b >jb.out 2>&1
if command -v python3 >/dev/null; then
	python3 - j.out jb.out >py.out 2>&1 <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
g = a["explain"][0]["groups"][0]
t = g["tail"]
cat = {c["category"]: c for c in t["categories"]}
assert a["explain"][0]["latency"] == "WakeLatency" and a["explain"][0]["percentile"] == 99
assert g["group"] == "all" and g["datapoints"] == 10000, g
assert abs(g["percentile_value"] - 21.4901) < 1e-6, g["percentile_value"]
assert t["datapoints"] == 100 and t["min"] == 71 and t["max"] == 533, t
assert t["latency_sum"] == 11678 and t["counts"]["IRQCnt"] == 98 and t["counts"]["SMICnt"] is None
assert [c["category"] for c in t["categories"]] == ["irq", "softirq", "thread", "nmi", "idle-exit"]
assert cat["irq"]["sum"] == 9101 and abs(cat["irq"]["share"] - 9101 / 11678) < 1e-12
c = cat["irq"]["causes"][0]
assert c == {"cause": "irq:24 virtio1-input.0", "datapoints": 91, "median": 96, "median_exact": True}, c
c = cat["thread"]["causes"][0]
assert c["pid"] == 88 and c["comm"] == "kworker/1:2" and c["datapoints"] == 3 and c["median"] == 70, c
m = g["max"]
assert m["row"] == 10000 and m["latency"] == 533 and m["state"] == "C6" and m["IRQTime"] == 500, m
assert m["NMICnt"] == 1 and m["cause"] == "irq:24 virtio1-input.0" and m["breakdown"] == "ok", m
for r in a["explain"] + b["explain"]:
    del r["file"], r["result"]
assert a == b, "the binary twin's JSON differs"
print("json ok")
EOF
	expect_in py.out "json ok" "--json: the text's numbers, the binary twin's the same"
else
	skip_part "no python3 to read the JSON with"
fi

# Several results: one after the other, each named; JSON: one array.
explain --explain 99 r b >v.out 2>&1
expect_in v.out "== b ==" "several results: each named"
[ "$(grep -c '^max:' v.out)" = 2 ] && ok "several results: both explained" || fail "several results"
explain --explain 99 --json r b >v.out 2>&1
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))["explain"]) == 2' v.out &&
		ok "several results: one JSON array" || fail "several results: JSON"
fi

# ---- the latency explained ----
mkdir noinfo
cp r/datapoints.csv noinfo/
explain --explain noinfo >v.out 2>&1
expect_status 1 $? "no info.yml: no attrib_latency"
expect_in v.out "names no attrib_latency: give the explained latency column with -m" "no attrib_latency: what to do"
explain --explain 99 -m WakeLatency noinfo >v.out 2>&1
expect_status 0 $? "-m names the latency"
expect_in v.out "WakeLatency p99 (21.49 us) and above: 100 of 10000" "-m: the same analysis"
expect_in v.out "no attrib-threads.csv beside it: threads are shown by pid" "no threads file: said"
expect_in v.out "  thread      2%  dominant in 3: pid 88 (not in attrib-threads.csv) in 3" "no threads file: by pid"
explain --explain -m IntrLatency r >v.out 2>&1
expect_status 1 $? "-m: a column the result lacks"
expect_in v.out "no column IntrLatency (-m) to explain" "-m: says which"

# ---- wrong input: one line naming the file, and what to do ----
printf 'WakeLatency,ReqCState\n1.000,C1\n' >plain.csv
explain --explain plain.csv >v.out 2>&1
expect_status 1 $? "no attribution columns"
expect_in v.out "plain.csv has no attribution columns" "no attribution columns: said"
expect_in v.out "see doc/attribution.md" "no attribution columns: where to read how"
[ "$(wc -l <v.out)" = 1 ] && ok "no attribution columns: one line" || fail "$(wc -l <v.out) lines"
cut -d, -f1-10,12 r/datapoints.csv >nocause.csv
explain --explain nocause.csv >v.out 2>&1
expect_status 1 $? "a missing attribution column"
expect_in v.out "nocause.csv lacks the attribution columns Cause" "a missing column: named"

mkdir empty
head -n 1 r/datapoints.csv >empty/datapoints.csv
cp r/info.yml empty/
explain --explain -c empty >v.out 2>&1
expect_status 0 $? "a result without rows"
expect_in v.out "WakeLatency: no datapoints" "a result without rows: said"
head -n 3 r/datapoints.csv | sed 's/,idle-exit,/,7,/' >empty/datapoints.csv
explain --explain empty >v.out 2>&1
expect_status 1 $? "numbers in Cause"
expect_in v.out "Cause holds numbers where names belong" "numbers in Cause: said"

# Empty breakdowns (events lost): rows 5, 6, 7 and the tail's 5000.
none="5 6 7 5000" gen e
explain --explain 99 e >v.out 2>v.err
expect_status 0 $? "empty breakdowns"
expect_in v.err "e/datapoints.csv: 4 rows without a breakdown (events lost; info.yml attrib_lost: 12): counted, not explained" \
	"empty breakdowns: counted on stderr"
expect_in v.out "WakeLatency p99 (21.49 us) and above: 100 of 10000 datapoints" "empty breakdowns: still in the percentile"
expect_in v.out "  1 without a breakdown (events lost; info.yml attrib_lost: 12), left out of the shares" \
	"empty breakdowns: the tail's, said"
expect_in v.out "irq:24 virtio1-input.0 in 90 " "empty breakdowns: not guessed into a cause"

# Rows breaking the identity: 17 and the tail's 2000.
broken="17 2000" gen i
explain --explain 99 i >v.out 2>v.err
expect_status 0 $? "broken identity"
expect_in v.err "i/datapoints.csv: 2 rows break IRQTime + SoftIRQTime + NMITime + ThreadTime + ExitTime == WakeLatency (the first: row 17)" \
	"broken identity: count and first row"
expect_in v.out "  1 whose parts do not add up to WakeLatency, left out of the shares" "broken identity: the tail's"
timeout 120 "$WULTFW" convert i/datapoints.csv -o i/datapoints.wfb >/dev/null 2>&1
explain --explain 99 i/datapoints.wfb 2>&1 >/dev/null | grep -F 'the first: row 17' >/dev/null &&
	ok "broken identity: the binary twin too" || fail "broken identity: binary"

# A CausePID attrib-threads.csv lacks: shown by pid, said once.
pid=4242 gen p
explain --explain 99 p >v.out 2>v.err
expect_status 0 $? "a CausePID the threads file lacks"
expect_in v.out "kworker/1:2 (pid 88) in 2 (median 70.00 us), pid 4242 (not in attrib-threads.csv) in 1" \
	"a missing pid: printed as the pid"
expect_in v.err "p/attrib-threads.csv: no line for CausePID 4242: shown by pid" "a missing pid: said"

# A Cause index out of range: a version 1 binary file (no checksums)
# whose Cause cell points past its names.
if command -v python3 >/dev/null; then
	python3 - bad.wfb <<'EOF'
import struct, sys, zlib
cols = [(0, 1000, "WakeLatency", [])] + [(0, 1000, n, []) for n in
        ("IRQTime", "SoftIRQTime", "NMITime", "ThreadTime", "ExitTime")] + \
       [(0, 1, n, []) for n in ("IRQCnt", "SWIRQCnt", "NMICnt")] + \
       [(2, 0, "Cause", ["idle-exit", "irq:LOC"]), (0, 1, "CausePID", [])]
body = b""
for t, div, name, names in cols:
    body += struct.pack("<BBHHHII", t, 0, len(name), 0, 0, div, len(names)) + name.encode()
    for n in names:
        body += struct.pack("<H", len(n)) + n.encode()
hlen = (40 + len(body) + 7) // 8 * 8
hdr = bytearray(b"\x89WFWB\r\n\x1a" + struct.pack("<IHHIIIIII", 0x01020304, 1, 0, hlen,
                len(cols), 8 * len(cols), 0, 0, 0) + body)
hdr += b"\0" * (hlen - len(hdr))
struct.pack_into("<I", hdr, 32, zlib.crc32(bytes(hdr)))
rows = [[20000, 0, 0, 0, 0, 20000, 0, 0, 0, 0, -2 ** 63], [30000, 0, 0, 0, 0, 30000, 0, 0, 0, 7, -2 ** 63]]
data = b"".join(struct.pack("<11q", *r) for r in rows)
open(sys.argv[1], "wb").write(bytes(hdr) + data)
EOF
	printf "attrib_latency: WakeLatency\n" >info.yml
	explain --explain bad.wfb >v.out 2>&1
	st=$?
	expect_status 1 $st "a Cause index out of range: refused"
	expect_in v.out "column Cause holds 7, outside its 2 names (corrupt file)" "a Cause index out of range: said"
	rm info.yml
else
	skip_part "no python3 to write a damaged binary file with"
fi

# ---- hostile attrib-threads.csv: never a crash, never a hang ----
hostile() {	# NAME WHAT: run on r with its threads file made so
	explain --explain 99 r >v.out 2>v.err
	st=$?
	expect_status 0 $st "threads file $1: still explained"
	expect_in v.out "  thread      2%  dominant in 3: " "threads file $1: the thread causes counted"
}
truncate -s 17M r/attrib-threads.csv
hostile "of 17 MiB"
expect_in v.err "attrib-threads.csv: larger than 16 MiB, the limit: threads are shown by pid" "huge: said"
expect_in v.out "pid 88 (not in attrib-threads.csv)" "huge: by pid"
printf 'PID,Comm\n88,kwor\000ker\n' >r/attrib-threads.csv
hostile "with a NUL byte"
expect_in v.err "attrib-threads.csv:2: a NUL byte; 1 such line left out" "NUL byte: said with its line"
rm r/attrib-threads.csv
mkfifo r/attrib-threads.csv
hostile "a FIFO"
expect_in v.err "attrib-threads.csv: not a regular file: threads are shown by pid" "FIFO: said, not read"
rm r/attrib-threads.csv
printf 'PID,Comm\nx88,kworker\n' >r/attrib-threads.csv
hostile "with a pid that is no number"
expect_in v.err "attrib-threads.csv:2: a pid that is no whole number" "non-numeric pid: said with its line"
printf 'PID,Comm\n88,"k\033[2Jw,\\x"\n' >r/attrib-threads.csv
hostile "with control characters"
expect_in v.out 'k\x1b[2Jw,\\x (pid 88) in 3' "control characters: escaped"
if grep -q "$(printf '\033')" v.out; then fail "an escape byte reached the output"; else
	ok "no control character printed"; fi
explain --explain 99 --json r >v.out 2>&1
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
c = [c for c in j["explain"][0]["groups"][0]["tail"]["categories"] if c["category"] == "thread"][0]
assert c["causes"][0]["comm"] == "k\x1b[2Jw,\\x", c' v.out && ok "control characters: JSON keeps the comm" ||
		fail "control characters: JSON"
fi
printf 'PID,Comm\n88,kworker/1:2\n' >r/attrib-threads.csv

# ---- the command line ----
explain --explain 99 -F markdown r >v.out 2>&1
expect_status 2 $? "--explain with -F markdown"
expect_in v.out "--explain prints plain words or JSON" "-F markdown: said"
explain --explain 99 -f p99 r >v.out 2>&1
expect_status 2 $? "--explain with -f"
explain --explain 101 r >v.out 2>&1
expect_status 2 $? "--explain 101"
expect_in v.out "--explain 101: give a percentile from 0 to 100" "--explain 101: said"
explain r --explain=99 >v.out 2>&1
same want99 v.out "--explain=99 after the result"
explain --explain -j 1 r >v.out 2>&1
same out999 v.out "--explain without a value before another option: 99.9"
timeout 60 "$WULTFW" calc --help >v.out 2>&1
expect_in v.out "--explain [PCT]" "--help shows --explain [PCT]"

# ---- an exact percentile when one log bucket holds 300000 rows ----
mkdir big
awk 'BEGIN { OFS = ","
	print "WakeLatency,IRQTime,SoftIRQTime,NMITime,ThreadTime,ExitTime,IRQCnt,SWIRQCnt,NMICnt,Cause,CausePID"
	for (i = 0; i < 300000; i++) {
		v = 1048576 + (i * 7919) % 8192
		printf "%d.%03d,0.000,0.000,0.000,0.000,%d.%03d,0,0,0,idle-exit,\n", v / 1000, v % 1000, v / 1000, v % 1000
	} }' >big/datapoints.csv
printf "attrib_latency: WakeLatency\n" >big/info.yml
cut -d, -f1 big/datapoints.csv | sed 1d | tr -d . | sort -n | awk '{ v[NR - 1] = $1 }
	END { h = 299999 * 0.999; k = int(h); p = v[k] + (h - k) * (v[k + 1] - v[k]);
	      for (i = 0; i < NR; i++) n += v[i] >= p; print n }' >nbig
explain --explain -j 2 big >v.out 2>&1
expect_status 0 $? "300000 rows in one log bucket"
expect_in v.out "and above: $(cat nbig) of 300000 datapoints" "narrowed: as many rows as a sort finds"
finish
