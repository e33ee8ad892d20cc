#!/bin/sh
# Run the kernel's checkpatch.pl over the kernel-side sources (kmod/ and
# lib/i210, which the kernel compiles too). checkpatch.pl comes from
# Debian's linux-source-6.1 package: apt-get install linux-source-6.1.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | tail -1)
if [ -z "$tarball" ]; then
	echo "checkpatch.sh: no /usr/src/linux-source-*.tar.xz: apt-get install linux-source-6.1" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$(basename "$tarball" .tar.xz)
tar -xf "$tarball" -C "$tmp" "$src/scripts/checkpatch.pl" \
	"$src/scripts/spelling.txt" "$src/scripts/const_structs.checkpatch"
status=0
for f in "$top"/kmod/*.c "$top"/kmod/*.h "$top"/include/uapi/wultfw/*.h "$top"/lib/i210/*.c "$top"/lib/i210/*.h; do
	out=$("$tmp/$src/scripts/checkpatch.pl" --no-tree --terse --file \
		--max-line-length=100 "$f" | grep -v '^total:') || true
	[ -n "$out" ] && { echo "$out"; status=1; }
done
[ $status = 0 ] && echo "checkpatch.sh: no warnings"
exit $status
