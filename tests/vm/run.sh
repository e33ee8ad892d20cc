#!/bin/sh
# Boot Debian's kernel under QEMU (TCG, no KVM needed) with a busybox
# initramfs, load the wultfw modules and run tests/vm/vmtest.c inside.
# Exit 0 only if every VMTEST line is PASS, "VMTEST DONE" was printed and
# nothing timed out.
#
# Environment: KVER (default: the newest Debian -amd64 kernel with both
# /boot/vmlinuz-KVER and its headers installed), KDIR, VMLINUZ,
# VM_TIMEOUT (s), VM_OUT (work directory, default a temporary one).
set -eu

srcdir=$(cd "$(dirname "$0")/../.." && pwd)
# Debian's linux-image-amd64/linux-headers-amd64 follow point releases
# (6.1.0-56, -57, ...): take whichever pair is installed.
if [ -z "${KVER:-}" ]; then
	for v in $(ls /boot/vmlinuz-*-amd64 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -rV); do
		if [ -d "/usr/src/linux-headers-$v" ]; then
			KVER=$v
			break
		fi
	done
fi
KVER=${KVER:-6.1.0-56-amd64}
KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
VMLINUZ=${VMLINUZ:-/boot/vmlinuz-$KVER}
VM_TIMEOUT=${VM_TIMEOUT:-300}
CC=${CC:-cc}

die() { echo "vm test: $*" >&2; exit 2; }
need() { command -v "$1" >/dev/null 2>&1 || die "$1 not found: apt-get install $2"; }
need qemu-system-x86_64 qemu-system-x86
need cpio cpio
need gzip gzip
[ -x /bin/busybox ] && file -L /bin/busybox 2>/dev/null | grep -q "dynamically" && \
	die "/bin/busybox is dynamically linked: apt-get install busybox-static"
[ -d "$KDIR" ] || die "$KDIR missing: apt-get install linux-headers-$KVER"
[ -r "$VMLINUZ" ] || die "$VMLINUZ missing: apt-get install linux-image-$KVER"

work=${VM_OUT:-$(mktemp -d /tmp/wultfw-vm.XXXXXX)}
mkdir -p "$work"
log=$work/console.log
start=$(date +%s)

# 1. Modules, built in a copy so the source tree stays clean.
rm -rf "$work/kmod"
cp -r "$srcdir/kmod" "$work/kmod"
# The lib/ code some modules link (modules.list), next to the sources.
for f in $(sh "$srcdir/kmod/modules.sh" shared); do
	cp "$srcdir/$f" "$work/kmod/"
done
# The headers the modules share with user space, as in installed copies.
mkdir -p "$work/kmod/wultfw" "$work/kmod/uapi"
cp "$srcdir/include/wultfw/ldist.h" "$work/kmod/wultfw/"
cp -r "$srcdir/include/uapi/wultfw" "$work/kmod/uapi/"
# A make of its own: under 'make -j2 check' the parent's jobserver flags
# would make it print "warning: jobserver unavailable", which is not ours.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -s -C "$KDIR" M="$work/kmod" W=1 modules >"$work/kbuild.log" 2>&1 ||
	{ cat "$work/kbuild.log"; die "module build failed"; }
if grep -E "warning:|error:|skipped:" "$work/kbuild.log"; then
	die "module build has warnings (see $work/kbuild.log)"
fi

# 2. The static test client.
"$CC" -static -O2 -Wall -Wextra -Werror -I"$srcdir/include" \
	-o "$work/vmtest" "$srcdir/tests/vm/vmtest.c" || die "vmtest build failed"

# 3. Initramfs: busybox, modules, client, /init.
root=$work/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/lib/modules" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$work/vmtest" "$root/bin/vmtest"
cp "$work/kmod/"*.ko "$root/lib/modules/"
. "$srcdir/tests/vm/ndl-build.sh"
cp "$srcdir/tests/vm/init.sh" "$root/init"
chmod +x "$root/init"
# The real binary with its plugins and the shared libraries they need, when
# this tree (or WULTFW_BUILDDIR) has them built; without them the VM test
# covers the kernel side only and says so.
bdir=${WULTFW_BUILDDIR:-$srcdir}
if [ -x "$bdir/wultfw" ] && [ -e "$bdir/plugins/tdt/.libs/tdt.so" ] &&
   [ -e "$bdir/sinks/csv/.libs/csv.so" ]; then
	mkdir -p "$root/lib/wultfw"
	cp "$bdir/wultfw" "$root/bin/wultfw"
	cp "$bdir/plugins/tdt/.libs/tdt.so" "$bdir/sinks/csv/.libs/csv.so" "$root/lib/wultfw/"
	# ndl: what `wultfw restore` loads to put its qdiscs back (ndl.sh).
	[ -e "$bdir/plugins/ndl/.libs/ndl.so" ] && cp "$bdir/plugins/ndl/.libs/ndl.so" "$root/lib/wultfw/"
	for lib in $(ldd "$bdir/wultfw" "$root"/lib/wultfw/*.so | awk '/=> \// {print $3} /^\t\/.*ld-linux/ {print $1}' | sort -u); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	cp "$srcdir/tests/vm/exp-kmod-hrt.cfg" "$root/exp-kmod-hrt.cfg"
	echo "vm test: including $bdir/wultfw with the tdt and csv plugins"
else
	echo "vm test: no built wultfw with tdt and csv plugins in $bdir: kernel side only"
fi
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initramfs.gz"

# 4. Boot. panic=-1 and -no-reboot turn a kernel panic into a QEMU exit.
set +e
timeout "$VM_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m 512 \
	-nographic -no-reboot -kernel "$VMLINUZ" -initrd "$work/initramfs.gz" \
	-append "console=ttyS0 panic=-1 oops=panic quiet loglevel=4" \
	</dev/null >"$log" 2>&1
qrc=$?
set -e
end=$(date +%s)

grep "^VMTEST\|^ndl-kill:\|^hrt:\|^overheads:\|^seed:\|^stats\|^tdt config:\|^counters present\|^csv:\|^kmod_\|^discarded:\|^wultfw: error" "$log" | tr -d '\r'
pass=$(grep -c "^VMTEST PASS" "$log" || true)
fail=$(grep -c "^VMTEST FAIL" "$log" || true)
rc=0
if [ "$qrc" -eq 124 ]; then
	echo "vm test: FAIL: timed out after ${VM_TIMEOUT}s"; rc=1
fi
grep -q "Kernel panic" "$log" && { echo "vm test: FAIL: kernel panic:"; grep -A12 "Kernel panic" "$log"; rc=1; }
grep -q "^VMTEST DONE" "$log" || { echo "vm test: FAIL: VM did not finish (see $log)"; rc=1; }
[ "$fail" -eq 0 ] || rc=1
[ "$pass" -gt 0 ] || rc=1
echo "vm test: $pass passed, $fail failed, $((end - start)) s; log: $log"
# Keep the work directory for a failure or when asked for (VM_OUT).
if [ "$rc" -eq 0 ] && [ -z "${VM_OUT:-}" ]; then
	rm -rf "$work"
fi
exit $rc
