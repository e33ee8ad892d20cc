#!/bin/sh
# Build the Debian packages (wultfw, wultfw-dev, wultfw-dkms) from a clean
# copy of the source, so the tree you work in is never touched:
#   scripts/build-debs.sh [-o OUTDIR] [wultfw-VERSION.tar.gz]
# Without a tarball the copy is 'git archive HEAD' (committed files only);
# 'make deb' passes the 'make dist' tarball. The .deb files go to OUTDIR
# (default ./debs). DEB_BUILD_OPTIONS defaults to "nocheck parallel=2": set
# it (e.g. to "") to run the test suite inside the build too.
set -eu
usage() { echo "usage: $0 [-o OUTDIR] [wultfw-VERSION.tar.gz]" >&2; exit 2; }
out=debs
while getopts o:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
for tool in dpkg-buildpackage dh; do
	command -v $tool >/dev/null || {
		echo "$0: $tool not found: install the Debian packages dpkg-dev debhelper dh-dkms (scripts/install-deps.sh)" >&2
		exit 1
	}
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wultfw-debs-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
if [ $# = 1 ]; then
	tar -xzf "$1" -C "$tmp/src" --strip-components=1
else
	top=$(cd "$(dirname "$0")/.." && pwd)
	git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || {
		echo "$0: $top is not a git checkout: pass a 'make dist' tarball (or run 'make deb')" >&2
		exit 1
	}
	git -C "$top" archive --format=tar HEAD | tar -xf - -C "$tmp/src"
fi
[ -f "$tmp/src/debian/control" ] || { echo "$0: the source has no debian/ directory" >&2; exit 1; }
(cd "$tmp/src" &&
	DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS-nocheck parallel=2} \
	dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1 || {
	tail -40 "$tmp/build.log" >&2
	echo "$0: dpkg-buildpackage failed; the end of its output is above" >&2
	exit 1
}
mv "$tmp"/*.deb "$tmp"/*.buildinfo "$tmp"/*.changes "$out"/
cp "$tmp/build.log" "$out"/build.log
echo "Debian packages in $out:"
(cd "$out" && ls ./*.deb)
