#!/bin/sh
# Integration test of the hrt eBPF source on the running kernel (CI runs as
# root on a BTF kernel). Until the core can run it, it drives the plugin's
# ops through tests/hrt/hrt_driver. Exit 77 (SKIP) when it cannot run here.
set -u

DRIVER=${DRIVER:-tests/hrt/hrt_driver}
CPU=${HRT_TEST_CPU:-1}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hrt-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

[ "$(id -u)" = 0 ] || skip "not root: hrt loads an eBPF program"
[ -r /sys/kernel/btf/vmlinux ] || skip "kernel has no BTF (/sys/kernel/btf/vmlinux)"
command -v bpftool >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
command -v bpftool >/dev/null 2>&1 || skip "bpftool not found (Debian package bpftool)"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs: the reader must not run on the measured CPU"
[ -d "/sys/devices/system/cpu/cpu$CPU" ] || CPU=0

# Nothing of hrt may be loaded: no program, no map, no link to them.
leftovers() {
	bpftool prog show | grep -E "name hrt_(cpu_idle|softirq_entry|nmi_handler)"
	bpftool map show | grep -E "name (hrt_timers|hrt_rb|hrt\.bss)"
}
# The kernel frees programs and maps a moment after the last fd closes.
clean() {
	i=0
	while [ -n "$(leftovers)" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
	[ -z "$(leftovers)" ]
}
[ -z "$(leftovers)" ] || skip "an hrt program is loaded already (another run?)"

# 1. A run of 5000 datapoints with raw timestamps, checked row by row.
"$DRIVER" -c "$CPU" -n 5000 -l 20000,500000 -t 120 -O raw=true \
	-o "$TMP/dp.csv" 2>"$TMP/run.err" || { cat "$TMP/run.err"; fail "5000-datapoint run"; }
grep -q '^datapoints: 5000$' "$TMP/run.err" || { cat "$TMP/run.err"; fail "fewer than 5000 datapoints"; }
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	lt = $c["LTime"]; tbi = $c["TBI"]; tai = $c["TAI"]; ti = $c["TIntr"]
	if (!(tbi < lt && lt <= ti && lt < tai)) err("timestamps out of order")
	# Derived columns must equal the raw differences (us, 3 decimals).
	if (sprintf("%.3f", (tai - lt) / 1000) != $c["WakeLatency"]) err("WakeLatency")
	if (sprintf("%.3f", (ti - lt) / 1000) != $c["IntrLatency"]) err("IntrLatency")
	if (sprintf("%.3f", (lt - tbi) / 1000) != $c["SilentTime"]) err("SilentTime")
	if ($c["LDist"] < 20 || $c["LDist"] > 500) err("LDist out of range")
	if ($c["ReqCState"] == "") empty++
	if (($c["Disturbed"] == "True") != ($c["SoftIRQCnt"] > 0 || $c["NMICnt"] > 0)) err("Disturbed")
	n++
}
function err(what) { if (bad++ < 20) print "row " NR ": " what ": " $0 }
END {
	if (n != 5000) { print "CSV has " n " rows, not 5000"; bad++ }
	if (empty == n && system("test -d /sys/devices/system/cpu/cpu0/cpuidle") == 0) { print "ReqCState never named"; bad++ }
	exit bad ? 1 : 0
}
' "$TMP/dp.csv" || fail "datapoints inconsistent (see above)"
clean || fail "hrt objects left after a run: $(leftovers)"
[ ! -e /sys/fs/bpf/hrt ] || fail "something pinned under /sys/fs/bpf/hrt"

# 2. Bad options are refused with a message naming the key.
"$DRIVER" -c "$CPU" -n 10 -O ring_kib=1000 -o "$TMP/x.csv" 2>"$TMP/bad.err" && fail "ring_kib=1000 accepted"
grep -q "ring_kib" "$TMP/bad.err" || fail "ring_kib error does not name the key: $(cat "$TMP/bad.err")"
"$DRIVER" -c "$CPU" -n 10 -O poll=1000 -o "$TMP/x.csv" 2>"$TMP/bad.err" && fail "poll=1us accepted"
grep -q "poll" "$TMP/bad.err" || fail "poll error does not name the key"
"$DRIVER" -c 4096 -n 10 -o "$TMP/x.csv" 2>"$TMP/bad.err" && fail "cpu 4096 accepted"
grep -q "cpu = 4096" "$TMP/bad.err" || fail "bad cpu error unclear: $(cat "$TMP/bad.err")"
clean || fail "hrt objects left after a refused start"

# 3. A second run while one is running is refused; the first is unharmed.
"$DRIVER" -c "$CPU" -n 100000000 -t 30 -o "$TMP/long.csv" 2>"$TMP/long.err" &
LONG=$!
i=0
while [ -z "$(bpftool prog show | grep 'name hrt_cpu_idle')" ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
"$DRIVER" -c "$CPU" -n 10 -o "$TMP/second.csv" 2>"$TMP/second.err" && fail "second run was not refused"
grep -q "another hrt run is active" "$TMP/second.err" || fail "second run: unclear error: $(cat "$TMP/second.err")"

# 4. SIGINT: the run stops, its CSV is complete, nothing is left behind.
sleep 1
kill -INT "$LONG"
wait "$LONG" || { cat "$TMP/long.err"; fail "run stopped by SIGINT exited non-zero"; }
grep -q '^interrupted: 1$' "$TMP/long.err" || fail "SIGINT not seen by the run"
n=$(sed -n 's/^datapoints: //p' "$TMP/long.err")
[ "$n" -gt 0 ] || fail "no datapoints before SIGINT"
[ "$(($(wc -l < "$TMP/long.csv") - 1))" = "$n" ] || fail "CSV rows != datapoints after SIGINT"
clean || fail "hrt objects left after SIGINT: $(leftovers)"

# 5. After the first run ended, a new one may start (the lock was released).
"$DRIVER" -c "$CPU" -n 100 -t 30 -o "$TMP/again.csv" 2>"$TMP/again.err" || { cat "$TMP/again.err"; fail "run after SIGINT refused"; }
clean || fail "hrt objects left after the last run"
echo "PASS: 5000 consistent datapoints, bad options refused, second run refused, clean after run and SIGINT"
