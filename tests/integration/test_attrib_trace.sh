#!/bin/sh
# The attribution's measuring side (plugins/attrib/attrib_trace.h) on the
# running kernel, through tests/attrib/attrib-trace-test: loaded on CPU 1
# for a bounded time, first on a quiet CPU, then while the test makes
# noise there itself (a SCHED_FIFO thread wfw-spin that spins SPIN_US
# SPIN_RUNS times, UDP on 127.0.0.1 from wfw-udp, function-call and
# reschedule IPIs to wfw-busy). The events must name that noise: switches
# to wfw-spin with its pid and comm, wfw-spin running whenever it read
# the clock while spinning, NET_RX softirqs in wfw-udp, CAL and RES
# vectors in wfw-busy;
# every stream in time order, entries and exits nested and balanced,
# switches outside any handler, and every event seen either handed on or
# counted lost. Needs root and BTF (SKIP naming what is missing).
. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"
BIN="$top/tests/attrib/attrib-trace-test"
CPU=${ATTRIB_TEST_CPU:-1}
cd "$work" || exit 1

if [ ! -x "$BIN" ]; then
	why=$(sed -n 's/^#define WFW_BPF_MISSING "\(.*\)"$/\1/p' "$top/config.h")
	echo "SKIP: the eBPF attribution is not built (configure lacked:${why:- see its output})"
	exit 77
fi
[ "$(id -u)" = 0 ] || { echo "SKIP: not root: the attribution loads an eBPF program"; exit 77; }
[ -r /sys/kernel/btf/vmlinux ] || { echo "SKIP: the kernel has no BTF (/sys/kernel/btf/vmlinux)"; exit 77; }
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "SKIP: needs 2 online CPUs: the reader must not run on the measured one"; exit 77; }
[ "$(cat "/sys/devices/system/cpu/cpu$CPU/online" 2>/dev/null || echo 1)" = 1 ] &&
	[ -d "/sys/devices/system/cpu/cpu$CPU" ] || { echo "SKIP: CPU $CPU is not online"; exit 77; }
command -v bpftool >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin

# Tests that load the attribution take this lock, so the check for
# programs left behind sees only ours.
exec 9>/tmp/wultfw-attrib-tests.lock
flock -w 600 9 || { echo "SKIP: another test held /tmp/wultfw-attrib-tests.lock for 10 minutes"; exit 77; }
leftovers() {
	command -v bpftool >/dev/null 2>&1 || return 0
	bpftool prog show 2>/dev/null | grep -E "name attrib_[a-z_]+ " | head -3
}

# run NAME ARGS...: the test program under a time bound; 77 is a SKIP.
run() {
	_n=$1; shift
	timeout 120 "$BIN" -c "$CPU" -o "$_n.ev" "$@" >"$_n.out" 2>&1
	_st=$?
	[ $_st = 77 ] && { sed -n 's/^SKIP: /SKIP: /p' "$_n.out" | head -1; exit 77; }
	[ $_st = 0 ] || { fail "$_n: exit status $_st"; sed 's/^/    /' "$_n.out"; return 1; }
	return 0
}
val() { sed -n "s/^$2 //p" "$1.out"; }

# stream NAME: checks every stream must pass, whatever ran on the CPU.
stream() {
	awk -F'\t' -v seen="$(val "$1" seen)" -v lost="$(val "$1" lost)" \
		-v late="$(val "$1" late)" '
	function bad(what) { if (nbad++ < 10) print "  line " NR ": " what ": " $0; }
	$1 < last { bad("time goes back") }
	{ last = $1 }
	$2 == "lost" { sp = 0; markers++; inh = 1; next }
	$2 ~ /\+$/ { st[++sp] = $2 " " $3; next }
	$2 ~ /-$/ {
		want = substr($2, 1, length($2) - 1) "+ " $3
		if (sp == 0) {
			# In a handler when tracing began: only before the first switch.
			if (switched && !inh) bad("exit without its entry")
			early++
		} else if (st[sp] != want) bad("exit of another context than the innermost (" st[sp] ")")
		else sp--
		next
	}
	$2 == "switch" { if (sp && !inh) bad("task switch inside a handler (" st[sp] ")"); switched = 1; inh = 0; sp = 0; n++; next }
	{ n++ }
	END {
		n += 0
		if (early > 3) bad(early " exits without entries at the start")
		if (sp > 3) bad(sp " entries still open at the end")
		evs = NR - markers
		if (evs + late + lost != seen) bad("seen " seen " != records " evs " + late " late " + lost " lost)
		exit nbad ? 1 : 0
	}' "$1.ev"
}

# 1. A quiet CPU: how many events per second, and the stream whole.
if run idle -t 3; then
	ok "idle: $(val idle seen) events in $(val idle seconds) s ($(val idle per_second)/s), lost $(val idle lost)"
	if stream idle; then ok "idle: in time order, nested, balanced, all seen handed on"
	else fail "idle: the stream (above)"; fi
	expect_in idle.out "smi " "SMI availability said (count or why not)"
	grep -q "^smi not available: .*[a-z]" idle.out || grep -q "^smi MSR_SMI_COUNT" idle.out ||
		fail "smi: neither a source nor a reason: $(grep '^smi' idle.out)"
fi

# 2. Noise we make on the CPU, named in the stream. NET_RX runs in the
# sender's context unless RPS moves it or softirqs run in threads (RT).
netrx_anywhere=
grep -q '[1-9a-f]' /sys/class/net/lo/queues/rx-*/rps_cpus 2>/dev/null &&
	netrx_anywhere="lo has RPS"
uname -v | grep -q PREEMPT_RT && netrx_anywhere="a PREEMPT_RT kernel runs softirqs in threads"
[ -z "$netrx_anywhere" ] ||
	skip_part "$netrx_anywhere: NET_RX checked anywhere on CPU $CPU, not in wfw-udp"

if run noise --noise --cost; then
	ok "noise: $(val noise seen) events in $(val noise seconds) s ($(val noise per_second)/s), cost $(val noise cost_ns) ns per event"
	if stream noise; then ok "noise: in time order, nested, balanced, all seen handed on"
	else fail "noise: the stream (above)"; fi
	# cur: the task running (last switch); per task: what ran in it.
	# wfw-spin's own clock readings, in time order: the task the trace
	# has running at each must be wfw-spin.
	wins=$(sed -n 's/^spin_window //p' noise.out | tr '\n' ' ')
	awk -F'\t' -v spin="$(val noise spin_tid)" -v udp="$(val noise udp_tid)" \
		-v busy="$(val noise busy_tid)" -v runs="$(val noise spin_runs)" \
		-v wins="$wins" -v netrx_anywhere="$netrx_anywhere" \
		-v missing="$(val noise missing)" '
	function bad(what) { print "  " what; nbad++ }
	function upto(ts) {
		for (; k <= nb && b[k] < ts; k++)
			if (cur != spin && nwrong++ < 3) bad("wfw-spin read the clock at " b[k] " but the trace has pid " cur " running")
	}
	BEGIN { nb = split(wins, b, " "); k = 1 }
	{ upto($1) }
	$2 == "switch" {
		if (cur == spin) on += $1 - since
		cur = $3; since = $1
		if ($3 == spin) { if ($5 == "wfw-spin") named++; else badname = $5 }
		next
	}
	$2 == "sirq+" && $3 == 3 { anyrx++; if (cur == udp) netrx++ }
	$2 == "vec+" && $3 == 1 && cur == busy { cal++ }
	$2 == "vec+" && $3 == 2 && cur == busy { res++ }
	END {
		upto(2^62)
		printf "  wfw-spin: %d switches to it, %.0f us on the CPU, running at all %d of its clock readings; NET_RX in wfw-udp: %d (anywhere: %d); CAL in wfw-busy: %d, RES: %d\n", named, on / 1000, nb - nwrong, netrx, anyrx, cal, res
		if (nb != 2 * runs) bad(nb " clock readings of wfw-spin, expected " 2 * runs)
		if (badname != "") bad("a switch to wfw-spin (pid " spin ") names it " badname)
		if (named < runs) bad("wfw-spin woke " runs " times, switches to it: " named)
		if (netrx_anywhere && anyrx < 1) bad("no NET_RX softirq ran")
		if (!netrx_anywhere && netrx < 1) bad("no NET_RX softirq ran in wfw-udp")
		if (missing == "none" && cal < 1) bad("no function-call IPI (CAL) while wfw-busy ran")
		if (missing == "none" && res < 1) bad("no reschedule IPI (RES) while wfw-busy ran")
		exit nbad ? 1 : 0
	}' noise.ev >names.out
	st=$?
	cat names.out
	[ $st = 0 ] && ok "noise: the spinning thread, NET_RX and the IPIs named" ||
		fail "noise: the stream does not name the noise (above)"
	m=$(val noise missing)
	[ "$m" = none ] || skip_part "this kernel lacks the tracepoints $m: the vector checks left out"
fi

# 3. A storm into a ring of 64 events (100 000 task switches between two
# SCHED_FIFO threads, --bench): events are lost, counted, and marked in
# the stream where they fell, each loss exactly once.
if run storm -t 0.2 --bench -r 64; then
	l=$(val storm lost)
	ids=$(awk -F'\t' '$2 == "lost" { s += $3 } END { print s + 0 }' storm.ev)
	[ "$l" -gt 0 ] && ok "storm: $l of $(val storm seen) events lost, $(val storm markers) markers" ||
		fail "storm: a 64-event ring lost nothing of $(val storm seen) events"
	[ "$ids" = "$l" ] && ok "storm: the markers count every lost event" ||
		fail "storm: markers count $ids lost events, the programs $l"
	stream storm && ok "storm: the stream whole around the losses" || fail "storm: the stream (above)"
fi

# 4. A kernel without x86's vectors (another arch), played: the rest is
# attached, the missing ones named, no vector in the stream.
vecs="local_timer_entry local_timer_exit call_function_entry call_function_exit"
vecs="$vecs call_function_single_entry call_function_single_exit reschedule_entry"
vecs="$vecs reschedule_exit irq_work_entry irq_work_exit"
if WULTFW_ATTRIB_HIDE_TP="$vecs" run novec -t 1; then
	[ "$(val novec missing)" = "$vecs" ] && ok "missing tracepoints named: $(val novec missing)" ||
		fail "missing tracepoints: '$(val novec missing)', expected '$vecs'"
	grep -q "	vec[+-]	" novec.ev && fail "vector events without their tracepoints" ||
		ok "no vector events without their tracepoints"
	stream novec && ok "novec: the stream whole" || fail "novec: the stream (above)"
fi
# None there at all: refused, naming them.
WULTFW_ATTRIB_HIDE_TP="$vecs irq_handler_entry irq_handler_exit softirq_entry softirq_exit nmi_handler sched_switch" \
	timeout 60 "$BIN" -c "$CPU" -t 1 >none.out 2>&1
st=$?
[ $st = 77 ] && grep -q "has none of the tracepoints the attribution uses (.*sched_switch" none.out &&
	ok "no tracepoint at all: refused, naming them" ||
	fail "no tracepoint at all: exit status $st: $(cat none.out)"

# 5. Nothing left loaded once the program has exited.
i=0
while [ -n "$(leftovers)" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
[ -z "$(leftovers)" ] && ok "no attribution program left loaded" ||
	fail "programs left loaded: $(leftovers)"
finish
