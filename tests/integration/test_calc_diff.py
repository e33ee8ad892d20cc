#!/usr/bin/python3
"""Differential test of `wultfw calc` (issue 14): random CSV files (random
columns, rows, quoting, line endings, empty and NaN cells, columns whose
decimals change after the rows the one-pass reader learns from) against an
independent computation here, on one thread, on two, and on the binary twin
made by `wultfw convert`. Usage: test_calc_diff.py WULTFW WORKDIR [FILES]"""
import json
import math
import os
import random
import subprocess
import sys

STATES = ["POLL", "C1", "C1E", "C6", "C10"]
PCTS = [0, 1, 25, 50, 90, 99, 99.9, 100]


def make_column(rnd):
    """A numeric column: its kind and a function making one cell's text."""
    kind = rnd.choice(["int", "dec3", "float", "mixed", "late"])
    dec = rnd.randint(0, 6)

    def cell(i):
        if kind == "int":
            return str(rnd.randint(-10**6, 10**6))
        if kind == "dec3":
            return "%.3f" % rnd.uniform(-5000, 5000)
        if kind == "float":
            return repr(rnd.uniform(-1e3, 1e6) * rnd.choice([1, 1e-7, 1e12]))
        if kind == "mixed":
            return "%.*f" % (rnd.randint(0, 9), rnd.uniform(0, 100))
        # "late": canonical decimals, different ones after row 1200
        return "%.*f" % (dec if i < 1200 else dec + 2, rnd.uniform(0, 10))
    return cell


def make_file(rnd, path):
    ncols = rnd.randint(1, 6)
    rows = rnd.choice([0, 1, 2, 5, 100, 999, 1001, 2500, 4000])
    names = ["M%d" % k for k in range(ncols)]
    cells = [make_column(rnd) for _ in range(ncols)]
    group = rnd.random() < 0.6
    empty_start = rnd.random() < 0.3
    quote = rnd.random() < 0.3
    eol = rnd.choice(["\n", "\r\n"])
    p_empty, p_nan = rnd.choice([0, 0.02, 0.2]), rnd.choice([0, 0.01])
    header = names + (["ReqCState"] if group else [])
    data = []
    for i in range(rows):
        row = []
        for c in range(ncols):
            x = rnd.random()
            row.append("" if x < p_empty else "nan" if x < p_empty + p_nan else cells[c](i))
        if group:	# C6 and C10 first appear after the learned rows
            early = [""] if empty_start and i < 1200 else STATES[:3] + [""]
            row.append(rnd.choice(early if i < 1500 else STATES + [""]))
        data.append(row)

    def field(t):
        return '"%s"' % t.replace('"', '""') if quote and rnd.random() < 0.5 else t
    text = eol.join(",".join(field(t) for t in r) for r in [header] + data)
    if rnd.random() < 0.8:
        text += eol
    with open(path, "w", newline="") as f:
        f.write(text)
    return names, data, group


def pct(v, p):
    """Linear interpolation between ranks, as numpy and pandas do."""
    if p <= 0:
        return v[0]
    if p >= 100:
        return v[-1]
    h = (len(v) - 1) * (p / 100.0)
    k = int(h)
    if k >= len(v) - 1:
        return v[-1]
    return v[k] + (h - k) * (v[k + 1] - v[k])


def reference(values):
    v = sorted(values)
    n = len(v)
    if not n:
        return {"count": 0}
    mean = math.fsum(v) / n
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
    return {"count": n, "min": v[0], "max": v[-1], "mean": mean, "stddev": std,
            "pct": [pct(v, p) for p in PCTS]}


def close(a, b):
    if a is None or b is None:
        return a is b
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-12


def compare(got, want, what):
    errs = []
    if got["count"] != want["count"]:
        return ["%s: count %s, want %s" % (what, got["count"], want["count"])]
    if not want["count"]:
        return errs
    for k in ("min", "max"):	# exact
        if got[k] != want[k]:
            errs.append("%s: %s %r, want %r" % (what, k, got[k], want[k]))
    for k in ("mean", "stddev"):
        if not close(got[k], want[k]):
            errs.append("%s: %s %r, want %r" % (what, k, got[k], want[k]))
    gp = list(got["percentiles"].values())
    for p, g, w in zip(PCTS, gp, want["pct"]):
        if not close(g, w):
            errs.append("%s: p%s %r, want %r" % (what, p, g, w))
    return errs


def calc(wultfw, path, extra):
    f = "-f" + ",".join(["count", "min", "max", "mean", "std"] + ["p%g" % p for p in PCTS])
    cmd = [wultfw, "calc", "-F", "json", "-e", "100000", f] + extra + [path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("%s: %s" % (" ".join(cmd), r.stderr.strip()))
    return json.loads(r.stdout)["results"][0]["stats"]


def check_file(wultfw, work, rnd, k):
    path = os.path.join(work, "diff%d.csv" % k)
    names, data, group = make_file(rnd, path)
    errs = []
    runs = [("-j1", path, ["-j", "1"]), ("-j2", path, ["-j", "2"])]
    wfb = path[:-4] + ".wfb"
    r = subprocess.run([wultfw, "convert", path, "-o", wfb], capture_output=True, text=True)
    if r.returncode:
        return ["convert %s: %s" % (path, r.stderr.strip())]
    runs.append(("binary", wfb, []))
    for label, p, extra in runs:
        if group:
            extra = extra + ["-c"]
        stats = calc(wultfw, p, extra)
        for c, name in enumerate(names):
            vals = [float(r[c]) for r in data if r[c] not in ("", "nan")]
            if not vals and name not in stats["metrics"]:
                continue	# a column with no number is text to the reader
            m = stats["metrics"][name]
            errs += compare(m["all"], reference(vals), "%s %s %s all" % (p, label, name))
            for s in STATES if group else []:
                gv = [float(r[c]) for r in data if r[-1] == s and r[c] not in ("", "nan")]
                if gv:
                    errs += compare(m["ReqCState"][s], reference(gv),
                                    "%s %s %s %s" % (p, label, name, s))
    return errs


def main():
    wultfw, work = sys.argv[1], sys.argv[2]
    nfiles = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    seed = int(os.environ.get("WULTFW_DIFF_SEED", "14"))
    rnd = random.Random(seed)
    bad = 0
    for k in range(nfiles):
        errs = check_file(wultfw, work, rnd, k)
        for e in errs[:5]:
            print("FAIL: " + e)
        bad += bool(errs)
        if not errs:
            print("ok: random file %d agrees (seed %d)" % (k, seed))
    print("%d of %d random files disagree" % (bad, nfiles))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
