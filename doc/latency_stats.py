#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Summarize latencies in ns read from stdin, one number per line (first
field of a CSV line, or the last field of a `cyclictest -v` line), as
min/avg/median/p99/p99.9/max in microseconds. Used by
doc/timer-vs-cyclictest.md."""
import sys


def pct(sorted_vals, p):
    # nearest-rank percentile
    k = max(0, min(len(sorted_vals) - 1,
                   int(-(-p * len(sorted_vals) // 100)) - 1))
    return sorted_vals[k]


def main():
    fmt = sys.argv[1] if len(sys.argv) > 1 else "csv"
    vals = []
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        parts = line.split(",") if fmt == "csv" else line.split(":")
        if fmt != "csv" and len(parts) != 3:
            continue  # not a "thread: cycle: latency" line
        field = parts[0] if fmt == "csv" else parts[-1]
        try:
            vals.append(int(field))
        except ValueError:
            continue  # header or cyclictest chatter
    if not vals:
        sys.exit("no values")
    vals.sort()
    us = lambda v: v / 1000.0
    print("n=%d min=%.1f avg=%.1f median=%.1f p99=%.1f p99.9=%.1f max=%.1f"
          % (len(vals), us(vals[0]), us(sum(vals) / len(vals)),
             us(pct(vals, 50)), us(pct(vals, 99)), us(pct(vals, 99.9)),
             us(vals[-1])))


main()
