#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the `lspci -xxx` fixtures of tests/unit/test_pcidisc.c.

The config spaces are built by hand from the PCI/PCIe config-space layout
(type 0 and type 1 headers, capability list, PCIe capability with Link
Control at +0x10), not recorded from a machine: these hosts have no I210.
Run from tests/data/ to regenerate; the outputs are committed.
"""

def le16(b, off, v):
    b[off] = v & 0xff
    b[off + 1] = v >> 8

def le32(b, off, v):
    for i in range(4):
        b[off + i] = (v >> (8 * i)) & 0xff

def header(vendor, device, cls, rev, htype, caps=None):
    b = bytearray(256)
    le16(b, 0x00, vendor)
    le16(b, 0x02, device)
    le16(b, 0x04, 0x0406)               # command: memory, bus master, INTx off
    le16(b, 0x06, 0x0010 if caps else 0)  # status: capability list
    b[0x08] = rev
    b[0x09], b[0x0a], b[0x0b] = cls & 0xff, (cls >> 8) & 0xff, cls >> 16
    b[0x0e] = htype
    if caps:
        b[0x34] = caps[0][0]
        for i, (off, cid, body) in enumerate(caps):
            b[off] = cid
            b[off + 1] = caps[i + 1][0] if i + 1 < len(caps) else 0
            for j, v in enumerate(body):
                b[off + 2 + j] = v
    return b

def pcie_cap(ptype, lnkctl):
    """Body of a PCIe capability (after ID/next): caps, devcap, devctl,
    devsta, lnkcap, lnkctl, lnksta."""
    body = bytearray(0x3c - 2)
    le16(body, 0x00, 0x0002 | (ptype << 4))        # version 2, port type
    le32(body, 0x02, 0x00008fc0)                   # devcap
    le16(body, 0x06, 0x2810)                       # devctl
    le32(body, 0x0a, 0x00477c12 | (1 << 10) | (3 << 10))  # lnkcap: x1, ASPM L0s L1
    le16(body, 0x0e, lnkctl)                       # lnkctl at cap+0x10
    le16(body, 0x10, 0x1011)                       # lnksta: 2.5GT/s x1
    return body

def root_port(device, secbus, aspm):
    b = header(0x8086, device, 0x060400, 0xf0, 0x81,
               [(0x40, 0x10, pcie_cap(4, 0x0040 | aspm))])
    b[0x18], b[0x19], b[0x1a] = 0, secbus, secbus
    return b

def i210(device, aspm, rev=3):
    b = header(0x8086, device, 0x020000, rev, 0x00, [
        (0x40, 0x01, [0x23, 0xc8, 0x08, 0x20]),           # power management
        (0x50, 0x05, [0x80, 0x01]),                       # MSI, 64-bit
        (0x70, 0x11, [0x04, 0x00, 0x03, 0x00, 0x00, 0x00]),  # MSI-X, 5 vectors
        (0xa0, 0x10, pcie_cap(0, 0x0040 | aspm)),         # endpoint
    ])
    le32(b, 0x10, 0xdf200000)   # BAR0, 32-bit memory
    le32(b, 0x2c, 0x00018086)   # subsystem
    b[0x3c], b[0x3d] = 0x0b, 0x01
    return b

def host_bridge():
    return header(0x8086, 0x3e30, 0x060000, 0x0d, 0x00)

def e1000e():
    b = header(0x8086, 0x15b8, 0x020000, 0x10, 0x00,
               [(0xc8, 0x01, [0x22, 0xc8, 0x00, 0x00]),
                (0xd0, 0x05, [0x80, 0x00])])
    le32(b, 0x10, 0xdf300000)
    return b

def dump(devs, short=()):
    out = []
    for addr, title, cfg in devs:
        out.append("%s %s" % (addr, title))
        n = 64 if addr in short else 256
        for off in range(0, n, 16):
            out.append("%02x: " % off + " ".join("%02x" % x for x in cfg[off:off + 16]))
        out.append("")
    return "\n".join(out)

HB = ("00:00.0", "Host bridge: Intel Corporation 8th Gen Core Processor Host Bridge/DRAM Registers (rev 0d)", host_bridge())
E1000E = ("00:1f.6", "Ethernet controller: Intel Corporation Ethernet Connection (2) I219-V (rev 10)", e1000e())
I210T = "Ethernet controller: Intel Corporation I210 Gigabit Network Connection (rev 03)"
I211T = "Ethernet controller: Intel Corporation I211 Gigabit Network Connection (rev 03)"
RP = "PCI bridge: Intel Corporation Cannon Lake PCH PCI Express Root Port #%d (rev f0)"

files = {
    "pci-no-i210.txt": dump([HB, E1000E]),
    "pci-i210-aspm-off.txt": dump([HB, ("00:1c.0", RP % 1, root_port(0xa338, 1, 0)),
                                   ("01:00.0", I210T, i210(0x1533, 0)), E1000E]),
    "pci-i210-aspm-l1.txt": dump([HB, ("00:1c.0", RP % 1, root_port(0xa338, 1, 2)),
                                  ("01:00.0", I210T, i210(0x1533, 2))]),
    # Second NIC's dump has only the first 64 bytes (lspci -x as non-root).
    "pci-two-nics.txt": dump([HB, ("00:1c.0", RP % 1, root_port(0xa338, 1, 3)),
                              ("00:1c.4", RP % 5, root_port(0xa33c, 2, 0)),
                              ("01:00.0", I210T, i210(0x157b, 3)),
                              ("02:00.0", I211T, i210(0x1539, 0))], short=("02:00.0",)),
}
broken = dump([HB, ("01:00.0", I210T, i210(0x1533, 0))]).split("\n")
broken[broken.index("01:00.0 " + I210T) + 3] = "20: 00 00 00 00 zz 00 00 00 00 00 00 00 86 80 01 00"
files["pci-broken.txt"] = "\n".join(broken)

for name, text in files.items():
    with open(name, "w") as f:
        f.write(text)
