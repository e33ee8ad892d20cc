#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a result of an attributed run (test_attrib.sh):

  test_attrib_check.py identity DIR LATCOL
      every row with a breakdown: the five times add up to LATCOL exactly
      (in ns); prints "rows N empty E bad B exit_share_median S"
  test_attrib_check.py spin DIR SPINS
      rows whose interval overlaps wfw-spin's spins (SPINS: "START END" ns
      per line) by more than 20 us and more than half its latency: prints "rows N named M within W", where
      named: Cause thread with CausePID wfw-spin's; within: of those, its
      CauseTime at most the overlap + 10% or 5 us, and at least the overlap
      less the handlers' time and ExitTime (the measured timer's own
      interrupt landing in the spin), less 10% or 5 us
  test_attrib_check.py causes DIR
      prints each Cause and how many rows it dominates
"""
import csv
import statistics
import sys

TIMES = ['IRQTime', 'SoftIRQTime', 'NMITime', 'ThreadTime', 'ExitTime']


def ns(cell):
    return round(float(cell) * 1000)


def rows(d):
    with open(d + '/datapoints.csv', newline='') as f:
        return list(csv.DictReader(f))


def threads(d):
    with open(d + '/attrib-threads.csv', newline='') as f:
        return {r['PID']: r['Comm'] for r in csv.DictReader(f)}


def identity(d, lat):
    n = empty = bad = 0
    shares = []
    for r in rows(d):
        n += 1
        if r['ExitTime'] == '':
            empty += 1
            continue
        parts = [ns(r[c]) for c in TIMES]
        total = ns(r[lat])
        if sum(parts) != total:
            bad += 1
            if bad == 1:
                print('first bad row:', {c: r[c] for c in TIMES + [lat]}, file=sys.stderr)
        if total > 0:
            shares.append(parts[4] / total)
    med = statistics.median(shares) if shares else 0
    print('rows %d empty %d bad %d exit_share_median %.3f' % (n, empty, bad, med))


def spin(d, spins_file):
    spins = [tuple(map(int, l.split())) for l in open(spins_file) if l.strip()]
    names = threads(d)
    n = named = within = 0
    for r in rows(d):
        if r['ExitTime'] == '' or r['LTime'] == '':
            continue
        s = int(r['LTime'])
        e = s + ns(r['WakeLatency'])
        overlap = sum(max(0, min(e, b) - max(s, a)) for a, b in spins)
        # Where the spin is most of the interval, it must be the cause.
        if overlap <= 20000 or overlap <= (e - s) // 2:
            continue
        n += 1
        if r['Cause'] != 'thread' or names.get(r['CausePID']) != 'wfw-spin':
            continue
        named += 1
        # Never more than it spun by its own clock; less only by what the
        # handlers inside took and by the measured timer's own interrupt
        # landing in the spin (ExitTime by definition; 5-40 us on a VM).
        tol = max(0.1 * overlap, 5000)
        handlers = sum(ns(r[c]) for c in ('IRQTime', 'SoftIRQTime', 'NMITime'))
        low = overlap - handlers - ns(r['ExitTime']) - tol
        if low <= ns(r['CauseTime']) <= overlap + tol:
            within += 1
    print('rows %d named %d within %d' % (n, named, within))


def causes(d):
    count = {}
    for r in rows(d):
        count[r['Cause']] = count.get(r['Cause'], 0) + 1
    for c, k in sorted(count.items(), key=lambda x: -x[1]):
        print('%s %d' % (c or '(empty)', k))


cmd = sys.argv[1]
if cmd == 'identity':
    identity(sys.argv[2], sys.argv[3])
elif cmd == 'spin':
    spin(sys.argv[2], sys.argv[3])
elif cmd == 'causes':
    causes(sys.argv[2])
else:
    sys.exit(__doc__)
