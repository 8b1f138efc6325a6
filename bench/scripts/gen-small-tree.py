#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""gen-small-tree.py N DIR: N small config files (about 60-700 bytes each, all
different, text) spread evenly over N/1000 directories d000..d999, every
byte and name a function of N and the file's number, so the tree is the same
on every run and machine.  Writes DIR.complete (beside it) last: a tree without it is
half made and is made again.  mtimes are fixed (2020-01-01) so that images
built from two generations compare equal."""
import os
import sys

KEYS = ("name", "port", "user", "group", "path", "timeout", "retries", "level",
        "mode", "host", "enable", "limit")


def content(i):
    # A deterministic pseudo-random walk (LCG), so no two files are equal
    # and sizes spread between roughly 60 and 700 bytes.
    x = (i * 2654435761 + 12345) & 0xFFFFFFFF
    lines = ["# generated config %d\n" % i, "[section%d]\n" % (i % 97)]
    for _ in range(2 + x % 24):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        lines.append("%s = %d\n" % (KEYS[x % len(KEYS)], (x >> 8) % 100000))
    return "".join(lines).encode()


def main():
    n, top = int(sys.argv[1]), sys.argv[2]
    if os.path.exists(top.rstrip("/") + ".complete"):
        return
    ndirs = max(1, n // 1000)
    stamp = 1577836800
    for d in range(ndirs):
        sub = os.path.join(top, "d%03d" % d if ndirs <= 1000 else "d%05d" % d)
        os.makedirs(sub, exist_ok=True)
        for i in range(d, n, ndirs):
            p = os.path.join(sub, "f%07d.conf" % i)
            with open(p, "wb") as f:
                f.write(content(i))
            os.utime(p, (stamp, stamp))
        os.utime(sub, (stamp, stamp))
    os.utime(top, (stamp, stamp))
    open(top.rstrip("/") + ".complete", "w").close()


if __name__ == "__main__":
    main()
