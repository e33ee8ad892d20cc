#!/bin/sh
# Network counters of the telemetry source for real: a veth pair between two
# network namespaces this test makes, a known number of UDP datagrams sent
# across, and the receiving end's rx_packets deltas (sysfs and rtnetlink)
# must add up to exactly that number. ethtool statistics: veth reports its
# peer's ifindex, a value the test knows.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (network namespaces need CAP_SYS_ADMIN)"
command -v ip >/dev/null || skip "no ip command (Debian package iproute2)"
command -v bash >/dev/null || skip "no bash (the sender uses its /dev/udp)"

a=wfwA$$ b=wfwB$$
cleanup() { ip netns del "$a" 2>/dev/null; ip netns del "$b" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
ip netns add "$a" 2>ns.err && ip netns add "$b" 2>>ns.err ||
	skip "cannot make network namespaces: $(head -1 ns.err)"
# No IPv6 (router and neighbour solicitations) and static neighbours (no
# ARP): the datagrams are the only packets the wire carries.
for n in "$a" "$b"; do
	ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
ip -n "$a" link add va type veth peer name vb netns "$b" 2>veth.err ||
	skip "cannot make a veth pair: $(head -1 veth.err)"
ip -n "$a" addr add 10.77.0.1/24 dev va
ip -n "$b" addr add 10.77.0.2/24 dev vb
ip -n "$a" link set va up
ip -n "$b" link set vb up
mac() { ip -n "$1" -br link show "$2" | awk '{ print $3 }'; }
ip -n "$a" neigh replace 10.77.0.2 lladdr "$(mac "$b" vb)" dev va nud permanent
ip -n "$b" neigh replace 10.77.0.1 lladdr "$(mac "$a" va)" dev vb nud permanent

rows() { [ -f "$1" ] && echo $(($(wc -l <"$1") - 1)) || echo 0; }
# sum FILE COLUMN: the column's deltas added up.
sum() { awk -F, -v c="$2" 'NR > 1 { s += $c } END { print s + 0 }' "$1"; }

# A collector next to a timer run: its file is flushed every sample, so the
# test can watch it. The run goes on until SIGINT (its time limit is a
# bound for a hang only).
cat >net.cfg <<'CFG'
name = "net";
source = { plugin = "timer"; ldist = "1ms"; };
limits = { time = "15m"; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "telemetry"; period = "20ms"; clear = true;
              counters = [ "net:vb:rx_packets", "rtnl:vb:rx_packets", "rtnl:vb:rx_bytes" ]; } );
CFG
ip netns exec "$b" "$WULTFW" -q -c net.cfg -o out 2>run.err &
pid=$!
csv=out/net/telemetry.csv
i=0
while [ "$(rows $csv)" -lt 3 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(rows $csv)" -ge 3 ] || { fail "no samples after 30 s:"; cat run.err; kill -INT $pid; finish; }

sent=50
ip netns exec "$a" bash -c "for i in \$(seq $sent); do echo wultfw >/dev/udp/10.77.0.2/9; done"
# Wait for the counter to show them (or 30 s); the check below is exact.
i=0
while [ "$(sum $csv 4)" -lt $sent ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid
wait_bounded $pid 60
expect_status 130 $? "the telemetry run stops on SIGINT"
got=$(sum $csv 3)
[ "$got" = $sent ] && ok "net:vb:rx_packets deltas add up to the $sent datagrams sent" ||
	fail "net:vb:rx_packets deltas add up to $got, $sent were sent"
got=$(sum $csv 4)
[ "$got" = $sent ] && ok "rtnl:vb:rx_packets deltas add up to the $sent datagrams sent" ||
	fail "rtnl:vb:rx_packets deltas add up to $got, $sent were sent"
# 14 Ethernet + 20 IPv4 + 8 UDP header bytes and "wultfw\n" per datagram.
got=$(sum $csv 5)
[ "$got" = $((sent * 49)) ] && ok "rtnl:vb:rx_bytes: $got bytes, 49 per datagram" ||
	fail "rtnl:vb:rx_bytes deltas add up to $got, expected $((sent * 49))"

# ethtool: veth's peer_ifindex is va's ifindex in the other namespace.
peer=$(ip -n "$a" -o link show va | cut -d: -f1)
cat >eth.cfg <<'CFG'
name = "eth";
source = { plugin = "telemetry"; mode = "single"; max_samples = 2; period = "10ms";
           counters = [ "ethtool:vb:peer_ifindex" ]; };
limits = { time = "1m"; };
sinks = ( { plugin = "csv"; } );
CFG
ip netns exec "$b" "$WULTFW" -q -c eth.cfg -o out 2>eth.err
expect_status 0 $? "an ethtool statistic sampled"
last=$(tail -1 out/eth/datapoints.csv | cut -d, -f3)
[ "$last" = "$peer" ] && ok "ethtool:vb:peer_ifindex is $peer, va's ifindex" ||
	fail "ethtool:vb:peer_ifindex is '$last', va's ifindex is $peer"

# Mistakes are named: no such statistic, no such interface.
sed 's/peer_ifindex/peer_ifindx/' eth.cfg >typo.cfg
ip netns exec "$b" "$WULTFW" --check -c typo.cfg >typo.out 2>&1
expect_in typo.out "driver of vb has no statistic 'peer_ifindx'" "a misspelt ethtool statistic is named"
sed 's/ethtool:vb:peer_ifindex/rtnl:nosuch0:rx_packets/' eth.cfg >noif.cfg
ip netns exec "$b" "$WULTFW" --check -c noif.cfg >noif.out 2>&1
expect_in noif.out "no network interface 'nosuch0' here" "a missing interface is named"
finish
