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
  test_attrib_check.py ipi DIR CALLS IRQ_BEFORE IRQ_AFTER CPU
      wfw-noise ipi's calls (CALLS: "START END CAL" per line, ns and the
      CAL IPIs CPU took during the call; each IPI lasts most of its call)
      against the rows and CPU's CAL count in the two copies of
      /proc/interrupts; prints "rows N named M within W whole H counted C
      cal_rows R outside O delta D calls K ipis I none E slow S": N, M, W
      as for spin, over our calls that were IPIs (named: Cause irq:CAL;
      within: CauseTime at most the overlap + 10% or 5 us, never more than
      the calls lasted), rows overlapping a call without an IPI or a slow
      one (over twice the median) left out; H: calls with an IPI wholly
      inside a row's interval, C: of those, counted in its IRQCnt; R: rows
      naming irq:CAL, O: of those, overlapping no call with an IPI; D: the
      CAL delta of CPU; K: the calls, I: the CAL IPIs during them, E: the
      calls without one, S: the slow ones with one
  test_attrib_check.py explain JSON DIR CAUSE
      calc --explain --json's first group against the rows: prints
      "tail T cause X rows Y", T the tail's datapoints, X what calc counts
      for CAUSE in it, Y the rows with a breakdown at or above its
      percentile value naming CAUSE
  test_attrib_check.py softirqs DIR
      hrt's SoftIRQCnt (softirqs from arming to the callback, its own
      HRTIMER left out) against SWIRQCnt on every row with a breakdown:
      prints "rows N equal Q attrib_more A hrt_more H"; SWIRQCnt counts in
      a part of hrt's window, so more there is a miscount
  test_attrib_check.py causes DIR
      prints each Cause and how many rows it dominates
"""
import csv
import json
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


def windows(path):
    return [tuple(map(int, l.split())) for l in open(path) if l.strip()]


def overlap(s, e, wins):
    return sum(max(0, min(e, w[1]) - max(s, w[0])) for w in wins)


def irq_count(path, label, cpu):
    """LABEL's count for CPU in a /proc/interrupts copy (by its header)."""
    with open(path) as f:
        cpus = f.readline().split()
        col = cpus.index('CPU%d' % cpu)
        for line in f:
            f = line.split()
            if f and f[0] == label + ':':
                return int(f[1 + col])
    raise SystemExit('%s: no %s row' % (path, label))


def ipi(d, calls_file, before, after, cpu):
    calls = windows(calls_file)
    ipis = [c for c in calls if c[2] > 0]
    # Rows overlapping a call taken without an IPI, or one that took over
    # twice the median (held up by more than its IPI: its CPU or the host
    # busy), are not judged.
    med = statistics.median(c[1] - c[0] for c in calls) if calls else 0
    odd = [c for c in calls if c[2] == 0 or c[1] - c[0] > 2 * med]
    n = named = within = whole = counted = cal = outside = 0
    for r in rows(d):
        if r['ExitTime'] == '' or r['LTime'] == '':
            continue
        s = int(r['LTime'])
        e = s + ns(r['WakeLatency'])
        ov = overlap(s, e, ipis)
        inside = sum(1 for c in ipis if s <= c[0] and c[1] <= e)
        if r['Cause'] == 'irq:CAL':
            cal += 1
            outside += ov == 0
        if inside:
            whole += inside
            counted += min(inside, int(r['IRQCnt']))
        if ov <= 20000 or ov <= (e - s) // 2 or overlap(s, e, odd):
            continue
        n += 1
        if r['Cause'] != 'irq:CAL':
            continue
        named += 1
        # The handler runs inside the call: it cannot take longer.
        if ns(r['CauseTime']) <= ov + max(0.1 * ov, 5000):
            within += 1
    delta = irq_count(after, 'CAL', cpu) - irq_count(before, 'CAL', cpu)
    print('rows %d named %d within %d whole %d counted %d cal_rows %d '
          'outside %d delta %d calls %d ipis %d none %d slow %d' % (
              n, named, within, whole, counted, cal, outside, delta,
              len(calls), sum(c[2] for c in calls), len(calls) - len(ipis),
              sum(1 for c in ipis if c[1] - c[0] > 2 * med)))


def explain(json_file, d, cause):
    g = json.load(open(json_file))['explain'][0]['groups'][0]
    said = sum(c['datapoints'] for cat in g['tail']['categories']
               for c in cat['causes'] if c['cause'] == cause)
    # calc's value is rounded to its unit's digits: compare in ns.
    pv = round(g['percentile_value'] * 1000)
    lat = json.load(open(json_file))['explain'][0]['latency']
    mine = sum(1 for r in rows(d) if r['ExitTime'] != '' and
               r['Cause'] == cause and ns(r[lat]) >= pv)
    print('tail %d cause %d rows %d' % (g['tail']['datapoints'], said, mine))


def softirqs(d):
    n = equal = more = less = 0
    for r in rows(d):
        if r['ExitTime'] == '' or r['SWIRQCnt'] == '':
            continue
        n += 1
        a, h = int(r['SWIRQCnt']), int(r['SoftIRQCnt'])
        equal += a == h
        more += a > h
        less += a < h
    print('rows %d equal %d attrib_more %d hrt_more %d' % (n, equal, more, less))


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
elif cmd == 'ipi':
    ipi(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]))
elif cmd == 'explain':
    explain(sys.argv[2], sys.argv[3], sys.argv[4])
elif cmd == 'softirqs':
    softirqs(sys.argv[2])
elif cmd == 'causes':
    causes(sys.argv[2])
else:
    sys.exit(__doc__)
