#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What kill -9 costs a real run: the default timer run (raw timestamps on,
csv and binary sinks at their default flushing) is killed at random times
between 1 and 6 s in; the datapoints lost are those after the last one in
the file, measured as the time from its TAI (CLOCK_MONOTONIC) to the kill.

usage: bench_kill9.py WULTFW [TRIALS]   (README, "When a run is killed")
"""
import csv
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CFG = '''name = "k9";
source = { plugin = "timer"; cpu = 1; raw = true; };
limits = { time = "5m"; };
sinks = ( { plugin = "csv"; }, { plugin = "binary"; } );
'''


def binary_rows(wultfw, wfb):
    out = subprocess.run([wultfw, 'calc', '--metrics', 'LDist', wfb],
                         capture_output=True, text=True, timeout=60).stdout
    for line in out.splitlines():
        if line.startswith('LDist'):
            return int(line.split()[2])
    return 0


def trial(wultfw, work, i, rng):
    out = os.path.join(work, 'r%d' % i)
    run = subprocess.Popen([wultfw, '-q', '-c', os.path.join(work, 'k9.cfg'),
                            '-o', out], stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(1.0, 6.0))
    killed = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    run.send_signal(signal.SIGKILL)
    run.wait()
    with open(os.path.join(out, 'k9', 'datapoints.csv')) as f:
        tai = [int(r['TAI']) for r in csv.DictReader(f)]
    if len(tai) < 2:
        return None
    rate = (len(tai) - 1) / ((tai[-1] - tai[0]) / 1e9)
    gap = (killed - tai[-1]) / 1e9
    nbin = binary_rows(wultfw, os.path.join(out, 'k9', 'datapoints.wfb'))
    print('kill %2d: csv %5d rows, binary %5d, last datapoint %4.0f ms before the kill (%.0f/s: ~%d lost)'
          % (i, len(tai), nbin, gap * 1e3, rate, gap * rate), flush=True)
    return gap, gap * rate, abs(nbin - len(tai))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    wultfw, trials = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12
    rng = random.Random(29)
    work = tempfile.mkdtemp(prefix='wfw-bench-kill9-', dir=os.environ.get('TMPDIR', '/tmp'))
    try:
        with open(os.path.join(work, 'k9.cfg'), 'w') as f:
            f.write(CFG)
        got = [t for t in (trial(wultfw, work, i, rng) for i in range(trials)) if t]
    finally:
        shutil.rmtree(work)
    if not got:
        sys.exit('no trial wrote two datapoints before its kill')
    print('%d kills: at most the last %.0f ms lost (~%d datapoints); csv and binary differ by at most %d rows'
          % (len(got), max(g[0] for g in got) * 1e3, max(g[1] for g in got), max(g[2] for g in got)))


main()
