#!/bin/sh
# wultfw deploy against Debian's kernel headers: the dry run names the right
# kernel release and commands, a real build installs into a staging
# directory (--destdir; never /lib/modules), depmod sees the dependencies,
# the modules carry the headers' vermagic, nothing is set to load at boot,
# and bad arguments fail with what to do. Skipped without kernel headers.
. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"

kdir=
for d in ${KDIR:-} /usr/src/linux-headers-*-amd64; do
	if [ -r "$d/include/generated/utsrelease.h" ]; then kdir=$d; break; fi
done
if [ -z "$kdir" ]; then
	echo "SKIP: no kernel headers with include/generated/utsrelease.h"
	exit 77
fi
rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$kdir/include/generated/utsrelease.h")
echo "kernel headers: $kdir ($rel)"

"$WULTFW" deploy --src "$srcdir/kmod" --kdir "$kdir" --dry-run >"$work/dry" 2>&1
expect_status 0 $? "dry run"
expect_in "$work/dry" "for kernel $rel" "dry run names the headers' release"
expect_in "$work/dry" "/lib/modules/$rel/extra/wultfw" "dry run installs for that release"
expect_in "$work/dry" "depmod $rel" "dry run runs depmod for that release"
expect_in "$work/dry" "lib/i210/i210.c" "a source tree's i210 code is copied along"
expect_in "$work/dry" "nothing loads them at boot" "says nothing loads at boot"

mkdir "$work/root"
"$WULTFW" deploy --src "$srcdir/kmod" --kdir "$kdir" --destdir "$work/root" \
	>"$work/real" 2>&1
expect_status 0 $? "build and install into a staging directory"
dest=$work/root/lib/modules/$rel/extra/wultfw
# Every module kmod/modules.list names, i210's shared code linked in.
modules=$(sh "$srcdir/kmod/modules.sh" names)
for m in $modules; do
	if [ -f "$dest/$m.ko" ]; then ok "$m.ko installed"; else
		fail "$m.ko not in $dest:"; tail -20 "$work/real"; fi
done
if grep -E "^wultfw: warning|skipped:" "$work/real"; then fail "deploy warned (above)"; else
	ok "no module skipped, no warning"; fi
"$WULTFW" deploy --help >"$work/help" 2>&1
for m in $modules; do
	expect_in "$work/help" "  $m " "deploy --help lists $m (from modules.list)"
done
expect_in "$work/root/lib/modules/$rel/modules.dep" \
	"extra/wultfw/wultfw_hrt.ko: extra/wultfw/wultfw.ko" "depmod sees hrt needs the framework"
if command -v modinfo >/dev/null 2>&1; then
	vm=$(modinfo -F vermagic "$dest/wultfw.ko" | cut -d' ' -f1)
	if [ "$vm" = "$rel" ]; then ok "vermagic $vm"; else fail "vermagic '$vm', want '$rel'"; fi
fi
if [ -e "$work/root/etc" ]; then fail "deploy wrote to etc/ (load at boot?)"; else
	ok "nothing under etc/"; fi

# A copy of kmod/ without lib/i210 next to it: the modules that link it are named.
mkdir "$work/alone" && cp -r "$srcdir/kmod" "$work/alone/kmod"
"$WULTFW" deploy --src "$work/alone/kmod" --kdir "$kdir" --dry-run >"$work/alone.log" 2>&1
expect_status 0 $? "dry run without lib/i210"
expect_in "$work/alone.log" "no i210.c (nor ../lib/i210/i210.c): wultfw_i210.ko will not be built" "missing shared code names wultfw_i210.ko"
expect_in "$work/alone.log" "wultfw_ndl.ko will not be built" "... and wultfw_ndl.ko"

"$WULTFW" deploy --src "$work/nonexistent" --kdir "$kdir" --dry-run >"$work/e1" 2>&1
expect_status 1 $? "missing sources fail"
expect_in "$work/e1" "no module sources in" "missing sources say so"
"$WULTFW" deploy --kdir "$work/nonexistent" --dry-run >"$work/e2" 2>&1
expect_status 1 $? "missing kernel build directory fails"
expect_in "$work/e2" "no kernel build directory" "missing kdir says so"
"$WULTFW" deploy --src "$srcdir/kmod" --kdir "$kdir" --destdir "$work/nonexistent" \
	>"$work/e3" 2>&1
expect_status 1 $? "missing destdir fails"
"$WULTFW" deploy extra >"$work/e4" 2>&1
expect_status 2 $? "stray argument is a usage error"

finish
