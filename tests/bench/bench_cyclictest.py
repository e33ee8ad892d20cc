#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Per-CPU wake latency tables for bench_cyclictest.sh, both tools' values
through the same code (nearest-rank percentiles, microseconds).

usage: bench_cyclictest.py ROUND CPULIST CYCLICTEST_OUT TIMER_EXPDIR KEPT
       bench_cyclictest.py summary KEPT

CYCLICTEST_OUT is `cyclictest -N -v` output ("thread:cycle:ns" lines);
thread i ran on the i-th CPU of CPULIST (cyclictest -a LIST pins in
round-robin order). TIMER_EXPDIR is the per-CPU experiment directory
(the result itself for one CPU): its cpuN/datapoints.csv (WakeLatency,
us) and cpuN/info.yml (timer_grid_missed). Prints, per CPU, one markdown row per tool and one
row of ratios timer/cyclictest, and appends those rows to the file
KEPT ("ROUND CPU TOOL COUNT MIN MEDIAN P99 P99.9 MAX"). `summary` prints
per CPU and tool (and ratio) each statistic's median over the rounds
(nearest-rank) and its range."""
import csv
import os
import re
import sys

COLS = ("min", "median", "p99", "p99.9", "max")


def pct(vals, p):
    """Nearest-rank percentile of sorted vals."""
    k = -(-p * len(vals) // 100)
    return vals[max(0, min(len(vals) - 1, int(k) - 1))]


def summary(vals):
    vals.sort()
    return (vals[0], pct(vals, 50), pct(vals, 99), pct(vals, 99.9), vals[-1])


def cyclictest_values(path, cpus):
    per = {c: [] for c in cpus}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split(":")
            if len(parts) != 3:
                continue  # the banner and -q's summary
            try:
                thread, ns = int(parts[0]), int(parts[2])
            except ValueError:
                continue
            if thread >= len(cpus):
                sys.exit("%s:%d: thread %d, but only %d CPUs were asked for"
                         % (path, lineno, thread, len(cpus)))
            per[cpus[thread]].append(ns / 1000.0)
    return per


def cpu_dir(expdir, cpu):
    """EXP/cpuN, or EXP itself when one CPU was measured (no cpuN/)."""
    d = os.path.join(expdir, "cpu%d" % cpu)
    return d if os.path.isdir(d) else expdir


def timer_values(expdir, cpu):
    path = os.path.join(cpu_dir(expdir, cpu), "datapoints.csv")
    with open(path, newline="") as f:
        return [float(r["WakeLatency"]) for r in csv.DictReader(f)]


def grid_missed(expdir, cpu):
    path = os.path.join(cpu_dir(expdir, cpu), "info.yml")
    with open(path) as f:
        m = re.search(r"^timer_grid_missed: '?(\d+)", f.read(), re.M)
    return m.group(1) if m else "?"


def row(label, n, stats):
    return "| %s | %d | %s |" % (label, n, " | ".join("%.1f" % v for v in stats))


def per_round():
    rnd, cpus = sys.argv[1], [int(c) for c in sys.argv[2].split(",")]
    cyc = cyclictest_values(sys.argv[3], cpus)
    kept = open(sys.argv[5], "a")
    for cpu in cpus:
        cv = cyc[cpu]
        tv = timer_values(sys.argv[4], cpu)
        if not cv:
            # cyclictest ends every thread once one has made its -l loops.
            sys.exit("bench_cyclictest.py: round %s CPU %d: no values from "
                     "cyclictest: its thread there took no sample before "
                     "another CPU's thread made its loops, which ends them "
                     "all (the CPU was busy): more --loops or a quieter "
                     "machine" % (rnd, cpu))
        if not tv:
            sys.exit("bench_cyclictest.py: round %s CPU %d: no values from "
                     "the timer" % (rnd, cpu))
        cs, ts = summary(cv), summary(tv)
        ratios = [t / c if c else float("nan") for t, c in zip(ts, cs)]
        print(row("#%s CPU %d cyclictest" % (rnd, cpu), len(cv), cs))
        print(row("#%s CPU %d timer grid (skipped %s)"
                  % (rnd, cpu, grid_missed(sys.argv[4], cpu)), len(tv), ts))
        print("| #%s CPU %d timer/cyclictest | | %s |"
              % (rnd, cpu, " | ".join("%.2f" % r for r in ratios)))
        for kind, n, st in (("cyclictest", len(cv), cs), ("timer", len(tv), ts),
                            ("timer/cyclictest", 0, ratios)):
            kept.write("%s %d %s %d %s\n" % (rnd, cpu, kind, n, " ".join(
                "%.4f" % v for v in st)))
    kept.close()


def rounds_summary(path):
    """Per CPU and tool, each statistic's median over the rounds (range)."""
    per = {}
    with open(path) as f:
        for line in f:
            rnd, cpu, kind, n, *st = line.split()
            per.setdefault((int(cpu), kind), []).append(
                [float(v) for v in [n] + st])
    print("| CPU | tool | rounds | count | %s |" % " | ".join(COLS))
    print("|---|---|---|---|%s" % ("---|" * len(COLS)))
    kinds = ("cyclictest", "timer", "timer/cyclictest")
    for (cpu, kind) in sorted(per, key=lambda k: (k[0], kinds.index(k[1]))):
        fmt = "%.2f (%.2f-%.2f)" if "/" in kind else "%.1f (%.1f-%.1f)"
        cols = list(zip(*per[(cpu, kind)]))
        cells = [fmt % (pct(sorted(c), 50), min(c), max(c)) for c in cols[1:]]
        n = "" if "/" in kind else "%d" % pct(sorted(cols[0]), 50)
        print("| %d | %s | %d | %s | %s |" % (cpu, kind, len(per[(cpu, kind)]),
                                              n, " | ".join(cells)))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "summary":
        rounds_summary(sys.argv[2])
        return
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    per_round()


main()
