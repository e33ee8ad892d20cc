#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Per-CPU wake latency tables for bench_cyclictest.sh, both tools' values
through the same code (nearest-rank percentiles, microseconds).

usage: bench_cyclictest.py ROUND CPULIST CYCLICTEST_OUT TIMER_EXPDIR RATIOS
       bench_cyclictest.py summary RATIOS

CYCLICTEST_OUT is `cyclictest -N -v` output ("thread:cycle:ns" lines);
thread i ran on the i-th CPU of CPULIST (cyclictest -a LIST pins in
round-robin order). TIMER_EXPDIR is the per-CPU experiment directory
(the result itself for one CPU): its cpuN/datapoints.csv (WakeLatency, us) and cpuN/info.yml
(timer_grid_missed). Prints, per CPU, one markdown row per tool and one
row of ratios timer/cyclictest, and appends one line per CPU to the file
RATIOS ("ROUND CPU median p99 p99.9 max": the ratios). `summary` prints,
per CPU, the median over the rounds of each ratio and its range."""
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
    for cpu in cpus:
        cv = cyc[cpu]
        tv = timer_values(sys.argv[4], cpu)
        if not cv or not tv:
            sys.exit("bench_cyclictest.py: round %s CPU %d: no values from %s"
                     % (rnd, cpu, "cyclictest" if not cv else "the timer"))
        cs, ts = summary(cv), summary(tv)
        print(row("#%s CPU %d cyclictest" % (rnd, cpu), len(cv), cs))
        print(row("#%s CPU %d timer grid (skipped %s)"
                  % (rnd, cpu, grid_missed(sys.argv[4], cpu)), len(tv), ts))
        ratios = [t / c if c else float("nan") for t, c in zip(ts, cs)]
        print("| #%s CPU %d timer/cyclictest | | %s |"
              % (rnd, cpu, " | ".join("%.2f" % r for r in ratios)))
        with open(sys.argv[5], "a") as f:
            f.write("%s %d %s\n" % (rnd, cpu, " ".join(
                "%.3f" % r for r in ratios[1:])))


def ratio_summary(path):
    per = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            per.setdefault(int(fields[1]), []).append(
                [float(v) for v in fields[2:]])
    print("| CPU | rounds | %s |" % " | ".join(
        "%s timer/cyclictest" % c for c in COLS[1:]))
    print("|---|---|%s" % ("---|" * (len(COLS) - 1)))
    for cpu in sorted(per):
        cols = list(zip(*per[cpu]))
        cells = ["%.2f (%.2f-%.2f)" % (pct(sorted(c), 50), min(c), max(c))
                 for c in cols]
        print("| %d | %d | %s |" % (cpu, len(per[cpu]), " | ".join(cells)))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "summary":
        ratio_summary(sys.argv[2])
        return
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    per_round()


main()
