#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
"""gen-tar-stream.py N: writes to standard output a POSIX ustar stream of N
small config files (the bytes gen-small-tree.py writes: about 60-700 bytes
each, all different) in N/1000 directories, each directory entry followed by
its files.  Every byte is a function of N: mtimes are fixed (2020-01-01),
owner root:root, modes 0755/0644.  So a builder can take millions of files
without a tree on disk (issue 33).  At the end it prints to standard error
how many entries and bytes it wrote and its rate (seconds include waiting
on the reader; run it into /dev/null for its own speed).

Headers are written by hand: the fields that do not change are laid out
once, and the checksum is their sum plus that of the name and size."""
import sys
import time

STAMP = 1577836800


def _small_tree():
    # gen-small-tree.py's content(): the same bytes as its trees
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-small-tree.py")
    spec = importlib.util.spec_from_file_location("gen_small_tree", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


content = _small_tree().content


def octal(value, width):
    # width-1 octal digits and a NUL, as ustar wants
    return b"%0*o\0" % (width - 1, value)


class Header:
    """A ustar header for one type (file or directory) with name and size
    left blank; fill() returns the 512 bytes for a name and size."""

    def __init__(self, typeflag, mode):
        h = bytearray(512)
        h[100:108] = octal(mode, 8)
        h[108:116] = octal(0, 8)
        h[116:124] = octal(0, 8)
        h[136:148] = octal(STAMP, 12)
        h[148:156] = b" " * 8          # the checksum counts itself as spaces
        h[156:157] = typeflag
        h[257:265] = b"ustar\x0000"
        h[265:269] = b"root"
        h[297:301] = b"root"
        h[329:337] = octal(0, 8)
        h[337:345] = octal(0, 8)
        self.base = sum(h)
        self.head = bytes(h[:100])
        self.mid = bytes(h[136:148])
        self.tail = bytes(h[156:512])
        self.mode = bytes(h[100:124])

    def fill(self, name, size):
        sz = octal(size, 12)
        chk = self.base + sum(name) + sum(sz)
        return b"".join((name, bytes(100 - len(name)), self.mode, sz, self.mid,
                         b"%06o\0 " % chk, self.tail))


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: gen-tar-stream.py N  (writes a tar of N files to stdout)")
    n = int(sys.argv[1])
    ndirs = max(1, n // 1000)
    dfmt = "d%03d" if ndirs <= 1000 else "d%05d"
    fhdr, dhdr = Header(b"0", 0o644), Header(b"5", 0o755)
    out = sys.stdout.buffer
    t0, total, chunk = time.monotonic(), 0, []
    for d in range(ndirs):
        dname = (dfmt % d).encode()
        chunk.append(dhdr.fill(dname + b"/", 0))
        for i in range(d, n, ndirs):
            data = content(i)
            chunk.append(fhdr.fill(b"%s/f%07d.conf" % (dname, i), len(data)))
            chunk.append(data)
            chunk.append(bytes(-len(data) % 512))
            if len(chunk) > 3000:
                blob = b"".join(chunk)
                out.write(blob)
                total += len(blob)
                chunk = []
    chunk.append(bytes(1024))          # two zero blocks end the archive
    blob = b"".join(chunk)
    out.write(blob)
    out.flush()
    total += len(blob)
    dt = time.monotonic() - t0
    print("gen-tar-stream: %d entries (%d files, %d dirs), %d bytes in %.2f s: "
          "%.0f entries/s, %.1f MB/s" % (n + ndirs, n, ndirs, total, dt,
                                         (n + ndirs) / dt if dt else 0,
                                         total / dt / 1e6 if dt else 0),
          file=sys.stderr)


main()
