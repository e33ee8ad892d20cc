# Sourced by tests/vm/run.sh after the initramfs tree is laid out: the ndl
# parts (tests/vm/ndl.sh runs them). Uses srcdir, work, root, KVER, CC, die.
"$CC" -static -O2 -Wall -Wextra -Werror -I"$srcdir/include" \
	-o "$root/bin/vmtest_ndl" "$srcdir/tests/vm/vmtest_ndl.c" || die "vmtest_ndl build failed"
cp "$srcdir/tests/vm/ndl.sh" "$root/ndl.sh"
# Modules of the target kernel: QEMU's default NIC driver and what the
# plugin's netns test needs (none of them are built into Debian's kernel).
mkdir -p "$root/lib/modules/extra"
for m in drivers/net/ethernet/intel/e1000/e1000.ko drivers/net/veth.ko \
	 net/sched/sch_mqprio.ko net/sched/sch_etf.ko; do
	f=/lib/modules/$KVER/kernel/$m
	[ -e "$f" ] && cp "$f" "$root/lib/modules/extra/"
done
# The plugin's qdisc/SO_TXTIME test, static (tests/ndl/test_ndl_net.c).
nsrc="$srcdir/tests/ndl/test_ndl_net.c $srcdir/tests/ndl/veth.c $srcdir/plugins/ndl/ndl_qdisc.c $srcdir/plugins/ndl/ndl_tx.c"
if [ -e "$srcdir/tests/ndl/test_ndl_net.c" ]; then
	# shellcheck disable=SC2086
	"$CC" -static -O2 -Wall -Wextra -Werror -I"$srcdir/plugins/ndl" \
		-o "$root/bin/test_ndl_net" $nsrc || die "test_ndl_net build failed"
fi
# ndl's qdisc change under kill -9 (tests/vm/vmtest_ndl_kill.c): ndl's and
# the core's state-file code, static; needs the build's config.h. The build's
# warnings, as an error (-Wno-format-truncation as configure.ac has it).
kbdir=${WULTFW_BUILDDIR:-$srcdir}
if [ -e "$kbdir/config.h" ]; then
	# shellcheck disable=SC2086
	"$CC" -static -O2 -Wall -Wextra -Wno-format-truncation -Werror -I"$kbdir" -I"$srcdir/include" \
		-I"$srcdir/core" -I"$srcdir/lib" -I"$srcdir/plugins/ndl" -I"$srcdir/tests/ndl" \
		-o "$root/bin/vmtest_ndl_kill" "$srcdir/tests/vm/vmtest_ndl_kill.c" \
		"$srcdir/tests/ndl/veth.c" \
		"$srcdir/core/restore.c" "$srcdir/core/restore_file.c" \
		"$srcdir/core/statedir.c" "$srcdir/lib/trust/trust.c" \
		"$srcdir/lib/atomic/atomic.c" "$srcdir/lib/datafmt/runstate.c" \
		"$srcdir/lib/datafmt/infoyml.c" "$srcdir/lib/sysstate/proc.c" \
		"$srcdir/lib/sysstate/sysfile.c" "$srcdir/lib/sysstate/beneath.c" \
		"$srcdir/plugins/ndl/ndl_qdisc.c" \
		"$srcdir/plugins/ndl/ndl_keep.c" || die "vmtest_ndl_kill build failed"
fi
