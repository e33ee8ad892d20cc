#!/bin/sh
# /init of the wultfw test VM (tests/vm/run.sh builds the initramfs).
# Prints "VMTEST PASS name" / "VMTEST FAIL name: why", then "VMTEST DONE"
# and powers off. The host decides from these lines alone.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
CPU=1
COUNT=2000

pass() { echo "VMTEST PASS $1"; }
fail() { echo "VMTEST FAIL $1: $2"; }
check() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name" "'$*' failed"; fi; }
# until_ok CMD...: CMD every second until it succeeds, at most 120 s. TCG on
# a loaded host can take seconds for a step: wait for it, never guess.
until_ok() { i=0; until "$@"; do i=$((i + 1)); [ $i -lt 120 ] || return 1; sleep 1; done; }
no_kernel_errors() {
	# Anything the kernel says went wrong since boot.
	if dmesg | grep -E "Oops|WARNING:|BUG:|Call Trace|general protection|refcount_t" >/tmp/kerr; then
		fail "$1" "kernel log: $(head -3 /tmp/kerr | tr '\n' '|')"
	else
		pass "$1"
	fi
}

echo "VMTEST kernel $(uname -r), $(nproc) CPUs, clockevent CPU$CPU:" \
	"$(cat /sys/devices/system/clockevents/clockevent$CPU/current_device)," \
	"cpuidle: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)"

check insmod-wultfw insmod /lib/modules/wultfw.ko
check insmod-hrt insmod /lib/modules/wultfw_hrt.ko
check insmod-tdt insmod /lib/modules/wultfw_tdt.ko
check insmod-i210 insmod /lib/modules/wultfw_i210.ko
check i210-pci-driver test -d /sys/bus/pci/drivers/wultfw_i210
check dev-node test -c /dev/wultfw
check dev-root-only sh -c '[ "$(stat -c %a /dev/wultfw)" = 600 ]'

/bin/vmtest tdt $CPU
/bin/vmtest badargs $CPU
# No I210 in QEMU: the i210 device must say so, not pretend.
/bin/vmtest refuse $CPU i210 "no I210/I211 bound to wultfw_i210"
. /ndl.sh
/bin/vmtest run $CPU $COUNT
/bin/vmtest seed $CPU 200
no_kernel_errors kernel-log-after-run

# End to end: the real binary, the tdt source with the kernel hrt device,
# the csv sink. Checks the result directory, not just the exit status.
if [ -x /bin/wultfw ]; then
	export WULTFW_PLUGIN_PATH=/lib/wultfw
	if wultfw -c /exp-kmod-hrt.cfg >/tmp/wultfw.out 2>&1; then
		pass wultfw-run
	else
		fail wultfw-run "exit $?: $(tail -3 /tmp/wultfw.out | tr '\n' '|')"
	fi
	csv=$(find /tmp/wfw-out -name datapoints.csv | head -1)
	info=$(find /tmp/wfw-out -name info.yml | head -1)
	if [ -n "$csv" ]; then
		# Rows, and every WakeLatency/IntrLatency positive and below 1 s,
		# LDist inside the configured 20-500 us; the adjusted latencies are
		# the raw ones minus what our timestamping cost (raw = true).
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ n++; w = $c["WakeLatency"]; t = $c["IntrLatency"]; l = $c["LDist"];
			  wr = $c["WakeLatencyRaw"]; tr = $c["IntrLatencyRaw"];
			  if (!(w > 0 && w < 1000000 && t > 0 && t < 1000000 && l >= 20 && l <= 500)) bad++
			  if (!(wr > w && tr > t)) badadj++
			  sw += wr - w; st += tr - t }
			END { printf "csv: %d rows, %d implausible, %d badly adjusted; mean adjustment WakeLatency %.3f us, IntrLatency %.3f us\n", n, bad, badadj, sw / n, st / n;
			      exit !(n >= 2000 && bad == 0 && badadj == 0 && c["WakeLatency"] && c["SilentTime"] && c["AIOverhead"] && c["IntrOverhead"]) }' "$csv" \
			&& pass wultfw-csv || fail wultfw-csv "$csv: too few rows, missing columns or implausible values"
		head -2 "$csv"
	else
		fail wultfw-csv "no datapoints.csv under /tmp/wfw-out: $(cat /tmp/wultfw.out | tail -3 | tr '\n' '|')"
	fi
	if [ -n "$info" ] && grep -q "kmod_counters" "$info" && grep -q "kmod_time_read_ns" "$info"; then
		pass wultfw-info
		grep -E "kmod_|devid|discarded" "$info"
	else
		fail wultfw-info "info.yml missing or without kmod_counters"
	fi
	# tdt itself must refuse through the binary with the module's reason.
	sed 's/device = "hrt"/device = "tdt"/' /exp-kmod-hrt.cfg >/tmp/exp-tdt.cfg
	if wultfw -c /tmp/exp-tdt.cfg >/tmp/wultfw-tdt.out 2>&1; then
		fail wultfw-tdt-refuses "tdt ran under TCG"
	elif grep -q "clockevent is not lapic-deadline" /tmp/wultfw-tdt.out; then
		pass wultfw-tdt-refuses
		cat /tmp/wultfw-tdt.out
	else
		fail wultfw-tdt-refuses "$(tail -2 /tmp/wultfw-tdt.out | tr '\n' '|')"
	fi
	no_kernel_errors kernel-log-after-wultfw
else
	echo "VMTEST SKIP wultfw: binary not in the initramfs"
fi

# Unload attempts while a run is active must fail cleanly (module in use).
/bin/vmtest hold $CPU 30 >/tmp/hold.out &
HOLD=$!
until_ok grep -q "hold: running" /tmp/hold.out
if rmmod wultfw_hrt 2>/dev/null; then fail rmmod-hrt-busy "unloaded mid-run"; else pass rmmod-hrt-busy; fi
if rmmod wultfw 2>/dev/null; then fail rmmod-fw-busy "unloaded mid-run"; else pass rmmod-fw-busy; fi
check tdt-unload-mid-run rmmod wultfw_tdt
# A reader that goes away stops the run and releases the device module.
kill -9 $HOLD
wait $HOLD 2>/dev/null
cat /tmp/hold.out
check run-stopped-by-exit until_ok sh -c 'dmesg | tail -5 | grep -q "run stopped"'

# Unplugging the measured CPU mid-run stops the run with a reason.
/bin/vmtest hold $CPU 30 >/tmp/hold.out &
HOLD=$!
until_ok grep -q "hold: running" /tmp/hold.out
check offline-mid-run sh -c "echo 0 >/sys/devices/system/cpu/cpu$CPU/online"
check offline-stops-run until_ok sh -c 'dmesg | grep -q "CPU '$CPU' went offline; run stopped"'
check online-again sh -c "echo 1 >/sys/devices/system/cpu/cpu$CPU/online"
kill -9 $HOLD
wait $HOLD 2>/dev/null
cat /tmp/hold.out
no_kernel_errors kernel-log-after-offline
check rmmod-i210 rmmod wultfw_i210
check rmmod-hrt-after rmmod wultfw_hrt
check rmmod-fw-after rmmod wultfw
check no-modules-left sh -c '! grep -q wultfw /proc/modules'
# Load again: a clean unload leaves nothing registered behind.
check reload insmod /lib/modules/wultfw.ko
check reload-hrt insmod /lib/modules/wultfw_hrt.ko
/bin/vmtest run $CPU 200
check final-rmmod sh -c 'rmmod wultfw_hrt && rmmod wultfw'
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	check kmemleak sh -c '! grep -q unreferenced /sys/kernel/debug/kmemleak'
fi
no_kernel_errors kernel-log-final
echo "VMTEST DONE"
poweroff -f
