#!/bin/sh
# Install the Debian 12 packages wultfw needs to build, test and measure.
# Run as root. --bench adds what the benchmarks compare against.
set -e
packages="build-essential autoconf automake libtool pkg-config
	libltdl-dev libconfig-dev libpci-dev libcsv-dev libcunit1-dev
	clang llvm libbpf-dev bpftool
	linux-headers-amd64 linux-image-amd64 qemu-system-x86 busybox-static cpio
	rt-tests openssh-client openssh-server"
[ "$1" = "--bench" ] && packages="$packages python3-pandas time"
if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (apt-get needs it): sudo $0 $*" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $packages >/dev/null
echo "install-deps.sh: Debian packages installed"
