#!/bin/sh
# The fixed cost of a remote run per SUT: one sshd on 127.0.0.2 (its own
# config, a throw-away host key and user key: tests/integration/sshd_lib.sh)
# stands for the SUT; a 2 s timer experiment runs through it with build A
# and build B in turn (farm-bench pairs them) and once locally with A. Fixed cost = remote wall
# time minus the local run's. An `ssh` wrapper first in PATH counts the ssh
# processes each remote run starts (`-O exit` only talks to the local
# control socket and is counted apart).
# Usage (as root): bench_remote.sh WULTFW_A WULTFW_B PLUGIN_PATH [RUNS]
#   WULTFW_A/B: the binaries (B: the baseline); PLUGIN_PATH: for both
set -e
A=${1:?usage: bench_remote.sh WULTFW_A WULTFW_B PLUGIN_PATH [RUNS]}
B=${2:?usage: bench_remote.sh WULTFW_A WULTFW_B PLUGIN_PATH [RUNS]}
PP=${3:?usage: bench_remote.sh WULTFW_A WULTFW_B PLUGIN_PATH [RUNS]}
RUNS=${4:-5}
DIR=$(mktemp -d /tmp/wfw-bench-remote.XXXXXX)
SSHD_DIR=$DIR
. "$(cd "$(dirname "$0")/../integration" && pwd)/sshd_lib.sh"
cleanup() {
	sshd_stop_all
	rm -rf "$DIR"
}
trap cleanup EXIT
cd "$DIR"

sshd_usable || { echo "bench_remote.sh: $sshd_why" >&2; exit 1; }
sshd_keys
sshd_start sut 127.0.0.2
sshd_host_config sut 127.0.0.2 "$sshd_port" >ssh_config
for w in A B; do
	eval "bin=\$$w"
	printf '#!/bin/sh\nWULTFW_PLUGIN_PATH=%s exec %s "$@"\n' "$PP" "$bin" >"sut-$w"
	chmod 755 "sut-$w"
done
mkdir bin
real_ssh=$(command -v ssh)
cat >bin/ssh <<C
#!/bin/sh
case " \$* " in *" -O "*) echo local ;; *) echo sut ;; esac >>$DIR/ssh.log
exec $real_ssh "\$@"
C
chmod 755 bin/ssh
cat >exp.cfg <<'CFG'
outdir = "res";
experiments = (
  { name = "two"; source = { plugin = "timer"; cpu = 1; ldist = "1ms"; };
    limits = { time = "2s"; }; sinks = ( { plugin = "csv"; } ); }
);
CFG
run() {
	printf '#!/bin/sh\ncd %s && PATH=%s/bin:$PATH WULTFW_PLUGIN_PATH=%s exec %s --ssh-config %s/ssh_config --sut-dir %s/sutdir -q --no-progress -H sut --sut-wultfw %s/sut-%s -o res%s --force -c exp.cfg >>%s/out.%s 2>&1\n' \
		"$DIR" "$DIR" "$PP" "$2" "$DIR" "$DIR" "$DIR" "$1" "$1" "$DIR" "$1" >"run-$1"
	chmod 755 "run-$1"
}
run A "$A"
run B "$B"
printf '#!/bin/sh\ncd %s && WULTFW_PLUGIN_PATH=%s exec %s -q --no-progress -o resL --force -c exp.cfg >>%s/out.L 2>&1\n' \
	"$DIR" "$PP" "$A" "$DIR" >run-L
chmod 755 run-L

for w in A B; do
	: >ssh.log
	"./run-$w" || { cat "out.$w"; exit 1; }
	echo "$w: ssh processes per run that reach the SUT: $(grep -c sut ssh.log) (+ $(grep -c local ssh.log) '-O exit' to the local socket)"
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
farm-bench -n "$RUNS" --timeout 900 --vs "$DIR/run-B" -- "$DIR/run-A"
farm-bench -n "$RUNS" --timeout 300 -- "$DIR/run-L"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
