# Sourced by tests/vm/init.sh (uses its check/pass/fail/no_kernel_errors):
# the ndl module without an I210 -- load, refusals with exact reasons, bad
# ioctl arguments, clean unload -- and the ndl plugin's qdisc and SO_TXTIME
# code on a veth pair with the etf/mqprio modules Debian's kernel ships.
M=/lib/modules
check insmod-ndl insmod $M/wultfw_ndl.ko
check ndl-dev-node test -c /dev/wultfw_ndl
check ndl-dev-root-only sh -c '[ "$(stat -c %a /dev/wultfw_ndl)" = 600 ]'
/bin/vmtest_ndl badargs
/bin/vmtest_ndl refuse lo "lo is not a PCI device"
/bin/vmtest_ndl refuse nosuch0 "no network interface 'nosuch0'"
/bin/vmtest_ndl refuse 0000:00:1f.7 "no network interface on PCI device 0000:00:1f.7"
# QEMU's default NIC is an e1000 at 00:03.0: a real PCI NIC that is not ours.
if [ -e $M/extra/e1000.ko ] && insmod $M/extra/e1000.ko; then
	sleep 1
	ifc=$(ls /sys/bus/pci/devices/0000:00:03.0/net 2>/dev/null | head -1)
	if [ -n "$ifc" ]; then
		/bin/vmtest_ndl refuse "$ifc" "$ifc (0000:00:03.0) is not an I210/I211 (it is 8086:100e)"
		/bin/vmtest_ndl refuse 0000:00:03.0 "is not an I210/I211 (it is 8086:100e)"
	else
		fail ndl-e1000 "e1000 loaded but no interface at 0000:00:03.0"
	fi
	check ndl-rmmod-e1000 rmmod e1000
else
	echo "VMTEST SKIP ndl-e1000: no e1000 module or device"
fi
check rmmod-ndl rmmod wultfw_ndl
check ndl-gone sh -c '! test -e /dev/wultfw_ndl && ! grep -q wultfw_ndl /proc/modules'
# The plugin's netlink/SO_TXTIME code for real: etf and mqprio exist here.
if [ -x /bin/test_ndl_net ]; then
	for m in veth sch_mqprio sch_etf; do insmod $M/extra/$m.ko; done
	if /bin/test_ndl_net >/tmp/ndl_net.out 2>&1; then
		pass ndl-netns
	else
		fail ndl-netns "exit $?: $(tail -4 /tmp/ndl_net.out | tr '\n' '|')"
	fi
	grep "^ndl-net" /tmp/ndl_net.out
else
	echo "VMTEST SKIP ndl-netns: test_ndl_net not built"
fi
# kill -9 with ndl's qdiscs on an interface: the state file remembers
# them; `wultfw restore`, and the next run, put them back with the ndl
# plugin (tests/vm/vmtest_ndl_kill.c makes the change as ndl's start does).
# ndl_kill_hold IFNAME user|default: changed, then killed; its pid in $kpid.
ndl_kill_hold() {
	/bin/vmtest_ndl_kill hold "$1" 0 "$2" >/tmp/ndl_kill.out 2>&1 &
	kpid=$!
	until_ok grep -q "^held" /tmp/ndl_kill.out
	echo "ndl-kill: $(cat /tmp/ndl_kill.out); during: $(tc qdisc show dev "$1" | tr '\n' ' ')"
	kill -9 $kpid
	wait $kpid 2>/dev/null
	if tc qdisc show dev "$1" | grep -q etf && ls /run/wultfw/*.state >/dev/null 2>&1; then
		pass "ndl-kill-$2-left"
	else
		fail "ndl-kill-$2-left" "no etf qdisc or no state file after kill -9: $(tail -2 /tmp/ndl_kill.out | tr '\n' '|')"
	fi
}
ndl_kill_back() {	# NAME WHERE user|default IFNAME: as before, no state file
	after=$(tc qdisc show dev "$4" | tr '\n' ' ')
	echo "ndl-kill: after $2: $after"
	if echo "$after" | grep -q "etf\|mqprio"; then
		fail "$1" "ndl's qdiscs still there after $2: $after"
	elif [ "$3" = user ] && ! echo "$after" | grep -q "pfifo 5:"; then
		fail "$1" "the user's pfifo 5: is not back after $2: $after"
	elif ls /run/wultfw/*.state >/dev/null 2>&1; then
		fail "$1" "a state file is left: $(cat /run/wultfw/*.state | tr '\n' '|')"
	else
		pass "$1"
	fi
}
for m in veth sch_mqprio sch_etf; do
	[ -e /sys/module/$m ] || insmod $M/extra/$m.ko 2>/dev/null
done
# First a veth with 4 TX queues (mqprio + etf on queue 0) and a user's
# root pfifo: `wultfw restore` must remove ours and set theirs up again.
# Then one with 1 TX queue (etf at the root) and the defaults: the next
# run must put them back before it measures.
if [ -x /bin/vmtest_ndl_kill ] && [ -x /bin/wultfw ] && [ -e /lib/wultfw/ndl.so ] &&
   [ -e /sys/module/sch_etf ] && /bin/vmtest_ndl_kill veth ndlk0 ndlk1 4 &&
   ip link add ndlk2 type veth && ip link set ndlk2 up; then
	export WULTFW_PLUGIN_PATH=/lib/wultfw
	mkdir -p /run
	ndl_kill_hold ndlk0 user
	wultfw restore >/tmp/ndl_restore.out 2>&1
	rc=$?
	sed 's/^/ndl-kill: /' /tmp/ndl_restore.out
	if [ $rc = 0 ] && grep -q "ndl: qdisc etf on ndlk0 TX queue 0 under a root mqprio 100: (before: pfifo 5: root)" /tmp/ndl_restore.out; then
		pass ndl-kill-restore-says
	else
		fail ndl-kill-restore-says "exit $rc: $(tail -3 /tmp/ndl_restore.out | tr '\n' '|')"
	fi
	ndl_kill_back ndl-kill-restore "wultfw restore" user ndlk0
	ndl_kill_hold ndlk2 default
	sed 's|datapoints = 2000|datapoints = 200|; s|/tmp/wfw-out|/tmp/wfw-ndlk|' /exp-kmod-hrt.cfg >/tmp/ndlk.cfg
	wultfw -q -c /tmp/ndlk.cfg >/tmp/ndl_run.out 2>&1
	rc=$?
	sed 's/^/ndl-kill: /' /tmp/ndl_run.out
	if [ $rc = 0 ] && grep -q "a killed wultfw (pid $kpid) left these settings changed" /tmp/ndl_run.out &&
	   grep -q "ndl: qdisc etf as the root of ndlk2 (before: the defaults)" /tmp/ndl_run.out; then
		pass ndl-kill-next-run-says
	else
		fail ndl-kill-next-run-says "exit $rc: $(tail -3 /tmp/ndl_run.out | tr '\n' '|')"
	fi
	ndl_kill_back ndl-kill-next-run "the next run" default ndlk2
	ip link del ndlk0
	ip link del ndlk2
	unset WULTFW_PLUGIN_PATH
else
	echo "VMTEST SKIP ndl-kill: no vmtest_ndl_kill, wultfw with ndl.so, sch_etf or veth"
fi
no_kernel_errors kernel-log-after-ndl
