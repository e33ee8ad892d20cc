#!/bin/sh
# Install the Debian 12 packages wultfw needs to build, test and measure.
# Run as root. --bench adds what the benchmarks compare against; --wult what
# wult's own tools need to run from a clone (tests/integration/test_wult_compat.sh).
set -e
packages="build-essential autoconf automake libtool pkg-config
	libltdl-dev libconfig-dev libpci-dev libcsv-dev libcunit1-dev
	clang llvm libbpf-dev bpftool libclang-rt-14-dev
	linux-headers-amd64 linux-image-amd64 qemu-system-x86 busybox-static cpio
	rt-tests chromium openssh-client openssh-server
	debhelper dh-dkms dkms lintian bash-completion"
[ "${1:-}" = "--bench" ] && packages="$packages python3-pandas time"
[ "${1:-}" = "--wult" ] && packages="$packages python3-pandas python3-numpy python3-yaml
	python3-plotly python3-colorama python3-paramiko python3-argcomplete"
if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (apt-get needs it): sudo $0 $*" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $packages >/dev/null
echo "install-deps.sh: Debian packages installed"
# wultfw report's charting library, copied into every report (not vendored):
# plotly.js's gl2d bundle (scatter, scattergl), a third of the full one's
# load time (README, "Reports").
if ! [ -r /usr/lib/node_modules/plotly.js-gl2d-dist-min/plotly-gl2d.min.js ]; then
	command -v npm >/dev/null || apt-get install -y -qq --no-install-recommends npm >/dev/null
	npm install -g --silent plotly.js-gl2d-dist-min@3 >/dev/null
fi
echo "install-deps.sh: plotly.js installed"
