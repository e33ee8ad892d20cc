#!/bin/sh
# SUTs from -H @FILE and from Ansible inventories (-i, INI and YAML) with
# host patterns: --check lists the SUTs chosen without contacting any;
# bad files, patterns and refused variables are one-line errors, for scan
# and deploy too. Then, as root with sshd, one real run, a scan and a
# deploy on a loopback sshd reached only through the inventory's
# ansible_host/_port/_user/_ssh_private_key_file and _ssh_common_args,
# beside an inventory host that is down.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"

cd "$work" || exit 1
unset SSH_AUTH_SOCK
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cat >exp.cfg <<'CFG'
outdir = "res";
sinks = ( { plugin = "csv"; } );
experiments = (
  { name = "a"; source = { plugin = "timer"; cpu = 1; ldist = "100us"; }; limits = { datapoints = 100; time = "5m"; }; }
);
CFG
cat >lab.yml <<'Y'
all:
  vars:
    ansible_python_interpreter: /usr/bin/python3
  children:
    lab_a:
      hosts:
        sut1: { ansible_host: 127.0.0.2 }
        sut2:
    lab_b:
      hosts:
        sut[3:4]:
        sut1:
Y
cat >lab.ini <<'I'
[lab_a]
sut1 ansible_host=127.0.0.2
sut2
[lab_b]
sut[3:4]
sut1
[lab:children]
lab_a
lab_b
I
# suts ARGS...: the SUTs --check names, on one line.
suts() {
	"$WULTFW" "$@" -c exp.cfg --check 2>suts.err | awk '/^SUT / { printf "%s ", $2 }'
}
# expect_suts "SUTS" ARGS...
expect_suts() {
	want=$1; shift
	got=$(suts "$@")
	[ "$got" = "$want" ] && ok "$* -> $want" || { fail "$*: got '$got', expected '$want'"; cat suts.err; }
}
# expect_error "TEXT" ARGS...: exit status 2, the first line saying TEXT
# (a second may count the problems), nothing on stdout.
expect_error() {
	want=$1; shift
	"$WULTFW" "$@" -c exp.cfg --check >err.out 2>err.err
	st=$?
	[ $st = 2 ] && [ ! -s err.out ] && head -n 1 err.err | grep -qF -- "$want" &&
		[ "$(wc -l <err.err)" -le 2 ] &&
		ok "$* -> $want" || { fail "$*: status $st, expected 2 and '$want' first:"; cat err.out err.err; }
}

# The CPU and the sink count apart, as a local --check says them.
"$WULTFW" -i lab.yml -H all -c exp.cfg --check >line.out 2>&1
grep -q "on CPU [0-9]*; 1 sink: valid (each SUT checks" line.out && ok "--check with SUTs: 'CPU N; 1 sink'" ||
	{ fail "--check with SUTs: no 'CPU N; 1 sink' line"; cat line.out; }

for inv in lab.yml lab.ini; do
	expect_suts "sut1 sut2 sut3 sut4 " -i $inv -H all
	expect_suts "sut1 sut2 " -i $inv -H lab_a
	expect_suts "sut2 " -i $inv -H 'lab_a:!sut1'
	expect_suts "sut1 " -i $inv -H 'lab_a:&lab_b'
	expect_suts "sut1 sut2 sut3 sut4 " -i $inv -H lab_a,lab_b
	expect_error "-H: no group or host 'lab_c' in $inv (did you mean 'lab_a'?)" -i $inv -H lab_c
done
expect_suts "sut1 sut3 sut4 " -i lab.ini -H 'lab:!sut2'
# -H before -i: resolved once the inventory is known
expect_suts "sut2 " -H 'lab_a:!sut1' -i lab.yml
expect_error "-H 'lab_a:!sut1' is an inventory's host pattern: give the inventory with -i FILE" \
	-H 'lab_a:!sut1'
expect_error "-i nosuch.yml: No such file or directory" -i nosuch.yml -H all
printf 'all:\n  hosts:\n    sut1:\n      ansible_become: yes\n' >become.yml
expect_error "become.yml:4: ansible_become (for sut1) changes how the SUT is reached" -i become.yml -H all
printf '[a:children]\nb\n[b:children]\na\n' >loop.ini
expect_error "contains itself" -i loop.ini -H all

# scan and deploy take -i and -H through the run's own code: the same errors.
# expect_cmd_error "TEXT" ARGS...: exit status 2, one line saying TEXT.
expect_cmd_error() {
	want=$1; shift
	"$WULTFW" "$@" >err.out 2>err.err
	st=$?
	[ $st = 2 ] && [ ! -s err.out ] && grep -qF -- "$want" err.err && [ "$(wc -l <err.err)" = 1 ] &&
		ok "$* -> $want" || { fail "$*: status $st, expected 2 and '$want':"; cat err.out err.err; }
}
expect_cmd_error "scan -i: name the SUTs with -H" scan -i lab.yml
expect_cmd_error "-H: no group or host 'lab_c' in lab.ini (did you mean 'lab_a'?)" scan -i lab.ini -H lab_c
expect_cmd_error "-H 'lab_a:!sut1' is an inventory's host pattern: give the inventory with -i FILE" \
	deploy -H 'lab_a:!sut1'
expect_cmd_error "-i nosuch.yml: No such file or directory" deploy -i nosuch.yml -H all
expect_cmd_error "become.yml:4: ansible_become (for sut1) changes how the SUT is reached" \
	scan -H all -i become.yml

printf '# the lab\nsut7\n\n  sut8  # spare\n' >hosts.txt
expect_suts "sut7 sut8 " -H @hosts.txt
expect_error "-H @nosuch.txt: No such file or directory" -H @nosuch.txt
printf 'sut7\nsut 8\n' >bad.txt
expect_error "bad.txt:2: " -H @bad.txt

# A real run through the inventory's connection variables: root and sshd.
. "$srcdir/tests/integration/sshd_lib.sh"
SSHD_DIR=$work
if ! sshd_usable; then
	skip_part "a run over ssh: $sshd_why"
	finish
fi
cleanup() {
	sshd_stop_all
	rm -rf "$work"
}
trap cleanup EXIT
sshd_keys && sshd_start labsut 127.0.0.2 || { fail "no loopback sshd"; finish; }
port=$sshd_port
# The "SUT" command: this build's binary with this build's plugins.
printf '#!/bin/sh\nWULTFW_PLUGIN_PATH=%s exec %s "$@"\n' "$WULTFW_PLUGIN_PATH" "$WULTFW" >sut-wultfw
chmod 755 sut-wultfw
# 'down': a port on 127.0.0.3 where nothing listens (refused at once).
cat >real.yml <<Y
all:
  vars:
    ansible_user: root
    ansible_ssh_private_key_file: $work/userkey
    ansible_ssh_common_args: '-o UserKnownHostsFile=$work/known_hosts -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes -o IdentitiesOnly=yes'
  children:
    lab:
      hosts:
        labsut: { ansible_host: 127.0.0.2, ansible_port: $port }
        down: { ansible_host: 127.0.0.3, ansible_port: $((port + 1)) }
Y
"$WULTFW" -q --ssh-config /dev/null --sut-dir "$work/sutdir" --sut-wultfw "$work/sut-wultfw" \
	-i real.yml -H lab -c exp.cfg >real.out 2>real.err
expect_status 1 $? "one SUT of two down: the run fails"
[ "$(($(wc -l <res/labsut/a/datapoints.csv 2>/dev/null || echo 1) - 1))" = 100 ] &&
	ok "labsut, reached through the inventory alone, measured 100 datapoints" ||
	{ fail "labsut's result:"; cat real.out real.err; }
expect_in res/labsut/a/info.yml "host: 'labsut'" "the result is named by the inventory's host name"
expect_in real.err "down" "the SUT that is down is named"

# scan and deploy on the inventory's SUTs: each SUT's own answer, the
# one that is down named.
"$WULTFW" scan --ssh-config /dev/null --sut-wultfw "$work/sut-wultfw" -i real.yml -H lab \
	>scan.out 2>scan.err
expect_status 1 $? "scan -i -H lab: one SUT of two down"
expect_in scan.out "== labsut ==" "scan reached labsut through the inventory"
expect_in scan.out "timer" "and lists its sources"
expect_in scan.err "down: cannot connect" "the SUT that is down is named"
"$WULTFW" deploy --ssh-config /dev/null --sut-wultfw "$work/sut-wultfw" -i real.yml -H labsut \
	--dry-run --kdir /nonexistent/kdir >deploy.out 2>deploy.err
expect_status 1 $? "deploy -i -H labsut with a missing --kdir"
expect_in deploy.err "no kernel build directory /nonexistent/kdir" "the SUT's deploy answered"
finish
