#!/bin/sh
# A lab from an Ansible YAML inventory: six SUTs in two groups (rack_a:
# a1 a2 a3, rack_b: b1 b2 b3), five loopback sshd (tests/integration/
# sshd_lib.sh) and b3 down (nothing listens on its port). a2 is made worse
# on purpose: its sshd sets WFW_LAB_HOG, and the SUTs' wultfw (a wrapper)
# then shares the measured CPU with lab_hog, a SCHED_FIFO 99 thread that
# spins 6 ms of every 15 ms while the run lasts (longer than the stalls a
# loaded guest gives any SUT now and then); the timer source measures
# at SCHED_FIFO 50, below it but above the machine's other load. One short
# experiment on rack_a, then on all, one SUT at a time (--jobs 1: a2's hog
# disturbs no other SUT); then the fleet table and page (calc/report
# --fleet) must flag a2, when the raw data shows a2 standing out.
# Alone: the hog would disturb other tests measuring on CPU 1, and they
# the SUTs' measurements.
# wultfw-test: alone
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
. "$srcdir/tests/integration/sshd_lib.sh"
SSHD_DIR=$work
sshd_test_begin test_lab
hog="$top/tests/integration/lab_hog"
if [ ! -x "$hog" ]; then
	echo "SKIP: test_lab: no $hog (make check builds it)"
	exit 77
fi

# lab_hog goes with the SUT runs: stopped by its pids too.
cleanup() {
	sshd_stop_runs "$work/sutdir"
	[ -f "$work/hog.pids" ] && kill $(cat "$work/hog.pids") 2>/dev/null
	sshd_stop_all
	rm -rf "$work"
}
trap cleanup EXIT

# bounded SECONDS CMD...: CMD, stopped after SECONDS (status 124).
bounded() {
	_b=$1; shift
	"$@" &
	wait_bounded $! "$_b"
}

cat >exp.cfg <<'CFG'
outdir = "res";
sinks = ( { plugin = "csv"; } );
experiments = (
  { name = "lab";
    source = { plugin = "timer"; cpu = 1; ldist = [ "200us", "600us" ]; priority = 50; };
    limits = { datapoints = 2000; time = "4s"; }; }
);
CFG
# SCHED_FIFO for the measuring thread, here (the SUTs are this machine).
sed 's/datapoints = 2000/datapoints = 10/' exp.cfg >fifo.cfg
bounded 120 "$WULTFW" -q --no-progress -o resfifo -c fifo.cfg >fifo.out 2>&1
st=$?
if [ $st != 0 ] && grep -q "not permitted" fifo.out; then
	echo "SKIP: test_lab: $(grep -m1 "not permitted" fifo.out)"
	exit 77
fi
expect_status 0 $st "a local run at SCHED_FIFO 50" fifo.out

sshd_keys || { fail "no keys"; finish; }
n=2
for s in a1 a2 a3 b1 b2; do
	sshd_extra=
	[ $s = a2 ] && sshd_extra="SetEnv WFW_LAB_HOG=1"
	sshd_start $s 127.0.0.$n || { fail "sshd $s does not start"; finish; }
	eval "addr_$s=127.0.0.$n port_$s=$sshd_port"
	n=$((n + 1))
done
sshd_extra=
# b3: an address and port no sshd here listens on (refused at once).
addr_b3=127.0.0.$n
port_b3=$sshd_next_port
ok "five sshd on 127.0.0.2-6"

cat >lab.yml <<Y
all:
  vars:
    ansible_ssh_common_args: '-o UserKnownHostsFile=$work/known_hosts -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes -o IdentitiesOnly=yes'
  children:
    rack_a:
      vars:
        ansible_user: root
        ansible_ssh_private_key_file: $work/userkey
      hosts:
        a1: { ansible_host: $addr_a1, ansible_port: $port_a1 }
        a2: { ansible_host: $addr_a2, ansible_port: $port_a2 }
        a3: { ansible_host: $addr_a3, ansible_port: $port_a3 }
    rack_b:
      vars:
        ansible_user: root
        ansible_ssh_private_key_file: $work/userkey
      hosts:
        b1: { ansible_host: $addr_b1, ansible_port: $port_b1 }
        b2: { ansible_host: $addr_b2, ansible_port: $port_b2 }
        b3: { ansible_host: $addr_b3, ansible_port: $port_b3 }
Y
# The SUTs' wultfw: this build's; a run (--local) where the SUT's sshd
# set WFW_LAB_HOG shares CPU 1 with lab_hog for as long as it lives.
cat >sut-wultfw <<W
#!/bin/sh
if [ -n "\${WFW_LAB_HOG:-}" ]; then
	case " \$* " in *" --local "*)
		'$hog' 1 6000 15000 120 \$\$ >>'$work/hog.log' 2>&1 &
		echo \$! >>'$work/hog.pids' ;;
	esac
fi
WULTFW_PLUGIN_PATH='$WULTFW_PLUGIN_PATH' exec '$WULTFW' "\$@"
W
chmod 755 sut-wultfw

lab() {
	bounded 600 "$WULTFW" --ssh-config /dev/null --sut-dir "$work/sutdir" \
		--sut-wultfw "$work/sut-wultfw" -i lab.yml --jobs 1 --no-progress -c exp.cfg "$@"
}
rows() { echo $(($(wc -l <"$1" 2>/dev/null || echo 1) - 1)); }

# One group: its three SUTs, all reachable.
lab -H rack_a -o res_a >a.out 2>a.err
expect_status 0 $? "rack_a: three SUTs, all done"
for s in a1 a2 a3; do
	[ "$(rows res_a/$s/lab/datapoints.csv)" -gt 0 ] &&
		grep -qF "host: '$s'" res_a/$s/lab/info.yml &&
		ok "rack_a: $s's result came back under its name" ||
		{ fail "rack_a: no result from $s:"; cat a.out a.err; }
done
[ "$(ls res_a)" = "$(printf 'a1\na2\na3')" ] && ok "rack_a: nothing from rack_b" ||
	fail "rack_a's results: $(ls res_a | tr '\n' ' ')"

# All six: five come back, b3 is named in one line, the status says so.
lab -H all -o res_all >all.out 2>all.err
expect_status 1 $? "all: one SUT down, the run fails"
good=0
for s in a1 a2 a3 b1 b2; do
	[ "$(rows res_all/$s/lab/datapoints.csv)" -gt 0 ] && good=$((good + 1))
done
[ $good = 5 ] && ok "all: five results" || { fail "all: $good results of 5:"; cat all.out all.err; }
[ ! -e res_all/b3 ] && ok "no result directory for b3" || fail "res_all/b3 exists"
[ "$(grep -c "b3: failed: cannot connect" all.err)" = 1 ] && ok "b3 is named in one line" ||
	{ fail "b3's error:"; cat all.err; }
expect_in all.err "6 SUTs: 0 waiting, 0 running, 5 done, 1 failed (b3)" "the summary line"
sed 's/^/    /' all.err all.out
grep -qE "^b3 +failed +- +-$" all.out && ok "the table has b3 failed" ||
	{ fail "no row for b3 in the table:"; cat all.out; }
[ "$(grep -cE "^(a[1-3]|b[12]) +done +[0-9]+ +res_all/" all.out)" = 5 ] &&
	ok "and five done" || { fail "the table:"; cat all.out; }

# Did a2 stand out? Its hog must have run, and its tail must be long
# against the other SUTs' (their median: one of them may have had a stall
# of the machine), by the raw data of this run.
# p999 FILE: WakeLatency's 99.9th percentile (nearest rank), in us.
p999() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "WakeLatency") c = i; next }
		c { print $c }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { r = int(NR * 0.999 + 0.999); print (NR ? v[r] : 0) }'
}
for s in a1 a2 a3 b1 b2; do
	eval "p_$s=$(p999 res_all/$s/lab/datapoints.csv)"
done
tails="a1 $p_a1, a2 $p_a2, a3 $p_a3, b1 $p_b1, b2 $p_b2 us"
# the others' median (of four: the mean of the middle two)
med=$(printf '%s\n' "$p_a1" "$p_a3" "$p_b1" "$p_b2" | sort -g | sed -n 2,3p |
	awk '{ s += $1 } END { print s / 2 }')
standout=
if ! grep -q "^lab_hog [0-9]*: SCHED_FIFO" hog.log 2>/dev/null; then
	skip_part "the made-worse SUT: lab_hog did not run ($(head -n 1 hog.log 2>/dev/null))"
elif ! awk -v w="$p_a2" -v m="$med" 'BEGIN { exit !(w >= 3000 && w > 3 * m) }'; then
	skip_part "a2 did not stand out in this run (WakeLatency p99.9: $tails; wanted a2 >= 3000 us and 3x the others' median): a loaded machine"
else
	standout=1
	ok "a2 stands out: WakeLatency p99.9 $tails"
fi

# The fleet table and page (wultfw calc/report --fleet).
bounded 300 "$WULTFW" calc --fleet res_all/*/lab >fleet.out 2>fleet.err
st=$?
if [ $st = 2 ] && grep -q -- "--fleet" fleet.err; then
	skip_part "the fleet report: $(head -n 1 fleet.err)"
	finish
fi
expect_status 0 $st "calc --fleet of five SUTs"
sed 's/^/    /' fleet.out
# flagged: the SUTs whose row for all C-states says OUTLIER (the raw
# figures above are of all datapoints; a C-state of a few datapoints can
# be flagged on any SUT by one stall of the machine).
flagged=$(awk '/OUTLIER/ { a = n = 0; for (i = 1; i <= NF; i++) {
		if ($i == "all") a = 1; if ($i ~ /^(a[1-3]|b[1-3])$/) n = $i }
		if (a && n) print n }' fleet.out | sort -u | tr '\n' ' ')
listed=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(a[1-3]|b[1-3])$/) print $i }' fleet.out |
	sort -u | tr '\n' ' ')
[ "$listed" = "a1 a2 a3 b1 b2 " ] && ok "the fleet table: the five SUTs" ||
	{ fail "the fleet table lists '$listed', expected 'a1 a2 a3 b1 b2 '"; cat fleet.out fleet.err; }
grep -qw flag fleet.out && ok "the table has a flag column" || fail "no 'flag' column in the fleet table"
if [ -n "$standout" ]; then
	case " $flagged" in
	*" a2 "*) ok "a2 is flagged OUTLIER (all C-states)" ;;
	*) fail "a2 is not flagged (WakeLatency p99.9: $tails):"; cat fleet.out ;;
	esac
	for s in $flagged; do
		[ $s = a2 ] && continue
		# Another SUT flagged: load can give it a long tail of its own,
		# not the tool's fault when the raw data says so.
		eval "p=\$p_$s"
		if awk -v p="$p" -v m="$med" 'BEGIN { exit !(p > 1.5 * m) }'; then
			skip_part "$s flagged too: its own tail was long in this run (p99.9: $tails)"
		else
			fail "$s is flagged, its tail is like the others' (p99.9: $tails):"; cat fleet.out
		fi
	done
fi
bounded 300 "$WULTFW" report --fleet -o rep res_all/*/lab >rep.out 2>&1
expect_status 0 $? "report --fleet of five SUTs"
# The page (its table may sit in data.js beside it) names the five SUTs,
# flags a2, and each SUT's own report is there to link to.
if [ -s rep/index.html ]; then
	named=0
	for s in a1 a2 a3 b1 b2; do
		cat rep/index.html rep/*.js 2>/dev/null | grep -qw "$s" && [ -s rep/$s/index.html ] &&
			named=$((named + 1))
	done
	[ $named = 5 ] && ok "the fleet page names the five SUTs, each with its report" ||
		fail "the fleet page names $named SUTs of 5 with a report in rep/SUT/"
	# a2 flagged: in the page, or in the data its script draws the table from
	[ -z "$standout" ] || cat rep/index.html rep/data.js 2>/dev/null | grep -w a2 |
		grep -qE 'OUTLIER|"flagged": true' && ok "the page flags a2" ||
		fail "the page does not flag a2"
else
	fail "no rep/index.html:"; cat rep.out
fi
finish
