#!/usr/bin/python3
# The Python side of bench_compare.sh: count, min, median, p99, p99.9 and
# max of one column, of all rows and per C-state, with pandas, DuckDB or
# Polars, whichever is named. Percentiles interpolate linearly between
# ranks, as wultfw calc's do. Prints "group count min median p99 p99.9 max".
# Usage: bench_compare.py pandas|duckdb|polars FILE.csv [COLUMN [GROUPCOL]]
import sys

Q = [0.5, 0.99, 0.999]


def line(name, count, lo, qs, hi):
    print(name, count, " ".join("%.6g" % v for v in [lo] + list(qs) + [hi]))


def with_pandas(path, col, grp):
    import pandas as pd

    df = pd.read_csv(path, usecols=[col, grp])
    s = df[col]
    line("all", s.count(), s.min(), s.quantile(Q), s.max())
    for name, g in df.groupby(grp)[col]:
        line(name, g.count(), g.min(), g.quantile(Q), g.max())


def with_duckdb(path, col, grp):
    import duckdb

    stats = ("count(\"{c}\"), min(\"{c}\"), quantile_cont(\"{c}\", 0.5), "
             "quantile_cont(\"{c}\", 0.99), quantile_cont(\"{c}\", 0.999), "
             "max(\"{c}\")").format(c=col)
    con = duckdb.connect()
    con.execute("create view t as select * from read_csv_auto(?)", [path])
    row = con.execute("select " + stats + " from t").fetchone()
    line("all", row[0], row[1], row[2:5], row[5])
    q = "select \"{g}\", {s} from t group by 1 order by 1".format(g=grp, s=stats)
    for row in con.execute(q).fetchall():
        line(row[0], row[1], row[2], row[3:6], row[6])


def with_polars(path, col, grp):
    import polars as pl

    c = pl.col(col)
    aggs = [c.count().alias("n"), c.min().alias("lo")] + \
        [c.quantile(q, "linear").alias("q%d" % i) for i, q in enumerate(Q)] + \
        [c.max().alias("hi")]
    lf = pl.scan_csv(path).select([col, grp])
    df = lf.select(aggs).collect()
    r = df.row(0)
    line("all", r[0], r[1], r[2:5], r[5])
    for r in lf.group_by(grp).agg(aggs).sort(grp).collect().iter_rows():
        line(r[0], r[1], r[2], r[3:6], r[6])


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: bench_compare.py pandas|duckdb|polars FILE.csv [COLUMN [GROUPCOL]]")
    tool, path = sys.argv[1], sys.argv[2]
    col = sys.argv[3] if len(sys.argv) > 3 else "WakeLatency"
    grp = sys.argv[4] if len(sys.argv) > 4 else "ReqCState"
    run = {"pandas": with_pandas, "duckdb": with_duckdb, "polars": with_polars}.get(tool)
    if not run:
        sys.exit("bench_compare.py: unknown tool '%s': pandas, duckdb or polars" % tool)
    run(path, col, grp)


main()
