#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Latency summary (min/avg/median/p99/p99.9/max in microseconds) of

  wult       a datapoints.csv on stdin: its WakeLatency column (us)
  cyclictest `cyclictest -N -v` output on stdin ("thread: cycle: ns" lines)
  ns         first CSV field in ns (tests/timer_collect output)

usage: latency_stats.py FORMAT [LABEL [COLUMN]]; with LABEL, prints a
markdown table row; COLUMN picks another wult column than WakeLatency. For wult files it also counts the ReqCState values. Used by doc/timer-vs-cyclictest.sh."""
import csv
import sys


def pct(sorted_vals, p):
    """Nearest-rank percentile."""
    k = -(-p * len(sorted_vals) // 100)
    return sorted_vals[max(0, min(len(sorted_vals) - 1, int(k) - 1))]


CSTATES = {}  # ReqCState -> count, for the wult format
COLUMN = sys.argv[3] if len(sys.argv) > 3 else "WakeLatency"


def values(fmt, lines):
    if fmt == "wult":
        for row in csv.DictReader(lines):
            if "ReqCState" in row:
                name = row["ReqCState"] or "empty"
                CSTATES[name] = CSTATES.get(name, 0) + 1
            yield float(row[COLUMN])
        return
    for line in lines:
        parts = line.strip().split(":" if fmt == "cyclictest" else ",")
        if fmt == "cyclictest" and len(parts) != 3:
            continue  # banner lines
        try:
            yield int(parts[-1] if fmt == "cyclictest" else parts[0]) / 1000.0
        except ValueError:
            continue  # header


def main():
    fmt = sys.argv[1]
    vals = sorted(values(fmt, sys.stdin))
    if not vals:
        sys.exit("latency_stats.py: no values on stdin")
    stats = (vals[0], sum(vals) / len(vals), pct(vals, 50), pct(vals, 99),
             pct(vals, 99.9), vals[-1])
    cstates = ", ".join("%s %d" % kv for kv in sorted(CSTATES.items()))
    if len(sys.argv) > 2:
        print("| %s | %d | %s | %s |" % (sys.argv[2], len(vals),
                                         " | ".join("%.1f" % v for v in stats),
                                         cstates or "-"))
    else:
        print("n=%d min=%.1f avg=%.1f median=%.1f p99=%.1f p99.9=%.1f "
              "max=%.1f %s" % ((len(vals),) + stats + (cstates,)))


main()
