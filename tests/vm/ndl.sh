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
no_kernel_errors kernel-log-after-ndl
