#!/usr/bin/python3
# Differential test of filter's verbatim rows (CSV in, CSV out): rows the
# reader vouches for are copied from the input line, the rest formatted.
# On random files mixing canonical and other fields (trailing and leading
# zeros, "+1.000", exponents, quotes, CRLF, blank lines, no final newline,
# empty cells, nan, columns that turn INT -> FLOAT or ENUM -> number late,
# names) the output must equal the formatter's alone (WULTFW_NO_VERBATIM),
# with -j 1 and -j 2. Usage: test_filter_verbatim.py WULTFW WORKDIR NFILES
import os
import random
import subprocess
import sys

# FLOAT texts whose printing differs from, or equals, the text.
FLOAT_ODD = ["1.50", "5", "5.0", ".5", "00.5", "+1.25", "1e3", "1.5E-2", "nan",
             "inf", "-inf", "0.00001", "0.00012", "0.0001", "0.0009",
             "123456789012.3456", "1234567890123456.5", "0.1234567891",
             "12345678901234.5", "-0.5", "-0.000", "0.000", "1.000000000",
             "99999999999999.9", "4.1797981021053525", "-12.5", "0.1"]
INT_ODD = ["012.345", "+1.000", "1.2345", "1.0e3", "-0.000", "1.00", "1",
           "-1.500", "0.000", "nan", "1.5e0"]
NAMES = ["C1", "C6", "POLL", "C1E", "x y"]
QUOTED_NAMES = ['"C1"', '"a,b"', '"q""uote"', '"two\nlines"', 'a"b']


def float_text(rng):
    if rng.random() < 0.08:
        return rng.choice(FLOAT_ODD)
    digits = rng.randint(0, 9)
    v = rng.uniform(-1, 1) * 10 ** rng.randint(-5, 13)
    return "%.*f" % (digits, v)


def int_text(rng, odd):
    if odd and rng.random() < 0.01:
        return rng.choice(INT_ODD)
    return "%.3f" % (rng.randint(-10**7, 10**9) / 1000)


def cell(rng, kind, row, p):
    if rng.random() < 0.03:
        return '""' if p["quotes"] and rng.random() < 0.3 else ""
    if kind == "int":
        return int_text(rng, p["odd_int"] and row > p["late"])
    if kind == "int0":
        return str(rng.randint(0, 5))
    if kind == "float":
        return float_text(rng)
    if kind == "late":	# empty, then numbers: ENUM -> INT or FLOAT
        return "" if row < p["late"] else int_text(rng, True)
    if kind == "quoted" and rng.random() < 0.05:
        return '"%s"' % int_text(rng, False)
    if p["quotes"] and rng.random() < 0.05:
        return rng.choice(QUOTED_NAMES)
    return rng.choice(NAMES)


def make_file(rng, path):
    kinds = ["int", "int", "float", "int0", "enum", "late", "float"]
    p = {"quotes": rng.random() < 0.4, "odd_int": rng.random() < 0.6,
         "late": rng.choice([10, 500, 1500, 3000]),
         "crlf": rng.random() < 0.3, "nofinal": rng.random() < 0.3}
    if p["quotes"]:
        kinds.append("quoted")
    rows = rng.randint(1, 4000)
    ncol = len(kinds)
    lines = [",".join("c%d" % i for i in range(ncol))]
    for row in range(rows):
        cells = [cell(rng, kinds[c], row, p) for c in range(ncol)]
        if kinds[-1] == "quoted":	# numbers quoted: keep the column numeric
            cells[-1] = '"%s"' % int_text(rng, False)
        lines.append(",".join(cells))
        if rng.random() < 0.01:
            lines.append("")	# a blank line
    out = ""
    for ln in lines:
        out += ln + ("\r\n" if p["crlf"] and rng.random() < 0.5 else "\n")
    if p["nofinal"]:
        out = out.rstrip("\r\n")
    with open(path, "w", newline="") as f:
        f.write(out)


def filt(wultfw, src, dst, jobs, verbatim):
    env = dict(os.environ)
    if not verbatim:
        env["WULTFW_NO_VERBATIM"] = "1"
    r = subprocess.run([wultfw, "filter", "-f", "-j", str(jobs), src, "-o", dst],
                       env=env, capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr
    with open(os.path.join(dst, "datapoints.csv"), "rb") as f:
        return f.read(), r.stderr


def conv(wultfw, src, dst, jobs, verbatim):
    """convert CSV to CSV (one reader), as filt() does filter."""
    env = dict(os.environ)
    if not verbatim:
        env["WULTFW_NO_VERBATIM"] = "1"
    out = dst + ".csv"
    r = subprocess.run([wultfw, "convert", "--force", "-j", str(jobs), src, "-o", out],
                       env=env, capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr.replace(out, "OUT")
    with open(out, "rb") as f:
        return f.read(), r.stderr.replace(out, "OUT")


def check(wultfw, work, i, path):
    fails = 0
    for tool, run in (("filter", filt), ("convert", conv)):
        for jobs in (1, 2):
            new, err1 = run(wultfw, path, os.path.join(work, "new"), jobs, True)
            ref, err2 = run(wultfw, path, os.path.join(work, "ref"), jobs, False)
            if new != ref or (new is None) != (ref is None) or \
               (new is None and err1 != err2):
                print("FAIL: file %d %s -j %d: verbatim output differs (kept %s)" %
                      (i, tool, jobs, path))
                fails += 1
    return fails


def main():
    wultfw, work, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(14)
    fails = 0
    for i in range(n):
        path = os.path.join(work, "in%d.csv" % i)
        make_file(rng, path)
        f = check(wultfw, work, i, path)
        if not f:
            os.unlink(path)
        fails += f
    # A file of canonical rows comes out as it went in.
    path = os.path.join(work, "canon.csv")
    with open(path, "w") as f:
        f.write("a,b,c,d\n")
        for k in range(3000):
            f.write("%.3f,%d,C%d,%s\n" % (k / 7, k % 3, k % 4,
                                          ("%.3f" % (k / 9 + 0.001)).rstrip("0")))
    with open(path, "rb") as f:
        want = f.read()
    for jobs in (1, 2):
        for tool, run in (("filter", filt), ("convert", conv)):
            got, _ = run(wultfw, path, os.path.join(work, "canon-out"), jobs, True)
            if got != want:
                print("FAIL: canonical rows changed by %s -j %d" % (tool, jobs))
                fails += 1
    print("%s: %d random files, filter and convert, -j 1 and -j 2" % ("FAIL" if fails else "ok", n))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
