#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the hand-made seeds of fuzz_binary (tests/fuzz/seed-binary/*.wfb):
small version 2 files, built from doc/binary-format.md alone, whose blocks
use every chunk encoding and width the format has, so the fuzzer starts
from inputs that reach every branch of the block decoder.
Usage: gen_binary_seeds.py OUTDIR"""
import struct
import sys
import zlib

INT, FLOAT, ENUM = 0, 1, 2
FOR, FOR_EMPTY, DEC = 0, 1, 2


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def str16(s):
    b = s.encode()
    return struct.pack("<H", len(b)) + b


def header(cols, meta, block_rows):
    body = b""
    for name, unit, typ, div, names in cols:
        body += struct.pack("<BBHHHII", typ, 0, len(name), len(unit), 0, div, len(names))
        body += name.encode() + unit.encode() + b"".join(str16(n) for n in names)
    for k, v in meta:
        body += str16(k) + str16(v)
    hlen = (40 + len(body) + 7) // 8 * 8
    fixed = b"\x89WFWB\r\n\x1a" + struct.pack("<IHHIIIIII", 0x01020304, 2, 0, hlen,
                                             len(cols), block_rows, len(meta), 0, 0)
    h = (fixed + body).ljust(hlen, b"\0")
    return h[:32] + struct.pack("<I", zlib.crc32(h)) + h[36:]


def chunk(enc, width, base, us, scale=0):
    cells = b"".join(u.to_bytes(8, "little")[:width] for u in us)
    return struct.pack("<BBBBQ", enc, width, scale, 0, base % 2**64) + cells


def block(rows, chunks):
    payload = b"".join(chunks)
    h = struct.pack("<III", rows, len(payload), crc32c(payload))
    return h + struct.pack("<I", crc32c(h)) + payload


COLS = [("WakeLatency", "us", INT, 1000, []), ("LDist", "us", FLOAT, 0, []),
        ("ReqCState", "", ENUM, 0, ["POLL", "C1", "C6"]), ("SMICnt", "", INT, 1, []),
        ("CC0%", "%", FLOAT, 0, [])]


def every_encoding():
    """Three blocks of 3, 1 and 4 rows: FOR of widths 0-8, FOR_EMPTY, DEC
    with scales 0, 3 and 9, raw doubles (NaN, -0.0, inf), enum -1."""
    nan, negz, inf = 0x7ff80000000e4b7e, 0x8000000000000000, 0x7ff0000000000000
    b0 = block(3, [chunk(FOR, 3, 4180, [0, 70, 0x10000]), chunk(DEC, 2, 1205, [0, 300, 65535], 3),
                   chunk(FOR, 1, -1, [0, 2, 3]), chunk(FOR_EMPTY, 1, 0, [0, 1, 200]),
                   chunk(FOR, 8, 0, [nan, negz, inf])])
    b1 = block(1, [chunk(FOR, 0, 150000, [0]), chunk(DEC, 0, 7, [0], 0),
                   chunk(FOR, 0, 1, [0]), chunk(FOR_EMPTY, 0, 0, [0]),
                   chunk(DEC, 1, -5, [3], 9)])
    b2 = block(4, [chunk(FOR, 8, -2**63 + 1, [0, 1, 2**63, 2**64 - 2]),
                   chunk(FOR, 5, 0, [1, 2, 3, 2**40 - 1]), chunk(FOR, 2, -1, [0, 0, 1, 3]),
                   chunk(FOR_EMPTY, 7, -10, [0, 1, 2**56 - 1, 5]),
                   chunk(FOR, 4, 0x3ff0000000000000, [0, 1, 2**32 - 1, 7])])
    meta = [("cpu", "3"), ("experiment", "fuzz"), ("resolution_ns", "1")]
    return header(COLS, meta, 4) + b0 + b1 + b2


def cut_and_damaged():
    """A good block, one with a bad payload checksum, a good one, and a
    block cut short by the end of the file."""
    cols = COLS[:1]
    good = block(2, [chunk(FOR, 1, 1000, [0, 9])])
    bad = bytearray(block(2, [chunk(FOR, 1, 2000, [1, 2])]))
    bad[-1] ^= 0x40
    return header(cols, [], 64) + good + bytes(bad) + good + good[:-3]


def main():
    out = sys.argv[1]
    open(f"{out}/every-encoding.wfb", "wb").write(every_encoding())
    open(f"{out}/cut-and-damaged.wfb", "wb").write(cut_and_damaged())


main()
