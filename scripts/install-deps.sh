#!/bin/sh
# Install the Debian 12 packages wultfw needs to build, test and measure.
# Run as root. Another apt or dpkg at work (unattended-upgrades, a second
# install) is waited for, not failed on.
set -e
usage() {
	echo "usage: $0 [--bench] [--wult] [--lock-timeout SECONDS] [--help]"
}
help() {
	usage
	cat <<'EOF'
Installs the Debian 12 packages that build, test and measure wultfw, and
plotly.js for 'wultfw report'. Run as root.
  --bench                  also what the benchmarks compare against (make bench)
  --wult                   also what wult's own tools need to run from a clone
                           (tests/integration/test_wult_compat.sh)
  --lock-timeout SECONDS   how long to wait while another apt or dpkg holds
                           their lock (default 900)
  --help                   this text
EOF
}
packages="build-essential autoconf automake libtool pkg-config
	libltdl-dev libconfig-dev libpci-dev libcsv-dev libcunit1-dev libyaml-dev
	clang llvm libbpf-dev bpftool libclang-rt-14-dev
	linux-headers-amd64 linux-image-amd64 qemu-system-x86 busybox-static cpio
	rt-tests chromium openssh-client openssh-server
	debhelper dh-dkms dkms lintian bash-completion"
bench="python3-pandas time"
wult="python3-pandas python3-numpy python3-yaml python3-plotly python3-colorama
	python3-paramiko python3-argcomplete"
args="$*"
lock_timeout=900
while [ $# -gt 0 ]; do
	case $1 in
	--bench) packages="$packages $bench" ;;
	--wult) packages="$packages $wult" ;;
	--lock-timeout)
		case ${2:-} in
		'' | *[!0-9]*) echo "$0: --lock-timeout wants a number of seconds" >&2; usage >&2; exit 2 ;;
		esac
		lock_timeout=$2; shift ;;
	-h | --help) help; exit 0 ;;
	*) echo "$0: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (apt-get needs it): sudo $0 $args" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive

# apt_get ARGS...: apt-get ARGS, retried while another apt or dpkg holds a lock,
# up to lock_timeout seconds. apt-get install waits by itself with
# DPkg::Lock::Timeout, but silently; apt-get update (apt 2.6) does not wait.
apt_get() {
	end=$(($(date +%s) + lock_timeout))
	err=$(mktemp)
	said=
	until apt-get -o DPkg::Lock::Timeout=2 "$@" 2>"$err"; do
		if ! grep -q 'Could not get lock\|Unable to lock\|Unable to acquire' "$err" ||
			[ "$(date +%s)" -ge "$end" ]; then
			cat "$err" >&2; rm -f "$err"; return 1
		fi
		[ -n "$said" ] || echo "install-deps.sh: waiting up to $lock_timeout s for another apt or dpkg:" \
			"$(grep -m1 'lock' "$err" | sed 's/^E: //')" >&2
		said=1
		sleep 2
	done
	cat "$err" >&2; rm -f "$err"
}

apt_get update -qq
# shellcheck disable=SC2086
apt_get install -y -qq --no-install-recommends $packages >/dev/null
echo "install-deps.sh: Debian packages installed"
# wultfw report's charting library, copied into every report (not vendored):
# plotly.js's gl2d bundle (scatter, scattergl), a third of the full one's
# load time (doc/benchmarks.md, "Reports"). npm also builds the Debian
# package (debian/rules fetches plotly.js with it); another npm (NodeSource's
# nodejs has one) does as well.
command -v npm >/dev/null || apt_get install -y -qq --no-install-recommends npm >/dev/null
if ! [ -r /usr/lib/node_modules/plotly.js-gl2d-dist-min/plotly-gl2d.min.js ]; then
	npm install -g --silent plotly.js-gl2d-dist-min@3 >/dev/null
fi
echo "install-deps.sh: plotly.js installed"
