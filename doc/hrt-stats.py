#!/usr/bin/python3
"""Per-ReqCState WakeLatency/IntrLatency percentiles of hrt CSV files.

Used for doc/hrt-measurements.md: hrt-stats.py FILE.csv [...]
"""
import sys

import pandas as pd

for path in sys.argv[1:]:
    d = pd.read_csv(path)
    print(f"== {path}: {len(d)} datapoints")
    for cs, g in d.groupby("ReqCState"):
        for col in [c for c in ("WakeLatency", "IntrLatency") if c in d]:
            q = g[col].quantile([0.5, 0.99, 0.999])
            print(f"  {cs:14s} {col:12s} n={len(g):6d} min={g[col].min():8.2f} "
                  f"med={q[0.5]:8.2f} p99={q[0.99]:8.2f} p99.9={q[0.999]:8.2f} "
                  f"max={g[col].max():9.2f} us")
    if "Disturbed" in d:
        print(f"  disturbed: {d.Disturbed.sum()} ({d.Disturbed.mean()*100:.1f}%), "
              f"SoftIRQCnt>0: {(d.SoftIRQCnt > 0).sum()}, NMICnt>0: {(d.NMICnt > 0).sum()}")
    if "TAI" in d:
        print(f"  TAI-TIntr (us): median {((d.TAI - d.TIntr) / 1000).median():.3f}")
