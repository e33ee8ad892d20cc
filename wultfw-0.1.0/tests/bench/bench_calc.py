#!/usr/bin/python3
# The pandas side of bench_calc.sh: what `wultfw calc` computes, for every
# numeric column: count, min, mean, std, percentiles, max.
import sys
import pandas as pd

df = pd.read_csv(sys.argv[1])
q = [0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999]
for col in df.select_dtypes("number").columns:
    s = df[col]
    vals = [s.count(), s.min(), s.mean(), s.std()] + list(s.quantile(q)) + [s.max()]
    print(col, " ".join("%.6g" % v for v in vals))
